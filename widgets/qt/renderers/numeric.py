"""Family A, numeric range, as native Qt controls.

slider: a QSlider over the type's grid indices. Under Fusion, a press on the
groove pages by one page step instead of jumping, so the drag starts on the
handle; the handle then follows the pointer with the offset of the press inside
it (QSlider::mouseMoveEvent), and the goal box is the band of release x that
maps to the goal for a press at the centre pixel of the handle (`now`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QDial,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QSlider,
    QStyle,
    QStyleOptionSlider,
    QStyleOptionSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from widgets.qt import kit
from widgets.qt.control import Control


def _fmt(value: float, step: float, unit: str) -> str:
    text = f"{step:.10f}".rstrip("0")
    decimals = len(text.split(".")[1]) if "." in text else 0
    return f"{value:.{decimals}f}{unit}"


def slider_geometry(slider: QSlider) -> tuple[Any, Any, int, int]:
    """(groove, handle, sliderMin, span) in the slider's own coordinates, as
    QSliderPrivate::pixelPosToRangeValue computes them."""
    opt = QStyleOptionSlider()
    slider.initStyleOption(opt)
    style = slider.style()
    groove = style.subControlRect(QStyle.CC_Slider, opt, QStyle.SC_SliderGroove, slider)
    handle = style.subControlRect(QStyle.CC_Slider, opt, QStyle.SC_SliderHandle, slider)
    lo = groove.x()
    hi = groove.right() - handle.width() + 1
    return groove, handle, lo, hi - lo


class _GridReadout(Control):
    """A Qt range widget (`self.value_widget`) over grid indices, its value shown in
    `self.readout`: the state is the grid value of the widget's index."""

    def _show(self) -> None:
        p = self.params
        self.readout.setText(_fmt(self.state(), p["step"], p["unit"]))

    def state(self) -> Any:
        p = self.params
        return kit.grid_value(p["min"], p["step"], self.value_widget.value())


