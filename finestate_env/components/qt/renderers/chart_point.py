"""chart_point, as a native Qt control (family A, numeric range).

chart_point: a plot drawn by hand (ChartPlot): columns of categories, a y axis on
the step grid. A press in a column grabs that column's point; while the button
is down its value follows the pointer's y, rounded to the step and clamped to
the axis. The goal box is the band of the target's column whose y maps to the goal.
"""

from __future__ import annotations

import math
from typing import Any

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QPainter, QPalette, QPen
from PySide6.QtWidgets import QWidget

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control


class ChartPlot(QWidget):
    """The plot of chart_point: columns of categories, a y axis on the step grid.
    A press in a column grabs that column's point; while the button is down its
    value follows the pointer's y, rounded to the step and clamped to the axis."""

    def __init__(self, parent: QWidget, params: dict[str, Any], values: list[float]) -> None:
        super().__init__(parent)
        self.p = params
        self.values = values
        self.steps = kit.grid_index(params["max"], params["min"], params["step"])
        self.top, self.left = 10, 44
        self.height_px = self.steps * params["px_per_step"]
        self.setFixedSize(self.left + len(values) * params["column"] + 8,
                          self.top + self.height_px + 30)
        self.grabbed: int | None = None

    def y_of(self, k: int) -> int:
        return self.top + self.height_px - k * self.p["px_per_step"]

    def k_at(self, y: int) -> int:
        t = (self.top + self.height_px - y) / self.p["px_per_step"]
        return max(0, min(self.steps, math.floor(t + 0.5)))

    def column_rect(self, i: int) -> QRect:
        return QRect(self.left + i * self.p["column"], self.top, self.p["column"],
                     self.height_px + 1)

    def point_rect(self, i: int) -> QRect:
        k = kit.grid_index(self.values[i], self.p["min"], self.p["step"])
        cx = self.left + i * self.p["column"] + self.p["column"] // 2
        return QRect(cx - 4, self.y_of(k) - 4, 9, 9)

    def mousePressEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        pos = event.position().toPoint()
        self.grabbed = next((i for i in range(len(self.values))
                             if self.column_rect(i).contains(pos)), None)
        self._follow(pos.y())

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        self._follow(event.position().toPoint().y())

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        self._follow(event.position().toPoint().y())
        self.grabbed = None

    def _follow(self, y: int) -> None:
        if self.grabbed is not None:
            self.values[self.grabbed] = kit.grid_value(self.p["min"], self.p["step"],
                                                       self.k_at(y))
            self.update()

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        pal = self.palette()
        painter.setPen(pal.color(QPalette.Mid))
        tick_k = kit.grid_index(self.p["min"] + self.p["tick"], self.p["min"], self.p["step"])
        for k in range(0, self.steps + 1, max(1, tick_k)):
            y = self.y_of(k)
            painter.drawLine(self.left, y, self.width() - 8, y)
            painter.drawText(QRect(0, y - 8, self.left - 6, 16), Qt.AlignRight | Qt.AlignVCenter,
                             f"{kit.grid_value(self.p['min'], self.p['step'], k):g}")
        painter.setPen(pal.color(QPalette.WindowText))
        for i, label in enumerate(self.p["labels"]):
            painter.drawText(QRect(self.left + i * self.p["column"], self.top + self.height_px + 6,
                                   self.p["column"], 20), Qt.AlignHCenter, label)
        painter.setPen(QPen(pal.color(QPalette.Highlight), 2))
        centres = [self.point_rect(i).center() for i in range(len(self.values))]
        for a, b in zip(centres, centres[1:], strict=False):
            painter.drawLine(a, b)
        painter.setBrush(pal.color(QPalette.Highlight))
        for i in range(len(self.values)):
            painter.drawRect(self.point_rect(i).adjusted(0, 0, -1, -1))
        painter.end()


class ChartPointControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.add(kit.TextLabel(p["subtitle"], self.card))
        values = [state if i == p["target"] else v for i, v in enumerate(p["values"])]
        self.plot = ChartPlot(self.card, p, values)
        self.card.add(self.plot)

    def state(self) -> Any:
        return self.plot.values[self.params["target"]]

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        p, t = self.params, self.params["target"]
        core = kit.box_of(self.plot, self.plot.column_rect(t))
        oy = kit.global_point(self.plot, 0, 0)[1]
        goal_k = kit.grid_index(goal, p["min"], p["step"])
        return {"loc": kit.box_of(self.card), "core": core,
                "now": kit.box_of(self.plot, self.plot.point_rect(t)),
                "goal": kit.band(core, range(core[1], core[3] + 1),
                                 lambda y: self.plot.k_at(y - oy) == goal_k, axis=1)}


CONTROL = ChartPointControl
