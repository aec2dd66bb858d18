"""drag_reorder, as a native Qt control (family D, view manipulation: a drag type).

Qt has the widget (QListWidget) but not the type's rule: its lists reorder
through QDrag. The control keeps the native widget and replaces only the
pointer handling with the type's own rule (widgets/drag_reorder.py, the same
rule as widgets/web/drag_reorder.js), so an instance means the same on the
desktop as on the web. Every state change still comes from real pointer input.

drag_reorder: a QListWidget whose own drag and drop is off. Qt's InternalMove
runs QDrag, whose drop slot is decided by QAbstractItemView's drop indicator
(above / below / on an item, by margins inside the row), not by the type's
rule, and which only starts after QApplication.startDragDistance; so the list
handles press / move / release itself: a press on a row grabs that item and
records the midpoints of the other rows, and on every move and on release the
item is moved (takeItem / insertItem) to the number of other rows whose
midpoint lies above the pointer. The state is the items' texts in list order.
The goal region is a band of the list across its width. Rows are the type's
row height; QListView's spacing pads every row on all sides, so rows stand
2 * (gap // 2) px apart (the web's gap, rounded down to even).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem, QWidget

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control


def _grip_icon(colour: QColor) -> QIcon:
    """Six dots in two columns: the row's drag grip."""
    pixmap = QPixmap(10, 16)
    pixmap.fill(Qt.transparent)
    painter = QPainter(pixmap)
    for col in (2, 6):
        for row in (3, 7, 11):
            painter.fillRect(QRect(col, row, 2, 2), colour)
    painter.end()
    return QIcon(pixmap)


class ReorderList(QListWidget):
    """A list whose rows are reordered by press, drag and release (module docstring)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.grabbed: QListWidgetItem | None = None
        self.midpoints: list[float] = []

    def midpoints_for(self, item: QListWidgetItem) -> list[float]:
        """Viewport y of the midpoints of the rows other than `item`, in list order: the
        layout a drag of `item` is judged against, recorded at the press."""
        mids = []
        for row in range(self.count()):
            other = self.item(row)
            if other is not item:
                rect = self.visualItemRect(other)
                mids.append(rect.top() + rect.height() / 2)
        return mids

    @staticmethod
    def drop_index(midpoints: list[float], y: float) -> int:
        """The one drop rule: the number of other rows whose midpoint is above y."""
        return sum(mid < y for mid in midpoints)

    def mousePressEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if event.button() != Qt.LeftButton:
            return
        self.grabbed = self.itemAt(event.position().toPoint())
        if self.grabbed is not None:
            self.midpoints = self.midpoints_for(self.grabbed)
            self.setCurrentItem(self.grabbed)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        self._follow(event)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        if event.button() == Qt.LeftButton and self.grabbed is not None:
            self._follow(event)
            self.grabbed = None
            self.setCurrentRow(-1)

    def mouseDoubleClickEvent(self, event) -> None:  # noqa: N802
        self.mousePressEvent(event)

    def _follow(self, event) -> None:
        if self.grabbed is None:
            return
        slot = self.drop_index(self.midpoints, event.position().y())
        row = self.row(self.grabbed)
        if slot != row:
            self.takeItem(row)
            self.insertItem(slot, self.grabbed)
            self.setCurrentItem(self.grabbed)


class DragReorderControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        self.list = ReorderList(self.card)
        self.list.setFocusPolicy(Qt.NoFocus)
        self.list.setSelectionMode(QAbstractItemView.SingleSelection)
        self.list.setDragDropMode(QAbstractItemView.NoDragDrop)
        self.list.setAutoScroll(False)
        self.list.setEditTriggers(QAbstractItemView.NoEditTriggers)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.list.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.list.setSpacing(p["gap"] // 2)
        self.list.setIconSize(QSize(10, 16))
        pal = self.card.palette()
        grip = _grip_icon(pal.color(QPalette.PlaceholderText))
        row = QBrush(pal.color(QPalette.Window))  # rows stand out from the list, as cards
        for label in state:
            item = QListWidgetItem(grip, label)
            item.setBackground(row)
            item.setSizeHint(QSize(0, p["row_height"]))
            self.list.addItem(item)
        # Every row shows: the list is exactly as tall as its rows and spacing.
        pitch = p["row_height"] + 2 * (p["gap"] // 2)
        self.list.setFixedHeight(len(state) * pitch + 2 * self.list.frameWidth())
        self.card.add(self.list)

    def state(self) -> Any:
        return [self.list.item(row).text() for row in range(self.list.count())]

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        item = next(self.list.item(r) for r in range(self.list.count())
                    if self.list.item(r).text() == self.params["item"])
        viewport = self.list.viewport()
        top = kit.global_point(viewport, 0, 0)[1]
        midpoints = [top + mid for mid in self.list.midpoints_for(item)]
        goal_index = goal.index(self.params["item"])
        core = kit.box_of(viewport)
        return {"loc": kit.box_of(self.card), "core": core,
                "now": kit.box_of(viewport, self.list.visualItemRect(item)),
                "goal": kit.band(core, range(core[1], core[3] + 1),
                                 lambda y: ReorderList.drop_index(midpoints, y) == goal_index,
                                 axis=1)}


CONTROL = DragReorderControl
