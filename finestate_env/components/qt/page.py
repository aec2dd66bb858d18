"""Page scenes on the desktop (widgets/scenes): the blocks of a page drawn with QPainter.

A `Canvas` covers the stage under the live controls and paints a page's blocks
(`widgets/scenes/desktop.py`'s chrome: title bar, menu bar, toolbar, dock, status
bar, dialog; headings, text, drawn icons and images) from each block's own words
and seed, so the same block gives the same pixels. Nothing here takes input or holds
state: the canvas is transparent to the pointer, and the controls are mounted over
it by the app (`Stage.show_page`). Colours come from the theme's palette; fonts are
the theme's; icons are drawn from the small path language of `ICONS`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QLinearGradient, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import QWidget

# 24x24 line icons: M/L x y (move, line), Z (close), O cx cy r (circle), R x y w h
# (rectangle), A x y w h start span (arc, degrees), T letters (a glyph icon).
ICONS = {
    "file": "M6 3 L14 3 L18 7 L18 21 L6 21 Z M14 3 L14 7 L18 7",
    "folder": "M3 6 L9 6 L11 8 L21 8 L21 19 L3 19 Z",
    "save": "M4 4 L17 4 L20 7 L20 20 L4 20 Z R8 4 8 5 R7 13 10 7",
    "undo": "M9 6 L4 10 L9 14 M4 10 L15 10 A9 10 12 10 90 -180 M15 20 L10 20",
    "redo": "M15 6 L20 10 L15 14 M20 10 L9 10 A3 10 12 10 90 180 M9 20 L14 20",
    "search": "O10.5 10.5 6.5 M15.5 15.5 L21 21",
    "gear": "O12 12 3.5 M12 2 L12 5 M12 19 L12 22 M2 12 L5 12 M19 12 L22 12 M4.9 4.9 L7 7 "
            "M17 17 L19.1 19.1 M4.9 19.1 L7 17 M17 7 L19.1 4.9",
    "play": "M8 5 L19 12 L8 19 Z",
    "prev": "M6 5 L6 19 M18 5 L9 12 L18 19 Z",
    "next": "M18 5 L18 19 M6 5 L15 12 L6 19 Z",
    "stop": "R6 6 12 12",
    "shuffle": "M3 7 L8 7 L16 17 L21 17 M3 17 L8 17 L16 7 L21 7 M18 4 L21 7 L18 10 M18 14 "
               "L21 17 L18 20",
    "repeat": "M4 12 L4 8 L18 8 M15 5 L18 8 L15 11 M20 12 L20 16 L6 16 M9 13 L6 16 L9 19",
    "music": "M9 18 L9 5 L20 3 L20 16 O6.5 18 2.5 O17.5 16 2.5",
    "star": "M12 3 L14.8 8.8 L21 9.7 L16.5 14.1 L17.5 20.3 L12 17.4 L6.5 20.3 L7.5 14.1 "
            "L3 9.7 L9.2 8.8 Z",
    "clock": "O12 12 9 M12 7 L12 12 L15 15",
    "cloud": "M7 18 L17 18 A13 10 8 8 -90 180 A5.5 6 11 11 30 150 A3.7 11.4 6.6 6.6 90 180",
    "table": "R3 5 18 14 M3 10 L21 10 M3 15 L21 15 M9 5 L9 19",
    "chart": "M4 20 L4 4 M4 20 L20 20 M8 16 L8 11 M12 16 L12 8 M16 16 L16 9",
    "grid": "R4 4 7 7 R13 4 7 7 R4 13 7 7 R13 13 7 7",
    "list": "M8 6 L20 6 M8 12 L20 12 M8 18 L20 18 O4.5 6 1 O4.5 12 1 O4.5 18 1",
    "image": "R3 5 18 14 M3 16 L8 11 L12 15 L15 12 L21 18 O15.5 9 1.5",
    "sliders": "M4 6 L14 6 M18 6 L20 6 M4 12 L8 12 M12 12 L20 12 M4 18 L16 18 M14 4 L14 8 "
               "M10 10 L10 14 M18 16 L18 20",
    "lock": "R6 11 12 10 M8 11 L8 7 A8 3 8 8 180 -180 M16 7 L16 11",
    "bell": "M6 17 L6 11 A6 5 12 12 180 -180 M18 11 L18 17 L20 19 L4 19 L6 17 M10 21 L14 21",
    "trash": "M4 7 L20 7 M9 7 L9 4 L15 4 L15 7 M6 7 L7 20 L17 20 L18 7",
    "mail": "R3 6 18 12 M3 6 L12 13 L21 6",
    "inbox": "M3 13 L6 5 L18 5 L21 13 L21 19 L3 19 Z M3 13 L8 13 L9 16 L15 16 L16 13 L21 13",
    "send": "M3 11 L21 3 L13 21 L11 13 Z",
    "reply": "M10 6 L4 11 L10 16 M4 11 L14 11 A8 11 12 10 90 -90",
    "forward": "M14 6 L20 11 L14 16 M20 11 L4 11",
    "back": "M10 6 L4 12 L10 18 M4 12 L20 12",
    "up": "M6 10 L12 4 L18 10 M12 4 L12 20",
    "tag": "M3 12 L3 4 L11 4 L21 14 L13 22 Z O7.5 8 1",
    "code": "M8 7 L3 12 L8 17 M16 7 L21 12 L16 17 M14 4 L10 20",
    "bug": "R8 8 8 11 M12 8 L12 19 M8 12 L4 11 M16 12 L20 11 M8 16 L4 18 M16 16 L20 18 "
           "M9 8 L7 5 M15 8 L17 5",
    "refresh": "A4 4 16 16 30 300 M20 4 L20 9 L15 9",
    "crop": "M6 2 L6 18 L22 18 M2 6 L18 6 L18 22",
    "move": "M12 3 L12 21 M3 12 L21 12 M9 6 L12 3 L15 6 M9 18 L12 21 L15 18 M6 9 L3 12 "
            "L6 15 M18 9 L21 12 L18 15",
    "brush": "M20 4 L11 13 M11 13 L8 13 A4 13 7 7 0 -90 L4 20 L8 20 A5 13 7 7 -90 -90",
    "eraser": "M4 16 L13 7 L20 14 L14 20 L8 20 Z M9 11 L16 18",
    "zoom": "O10.5 10.5 6.5 M15.5 15.5 L21 21 M8 10.5 L13 10.5 M10.5 8 L10.5 13",
    "bold": "TB", "italic": "TI", "sum": "TΣ",
}
_FALLBACK = "R5 5 14 14"


def icon_path(name: str) -> tuple[QPainterPath, str | None]:
    """The icon's outline in its 24x24 box, or the letters of a glyph icon."""
    spec = ICONS.get(name, _FALLBACK)
    if spec.startswith("T"):
        return QPainterPath(), spec[1:]
    path, tokens = QPainterPath(), spec.replace(",", " ").split()
    i = 0
    while i < len(tokens):
        op, args = tokens[i][0], [float(tokens[i][1:])] if len(tokens[i]) > 1 else []
        i += 1
        need = {"M": 2, "L": 2, "Z": 0, "O": 3, "R": 4, "A": 6}[op]
        while len(args) < need:
            args.append(float(tokens[i]))
            i += 1
        if op == "M":
            path.moveTo(*args)
        elif op == "L":
            path.lineTo(*args)
        elif op == "Z":
            path.closeSubpath()
        elif op == "O":
            path.addEllipse(QPointF(args[0], args[1]), args[2], args[2])
        elif op == "R":
            path.addRect(QRectF(*args))
        else:
            path.arcTo(QRectF(*args[:4]), args[4], args[5])
    return path, None


