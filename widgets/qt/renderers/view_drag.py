"""Family D, view manipulation: the three drag types, as native Qt controls.

Qt has the widgets (QGraphicsView, QSplitter, QListWidget) but not the types'
rules: its views pan by the pixel, its splitters resize by the pixel, and its
lists reorder through QDrag. Each control below keeps the native widget and
replaces only the pointer handling with the type's own rule (widgets/<type>.py,
the same rule as widgets/web/<type>.js), so an instance means the same on the
desktop as on the web. Every state change still comes from real pointer input.

zoom_pan: a QGraphicsView over a QGraphicsScene of the street map (scene
coordinates are the type's map coordinates), no scroll bars shown. A press
anywhere on the map grabs it; the pan follows the pointer snapped to the map's
grid: pan = clamp(base + round((p - p0) / G), -reach, reach) cells per axis
(round half up, as JS Math.round), shown by setting the view's scroll bars to
-pan * G; the state is read back from those scroll bars. The crosshair and the
scale bar are drawn over the view in viewport coordinates. The goal region is
one G x G cell of release points, the goal box that cell.

resizable_pane: QSplitters (a horizontal one for the sidebars, a vertical one
inside it for a bottom panel) whose handles are SnapHandles: on every move and
on release the handle moves the splitter (QSplitter.moveSplitter, the call Qt's
own handle makes) so that the pane's size is ABSOLUTE in the pointer:
clamp(round(d / S) * S, min, max), d the pointer's distance from the split
container's edge on the pane's side. The pane size (the state) is the pane
widget's width or height, read from QSplitter.sizes(); Qt places the handle
beside the pane, not centred on its edge as the web does. The goal region is a
band S px wide (tall) across the container.

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

from PySide6.QtCore import QPoint, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QPainter, QPalette, QPen, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QSplitter,
    QSplitterHandle,
    QTabBar,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from widgets.qt import kit
from widgets.qt.control import Control


def _round_cells(distance: int, size: int) -> int:
    """round(distance / size) with halves up, as JS Math.round, in exact integers."""
    return (2 * distance + size) // (2 * size)


def _mix(a: QColor, b: QColor, share_a: float) -> QColor:
    """CSS color-mix(in srgb, a share_a, b)."""
    return QColor(*(round(x * share_a + y * (1 - share_a)) for x, y in
                    ((a.red(), b.red()), (a.green(), b.green()), (a.blue(), b.blue()))))


def _header(parent: QWidget, title: str, note: str) -> QWidget:
    """A card's title row: the title in bold on the left, a muted note on the right."""
    row = QWidget(parent)
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    heading = QLabel(title, row)
    bold = heading.font()
    bold.setBold(True)
    heading.setFont(bold)
    aside = QLabel(note, row)
    aside.setForegroundRole(QPalette.PlaceholderText)
    layout.addWidget(heading)
    layout.addStretch(1)
    layout.addWidget(aside)
    return row


# -- zoom_pan -----------------------------------------------------------------

PIN = 19  # odd, as on the web: the pin's integer box has a whole-pixel centre
CROSS = 31  # odd, for the same reason


class Pin(QGraphicsItem):
    """A map pin: a PIN x PIN px square cell with a round marker, centred on its map point."""

    def __init__(self, x: int, y: int, fill: QColor, ring: QColor) -> None:
        super().__init__()
        self.fill, self.ring = fill, ring
        half = (PIN - 1) // 2
        self.setPos(x - half, y - half)

    def boundingRect(self) -> QRectF:  # noqa: N802 (Qt's name)
        return QRectF(0, 0, PIN, PIN)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.Antialiasing)
        painter.setPen(QPen(self.ring, 3))
        painter.setBrush(self.fill)
        painter.drawEllipse(QRectF(3.5, 3.5, PIN - 7, PIN - 7))


