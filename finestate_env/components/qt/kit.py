"""What the Qt renderers share: themes, the card and its labels, placement, grid
arithmetic and box measurement.

Boxes are `[x1, y1, x2, y2]` in screen pixels with inclusive edges, measured
from Qt's own geometry (`mapToGlobal`, `QStyle.subControlRect`). The stage
window covers the screen from its origin, so screen pixels are screenshot pixels.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QFrame,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

# The web stage's margin (web/measures.js): no control is placed in the outer 8 px.
from finestate_env.components.base import STAGE_MARGIN

Box = list[int]

# The web themes' colours (widgets/web/stage.css): background, surface, border,
# text, muted text, accent, text on accent. Qt draws its own controls (Fusion),
# so only colours and fonts carry over; CSS sizes and radii do not.
THEME_COLOURS = {
    "classic-light": ("#f4f5f7", "#ffffff", "#d5dae1", "#1f2933", "#52606d", "#2f80ed", "#ffffff"),
    "material-light": ("#fafafa", "#ffffff", "#e0e0e0", "#202124", "#5f6368", "#1a73e8",
                       "#ffffff"),
    "bootstrap-light": ("#e9ecef", "#ffffff", "#ced4da", "#212529", "#6c757d", "#0d6efd",
                        "#ffffff"),
    "fluent-dark": ("#202020", "#2b2b2b", "#454545", "#ffffff", "#c5c5c5", "#60cdff", "#000000"),
}
THEME_FONTS = {"classic-light": "DejaVu Sans", "material-light": "DejaVu Sans",
               "bootstrap-light": "Liberation Sans", "fluent-dark": "DejaVu Sans Condensed"}
FONT_PIXELS = 13


def palette(theme: str) -> QPalette:
    bg, surface, border, text, muted, accent, on_accent = (
        QColor(c) for c in THEME_COLOURS.get(theme, THEME_COLOURS["classic-light"]))
    pal = QPalette()
    for role, colour in ((QPalette.Window, bg), (QPalette.Base, surface),
                         (QPalette.AlternateBase, bg), (QPalette.Button, surface),
                         (QPalette.WindowText, text), (QPalette.Text, text),
                         (QPalette.ButtonText, text), (QPalette.Highlight, accent),
                         (QPalette.HighlightedText, on_accent), (QPalette.Mid, border),
                         (QPalette.PlaceholderText, muted), (QPalette.ToolTipText, text),
                         (QPalette.ToolTipBase, surface), (QPalette.Light, surface),
                         (QPalette.Midlight, surface), (QPalette.Dark, border),
                         (QPalette.Shadow, border), (QPalette.Link, accent),
                         (QPalette.BrightText, on_accent)):
        pal.setColor(role, colour)
    pal.setColor(QPalette.Disabled, QPalette.Text, muted)
    pal.setColor(QPalette.Disabled, QPalette.ButtonText, muted)
    pal.setColor(QPalette.Disabled, QPalette.WindowText, muted)
    return pal


def font(theme: str) -> QFont:
    f = QFont(THEME_FONTS.get(theme, "DejaVu Sans"))
    f.setPixelSize(FONT_PIXELS)
    f.setHintingPreference(QFont.PreferFullHinting)
    return f


class Card(QFrame):
    """The frame every control sits in: a title on top, then the control's rows."""

    def __init__(self, host: QWidget, title: str | None = None) -> None:
        super().__init__(host)
        self.setObjectName("card")
        self.setFrameShape(QFrame.StyledPanel)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.Base)
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(16, 12, 16, 12)
        self.layout_.setSpacing(8)
        if title:
            self.layout_.addWidget(heading(title, self))

    def add(self, widget: QWidget, stretch: int = 0) -> QWidget:
        self.layout_.addWidget(widget, stretch)
        return widget


class TextLabel(QLabel):
    """A QLabel that shows its text as text. A plain QLabel guesses (Qt.AutoText) and draws
    anything that looks like markup ("<b>x</b>", "<img src=...>") as rich text: an
    instance's labels are data, never markup (components/domain.py)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.setTextFormat(Qt.TextFormat.PlainText)


def heading(text: str, parent: QWidget) -> QLabel:
    """A label in bold: a card's title."""
    label = TextLabel(text, parent)
    bold = label.font()
    bold.setBold(True)
    label.setFont(bold)
    return label


def muted(text: str, parent: QWidget) -> QLabel:
    """A label in the theme's muted text colour."""
    label = TextLabel(text, parent)
    label.setForegroundRole(QPalette.PlaceholderText)
    return label


def title_row(parent: QWidget, title: str, note: str) -> QWidget:
    """A card's title row: the title in bold on the left, a muted note on the right."""
    row = QWidget(parent)
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    title_label, note_label = heading(title, row), muted(note, row)
    layout.addWidget(title_label)
    layout.addStretch(1)
    layout.addWidget(note_label)
    return row


