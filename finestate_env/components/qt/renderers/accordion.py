"""accordion, as a native Qt control (family B, toggle / option).

accordion: headers are checkable QToolButtons over bodies that show and hide.
QToolBox always keeps one page open, so it cannot show the type's "none open"
state nor reach it; the accordion is therefore built from QToolButtons, and a
click on the open header closes it, as the type defines.
Web-only params (CSS sizes, styles, radii) are ignored where Qt's style decides.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSizePolicy, QToolButton, QVBoxLayout, QWidget

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control


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
                layout.addWidget(kit.muted(line, body))
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
        core = kit.union([kit.box_of(h) for h in self.headers])
        return {"loc": kit.box_of(self.card), "core": core, "goal": header, "now": now}


CONTROL = AccordionControl
