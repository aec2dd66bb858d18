"""list_box, as a native Qt control (family C, specific data).

list_box: the field with its QListWidget of options open below, all rows visible.
With `page` (a far goal, episodes of several gestures: widgets/list_box.py) the list
shows `page` rows at a time between two flat QToolButtons, "more above" and "more
below", each of which turns one page and leaves the selection alone.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QToolButton

from finestate_env.components.qt import kit
from finestate_env.components.qt.renderers.pickers import PickFromList, option_list, value_field


class ListBoxControl(PickFromList):
    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        self.field = value_field(self.card, p["label"])
        self.per_page = p.get("page")
        self.view = option_list(self.card)
        for option in p["options"]:
            self.view.addItem(option)
            self.view.item(self.view.count() - 1).setSizeHint(QSize(0, p["row_height"]))
        frame = self.view.frameWidth()
        shown_rows = self.per_page or len(p["options"])
        self.view.setFixedHeight(shown_rows * p["row_height"] + 2 * frame)
        self.view.setCurrentRow(self.row_of(state))
        self.view.currentRowChanged.connect(self._show)
        if self.per_page:
            self.pages = -(-len(p["options"]) // self.per_page)
            self.shown_page = self.row_of(state) // self.per_page
            self.up, self.down = self._arrow("\u25b2", -1), self._arrow("\u25bc", 1)
            self.card.add(self.up)
            self.card.add(self.view)
            self.card.add(self.down)
            self._show_page()
        else:
            self.card.add(self.view)
        self._show()

    def _arrow(self, glyph: str, delta: int) -> QToolButton:
        button = QToolButton(self.card)
        button.setText(glyph)
        button.setAutoRaise(True)
        button.setFocusPolicy(Qt.NoFocus)
        button.setFixedSize(self.params["width"] - 2 * 12, self.params["row_height"])
        button.clicked.connect(lambda: self._turn(delta))
        return button

    def _turn(self, delta: int) -> None:
        if 0 <= self.shown_page + delta < self.pages:
            self.shown_page += delta
            self._show_page()

    def _show_page(self) -> None:
        for row in range(self.view.count()):
            self.view.setRowHidden(row, row // self.per_page != self.shown_page)
        self.up.setEnabled(self.shown_page > 0)
        self.down.setEnabled(self.shown_page < self.pages - 1)

    def row_of(self, text: str) -> int:
        return self.params["options"].index(text)

    def _page_of(self, text: str) -> int:
        return self.row_of(text) // self.per_page

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        if not self.per_page:
            return super().boxes(goal)
        # A goal on another page: the arrow toward it, the next gesture of the route; the
        # selection, once its page is turned away, shows in the field only.
        viewport = self.view.viewport()

        def row_box(text: str) -> kit.Box:
            return kit.box_of(viewport, self.view.visualItemRect(self.view.item(
                self.row_of(text))))

        toward = self.down if self._page_of(goal) > self.shown_page else self.up
        state = self.state()
        return {"loc": kit.box_of(self.card), "core": kit.box_of(viewport),
                "goal": (row_box(goal) if self._page_of(goal) == self.shown_page
                         else kit.box_of(toward)),
                "now": (row_box(state) if self._page_of(state) == self.shown_page
                        else kit.box_of(self.field))}

    def reach(self, goal: Any) -> int | None:
        """A click per page to turn, then the option's."""
        if not self.per_page:
            return None
        if goal == self.state():
            return 0
        return abs(self._page_of(goal) - self.shown_page) + 1


CONTROL = ListBoxControl
