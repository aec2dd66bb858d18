"""knob, as a native Qt control (family A, numeric range).

knob: a QDial over the grid indices. A press and every move set the value from
the pointer's angle (Qt's 300-degree sweep; no dead centre), so the value
follows p1 alone and the goal region is a wedge: the goal box is the largest
rectangle inside it, away from the centre where one pixel swings the angle.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDial

from finestate_env.components.qt import kit
from finestate_env.components.qt.renderers.ranges import GridReadout


def dial_values(dial: QDial, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """QDialPrivate::valueFromPoint (qdial.cpp) for points in the dial's coordinates,
    element-wise (a non-wrapping dial with minimum >= 0, as built here)."""
    yy = dial.height() / 2.0 - ys
    xx = xs - dial.width() / 2.0
    a = np.where((xx != 0) | (yy != 0), np.arctan2(yy, xx), 0.0)
    a = np.where(a < -np.pi / 2, a + 2 * np.pi, a)
    lo, hi = dial.minimum(), dial.maximum()
    # C's (int) cast truncates toward zero.
    v = np.trunc(0.5 + lo + (hi - lo) * (np.pi * 4 / 3 - a) / (np.pi * 5 / 3)).astype(int)
    return np.clip(v, lo, hi)


class KnobControl(GridReadout):
    title_key = "label"

    def build(self, state: Any) -> None:
        p = self.params
        self.steps = kit.grid_index(p["max"], p["min"], p["step"])
        self.dial = QDial(self.card)
        self.dial.setRange(0, self.steps)
        self.dial.setNotchesVisible(True)
        self.dial.setFocusPolicy(Qt.NoFocus)
        self.dial.setFixedSize(2 * p["radius"], 2 * p["radius"])
        self.dial.setValue(kit.grid_index(state, p["min"], p["step"]))
        self.readout = kit.TextLabel(self.card)
        self.dial.valueChanged.connect(self._show)
        self.value_widget = self.dial
        self._show()
        self.card.add(self.dial)
        self.card.add(self.readout)

    def _angle_point(self, k: int, fraction: float) -> tuple[int, int]:
        """The dial pixel at `fraction` of the radius in the direction of value k."""
        a = math.pi * 4 / 3 - (k / self.steps) * (math.pi * 5 / 3)
        r = self.dial.width() / 2.0
        return (int(self.dial.width() / 2.0 + fraction * r * math.cos(a)),
                int(self.dial.height() / 2.0 - fraction * r * math.sin(a)))

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        p = self.params
        goal_k = kit.grid_index(goal, p["min"], p["step"])
        core = kit.box_of(self.dial)
        ox, oy = kit.global_point(self.dial, 0, 0)
        radius = self.dial.width() / 2.0
        centre = (ox + radius, oy + radius)

        ys, xs = np.mgrid[core[1]:core[3] + 1, core[0]:core[2] + 1]
        # Beyond a quarter radius from the centre, and on the dial's disc.
        d = np.hypot(xs + 0.5 - centre[0], ys + 0.5 - centre[1])
        ok = (d >= radius / 4) & (d <= radius - 1) & (
            dial_values(self.dial, xs - ox, ys - oy) == goal_k)

        nx, ny = self._angle_point(self.dial.value(), 0.7)
        now = [ox + nx - 3, oy + ny - 3, ox + nx + 3, oy + ny + 3]
        return {"loc": kit.box_of(self.card), "core": core, "now": now,
                "goal": kit.largest_box(core, ok)}


CONTROL = KnobControl
