"""zoom_pan, as a native Qt control (family D, view manipulation: a drag type).

Qt has the widget (QGraphicsView) but not the type's rule: its views pan by the
pixel. The control keeps the native widget and replaces only the pointer
handling with the type's own rule (widgets/zoom_pan.py, the same rule as
widgets/web/zoom_pan.js), so an instance means the same on the desktop as on
the web. Every state change still comes from real pointer input.

zoom_pan: a QGraphicsView over a QGraphicsScene of the street map (scene
coordinates are the type's map coordinates), no scroll bars shown. A press
anywhere on the map grabs it; the pan follows the pointer snapped to the map's
grid: pan = clamp(base + round((p - p0) / G), -reach, reach) cells per axis
(round half up, as JS Math.round), shown by setting the view's scroll bars to
-pan * G; the state is read back from those scroll bars. The crosshair and the
scale bar are drawn over the view in viewport coordinates. The goal region is
one G x G cell of release points, the goal box that cell.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QRect, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QFrame,
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QWidget,
)

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control


def _mix(a: QColor, b: QColor, share_a: float) -> QColor:
    """CSS color-mix(in srgb, a share_a, b)."""
    return QColor(*(round(x * share_a + y * (1 - share_a)) for x, y in
                    ((a.red(), b.red()), (a.green(), b.green()), (a.blue(), b.blue()))))


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
        # Repaint the whole viewport on every scroll: Qt's default scrolls by copying
        # the old pixels, which moves the crosshair and scale bar drawn in viewport
        # coordinates with the map, leaving copies that depend on the drag's pace.
        self.setViewportUpdateMode(QGraphicsView.FullViewportUpdate)
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
        reach, grid = self.p["reach"], self.grid
        return [max(-reach[0], min(reach[0], base[0] + kit.round_cells(x - press[0], grid))),
                max(-reach[1], min(reach[1], base[1] + kit.round_cells(y - press[1], grid)))]

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
        self.card.add(kit.title_row(self.card, p["title"], f"Zoom {p['zoom']}"))
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


CONTROL = ZoomPanControl
