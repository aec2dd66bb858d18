"""time_picker, as a native Qt control (family C, specific data).

time_picker: the type's clock becomes a time list, a wrapping QListWidget of the
fixed hour's 60 minutes, all visible; a press on a minute selects it (the web
dial's radius and layout do not apply).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QListView

from finestate_env.components.qt.renderers.pickers import PickFromList, option_list, value_field


class TimePickerControl(PickFromList):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.field = value_field(self.card, p["label"])
        self.view = option_list(self.card)
        self.view.setViewMode(QListView.ListMode)
        self.view.setFlow(QListView.LeftToRight)
        self.view.setWrapping(True)
        self.view.setGridSize(QSize(56, 26))
        self.view.setUniformItemSizes(True)
        for minute in range(60):
            self.view.addItem(f"{p['hour']:02d}:{minute:02d}")
        self.view.setFixedSize(10 * 56 + 2 * self.view.frameWidth() + 2,
                               6 * 26 + 2 * self.view.frameWidth() + 2)
        self.view.setCurrentRow(self.row_of(state))
        self.view.currentRowChanged.connect(self._show)
        self.card.add(self.view)
        self._show()

    def row_of(self, text: str) -> int:
        return int(text[3:])  # "HH:MM": the list holds the hour's minutes in order


CONTROL = TimePickerControl
