"""rating, as a native Qt control (family C, specific data).

rating: a row of stars per item, each star two hit halves (5 stars, 0.5 steps)
or one (10 stars); a press and release on the same half sets that value, gaps do
nothing.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QPointF, QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPolygonF
from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout, QWidget

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control


class Stars(QWidget):
    """One item's stars: zones of width size/2 (half stars) or size, gaps between stars."""

    def __init__(self, parent: QWidget, stars: int, step: float, size: int, gap: int,
                 value: float) -> None:
        super().__init__(parent)
        self.stars, self.step, self.size, self.gap, self.value = stars, step, size, gap, value
        self.setFixedSize(stars * size + (stars - 1) * gap, size)
        self.pressed_zone = None

    def zone_rect(self, value: float) -> QRect:
        """The local rect whose click sets `value`."""
        k = round(value / self.step)
        if self.step == 0.5:
            star, half = (k - 1) // 2, (k - 1) % 2
            return QRect(star * (self.size + self.gap) + half * self.size // 2, 0,
                         self.size // 2, self.size)
        return QRect((k - 1) * (self.size + self.gap), 0, self.size, self.size)

    def zone_at(self, x: int, y: int) -> float | None:
        for k in range(1, round(self.stars / self.step) + 1):
            value = k * self.step
            if self.zone_rect(value).contains(x, y):
                return value
        return None

    def mousePressEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        p = event.position().toPoint()
        self.pressed_zone = self.zone_at(p.x(), p.y())

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        p = event.position().toPoint()
        zone = self.zone_at(p.x(), p.y())
        if zone is not None and zone == self.pressed_zone:
            self.value = int(zone) if float(zone).is_integer() else zone
            self.update()
        self.pressed_zone = None

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        painter.setPen(Qt.NoPen)
        gold, empty = QColor("#f5a623"), self.palette().color(QPalette.Mid)
        for i in range(self.stars):
            x = i * (self.size + self.gap)
            star = _star(x, self.size)
            painter.setBrush(empty)
            painter.drawPolygon(star)
            filled = min(1.0, max(0.0, self.value - i))
            if filled > 0:
                painter.setClipRect(QRect(x, 0, round(self.size * filled), self.size))
                painter.setBrush(gold)
                painter.drawPolygon(star)
                painter.setClipping(False)
        painter.end()


def _star(x: int, size: int) -> QPolygonF:
    cx, cy, outer, inner = x + size / 2, size / 2 + 1, size / 2 - 1, size / 5
    points = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = math.pi / 5 * i - math.pi / 2
        points.append(QPointF(cx + r * math.cos(a), cy + r * math.sin(a)))
    return QPolygonF(points)


class RatingControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        self.rows, self.stars = [], []
        for i, label in enumerate(p["labels"]):
            row = QWidget(self.card)
            inline = p["layout"] == "inline"
            layout = QHBoxLayout(row) if inline else QVBoxLayout(row)
            layout.setContentsMargins(0, 0, 0, 0)
            name = kit.TextLabel(label, row)
            if inline:
                name.setFixedWidth(p["label_width"])
            layout.addWidget(name)
            value = state if i == p["target"] else (p["values"][i] or 0)
            stars = Stars(row, p["stars"], p["step"], p["size"], p["gap"], value)
            layout.addWidget(stars)
            layout.addStretch(1)
            self.card.add(row)
            self.rows.append(row)
            self.stars.append(stars)

    def state(self) -> Any:
        return self.stars[self.params["target"]].value

    def snapshot(self) -> Any:
        return [stars.value for stars in self.stars]

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        stars = self.stars[self.params["target"]]
        value = stars.value
        now = (kit.box_of(stars, stars.zone_rect(value)) if value else
               kit.box_of(stars, stars.zone_rect(stars.step)))
        return {"loc": kit.box_of(self.rows[self.params["target"]]), "core": kit.box_of(stars),
                "goal": kit.box_of(stars, stars.zone_rect(goal)), "now": now}


CONTROL = RatingControl