def place(card: QWidget, stage: QWidget, anchor: list[float]) -> None:
    """Put `card` at anchor * free space, on whole pixels, as the web stage does."""
    card.adjustSize()
    free_x = max(0, stage.width() - card.width() - 2 * STAGE_MARGIN)
    free_y = max(0, stage.height() - card.height() - 2 * STAGE_MARGIN)
    card.move(STAGE_MARGIN + round(anchor[0] * free_x), STAGE_MARGIN + round(anchor[1] * free_y))
    card.show()


def global_rect(widget: QWidget, rect: QRect | None = None) -> QRect:
    """`rect` (widget coordinates; default the whole widget) in screen coordinates."""
    rect = QRect(rect) if rect is not None else widget.rect()
    rect.moveTopLeft(widget.mapToGlobal(rect.topLeft()))
    return rect


def box_of(widget: QWidget, rect: QRect | None = None) -> Box:
    """The inclusive pixel box of `widget` (or of `rect` inside it) on screen."""
    r = global_rect(widget, rect)
    return [r.x(), r.y(), r.x() + r.width() - 1, r.y() + r.height() - 1]


def global_point(widget: QWidget, x: int, y: int) -> tuple[int, int]:
    p = widget.mapToGlobal(QPoint(x, y))
    return p.x(), p.y()


def band(area: Box, xs: range | list[int], ok: Callable[[int], bool], axis: int = 0) -> Box:
    """The longest run of coordinates along `axis` (0: x, 1: y) inside `area` where
    `ok(coordinate)` holds, as a box spanning `area` the other way.

    For regions that depend on one coordinate alone (a slider value, a list slot).
    """
    best: tuple[int, int] | None = None
    run_start = None
    coords = list(xs)
    for i, c in enumerate(coords + [None]):
        good = c is not None and ok(c)
        if good and run_start is None:
            run_start = i
        if not good and run_start is not None:
            if best is None or i - run_start > best[1] - best[0] + 1:
                best = (run_start, i - 1)
            run_start = None
    if best is None:
        raise ValueError("no coordinate of the area reaches the goal")
    lo, hi = coords[best[0]], coords[best[1]]
    if axis == 0:
        return [lo, area[1], hi, area[3]]
    return [area[0], lo, area[2], hi]


def largest_box(area: Box, mask) -> Box:
    """Largest rectangle of integer points inside `area` on which `mask` (a boolean
    array, rows y and columns x of `area`) holds everywhere: the maximal rectangle
    in a binary matrix, by histograms, as the web stage measures non-rectangular
    regions (a knob's ring sector)."""
    ax1, ay1, ax2, ay2 = area
    width = ax2 - ax1 + 1
    heights = [0] * width
    best, best_area = None, 0
    for y in range(ay1, ay2 + 1):
        row = mask[y - ay1]
        for i in range(width):
            heights[i] = heights[i] + 1 if row[i] else 0
        stack: list[int] = []
        for i in range(width + 1):
            h = heights[i] if i < width else 0
            while stack and heights[stack[-1]] >= h:
                height = heights[stack.pop()]
                left = stack[-1] + 1 if stack else 0
                size = height * (i - left)
                if size > best_area:
                    best_area = size
                    best = [ax1 + left, y - height + 1, ax1 + i - 1, y]
            stack.append(i)
    if best is None:
        raise ValueError("no point of the area reaches the goal")
    return best


def union(boxes: list[Box]) -> Box:
    """The smallest box holding every box of `boxes`."""
    return [min(b[0] for b in boxes), min(b[1] for b in boxes),
            max(b[2] for b in boxes), max(b[3] for b in boxes)]


def center_pixel(box: Box) -> tuple[int, int]:
    """The pixel the oracle and the audit press for a box: floor of its centre."""
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


def decimals(step: float) -> int:
    """How many decimals the step is written with (0.05: 2, 5: 0)."""
    text = f"{step:.10f}".rstrip("0")
    return len(text.split(".")[1]) if "." in text else 0


def grid_value(lo: float, step: float, k: int) -> float:
    """The value of grid index k, written with the step's decimals (as the type samples)."""
    places = decimals(step)
    value = round(lo + k * step, places)
    return int(value) if places == 0 and float(value).is_integer() else value


def grid_index(value: Any, lo: float, step: float) -> int:
    return round((float(value) - lo) / step)


def round_cells(distance: int, size: int) -> int:
    """round(distance / size) with halves up, as JS Math.round, in exact integers."""
    return (2 * distance + size) // (2 * size)


class SquareChoice(QAbstractButton):
    """A fixed-size square that is one choice of an exclusive group (a carousel's dot, a
    colour swatch); the subclass paints it."""

    def __init__(self, parent: QWidget, size: int) -> None:
        super().__init__(parent)
        self.setCheckable(True)
        self.setAutoExclusive(True)
        self.setFocusPolicy(Qt.NoFocus)
        self.setFixedSize(size, size)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        return self.size()