class SliderControl(_GridReadout):
    title_key = "label"

    def build(self, state: Any) -> None:
        p = self.params
        self.steps = kit.grid_index(p["max"], p["min"], p["step"])
        self.slider = QSlider(Qt.Horizontal, self.card)
        self.slider.setRange(0, self.steps)
        self.slider.setPageStep(max(1, self.steps // 10))
        self.slider.setValue(kit.grid_index(state, p["min"], p["step"]))
        # The handle's travel (span) equals the sampled track length.
        _, handle, _, _ = slider_geometry(self.slider)
        self.slider.setFixedWidth(p["track"] + handle.width())
        self.slider.setFixedHeight(max(24, handle.height() + 4))
        self.readout = QLabel(self.card)
        self.slider.valueChanged.connect(self._show)
        self.value_widget = self.slider
        self._show()
        self.card.add(self.slider)
        self.card.add(self.readout)

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        p = self.params
        return {"loc": kit.box_of(self.card),
                **_slider_boxes(self.slider, self.steps, kit.grid_index(goal, p["min"],
                                                                        p["step"]))}


RENDERERS = {"slider": SliderControl}


def _decimals(step: float) -> int:
    text = f"{step:.10f}".rstrip("0")
    return len(text.split(".")[1]) if "." in text else 0


def _clock(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


class SeekBarControl(Control):
    """seek_bar: a player card whose seek bar is a QSlider over the position grid;
    as for the slider, the drag starts on the handle (a groove press pages)."""

    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.steps = p["duration"] // p["step"]
        self.card.add(QLabel(p["subtitle"], self.card))
        if p["poster"]:
            poster = QLabel(self.card)
            poster.setFixedSize(p["poster"] * 16 // 9, p["poster"])
            poster.setAutoFillBackground(True)
            poster.setBackgroundRole(QPalette.Dark)
            self.card.add(poster)
        row = QWidget(self.card)
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        self.play = QToolButton(row)
        self.play.setArrowType(Qt.RightArrow)
        self.play.setFocusPolicy(Qt.NoFocus)
        self.elapsed = QLabel(row)
        self.elapsed.setFixedWidth(48)
        self.slider = QSlider(Qt.Horizontal, row)
        self.slider.setRange(0, self.steps)
        self.slider.setPageStep(max(1, self.steps // 10))
        self.slider.setValue(state // p["step"])
        _, handle, _, _ = slider_geometry(self.slider)
        self.slider.setFixedWidth(p["track"] + handle.width())
        self.slider.setFixedHeight(max(24, handle.height() + 4))
        total = QLabel(_clock(p["duration"]), row)
        for widget in (self.play, self.elapsed, self.slider, total):
            layout.addWidget(widget)
        layout.addStretch(1)
        self.slider.valueChanged.connect(self._show)
        self._show()
        self.card.add(row)

    def _show(self) -> None:
        self.elapsed.setText(_clock(self.state()))

    def state(self) -> Any:
        return self.slider.value() * self.params["step"]

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        return {"loc": kit.box_of(self.card),
                **_slider_boxes(self.slider, self.steps, goal // self.params["step"])}


def _slider_boxes(slider: QSlider, steps: int, goal_k: int) -> dict[str, kit.Box]:
    """core, now and goal of a horizontal QSlider dragged from its handle's centre pixel."""
    _, handle, lo, span = slider_geometry(slider)
    now = kit.box_of(slider, handle)
    core = kit.box_of(slider)
    origin_x = kit.global_point(slider, 0, 0)[0]
    click_offset = kit.center_pixel(now)[0] - now[0]

    def value_at(x: int) -> int:
        return QStyle.sliderValueFromPosition(0, steps, x - origin_x - click_offset - lo, span)

    return {"core": core, "now": now,
            "goal": kit.band(core, range(core[0], core[2] + 1), lambda x: value_at(x) == goal_k)}


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


class KnobControl(_GridReadout):
    """knob: a QDial over the grid indices. A press and every move set the value from
    the pointer's angle (Qt's 300-degree sweep; no dead centre), so the value
    follows p1 alone and the goal region is a wedge: the goal box is the largest
    rectangle inside it, away from the centre where one pixel swings the angle."""

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
        self.readout = QLabel(self.card)
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


class StepperControl(Control):
    """stepper: one QSpinBox / QDoubleSpinBox per field. Fusion stacks the up and
    down arrows at the field's right end; one press on an arrow is one step.
    The goal box is the arrow toward the goal; in the target configuration,
    where no arrow moves toward it, it is the value's edit field."""

    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        self.spins, self.rows = [], []
        for i, field in enumerate(p["fields"]):
            value = state if i == p["target"] else field["value"]
            row = QWidget(self.card)
            inline = p["layout"] == "inline"
            layout = QHBoxLayout(row) if inline else QVBoxLayout(row)
            layout.setContentsMargins(0, 0, 0, 0)
            layout.addWidget(QLabel(field["label"], row), 1)
            decimals = _decimals(field["step"])
            spin = QDoubleSpinBox(row)
            spin.setDecimals(decimals)
            spin.setRange(field["min"], field["max"])
            spin.setSingleStep(field["step"])
            spin.setSuffix(field["unit"])
            spin.setValue(value)
            spin.setFocusPolicy(Qt.NoFocus)
            spin.setFixedSize(p["field"] + p["button"], p["height"])
            layout.addWidget(spin)
            self.card.add(row)
            self.rows.append(row)
            self.spins.append(spin)

    def state(self) -> Any:
        field = self.params["fields"][self.params["target"]]
        spin = self.spins[self.params["target"]]
        return kit.grid_value(field["min"], field["step"],
                              kit.grid_index(spin.value(), field["min"], field["step"]))

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        t = self.params["target"]
        spin = self.spins[t]
        opt = QStyleOptionSpinBox()
        spin.initStyleOption(opt)
        style = spin.style()
        up = style.subControlRect(QStyle.CC_SpinBox, opt, QStyle.SC_SpinBoxUp, spin)
        down = style.subControlRect(QStyle.CC_SpinBox, opt, QStyle.SC_SpinBoxDown, spin)
        edit = style.subControlRect(QStyle.CC_SpinBox, opt, QStyle.SC_SpinBoxEditField, spin)
        field = self.params["fields"][t]
        k_goal = kit.grid_index(goal, field["min"], field["step"])
        k_now = kit.grid_index(self.state(), field["min"], field["step"])
        aim = up if k_goal > k_now else down if k_goal < k_now else edit
        arrows = up.united(down)
        return {"loc": kit.box_of(self.rows[t]), "core": kit.box_of(spin, arrows),
                "goal": kit.box_of(spin, aim), "now": kit.box_of(spin, edit)}


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
        self.card.add(QLabel(p["subtitle"], self.card))
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


RENDERERS.update({"knob": KnobControl, "stepper": StepperControl, "seek_bar": SeekBarControl,
                  "chart_point": ChartPointControl})
