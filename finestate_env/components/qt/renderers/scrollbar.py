"""scrollbar, as a native Qt control (family D, view manipulation).

scrollbar: a QTableWidget scrolled per item, its QScrollBar dragged from the
handle (Fusion pages on a groove press), so the first visible row follows p1's
y with the press offset inside the handle, as for the slider.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStyle, QStyleOptionSlider, QWidget

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control
from finestate_env.components.qt.renderers.tables import data_table


class ScrollbarControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        rows = [[f"{p['prefix']}{p['start'] + i}", p["details"][i], p["extra"][i]]
                for i in range(p["rows"])]
        self.table = data_table(self.card, p["columns"], rows, p["row_height"])
        self.table.setVerticalScrollMode(QAbstractItemView.ScrollPerItem)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOn)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.Stretch)
        header = self.table.horizontalHeader().sizeHint().height()
        frame = self.table.frameWidth()
        self.table.setFixedSize(p["width"], header + p["visible"] * p["row_height"] + 2 * frame)
        self.card.add(self.table)
        self.bar = self.table.verticalScrollBar()
        self._initial = state

    def settle(self) -> None:
        super().settle()
        # The range exists once the table is laid out at its size.
        self.table.updateGeometry()
        QWidget.setUpdatesEnabled(self.table, True)
        self.bar.setValue(self._initial)

    def state(self) -> Any:
        return self.bar.value()

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        opt = QStyleOptionSlider()
        self.bar.initStyleOption(opt)
        style = self.bar.style()
        groove = style.subControlRect(QStyle.CC_ScrollBar, opt, QStyle.SC_ScrollBarGroove,
                                      self.bar)
        handle = style.subControlRect(QStyle.CC_ScrollBar, opt, QStyle.SC_ScrollBarSlider,
                                      self.bar)
        lo = groove.y()
        span = groove.bottom() - handle.height() + 1 - lo
        now = kit.box_of(self.bar, handle)
        core = kit.box_of(self.bar)
        origin_y = kit.global_point(self.bar, 0, 0)[1]
        click_offset = kit.center_pixel(now)[1] - now[1]
        top = self.bar.maximum()

        def first_row(y: int) -> int:
            return QStyle.sliderValueFromPosition(0, top, y - origin_y - click_offset - lo, span)

        return {"loc": kit.box_of(self.card), "core": core, "now": now,
                "goal": kit.band(core, range(core[1], core[3] + 1),
                                 lambda y: first_row(y) == goal, axis=1)}


CONTROL = ScrollbarControl
