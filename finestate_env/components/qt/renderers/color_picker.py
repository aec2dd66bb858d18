"""color_picker, as a native Qt control (family C, specific data).

color_picker: the colour button with its swatch palette open below (a grid of
swatch buttons with gaps).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QFrame, QGridLayout, QWidget

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control
from finestate_env.components.qt.renderers.pickers import value_field


class Swatch(kit.SquareChoice):
    def __init__(self, parent: QWidget, colour: str, size: int) -> None:
        super().__init__(parent, size)
        self.colour = colour

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(self.colour))
        if self.isChecked():
            painter.setPen(QPen(self.palette().color(QPalette.WindowText), 2))
            painter.drawRect(self.rect().adjusted(1, 1, -1, -1))
        painter.end()


class ColorPickerControl(Control):
    def build(self, state: Any) -> None:
        p = self.params
        self.button = value_field(self.card, p["label"])
        self.palette_widget = QFrame(self.card)
        self.palette_widget.setFrameShape(QFrame.StyledPanel)
        grid = QGridLayout(self.palette_widget)
        grid.setContentsMargins(8, 8, 8, 8)
        grid.setSpacing(p["gap"])
        self.swatches = {}
        for i, (name, colour) in enumerate(p["swatches"]):
            swatch = Swatch(self.palette_widget, colour, p["swatch"])
            swatch.setToolTip(name)
            swatch.setChecked(colour == state)
            swatch.toggled.connect(self._show)
            grid.addWidget(swatch, i // p["columns"], i % p["columns"])
            self.swatches[colour] = swatch
        self.card.add(self.palette_widget)
        self._show()

    def _show(self) -> None:
        names = dict((c, n) for n, c in self.params["swatches"])
        state = self.state()
        self.button.setText(f"{names.get(state, '')}  {state}")

    def state(self) -> Any:
        return next((c for c, s in self.swatches.items() if s.isChecked()), None)

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        core = kit.box_of(self.palette_widget)
        return {"loc": kit.box_of(self.card), "core": core,
                "goal": kit.box_of(self.swatches[goal]),
                "now": kit.box_of(self.swatches[self.state()])}


CONTROL = ColorPickerControl
