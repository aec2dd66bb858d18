"""Family B, toggle / option, as native Qt controls.

switch: a checkable QAbstractButton drawn as a track and knob (Qt has no switch
widget); a click anywhere on it flips it. checkbox and radio_group: QCheckBox and
QRadioButton, whose clickable area is the style's click rect (indicator plus
label, SE_CheckBoxClickRect / SE_RadioButtonClickRect), so that rect is the goal
box. tabs: a QTabBar over a QStackedWidget; a press on a tab selects it.
segmented: checkable QToolButtons edge to edge in an exclusive QButtonGroup.
accordion: headers are checkable QToolButtons over bodies that show and hide.
QToolBox always keeps one page open, so it cannot show the type's "none open"
state nor reach it; the accordion is therefore built from QToolButtons, and a
click on the open header closes it, as the type defines.
Web-only params (CSS sizes, styles, radii) are ignored where Qt's style decides.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QButtonGroup,
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QRadioButton,
    QSizePolicy,
    QStackedWidget,
    QStyle,
    QStyleOptionButton,
    QTabBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from widgets.qt import kit
from widgets.qt.control import Control


def _muted(text: str, parent: QWidget) -> QLabel:
    label = QLabel(text, parent)
    label.setForegroundRole(QPalette.PlaceholderText)
    return label


def click_rect(button: QAbstractButton) -> QRect:
    """Where a press and release toggle a QCheckBox / QRadioButton (its hitButton)."""
    opt = QStyleOptionButton()
    button.initStyleOption(opt)
    element = (QStyle.SE_RadioButtonClickRect if isinstance(button, QRadioButton)
               else QStyle.SE_CheckBoxClickRect)
    return button.style().subElementRect(element, opt, button).intersected(button.rect())


def indicator_rect(button: QAbstractButton) -> QRect:
    opt = QStyleOptionButton()
    button.initStyleOption(opt)
    element = (QStyle.SE_RadioButtonIndicator if isinstance(button, QRadioButton)
               else QStyle.SE_CheckBoxIndicator)
    return button.style().subElementRect(element, opt, button)


class SwitchButton(QAbstractButton):
    """A track with a round knob; checkable, flipped by a click anywhere on it."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setCheckable(True)
        self.setFixedSize(44, 24)
        self.setFocusPolicy(Qt.NoFocus)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return QSize(44, 24)

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        pal = self.palette()
        on = self.isChecked()
        painter.setPen(Qt.NoPen)
        painter.setBrush(pal.color(QPalette.Highlight) if on else QColor("#9aa5b1"))
        painter.drawRoundedRect(self.rect().adjusted(0, 2, 0, -2), 10, 10)
        painter.setBrush(QColor("#ffffff"))
        x = self.width() - 22 if on else 2
        painter.drawEllipse(x, 2, 20, 20)
        painter.end()


class SwitchControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        self.rows, self.switches = [], []
        for i, label in enumerate(p["labels"]):
            row = QWidget(self.card)
            layout = QHBoxLayout(row)
            layout.setContentsMargins(0, 2, 0, 2)
            layout.addWidget(QLabel(label, row), 1)
            switch = SwitchButton(row)
            switch.setChecked(bool(state) if i == p["target"] else bool(p["on"][i]))
            layout.addWidget(switch)
            self.card.add(row)
            self.rows.append(row)
            self.switches.append(switch)

    def state(self) -> Any:
        return self.switches[self.params["target"]].isChecked()

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        t = self.params["target"]
        switch = kit.box_of(self.switches[t])
        return {"loc": kit.box_of(self.rows[t]), "core": switch, "goal": switch, "now": switch}


class CheckboxControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        if p.get("hint"):
            self.card.add(_muted(p["hint"], self.card))
        self.rows, self.boxes_ = [], []
        for i, label in enumerate(p["labels"]):
            row = QWidget(self.card)
            row.setFixedHeight(p["row"])
            layout = QHBoxLayout(row)
            layout.setContentsMargins(0, 0, 0, 0)
            box = QCheckBox(label, row)
            box.setChecked(label in state)
            layout.addWidget(box)
            layout.addStretch(1)
            if p.get("counts"):
                layout.addWidget(_muted(str(p["counts"][i]), row))
            self.card.add(row)
            self.rows.append(row)
            self.boxes_.append(box)

    def state(self) -> Any:
        return sorted(b.text() for b in self.boxes_ if b.isChecked())

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        t = self.params["target"]
        box = self.boxes_[t]
        clickable = kit.box_of(box, click_rect(box))
        return {"loc": kit.box_of(self.rows[t]), "core": clickable, "goal": clickable,
                "now": kit.box_of(box, indicator_rect(box))}


class RadioGroupControl(Control):
    title_key = "question"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        if p.get("hint"):
            self.card.add(_muted(p["hint"], self.card))
        self.group_widget = QWidget(self.card)
        horizontal = p["layout"] == "horizontal"
        layout = QHBoxLayout(self.group_widget) if horizontal else QVBoxLayout(
            self.group_widget)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.group = QButtonGroup(self.group_widget)
        self.buttons = []
        for i, option in enumerate(p["options"]):
            text = option + (f" - {p['details'][i]}" if p.get("details") else "")
            button = QRadioButton(text, self.group_widget)
            button.setFixedHeight(p["row"])
            button.setChecked(option == state)
            self.group.addButton(button, i)
            layout.addWidget(button)
            self.buttons.append(button)
        if horizontal:
            layout.addStretch(1)
        self.card.add(self.group_widget)

    def state(self) -> Any:
        checked = self.group.checkedId()
        return self.params["options"][checked] if checked >= 0 else None

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        options = self.params["options"]
        shown = self.state()
        goal_button = self.buttons[options.index(goal)]
        now_button = self.buttons[options.index(shown)]
        core = _union([kit.box_of(b, click_rect(b)) for b in self.buttons])
        return {"loc": kit.box_of(self.card), "core": core,
                "goal": kit.box_of(goal_button, click_rect(goal_button)),
                "now": kit.box_of(now_button, indicator_rect(now_button))}


