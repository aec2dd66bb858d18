"""table_column, as a native Qt control (family D, view manipulation).

table_column: a QTableWidget whose QHeaderView section is resized from the grip
around the column's right border; Qt resizes by the drag's delta to the pixel,
with no resize step, so the goal region is the one pixel column where the width
is exactly the goal (1 px wide). Qt's minimum section size holds for every section:
it is the narrowest column's, and the target's own least width (`min`) is kept by
hand, so that other columns sampled narrower than `min` (a table squeezed into a
page's slot) keep their widths and the table its width.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QStyle

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control
from finestate_env.components.qt.renderers.tables import data_table


class TableColumnControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.table = data_table(self.card, p["headers"], p["cells"], p["row_height"])
        self.header = self.table.horizontalHeader()
        others = [w for c, w in enumerate(p["widths"]) if c != p["target"]]
        self.header.setMinimumSectionSize(min([p["min"], *others]))
        self.header.setMaximumSectionSize(p["max"])
        self.header.setFixedHeight(p["header_height"])
        self.header.setSortIndicatorShown(True)
        self.header.setSortIndicator(p["sorted"], Qt.AscendingOrder)
        for c, width in enumerate(p["widths"]):
            self.header.resizeSection(c, state if c == p["target"] else width)
        frame = self.table.frameWidth()
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.table.setFixedSize(p["table_width"], p["header_height"]
                                + len(p["cells"]) * p["row_height"] + 2 * frame)
        self.card.add(self.table)
        self.header.sectionResized.connect(self._keep_least_width)

    def _keep_least_width(self, section: int, old: int, new: int) -> None:
        if section == self.params["target"] and new < self.params["min"]:
            self.header.resizeSection(section, self.params["min"])

    def state(self) -> Any:
        return self.header.sectionSize(self.params["target"])

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        t = self.params["target"]
        grip = self.header.style().pixelMetric(QStyle.PM_HeaderGripMargin, None, self.header)
        left = self.header.sectionViewportPosition(t)
        end = left + self.header.sectionSize(t)  # the first pixel right of the border
        height = self.header.height()
        # The grip straddles the border: the end of this section and the start of the
        # next (QHeaderViewPrivate::sectionHandleAt); past the last section there is none.
        right = min(end + grip - 1, self.header.length() - self.header.offset() - 1)
        now = kit.box_of(self.header, QRect(end - grip + 1, 0, right - end + grip, height))
        # The width follows the drag's delta from the press (QHeaderView::mouseMoveEvent):
        # width = size + (p1.x - p0.x), for p0 the centre pixel of `now`.
        p0_x = kit.center_pixel(now)[0]
        x = p0_x + goal - self.header.sectionSize(t)
        core = kit.box_of(self.header)
        return {"loc": kit.box_of(self.card), "core": core, "now": now,
                "goal": [x, core[1], x, core[3]]}


CONTROL = TableColumnControl
