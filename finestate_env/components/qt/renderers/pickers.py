"""What the picker controls share (family C, specific data).

`value_field`: the picker's label, then the read-only field showing the chosen
value, above its popup shown open (color_picker, date_picker, time_picker,
list_box). `option_list` and `PickFromList`: a QListWidget, all rows visible,
whose current row's text is the state (time_picker, list_box).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QFrame, QLabel, QListWidget, QWidget

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control


def value_field(card: kit.Card, label: str) -> QLabel:
    """Add `label` and under it a read-only field showing the chosen value, as the
    popup's owner, to `card`; returns the field (empty: the control fills it)."""
    card.add(kit.TextLabel(label, card))
    field = kit.TextLabel("", card)
    field.setFrameShape(QFrame.StyledPanel)
    field.setMargin(4)
    card.add(field)
    return field


def option_list(parent: QWidget) -> QListWidget:
    view = QListWidget(parent)
    view.setSelectionMode(QAbstractItemView.SingleSelection)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
    view.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
    view.setFocusPolicy(Qt.NoFocus)
    view.setEditTriggers(QAbstractItemView.NoEditTriggers)
    view.setDragEnabled(False)
    return view


class PickFromList(Control):
    """A list (`self.view`) whose current row's text is the state, echoed in `self.field`."""

    def row_of(self, text: str) -> int:
        raise NotImplementedError

    def _show(self) -> None:
        self.field.setText(self.state())

    def state(self) -> Any:
        return self.view.currentItem().text()

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        viewport = self.view.viewport()
        row_box = lambda text: kit.box_of(  # noqa: E731
            viewport, self.view.visualItemRect(self.view.item(self.row_of(text))))
        return {"loc": kit.box_of(self.card), "core": kit.box_of(viewport),
                "goal": row_box(goal), "now": row_box(self.state())}
