"""Family D, view manipulation, as native Qt controls.

carousel: a QStackedWidget of slides with prev/next QToolButtons and a row of
dot buttons; a click on a dot shows that slide. tree_view: a QTreeWidget; a
press on a folder's branch indicator (the indentation cell before its icon,
QTreeView's decoration rect) expands or collapses it, and Qt keeps the
expansion flags inside a collapsed folder, as the type defines. scrollbar: a
QTableWidget scrolled per item, its QScrollBar dragged from the handle (Fusion
pages on a groove press), so the first visible row follows p1's y with the
press offset inside the handle, as for the slider. table_column: a
QTableWidget whose QHeaderView section is resized from the grip around the
column's right border; Qt resizes by the drag's delta to the pixel, with no
resize step, so the goal region is the one pixel column where the width is
exactly the goal (1 px wide).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QStackedWidget,
    QStyle,
    QStyleOptionSlider,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QWidget,
)

from widgets.qt import kit
from widgets.qt.control import Control


class Dot(QAbstractButton):
    def __init__(self, parent: QWidget, size: int) -> None:
        super().__init__(parent)
        self.setCheckable(True)
        self.setAutoExclusive(True)
        self.setFocusPolicy(Qt.NoFocus)
        self.setFixedSize(size, size)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return self.size()

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        painter.setPen(Qt.NoPen)
        pal = self.palette()
        painter.setBrush(pal.color(QPalette.Highlight) if self.isChecked()
                         else pal.color(QPalette.Mid))
        painter.drawEllipse(self.rect().adjusted(1, 1, -1, -1))
        painter.end()


class CarouselControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.stack = QStackedWidget(self.card)
        self.stack.setFixedSize(p["width"], p["height"])
        for slide in p["slides"]:
            page = QLabel(f"{slide['title']}\n{slide['caption']}", self.stack)
            page.setAlignment(Qt.AlignCenter)
            page.setAutoFillBackground(True)
            pal = page.palette()
            pal.setColor(QPalette.Window, QColor.fromHsv(int(slide["tint"] * 6) % 360, 60, 235))
            pal.setColor(QPalette.WindowText, QColor("#1f2933"))
            page.setPalette(pal)
            self.stack.addWidget(page)
        self.card.add(self.stack)
        row = QWidget(self.card)
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(p["gap"])
        self.prev, self.next = QToolButton(row), QToolButton(row)
        self.prev.setArrowType(Qt.LeftArrow)
        self.next.setArrowType(Qt.RightArrow)
        layout.addWidget(self.prev)
        layout.addStretch(1)
        self.dots = []
        for i in range(len(p["slides"])):
            dot = Dot(row, p["dot"])
            dot.clicked.connect(lambda _=False, k=i: self.stack.setCurrentIndex(k))
            layout.addWidget(dot)
            self.dots.append(dot)
        layout.addStretch(1)
        layout.addWidget(self.next)
        self.prev.clicked.connect(lambda: self._go(self.stack.currentIndex() - 1))
        self.next.clicked.connect(lambda: self._go(self.stack.currentIndex() + 1))
        self.stack.currentChanged.connect(lambda k: self.dots[k].setChecked(True))
        self.stack.setCurrentIndex(state)
        self.dots[state].setChecked(True)
        self.card.add(row)

    def _go(self, k: int) -> None:
        self.stack.setCurrentIndex(max(0, min(len(self.dots) - 1, k)))

    def state(self) -> Any:
        return self.stack.currentIndex()

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        dots = [kit.box_of(d) for d in self.dots]
        core = [dots[0][0], min(b[1] for b in dots), dots[-1][2], max(b[3] for b in dots)]
        return {"loc": kit.box_of(self.card), "core": core, "goal": dots[goal],
                "now": dots[self.state()]}


class TreeViewControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.tree = QTreeWidget(self.card)
        self.tree.setHeaderHidden(True)
        self.tree.setColumnCount(1)
        self.tree.setIndentation(p["indent"])
        self.tree.setRootIsDecorated(True)
        self.tree.setAnimated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setExpandsOnDoubleClick(False)
        self.tree.setFocusPolicy(Qt.NoFocus)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.tree.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.items: dict[str, QTreeWidgetItem] = {}
        self._add(self.tree.invisibleRootItem(), p["tree"], "")
        frame = self.tree.frameWidth()
        self.tree.setFixedSize(p["width"], p["rows"] * p["row_height"] + 2 * frame)
        for path in state:
            self.items[path].setExpanded(True)
        selected = next((i for k, i in self.items.items() if k.split("/")[-1] == p["selected"]),
                        None) if p.get("selected") else None
        if selected is not None:
            selected.setSelected(True)
        self.card.add(self.tree)

    def _add(self, parent: QTreeWidgetItem, nodes: list[dict], prefix: str) -> None:
        for node in nodes:
            path = prefix + node["name"]
            item = QTreeWidgetItem(parent, [node["name"]])
            item.setSizeHint(0, QSize(0, self.params["row_height"]))
            if "children" in node:
                self.items[path] = item
                item.setChildIndicatorPolicy(QTreeWidgetItem.ShowIndicator)
                self._add(item, node["children"], path + "/")

    def state(self) -> Any:
        return sorted(path for path, item in self.items.items() if item.isExpanded())

    def _twisty(self, path: str) -> kit.Box:
        rect = self.tree.visualItemRect(self.items[path])
        rect.setLeft(rect.left() - self.tree.indentation())
        rect.setWidth(self.tree.indentation())
        return kit.box_of(self.tree.viewport(), rect)

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        target = self.params["target"]
        twisty = self._twisty(target)
        row = kit.box_of(self.tree.viewport(), self.tree.visualItemRect(self.items[target]))
        return {"loc": kit.box_of(self.card), "core": twisty, "goal": twisty,
                "now": [twisty[0], row[1], row[2], row[3]]}


def _table(parent: QWidget, headers: list[str], rows: list[list[str]],
           row_height: int) -> QTableWidget:
    table = QTableWidget(len(rows), len(headers), parent)
    table.setHorizontalHeaderLabels(headers)
    table.verticalHeader().hide()
    table.verticalHeader().setSectionResizeMode(QHeaderView.Fixed)
    table.verticalHeader().setDefaultSectionSize(row_height)
    table.horizontalHeader().setStretchLastSection(False)
    table.horizontalHeader().setHighlightSections(False)
    table.setEditTriggers(QAbstractItemView.NoEditTriggers)
    table.setSelectionMode(QAbstractItemView.NoSelection)
    table.setFocusPolicy(Qt.NoFocus)
    for r, cells in enumerate(rows):
        for c, text in enumerate(cells):
            table.setItem(r, c, QTableWidgetItem(text))
    return table


class ScrollbarControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        rows = [[f"{p['prefix']}{p['start'] + i}", p["details"][i], p["extra"][i]]
                for i in range(p["rows"])]
        self.table = _table(self.card, p["columns"], rows, p["row_height"])
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


class TableColumnControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.table = _table(self.card, p["headers"], p["cells"], p["row_height"])
        self.header = self.table.horizontalHeader()
        self.header.setMinimumSectionSize(p["min"])
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


RENDERERS = {"carousel": CarouselControl, "tree_view": TreeViewControl,
             "scrollbar": ScrollbarControl, "table_column": TableColumnControl}
