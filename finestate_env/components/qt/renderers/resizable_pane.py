"""resizable_pane, as a native Qt control (family D, view manipulation: a drag type).

Qt has the widget (QSplitter) but not the type's rule: its splitters resize by
the pixel. The control keeps the native widget and replaces only the pointer
handling with the type's own rule (widgets/resizable_pane.py, the same rule as
widgets/web/resizable_pane.js), so an instance means the same on the desktop as
on the web. Every state change still comes from real pointer input.

resizable_pane: QSplitters (a horizontal one for the sidebars, a vertical one
inside it for a bottom panel) whose handles are SnapHandles: on every move and
on release the handle moves the splitter (QSplitter.moveSplitter, the call Qt's
own handle makes) so that the pane's size is ABSOLUTE in the pointer:
clamp(round(d / S) * S, min, max), d the pointer's distance from the split
container's edge on the pane's side. The pane size (the state) is the pane
widget's width or height, read from QSplitter.sizes(); Qt places the handle
beside the pane, not centred on its edge as the web does. The goal region is a
band S px wide (tall) across the container.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QListWidget,
    QPlainTextEdit,
    QSplitter,
    QSplitterHandle,
    QTabBar,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control


class Pane:
    """A resizable pane's rule: its side, range and snap step, and its widget."""

    def __init__(self, side: str, size: int, lo: int, hi: int, step: int) -> None:
        self.side, self.size, self.min, self.max, self.step = side, size, lo, hi, step
        self.widget: QWidget | None = None
        self.splitter: QSplitter | None = None

    def size_at(self, container: kit.Box, x: int, y: int) -> int:
        """The pane's size for a pointer at screen pixel (x, y): absolute, the distance
        from the container's edge on the pane's side, snapped and clamped."""
        right, bottom = container[2] + 1, container[3] + 1  # the edges, not the last pixels
        distance = {"left": x - container[0], "right": right - x, "bottom": bottom - y}[self.side]
        return max(self.min, min(self.max, kit.round_cells(distance, self.step) * self.step))

    def read(self) -> int:
        return self.splitter.sizes()[self.splitter.indexOf(self.widget)]