class Painter:
    """What the block painters share: a QPainter, the theme's colours and fonts."""

    def __init__(self, painter: QPainter, widget: QWidget) -> None:
        self.p = painter
        pal = widget.palette()
        self.bg, self.surface = pal.color(QPalette.Window), pal.color(QPalette.Base)
        self.border, self.text = pal.color(QPalette.Mid), pal.color(QPalette.WindowText)
        self.muted, self.accent = pal.color(QPalette.PlaceholderText), pal.color(QPalette.Highlight)
        self.on_accent = pal.color(QPalette.HighlightedText)
        self.dark = self.bg.lightness() < 128
        self.base_font = widget.font()

    def font(self, pixels: int = 13, bold: bool = False, mono: bool = False) -> QFont:
        f = QFont(self.base_font)
        if mono:
            f.setFamily("DejaVu Sans Mono")
        f.setPixelSize(pixels)
        f.setBold(bold)
        return f

    def fill(self, rect: QRect | QRectF, colour: QColor, radius: float = 0,
             outline: QColor | None = None) -> None:
        self.p.setPen(QPen(outline, 1) if outline is not None else Qt.NoPen)
        self.p.setBrush(colour)
        if radius:
            self.p.drawRoundedRect(QRectF(rect), radius, radius)
        else:
            self.p.drawRect(rect)

    def write(self, x: float, y: float, w: float, h: float, text: str,
              colour: QColor | None = None, pixels: int = 13, bold: bool = False,
              align: Qt.AlignmentFlag = Qt.AlignLeft | Qt.AlignVCenter, mono: bool = False) -> None:
        self.p.setFont(self.font(pixels, bold, mono))
        self.p.setPen(colour if colour is not None else self.text)
        self.p.drawText(QRectF(x, y, w, h), int(align) | int(Qt.TextSingleLine), text)

    def icon(self, name: str, x: float, y: float, size: float = 18,
             colour: QColor | None = None) -> None:
        path, letters = icon_path(name)
        colour = colour if colour is not None else self.text
        if letters:
            self.write(x, y, size, size, letters, colour, int(size * 0.8), True, Qt.AlignCenter)
            return
        self.p.save()
        self.p.translate(x, y)
        self.p.scale(size / 24, size / 24)
        pen = QPen(colour, 1.8)
        pen.setCapStyle(Qt.RoundCap)
        pen.setJoinStyle(Qt.RoundJoin)
        self.p.setPen(pen)
        self.p.setBrush(Qt.NoBrush)
        self.p.drawPath(path)
        self.p.restore()

    def panel(self, rect: list[int]) -> QRect:
        """A surface card with a border; returns its inner rect."""
        x, y, w, h = rect
        self.fill(QRectF(x + 0.5, y + 0.5, w - 1, h - 1), self.surface, 6, self.border)
        return QRect(x + 12, y + 10, w - 24, h - 20)

    def tint(self, hue: float, sat: float, light: float) -> QColor:
        return QColor.fromHslF((hue % 360) / 360, sat, light)


