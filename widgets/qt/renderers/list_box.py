"""list_box, as a native Qt control (family C, specific data).

list_box: the field with its QListWidget of options open below, all rows visible.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize

from finestate_env.components.qt.renderers.pickers import PickFromList, option_list, value_field


class ListBoxControl(PickFromList):
    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        self.field = value_field(self.card, p["label"])
        self.view = option_list(self.card)
        for option in p["options"]:
            self.view.addItem(option)
            self.view.item(self.view.count() - 1).setSizeHint(QSize(0, p["row_height"]))
        frame = self.view.frameWidth()
        self.view.setFixedHeight(len(p["options"]) * p["row_height"] + 2 * frame)
        self.view.setCurrentRow(self.row_of(state))
        self.view.currentRowChanged.connect(self._show)
        self.card.add(self.view)
        self._show()

    def row_of(self, text: str) -> int:
        return self.params["options"].index(text)


CONTROL = ListBoxControl
