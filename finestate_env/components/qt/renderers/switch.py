"""switch, as a native Qt control (family B, toggle / option).

switch: a checkable QAbstractButton drawn as a track and knob (Qt has no switch
widget); a click anywhere on it flips it.
Web-only params (CSS sizes, styles, radii) are ignored where Qt's style decides.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QAbstractButton, QHBoxLayout, QWidget

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control


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
            layout.addWidget(kit.TextLabel(label, row), 1)
            switch = SwitchButton(row)
            switch.setChecked(bool(state) if i == p["target"] else bool(p["on"][i]))
            layout.addWidget(switch)
            self.card.add(row)
            self.rows.append(row)
            self.switches.append(switch)

    def state(self) -> Any:
        return self.switches[self.params["target"]].isChecked()

    def snapshot(self) -> Any:
        return [switch.isChecked() for switch in self.switches]

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        t = self.params["target"]
        switch = kit.box_of(self.switches[t])
        return {"loc": kit.box_of(self.rows[t]), "core": switch, "goal": switch, "now": switch}


CONTROL = SwitchControl
