"""What the numeric range controls share (family A, numeric range).

`GridReadout`: a Qt range widget over the type's grid indices with its value shown
beside it (slider, knob). `grid_slider` and `slider_boxes`: a horizontal QSlider
over grid indices, dragged from its handle (slider, seek_bar). Under Fusion, a press on the groove
pages by one page step instead of jumping, so the drag starts on the handle; the
handle then follows the pointer with the offset of the press inside it
(QSlider::mouseMoveEvent).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSlider, QStyle, QStyleOptionSlider, QWidget

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control


def _fmt(value: float, step: float, unit: str) -> str:
    return f"{value:.{kit.decimals(step)}f}{unit}"


class GridReadout(Control):
    """A Qt range widget (`self.value_widget`) over grid indices, its value shown in
    `self.readout`: the state is the grid value of the widget's index."""

    def _show(self) -> None:
        p = self.params
        self.readout.setText(_fmt(self.state(), p["step"], p["unit"]))

    def state(self) -> Any:
        p = self.params
        return kit.grid_value(p["min"], p["step"], self.value_widget.value())


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


def grid_slider(parent: QWidget, steps: int, k: int, track: int) -> QSlider:
    """A horizontal QSlider over grid indices 0..steps showing k, paging a tenth; its
    handle's travel (span) equals the sampled track length."""
    slider = QSlider(Qt.Horizontal, parent)
    slider.setRange(0, steps)
    slider.setPageStep(max(1, steps // 10))
    slider.setValue(k)
    _, handle, _, _ = slider_geometry(slider)
    slider.setFixedWidth(track + handle.width())
    slider.setFixedHeight(max(24, handle.height() + 4))
    return slider


def slider_boxes(slider: QSlider, steps: int, goal_k: int) -> dict[str, kit.Box]:
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