def _union(boxes: list[kit.Box]) -> kit.Box:
    return [min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes)]


class TabsControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        self.bar = QTabBar(self.card)
        self.bar.setUsesScrollButtons(False)
        self.bar.setElideMode(Qt.ElideNone)
        self.bar.setExpanding(bool(p.get("fill")))
        self.bar.setDrawBase(True)
        self.bar.setFocusPolicy(Qt.NoFocus)
        self.pages = QStackedWidget(self.card)
        for label, content in zip(p["labels"], p["contents"], strict=True):
            self.bar.addTab(label)
            page = QWidget(self.pages)
            layout = QVBoxLayout(page)
            layout.setContentsMargins(4, 4, 4, 4)
            heading = QLabel(content["heading"], page)
            layout.addWidget(heading)
            for line in content["lines"]:
                layout.addWidget(_muted(line, page))
            layout.addStretch(1)
            self.pages.addWidget(page)
        self.bar.currentChanged.connect(self.pages.setCurrentIndex)
        self.bar.setCurrentIndex(p["labels"].index(state))
        self.pages.setCurrentIndex(p["labels"].index(state))
        self.pages.setFixedHeight(24 + 20 * p["lines"])
        self.card.add(self.bar)
        self.card.add(self.pages)

    def state(self) -> Any:
        return self.bar.tabText(self.bar.currentIndex())

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        labels = self.params["labels"]
        tab = kit.box_of(self.bar, self.bar.tabRect(labels.index(goal)))
        now = kit.box_of(self.bar, self.bar.tabRect(self.bar.currentIndex()))
        tabs = _union([kit.box_of(self.bar, self.bar.tabRect(i)) for i in range(len(labels))])
        return {"loc": kit.box_of(self.card), "core": tabs, "goal": tab, "now": now}


class SegmentedControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        self.rows, self.buttons, self.groups = [], [], []
        for g, spec in enumerate(p["groups"]):
            shown = state if g == p["target"] else p["selected"][g]
            self.card.add(QLabel(spec["label"], self.card))
            row = QWidget(self.card)
            layout = QHBoxLayout(row)
            layout.setContentsMargins(0, 0, 0, 0)
            layout.setSpacing(0)
            group = QButtonGroup(row)
            buttons = []
            for i, text in enumerate(spec["segments"]):
                button = QToolButton(row)
                button.setText(text)
                button.setCheckable(True)
                button.setFocusPolicy(Qt.NoFocus)
                button.setFixedSize(spec["segment"], p["height"])
                button.setChecked(text == shown)
                group.addButton(button, i)
                layout.addWidget(button)
                buttons.append(button)
            layout.addStretch(1)
            self.card.add(row)
            self.rows.append(row)
            self.buttons.append(buttons)
            self.groups.append(group)

    def state(self) -> Any:
        t = self.params["target"]
        checked = self.groups[t].checkedId()
        return self.params["groups"][t]["segments"][checked] if checked >= 0 else None

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        t = self.params["target"]
        segments = self.params["groups"][t]["segments"]
        buttons = self.buttons[t]
        core = _union([kit.box_of(b) for b in buttons])
        return {"loc": core, "core": core,
                "goal": kit.box_of(buttons[segments.index(goal)]),
                "now": kit.box_of(buttons[segments.index(self.state())])}


class AccordionControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        self.headers, self.bodies = [], []
        self.open_title = state
        for title, lines in zip(p["titles"], p["bodies"], strict=True):
            header = QToolButton(self.card)
            header.setText(title)
            header.setCheckable(True)
            header.setFocusPolicy(Qt.NoFocus)
            header.setToolButtonStyle(Qt.ToolButtonTextBesideIcon)
            header.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Fixed)
            header.setFixedHeight(p["header"])
            header.clicked.connect(lambda _=False, t=title: self._toggle(t))
            body = QWidget(self.card)
            layout = QVBoxLayout(body)
            layout.setContentsMargins(12, 4, 12, 4)
            for line in lines:
                layout.addWidget(_muted(line, body))
            self.card.add(header)
            self.card.add(body)
            self.headers.append(header)
            self.bodies.append(body)
        self.card.layout_.setSpacing(0 if p["style"] == "flush" else 6)
        self.card.layout_.addStretch(1)
        self._show()

    def _toggle(self, title: str) -> None:
        self.open_title = None if self.open_title == title else title
        self._show()

    def _show(self) -> None:
        for title, header, body in zip(self.params["titles"], self.headers, self.bodies,
                                       strict=True):
            is_open = title == self.open_title
            header.setChecked(is_open)
            header.setArrowType(Qt.DownArrow if is_open else Qt.RightArrow)
            body.setVisible(is_open)

    def state(self) -> Any:
        return self.open_title

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        titles = self.params["titles"]
        aim = goal if goal is not None else self.params["closing"]
        header = kit.box_of(self.headers[titles.index(aim)])
        shown = self.open_title if self.open_title is not None else aim
        now = kit.box_of(self.headers[titles.index(shown)])
        core = _union([kit.box_of(h) for h in self.headers])
        return {"loc": kit.box_of(self.card), "core": core, "goal": header, "now": now}


RENDERERS = {"switch": SwitchControl, "checkbox": CheckboxControl,
             "radio_group": RadioGroupControl, "tabs": TabsControl,
             "segmented": SegmentedControl, "accordion": AccordionControl}