# -- the chrome -------------------------------------------------------------
def titlebar(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    x, y, w, h = b["rect"]
    bar = QColor("#2b2f36") if not d.dark else QColor("#111214")
    d.fill(QRect(x, y, w, h), bar)
    d.icon(b["icon"], x + 8, y + 5, 18, QColor("#e8eaed"))
    d.write(x, y, w, h, b["title"], QColor("#e8eaed"), 13, True, Qt.AlignCenter)
    for i, kind in enumerate(("min", "max", "close")):
        cx = x + w - 20 - (2 - i) * 30
        pen = QPen(QColor("#e8eaed"), 1.5)
        d.p.setPen(pen)
        d.p.setBrush(Qt.NoBrush)
        if kind == "min":
            d.p.drawLine(QPointF(cx - 5, y + 18), QPointF(cx + 5, y + 18))
        elif kind == "max":
            d.p.drawRect(QRectF(cx - 5, y + 9, 10, 10))
        else:
            d.p.drawLine(QPointF(cx - 5, y + 9), QPointF(cx + 5, y + 19))
            d.p.drawLine(QPointF(cx + 5, y + 9), QPointF(cx - 5, y + 19))


def menubar(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    x, y, w, h = b["rect"]
    d.fill(QRect(x, y, w, h), d.surface)
    left = x + 8
    d.p.setFont(d.font(13))
    for item in b["items"]:
        width = d.p.fontMetrics().horizontalAdvance(item) + 16
        d.write(left, y, width, h, item, d.text, 13, align=Qt.AlignCenter)
        left += width
    d.fill(QRect(x, y + h - 1, w, 1), d.border)


def toolbar(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    x, y, w, h = b["rect"]
    d.fill(QRect(x, y, w, h), d.surface)
    left = x + 8
    for name in b["icons"]:
        if name == "|":
            d.fill(QRect(left + 3, y + 7, 1, h - 14), d.border)
            left += 8
            continue
        d.icon(name, left + 5, y + (h - 18) / 2, 18)
        left += 30
    d.fill(QRect(x + w - 228, y + 6, 216, h - 12), d.bg, 4, d.border)
    d.icon("search", x + w - 222, y + 10, 14, d.muted)
    d.write(x + w - 202, y + 6, 180, h - 12, "Search", d.muted, 12)
    d.fill(QRect(x, y + h - 1, w, 1), d.border)


def statusbar(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    x, y, w, h = b["rect"]
    d.fill(QRect(x, y, w, h), d.surface)
    d.fill(QRect(x, y, w, 1), d.border)
    first, second = b["texts"]
    d.write(x + 10, y, w / 2, h, first, d.muted, 12)
    d.write(x + w / 2, y, w / 2 - 30, h, second, d.muted, 12, align=Qt.AlignRight | Qt.AlignVCenter)
    for i in range(3):  # the size grip
        d.fill(QRect(x + w - 8 - 4 * i, y + h - 8, 2, 2), d.muted)


def _item_list(d: Painter, x: int, y: int, w: int, items: list[list[str]], active: int) -> None:
    for i, (name, label) in enumerate(items):
        top = y + i * 30
        if i == active:
            d.fill(QRectF(x + 6, top, w - 12, 26), d.accent, 4)
        colour = d.on_accent if i == active else d.text
        d.icon(name, x + 14, top + 4, 18, colour)
        d.write(x + 40, top, w - 50, 26, label, colour, 13)


def dock(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    x, y, w, h = b["rect"]
    d.fill(QRect(x, y, w, h), d.surface)
    d.fill(QRect(x + w - 1, y, 1, h), d.border)
    d.fill(QRect(x, y, w - 1, 26), d.bg)
    d.write(x + 10, y, w - 20, 26, b["title"], d.muted, 12, True)
    _item_list(d, x, y + 34, w, b["items"], b["active"])


def dialog(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    x, y, w, h = b["rect"]
    d.fill(d.p.window(), QColor(0, 0, 0, 70))  # the window behind, dimmed
    d.fill(QRectF(x + 3, y + 4, w, h), QColor(0, 0, 0, 60), 8)  # a shadow
    d.fill(QRectF(x, y, w, h), d.bg, 8, d.border)
    d.fill(QRectF(x + 1, y + 1, w - 2, 27), d.surface, 7)
    d.write(x, y, w, 28, b["title"], d.text, 13, True, Qt.AlignCenter)
    d.fill(QRect(x, y + 28, w, 1), d.border)
    d.fill(QRect(x + 1, y + 29, 179, h - 30 - 48), d.surface)
    d.fill(QRect(x + 180, y + 29, 1, h - 30 - 48), d.border)
    _item_list(d, x, y + 38, 180, b["items"], b["active"])
    d.fill(QRect(x, y + h - 48, w, 1), d.border)
    right = x + w - 16
    for i, label in enumerate(reversed(b["buttons"])):
        width = 84
        left = right - width if label != "Help" else x + 16
        primary = i == 0
        d.fill(QRectF(left, y + h - 38, width, 28), d.accent if primary else d.surface, 4,
               None if primary else d.border)
        d.write(left, y + h - 38, width, 28, label, d.on_accent if primary else d.text, 13,
                align=Qt.AlignCenter)
        right = left - 8


def title(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    x, y, w, h = b["rect"]
    d.write(x, y, w, h, b["text"], d.text, 20, True)


def text(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    x, y, w, h = b["rect"]
    d.write(x, y, w, h, b["text"], d.muted, 13)


def heading(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    x, y, w, h = b["rect"]
    d.fill(QRect(x, y + 8, 3, h - 14), d.accent)
    d.write(x + 10, y, w - 10, h, b["text"], d.text, 14, True)


# -- drawn images -----------------------------------------------------------
def landscape(d: Painter, rect: QRect, rng: random.Random, dusk: bool = False) -> None:
    """Sky, sun, two ranges of hills and water: a photo or a video frame."""
    x, y, w, h = rect.x(), rect.y(), rect.width(), rect.height()
    hue = 180 + rng.random() * 60
    sky = QLinearGradient(x, y, x, y + h)
    sky.setColorAt(0, d.tint(20 + rng.random() * 20, 0.8, 0.62) if dusk else d.tint(hue, 0.7, 0.78))
    sky.setColorAt(1, d.tint(280, 0.4, 0.4) if dusk else d.tint(hue + 10, 0.6, 0.55))
    d.p.fillRect(rect, sky)
    sun = x + w * (0.2 + rng.random() * 0.6)
    d.fill(QRectF(sun - h * 0.1, y + h * 0.2, h * 0.2, h * 0.2),
           QColor("#ffd27a" if dusk else "#fff6c8"), h * 0.1)
    ranges = ((0.62, 0.25, 0.30 if dusk else 0.45), (0.78, 0.15, 0.2 if dusk else 0.32))
    for base, amp, light in ranges:
        ridge = QPainterPath(QPointF(x, y + h))
        for i in range(9):
            ridge.lineTo(x + w * i / 8, y + h * base - rng.random() * amp * h)
        ridge.lineTo(x + w, y + h)
        ridge.closeSubpath()
        d.p.setPen(Qt.NoPen)
        d.p.setBrush(d.tint(hue + 60 + 20 * (base > 0.7), 0.28, light))
        d.p.drawPath(ridge)
    d.fill(QRectF(x, y + h * 0.86, w, h * 0.14 + 0.5), d.tint(hue, 0.45, 0.25 if dusk else 0.42))


def illustration(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    inner = d.panel(b["rect"])
    hue = rng.random() * 360
    cx, cy = inner.x() + 60, inner.center().y()
    d.fill(QRectF(cx - 42, cy - 36, 84, 56), d.tint(hue, 0.5, 0.55), 6)
    d.fill(QRectF(cx - 36, cy - 30, 72, 44), d.tint(hue, 0.6, 0.88), 3)
    d.fill(QRectF(cx - 10, cy + 20, 20, 10), d.tint(hue, 0.3, 0.45))
    d.fill(QRectF(cx - 22, cy + 30, 44, 5), d.tint(hue, 0.3, 0.45), 2)
    d.fill(QRectF(cx - 12, cy - 20, 24, 24), d.tint(hue + 40, 0.7, 0.6), 12)
    left, words = inner.x() + 132, b["words"]
    d.write(left, inner.y() + 8, inner.right() - left, 20, rng.choice(words["heads"]), d.text, 14,
            True)
    for i in range(2):
        d.write(left, inner.y() + 34 + 20 * i, inner.right() - left, 20,
                rng.choice(words["lines"]), d.muted)
    d.fill(QRectF(left, inner.y() + 84, 96, 26), d.surface, 4, d.border)
    d.write(left, inner.y() + 84, 96, 26, "Learn more", d.text, 12, align=Qt.AlignCenter)


def video(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    x, y, w, h = b["rect"]
    landscape(d, QRect(x, y, w, h), rng, rng.random() > 0.5)
    d.fill(QRectF(x, y + h - 34, w, 34), QColor(0, 0, 0, 140))
    d.fill(QRectF(x + 12, y + h - 12, w - 24, 3), QColor(255, 255, 255, 90))
    d.fill(QRectF(x + 12, y + h - 12, (w - 24) * (0.1 + rng.random() * 0.7), 3), QColor("#ff4d4d"))
    d.fill(QRectF(x + w / 2 - 26, y + (h - 34) / 2 - 26, 52, 52), QColor(0, 0, 0, 128), 26)
    d.icon("play", x + w / 2 - 10, y + (h - 34) / 2 - 12, 24, QColor("#ffffff"))
    d.write(x + 12, y + h - 32, w - 24, 18, rng.choice(b["words"]["videos"]), QColor("#ffffff"), 12)


def photo(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    x, y, w, h = b["rect"]
    landscape(d, QRect(x, y, w, h), rng, rng.random() > 0.6)
    pen = QPen(QColor("#ffffff"), 1.5, Qt.DashLine)
    d.p.setPen(pen)
    d.p.setBrush(Qt.NoBrush)
    d.p.drawRect(QRectF(x + w * 0.1, y + h * 0.1, w * 0.8, h * 0.8))
    d.p.setPen(QPen(QColor(255, 255, 255, 128), 1))
    for i in (1, 2):
        d.p.drawLine(QPointF(x + w * (0.1 + 0.8 * i / 3), y + h * 0.1),
                     QPointF(x + w * (0.1 + 0.8 * i / 3), y + h * 0.9))
        d.p.drawLine(QPointF(x + w * 0.1, y + h * (0.1 + 0.8 * i / 3)),
                     QPointF(x + w * 0.9, y + h * (0.1 + 0.8 * i / 3)))


def thumbs(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    x, y, w, h = b["rect"]
    names = b["words"].get("videos", ["Item"])
    count = max(2, w // 170)
    tw = (w - (count - 1) * 12) // count
    th = min(int(tw * 0.6), h - 30)
    for i in range(count):
        left = x + i * (tw + 12)
        landscape(d, QRect(left, y, tw, th), rng)
        d.write(left, y + th + 4, tw, 18, rng.choice(names), d.muted, 12)


def _rows(d: Painter, b: dict[str, Any], row: int) -> tuple[QRect, int]:
    inner = d.panel(b["rect"])
    return inner, max(1, inner.height() // row)


def article(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    inner, count = _rows(d, b, 22)
    words = b["words"]
    lines = words.get("lines") or words.get("subjects") or words.get("code") or ["—"]
    d.write(inner.x(), inner.y(), inner.width(), 22,
            rng.choice(["Tips", "About", "Good to know", "Details"]), d.text, 14, True)
    for i in range(1, min(count, 8)):
        d.write(inner.x(), inner.y() + 22 * i, inner.width(), 22, rng.choice(lines), d.muted)


def stats(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    x, y, w, h = b["rect"]
    names = b["words"].get("stats", ["Total", "Active", "New", "Done"])
    count = max(2, min(4, w // 150))
    first, tw = rng.randrange(len(names)), (w - (count - 1) * 12) // count
    for i in range(count):
        left = x + i * (tw + 12)
        d.fill(QRectF(left + 0.5, y + 0.5, tw - 1, min(h, 96) - 1), d.surface, 6, d.border)
        d.write(left + 12, y + 8, tw - 24, 20, names[(first + i) % len(names)], d.muted, 12)
        d.write(left + 12, y + 30, tw - 24, 30, f"{rng.randint(100, 9999):,}", d.text, 22, True)
        up = rng.random() > 0.4
        d.write(left + 12, y + 62, tw - 24, 20, f"{'▲' if up else '▼'} {rng.random() * 12:.1f}%",
                QColor("#1e9e5a" if up else "#d64545"), 12)


def table(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    x, y, w, h = b["rect"]
    words = b["words"]
    columns = words["columns"][:max(3, (w - 36) // 90)]
    cw = (w - 36) // len(columns)
    d.fill(QRect(x, y, w, h), d.surface)
    grid = QColor(d.border)
    for r in range(h // 24):
        top = y + r * 24
        head = r == 0
        d.fill(QRect(x, top, 36, 24), d.bg)
        d.write(x, top, 36, 24, "" if head else str(r), d.muted, 11, align=Qt.AlignCenter)
        for c, name in enumerate(columns):
            left = x + 36 + c * cw
            if head:
                d.fill(QRect(left, top, cw, 24), d.bg)
                value = f"{chr(65 + c)}  {name}"
            elif c == 0:
                value = rng.choice(words["rows"])
            else:
                value = "—" if name == "Owner" else f"{rng.randint(100, 9099):,}"
            align = Qt.AlignLeft if c == 0 or head else Qt.AlignRight
            d.write(left + 6, top, cw - 12, 24, value, d.text, 12, head, align | Qt.AlignVCenter)
        d.fill(QRect(x, top + 23, w, 1), grid)
    for c in range(len(columns) + 1):
        d.fill(QRect(x + 36 + c * cw - 1 * (c > 0), y, 1, h), grid)
    d.p.setPen(QPen(d.accent, 2))
    d.p.setBrush(Qt.NoBrush)
    d.p.drawRect(QRect(x + 36 + cw, y + 48, cw - 1, 24))


def chart(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    inner = d.panel(b["rect"])
    labels = b["words"].get("series", ["A", "B", "C", "D", "E", "F", "G"])
    d.write(inner.x(), inner.y(), inner.width(), 20,
            rng.choice(["Sessions", "Revenue", "Totals", "Forecast"]), d.text, 14, True)
    top, bottom = inner.y() + 30, inner.bottom() - 18
    step = inner.width() / len(labels)
    line = QPainterPath()
    for i, label in enumerate(labels):
        value, cx = 0.2 + rng.random() * 0.75, inner.x() + (i + 0.5) * step
        bar = QColor(d.accent)
        bar.setAlphaF(0.35)
        d.fill(QRectF(cx - step / 4, bottom - value * (bottom - top), step / 2,
                      value * (bottom - top)), bar, 2)
        d.write(cx - step / 2, bottom + 2, step, 16, label, d.muted, 11, align=Qt.AlignCenter)
        point = QPointF(cx, bottom - (0.1 + rng.random() * 0.8) * (bottom - top))
        line.moveTo(point) if i == 0 else line.lineTo(point)
    d.p.setPen(QPen(d.accent, 2.5))
    d.p.setBrush(Qt.NoBrush)
    d.p.drawPath(line)


def graph(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    """A system monitor's history: CPU and memory over the last minute, on a grid."""
    inner = d.panel(b["rect"])
    d.write(inner.x(), inner.y(), inner.width(), 20, "CPU history", d.text, 14, True)
    area = QRectF(inner.x(), inner.y() + 28, inner.width(), inner.height() - 28)
    d.p.setPen(QPen(d.border, 1))
    for i in range(5):
        y = area.top() + area.height() * i / 4
        d.p.drawLine(QPointF(area.left(), y), QPointF(area.right(), y))
    for colour, level in ((d.accent, 0.35), (QColor("#e8833a"), 0.6)):
        path, value = QPainterPath(), level
        for i in range(31):
            value = min(0.95, max(0.05, value + (rng.random() - 0.5) * 0.2))
            point = QPointF(area.left() + area.width() * i / 30,
                            area.bottom() - value * area.height())
            path.moveTo(point) if i == 0 else path.lineTo(point)
        d.p.setPen(QPen(colour, 2))
        d.p.setBrush(Qt.NoBrush)
        d.p.drawPath(path)


def _listing(d: Painter, b: dict[str, Any], rng: random.Random,
             row: Callable[[QRect, random.Random], None], pitch: int = 28) -> None:
    inner, count = _rows(d, b, pitch)
    for i in range(count):
        top = inner.y() + i * pitch
        if i:
            d.fill(QRect(inner.x(), top, inner.width(), 1), d.border)
        row(QRect(inner.x(), top, inner.width(), pitch), rng)


def _at_right(d: Painter, r: QRect, note: str) -> None:
    """A row's muted note at its right end (a size, a time)."""
    d.write(r.right() - 90, r.y(), 90, r.height(), note, d.muted, 12,
            align=Qt.AlignRight | Qt.AlignVCenter)


def _clock(rng: random.Random, lo: int, hi: int) -> str:
    return f"{rng.randint(lo, hi)}:{rng.randint(0, 59):02d}"


def files(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    names = b["words"]["files"]

    def row(r: QRect, rng: random.Random) -> None:
        name = rng.choice(names)
        folder = "." not in name
        d.icon("folder" if folder else "file", r.x(), r.y() + 5, 18,
               d.accent if folder else d.muted)
        d.write(r.x() + 26, r.y(), r.width() - 120, r.height(), name)
        _at_right(d, r, f"{rng.randint(2, 40)} items" if folder
                  else f"{0.1 + rng.random() * 20:.1f} MB")

    _listing(d, b, rng, row)


def _avatar(d: Painter, x: float, y: float, name: str, rng: random.Random) -> None:
    d.fill(QRectF(x, y, 24, 24), d.tint(rng.random() * 360, 0.45, 0.55), 12)
    initials = "".join(part[0] for part in name.split())[:2]
    d.write(x, y, 24, 24, initials, QColor("#ffffff"), 10, True, Qt.AlignCenter)


def mails(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    words = b["words"]

    def row(r: QRect, rng: random.Random) -> None:
        name, unread = rng.choice(words["names"]), rng.random() > 0.6
        _avatar(d, r.x(), r.y() + 4, name, rng)
        d.write(r.x() + 32, r.y(), 110, r.height(), name, d.text, 13, unread)
        d.write(r.x() + 146, r.y(), r.width() - 200, r.height(), rng.choice(words["subjects"]),
                d.text if unread else d.muted, 13, unread)
        _at_right(d, r, _clock(rng, 8, 17))

    _listing(d, b, rng, row, 32)


def playlist(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    names, playing = b["words"]["names"], rng.randrange(4)
    state = {"i": 0}

    def row(r: QRect, rng: random.Random) -> None:
        i = state["i"]
        state["i"] += 1
        colour = d.accent if i == playing else d.text
        if i == playing:
            d.icon("play", r.x(), r.y() + 6, 16, colour)
        else:
            d.write(r.x(), r.y(), 20, r.height(), str(i + 1), d.muted, 12)
        d.write(r.x() + 28, r.y(), r.width() - 90, r.height(), rng.choice(names), colour, 13,
                i == playing)
        _at_right(d, r, _clock(rng, 2, 6))

    _listing(d, b, rng, row)


def processes(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    names = b["words"]["names"]
    state = {"head": True}

    def row(r: QRect, rng: random.Random) -> None:
        head, state["head"] = state["head"], False
        cells = (("Process", "PID", "CPU", "Memory") if head else
                 (rng.choice(names), str(rng.randint(100, 32000)), f"{rng.random() * 40:.1f}%",
                  f"{rng.randint(4, 900)} MB"))
        widths = (0.46, 0.18, 0.16, 0.2)
        left = r.x()
        for i, (cell, share) in enumerate(zip(cells, widths, strict=True)):
            width = r.width() * share
            align = (Qt.AlignRight if i else Qt.AlignLeft) | Qt.AlignVCenter
            d.write(left, r.y(), width - 6, r.height(), cell, d.muted if head else d.text, 12,
                    head, align)
            left += width

    _listing(d, b, rng, row, 24)


def code(d: Painter, b: dict[str, Any], rng: random.Random) -> None:
    x, y, w, h = b["rect"]
    d.fill(QRectF(x, y, w, h), QColor("#1e1f22"), 6)
    lines = b["words"]["code"]
    keywords = ("def", "class", "return", "for", "import", "if", "raise", "in")
    for i in range((h - 12) // 20):
        top = y + 6 + i * 20
        d.write(x + 6, top, 28, 20, str(i + 1), QColor("#6b6f76"), 12, align=Qt.AlignRight |
                Qt.AlignVCenter, mono=True)
        line = rng.choice(lines)
        first = line.strip().split(" ")[0].rstrip(":")
        colour = QColor("#cf8e6d") if first in keywords else QColor("#bcbec4")
        if line.strip().startswith(('"', "'")):
            colour = QColor("#6aab73")
        d.write(x + 44, top, w - 52, 20, line, colour, 12, mono=True)


PAINTERS: dict[str, Callable[[Painter, dict[str, Any], random.Random], None]] = {
    f.__name__: f for f in (titlebar, menubar, toolbar, statusbar, dock, dialog, title, text,
                            heading, illustration, video, photo, thumbs, article, stats, table,
                            chart, graph, files, mails, playlist, processes, code)}


class Canvas(QWidget):
    """The page under the controls: every block painted, no input taken."""

    def __init__(self, stage: QWidget, blocks: list[dict[str, Any]]) -> None:
        super().__init__(stage)
        unknown = sorted({b["kind"] for b in blocks} - set(PAINTERS))
        if unknown:
            raise ValueError(f"no Qt painter for page blocks {unknown}")
        self.blocks = blocks
        self.setAttribute(Qt.WA_TransparentForMouseEvents)
        self.setFocusPolicy(Qt.NoFocus)
        self.setGeometry(stage.rect())

    def paintEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        painter.setRenderHint(QPainter.TextAntialiasing)
        d = Painter(painter, self)
        for block in self.blocks:
            painter.save()
            # Each block's drawn values come from its seed alone (or its rect).
            PAINTERS[block["kind"]](d, block, random.Random(block.get("seed", 0)))
            painter.restore()
        painter.end()
