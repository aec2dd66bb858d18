"""seek_bar, as a native Qt control (family A, numeric range).

seek_bar: a player card whose seek bar is a QSlider over the position grid;
as for the slider, the drag starts on the handle (a groove press pages).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QToolButton, QWidget

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control
from finestate_env.components.qt.renderers.ranges import grid_slider, slider_boxes


def _clock(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


class SeekBarControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.steps = p["duration"] // p["step"]
        self.card.add(kit.TextLabel(p["subtitle"], self.card))
        if p["poster"]:
            poster = kit.TextLabel(self.card)
            poster.setFixedSize(p["poster"] * 16 // 9, p["poster"])
            poster.setAutoFillBackground(True)
            poster.setBackgroundRole(QPalette.Dark)
            self.card.add(poster)
        row = QWidget(self.card)
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        self.play = QToolButton(row)
        self.play.setArrowType(Qt.RightArrow)
        self.play.setFocusPolicy(Qt.NoFocus)
        self.elapsed = kit.TextLabel(row)
        self.elapsed.setFixedWidth(48)
        self.slider = grid_slider(row, self.steps, state // p["step"], p["track"])
        total = kit.TextLabel(_clock(p["duration"]), row)
        for widget in (self.play, self.elapsed, self.slider, total):
            layout.addWidget(widget)
        layout.addStretch(1)
        self.slider.valueChanged.connect(self._show)
        self._show()
        self.card.add(row)

    def _show(self) -> None:
        self.elapsed.setText(_clock(self.state()))

    def state(self) -> Any:
        return self.slider.value() * self.params["step"]

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        return {"loc": kit.box_of(self.card),
                **slider_boxes(self.slider, self.steps, goal // self.params["step"])}


CONTROL = SeekBarControl