class MapView(QGraphicsView):
    """The map's viewport; see the module docstring for the pan rule."""

    def __init__(self, parent: QWidget, params: dict[str, Any], scene: QGraphicsScene,
                 pan: list[int]) -> None:
        super().__init__(scene, parent)
        self.p = params
        self.grid = params["grid"]
        self.setFrameShape(QFrame.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        self.setAlignment(Qt.AlignLeft | Qt.AlignTop)
        self.setTransformationAnchor(QGraphicsView.NoAnchor)
        self.setResizeAnchor(QGraphicsView.NoAnchor)
        self.setInteractive(False)
        self.setFocusPolicy(Qt.NoFocus)
        self.setFixedSize(params["width"], params["height"])
        self.pressed: QPoint | None = None
        self.base = list(pan)
        self.initial = list(pan)

    def show_pan(self, pan: list[int]) -> None:
        # Scene x at the viewport's left edge is the horizontal scroll value.
        self.horizontalScrollBar().setValue(-pan[0] * self.grid)
        self.verticalScrollBar().setValue(-pan[1] * self.grid)

    def pan(self) -> list[int]:
        # 0 - value keeps -0 out; the values are whole cells by construction.
        return [(0 - self.horizontalScrollBar().value()) // self.grid,
                (0 - self.verticalScrollBar().value()) // self.grid]

    def pan_at(self, press: tuple[int, int], x: int, y: int, base: list[int]) -> list[int]:
        """The one mapping from a press and a pointer (same frame) to a pan, for a map
        that showed `base` at the press: used by the handlers and by the goal box."""
        reach = self.p["reach"]
        return [max(-reach[0], min(reach[0], base[0] + _round_cells(x - press[0], self.grid))),
                max(-reach[1], min(reach[1], base[1] + _round_cells(y - press[1], self.grid)))]

    def mousePressEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        if event.button() == Qt.LeftButton:
            self.pressed = event.position().toPoint()
            self.base = self.pan()

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        self._follow(event)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        if event.button() == Qt.LeftButton:
            self._follow(event)
            self.pressed = None

    def mouseDoubleClickEvent(self, event) -> None:  # noqa: N802
        self.mousePressEvent(event)

    def wheelEvent(self, event) -> None:  # noqa: N802
        event.accept()  # the type pans by dragging only

    def _follow(self, event) -> None:
        if self.pressed is None:
            return
        pos = event.position().toPoint()
        self.show_pan(self.pan_at((self.pressed.x(), self.pressed.y()), pos.x(), pos.y(),
                                  self.base))

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:  # noqa: N802
        """The crosshair and the scale bar: fixed on the viewport, not on the map."""
        painter.save()
        painter.resetTransform()
        pal = self.palette()
        text = pal.color(QPalette.WindowText)
        cx, cy = self.p["cross"]
        half = (CROSS - 1) // 2
        painter.fillRect(QRect(cx, cy - half, 1, 9), text)
        painter.fillRect(QRect(cx, cy + half - 8, 1, 9), text)
        painter.fillRect(QRect(cx - half, cy, 9, 1), text)
        painter.fillRect(QRect(cx + half - 8, cy, 9, 1), text)
        painter.setRenderHint(QPainter.Antialiasing)
        painter.setPen(QPen(text, 2))
        painter.setBrush(Qt.NoBrush)
        painter.drawEllipse(QRectF(cx - 9.5, cy - 9.5, 20, 20))
        painter.setRenderHint(QPainter.Antialiasing, False)
        scale = QRect(8, self.height() - 24, 86, 16)
        painter.setPen(Qt.NoPen)
        backdrop = QColor(pal.color(QPalette.Base))
        backdrop.setAlpha(190)
        painter.setBrush(backdrop)
        painter.drawRect(scale)
        painter.setPen(QPen(text, 1))
        painter.setBrush(Qt.NoBrush)
        bar_top, bar_left = scale.top() + 5, scale.left() + 4
        painter.drawLine(bar_left, bar_top, bar_left, bar_top + 5)
        painter.drawLine(bar_left, bar_top + 5, bar_left + 47, bar_top + 5)
        painter.drawLine(bar_left + 47, bar_top, bar_left + 47, bar_top + 5)
        small = QFont(self.font())
        small.setPixelSize(10)
        painter.setFont(small)
        painter.drawText(QRect(bar_left + 52, scale.top(), 32, 16), Qt.AlignVCenter, "200 m")
        painter.restore()


def _map_scene(params: dict[str, Any], pal: QPalette, font: QFont) -> tuple[QGraphicsScene,
                                                                            list[Pin]]:
    """The street map in map coordinates: parks, river, streets and names, tags and pins."""
    width, height, grid, reach = params["width"], params["height"], params["grid"], params["reach"]
    extent = QRectF(-reach[0] * grid, -reach[1] * grid, width + 2 * reach[0] * grid,
                    height + 2 * reach[1] * grid)
    surface, border = pal.color(QPalette.Base), pal.color(QPalette.Mid)
    muted, text = pal.color(QPalette.PlaceholderText), pal.color(QPalette.WindowText)
    accent = pal.color(QPalette.Highlight)
    scene = QGraphicsScene()
    scene.setSceneRect(extent)
    scene.setBackgroundBrush(_mix(muted, surface, 0.16))
    tile_pen = QPen(_mix(border, _mix(muted, surface, 0.16), 0.6), 1)
    for x in range(int(extent.left()) // 128 * 128, int(extent.right()) + 1, 128):
        scene.addRect(QRectF(x, extent.top(), 1, extent.height()), Qt.NoPen,
                      QBrush(tile_pen.color()))
    for y in range(int(extent.top()) // 128 * 128, int(extent.bottom()) + 1, 128):
        scene.addRect(QRectF(extent.left(), y, extent.width(), 1), Qt.NoPen,
                      QBrush(tile_pen.color()))
    for x, y, w, h in params["parks"]:
        scene.addRect(QRectF(x, y, w, h), QPen(_mix(muted, surface, 0.3), 1),
                      QBrush(_mix(muted, surface, 0.06)))

    def band(axis: int, position: int, size: int) -> QRectF:
        if axis == 0:
            return QRectF(position, extent.top(), size, extent.height())
        return QRectF(extent.left(), position, extent.width(), size)

    river_axis, river_at, river_width = params["river"]
    scene.addRect(band(river_axis, river_at, river_width), Qt.NoPen,
                  QBrush(_mix(accent, surface, 0.28)))
    small = QFont(font)
    small.setPixelSize(10)
    names = []
    for axis, position, size, name in params["streets"]:
        street = band(axis, position, size)
        scene.addRect(street, Qt.NoPen, QBrush(surface))
        edge = QBrush(border)
        if axis == 0:
            scene.addRect(QRectF(street.left() - 1, street.top(), 1, street.height()), Qt.NoPen,
                          edge)
            scene.addRect(QRectF(street.right(), street.top(), 1, street.height()), Qt.NoPen, edge)
        else:
            scene.addRect(QRectF(street.left(), street.top() - 1, street.width(), 1), Qt.NoPen,
                          edge)
            scene.addRect(QRectF(street.left(), street.bottom(), street.width(), 1), Qt.NoPen,
                          edge)
        if not name:
            continue
        length = extent.width() if axis else extent.height()
        for at in range(40, int(length), 420):
            label = QGraphicsSimpleTextItem(name)
            label.setFont(small)
            label.setBrush(muted)
            if axis:
                label.setPos(extent.left() + at, position + 2)
            else:
                label.setRotation(90)
                label.setPos(position + size - 3, extent.top() + at)
            names.append(label)
    for label in names:  # after every street, so no crossing street covers a name
        scene.addItem(label)
    tag_font = QFont(font)
    tag_font.setPixelSize(11)
    pins = []
    half = (PIN - 1) // 2
    for (name, x, y), side in zip(params["pins"], params["label_sides"], strict=True):
        label = QGraphicsSimpleTextItem(name)
        label.setFont(tag_font)
        label.setBrush(text)
        tag_width = round(label.boundingRect().width()) + 12
        left = x + half + 6 if side == "right" else x - half - 5 - tag_width
        tag = QGraphicsRectItem(QRectF(left + 0.5, y - 9 + 0.5, tag_width - 1, 17))
        tag.setPen(QPen(border, 1))
        tag.setBrush(surface)
        label.setParentItem(tag)
        label.setPos(left + 6, y - 9 + (18 - label.boundingRect().height()) / 2)
        scene.addItem(tag)
        pin = Pin(x, y, accent, surface)
        scene.addItem(pin)  # after its tag, so no tag hides a pin
        pins.append(pin)
    return scene, pins


class ZoomPanControl(Control):
    def build(self, state: Any) -> None:
        p = self.params
        self.card.add(_header(self.card, p["title"], f"Zoom {p['zoom']}"))
        self.scene, self.pins = _map_scene(p, self.card.palette(), self.card.font())
        self.view = MapView(self.card, p, self.scene, state)
        self.card.add(self.view)
        self._initial = list(state)

    def settle(self) -> None:
        super().settle()
        self.view.show_pan(self._initial)

    def state(self) -> Any:
        return self.view.pan()

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        viewport = self.view.viewport()
        target = self.pins[0]
        corner = self.view.mapFromScene(target.pos())
        now = kit.box_of(viewport, QRect(corner.x(), corner.y(), PIN, PIN))
        core = kit.box_of(viewport)
        press = kit.center_pixel(now)  # the documented press: the named pin's centre
        pan = self.view.pan()
        xs = kit.band(core, range(core[0], core[2] + 1),
                      lambda x: self.view.pan_at(press, x, press[1], pan)[0] == goal[0])
        ys = kit.band(core, range(core[1], core[3] + 1),
                      lambda y: self.view.pan_at(press, press[0], y, pan)[1] == goal[1], axis=1)
        return {"loc": kit.box_of(self.card), "core": core, "now": now,
                "goal": [xs[0], ys[1], xs[2], ys[3]]}


# -- resizable_pane -----------------------------------------------------------

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
        return max(self.min, min(self.max, _round_cells(distance, self.step) * self.step))

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
        label = QLabel(title.upper(), row)
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
        self.card.add(_header(self.card, p["project"], "main"))
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


# -- drag_reorder -------------------------------------------------------------

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


RENDERERS = {"zoom_pan": ZoomPanControl, "resizable_pane": ResizablePaneControl,
             "drag_reorder": DragReorderControl}