class SnapHandle(QSplitterHandle):
    """A splitter handle that sizes its pane by the type's rule, not by the drag's delta."""

    def __init__(self, orientation, splitter: SnapSplitter) -> None:
        super().__init__(orientation, splitter)
        self.pane: Pane | None = None
        self.container: QWidget | None = None
        self.dragging = False

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        """Fusion draws a splitter handle nearly invisibly; this one shows a line and a
        grip, as the web's handle does, so the divider can be found in a screenshot."""
        if self.pane is None:
            super().paintEvent(event)
            return
        painter = QPainter(self)
        pal = self.palette()
        painter.fillRect(self.rect(), pal.color(QPalette.Window))
        horizontal = self.orientation() == Qt.Horizontal
        w, h = self.width(), self.height()
        grip = 3 if (w if horizontal else h) % 2 else 4
        if horizontal:
            painter.fillRect(QRect(w // 2, 0, 1, h), pal.color(QPalette.Mid))
            painter.fillRect(QRect((w - grip) // 2, h // 2 - 14, grip, 28),
                             pal.color(QPalette.PlaceholderText))
        else:
            painter.fillRect(QRect(0, h // 2, w, 1), pal.color(QPalette.Mid))
            painter.fillRect(QRect(w // 2 - 14, (h - grip) // 2, 28, grip),
                             pal.color(QPalette.PlaceholderText))
        painter.end()

    def mousePressEvent(self, event) -> None:  # noqa: N802
        if event.button() == Qt.LeftButton and self.pane is not None:
            self.dragging = True

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        self._follow(event)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        if event.button() == Qt.LeftButton:
            self._follow(event)
            self.dragging = False

    def _follow(self, event) -> None:
        if not self.dragging:
            return
        point = event.globalPosition().toPoint()
        size = self.pane.size_at(kit.box_of(self.container), point.x(), point.y())
        splitter = self.splitter()
        index = splitter.indexOf(self)
        extent = splitter.width() if self.orientation() == Qt.Horizontal else splitter.height()
        # moveSplitter takes the handle's position: after the pane when the pane is
        # first, before it when the pane is last.
        first = splitter.indexOf(self.pane.widget) < index
        splitter.moveSplitter(size if first else extent - size - splitter.handleWidth(), index)


class SnapSplitter(QSplitter):
    def createHandle(self) -> QSplitterHandle:  # noqa: N802 (Qt's name)
        return SnapHandle(self.orientation(), self)


_PANEL_TABS = ("Problems", "Output", "Terminal", "Debug console")


def _pane_head(parent: QWidget, *titles: str) -> QWidget:
    row = QWidget(parent)
    layout = QHBoxLayout(row)
    layout.setContentsMargins(8, 4, 8, 4)
    layout.setSpacing(12)
    for i, title in enumerate(titles):
        label = kit.TextLabel(title.upper(), row)
        small = label.font()
        small.setPixelSize(11)
        small.setBold(i == 0)
        label.setFont(small)
        if i:
            label.setForegroundRole(QPalette.PlaceholderText)
        layout.addWidget(label)
    layout.addStretch(1)
    return row


def _quiet(view: QAbstractItemView) -> None:
    """An item view that only shows: no focus, no selection, no scroll bars."""
    view.setFocusPolicy(Qt.NoFocus)
    view.setSelectionMode(QAbstractItemView.NoSelection)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
    view.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
    view.setFrameShape(QFrame.NoFrame)


def _text(parent: QWidget, lines: list[str]) -> QPlainTextEdit:
    edit = QPlainTextEdit("\n".join(lines), parent)
    edit.setReadOnly(True)
    edit.setTextInteractionFlags(Qt.NoTextInteraction)
    edit.setFocusPolicy(Qt.NoFocus)
    edit.setFrameShape(QFrame.NoFrame)
    edit.setLineWrapMode(QPlainTextEdit.NoWrap)
    edit.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
    edit.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
    return edit


class ResizablePaneControl(Control):
    def build(self, state: Any) -> None:
        p = self.params
        self.card.add(kit.title_row(self.card, p["project"], "main"))
        self.target = Pane(p["side"], state, p["min"], p["max"], p["step"])
        self.panes = [self.target]
        if p["other"]:
            side, size, lo, hi, step = p["other"]
            self.panes.append(Pane(side, size, lo, hi, step))
        names = {self.target: p["pane"], **({self.panes[1]: p["other_pane"]} if p["other"]
                                            else {})}
        by_side = {pane.side: pane for pane in self.panes}

        self.split = SnapSplitter(Qt.Horizontal, self.card)
        self.split.setFixedSize(p["width"], p["height"])
        editor = self._editor(self.split)
        column: QWidget = editor
        bottom = by_side.get("bottom")
        if bottom is not None:
            column = SnapSplitter(Qt.Vertical, self.split)
            column.addWidget(editor)
            panel = self._panel(column, names[bottom])
            column.addWidget(panel)
            editor.setMinimumHeight(20)
            bottom.widget, bottom.splitter = panel, column
        column.setMinimumWidth(40)
        children = []
        if "left" in by_side:
            children.append(by_side["left"])
        children.append(column)
        if "right" in by_side:
            children.append(by_side["right"])
        for child in children:
            if isinstance(child, Pane):
                child.widget = self._side(child.side, names[child])
                child.splitter = self.split
                self.split.addWidget(child.widget)
            else:
                self.split.addWidget(child)
        for pane in self.panes:
            horizontal = pane.side != "bottom"
            (pane.widget.setMinimumWidth if horizontal else pane.widget.setMinimumHeight)(pane.min)
            (pane.widget.setMaximumWidth if horizontal else pane.widget.setMaximumHeight)(pane.max)
            pane.splitter.setStretchFactor(pane.splitter.indexOf(pane.widget), 0)
        for splitter in (self.split, column):
            if isinstance(splitter, QSplitter):
                splitter.setHandleWidth(p["handle"])
                splitter.setChildrenCollapsible(False)
                splitter.setOpaqueResize(True)
        for pane in self.panes:
            handle = pane.splitter.handle(self._handle_index(pane))
            handle.pane, handle.container = pane, self.split
        self.card.add(self.split)

    @staticmethod
    def _handle_index(pane: Pane) -> int:
        """Handle i sits before widget i: a first pane's handle follows it."""
        index = pane.splitter.indexOf(pane.widget)
        return index + 1 if index == 0 else index

    def _side(self, side: str, name: str) -> QWidget:
        p = self.params
        pane = QWidget(self.split)
        pane.setAutoFillBackground(True)
        pane.setBackgroundRole(QPalette.AlternateBase)
        layout = QVBoxLayout(pane)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(_pane_head(pane, name))
        if side == "left":
            view = QTreeWidget(pane)
            view.setHeaderHidden(True)
            view.setIndentation(12)
            parents: list[QTreeWidgetItem] = []
            for depth, entry, _folder in p["tree"]:
                del parents[depth:]
                owner = parents[-1] if parents else view.invisibleRootItem()
                item = QTreeWidgetItem(owner, [entry])
                parents.append(item)
            view.expandAll()
        else:
            view = QListWidget(pane)
            view.addItems(p["symbols"])
        _quiet(view)
        view.setMinimumSize(1, 1)
        layout.addWidget(view, 1)
        return pane

    def _editor(self, parent: QWidget) -> QWidget:
        p = self.params
        editor = QWidget(parent)
        layout = QVBoxLayout(editor)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        tabs = QTabBar(editor)
        tabs.setFocusPolicy(Qt.NoFocus)
        tabs.setDrawBase(True)
        tabs.setExpanding(False)
        tabs.setUsesScrollButtons(False)
        for name in p["tabs"]:
            tabs.addTab(name)
        tabs.setMinimumWidth(1)
        layout.addWidget(tabs)
        start = p["code_start"]
        lines = [f"{start + i + 1:>3}  {line}" for i, line in enumerate(p["code"][start:])]
        code = _text(editor, lines)
        code.setMinimumSize(1, 1)
        mono = QFont("DejaVu Sans Mono")
        mono.setPixelSize(12)
        code.setFont(mono)
        layout.addWidget(code, 1)
        return editor

    def _panel(self, parent: QWidget, name: str) -> QWidget:
        p = self.params
        panel = QWidget(parent)
        layout = QVBoxLayout(panel)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        others = [n for n in _PANEL_TABS if n != name][:2]
        layout.addWidget(_pane_head(panel, name, *others))
        output = _text(panel, p["output"])
        output.setMinimumSize(1, 1)
        mono = QFont("DejaVu Sans Mono")
        mono.setPixelSize(11)
        output.setFont(mono)
        layout.addWidget(output, 1)
        return panel

    def settle(self) -> None:
        super().settle()
        # Sizes apply to a splitter laid out at its size: the outer one first.
        p = self.params
        outer = [0] * self.split.count()
        for pane in self.panes:
            if pane.splitter is self.split:
                outer[self.split.indexOf(pane.widget)] = pane.size
        rest = p["width"] - sum(outer) - (self.split.count() - 1) * p["handle"]
        outer[outer.index(0)] = rest
        self.split.setSizes(outer)
        for pane in self.panes:
            if pane.splitter is not self.split:
                inner = pane.splitter
                inner.setSizes([p["height"] - pane.size - p["handle"], pane.size])
        for pane in self.panes:
            if pane.read() != pane.size:
                raise RuntimeError(f"the {pane.side} pane shows {pane.read()} px, "
                                   f"not its size {pane.size} px")

    def state(self) -> Any:
        return self.target.read()

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        core = kit.box_of(self.split)
        handle = self.target.splitter.handle(self._handle_index(self.target))
        if self.target.side == "bottom":
            band = kit.band(core, range(core[1], core[3] + 1),
                            lambda y: self.target.size_at(core, core[0], y) == goal, axis=1)
        else:
            band = kit.band(core, range(core[0], core[2] + 1),
                            lambda x: self.target.size_at(core, x, core[1]) == goal)
        return {"loc": kit.box_of(self.card), "core": core, "now": kit.box_of(handle),
                "goal": band}


CONTROL = ResizablePaneControl
