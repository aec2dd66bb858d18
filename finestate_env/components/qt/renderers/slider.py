"""slider, as a native Qt control (family A, numeric range).

slider: a QSlider over the type's grid indices. Under Fusion, a press on the
groove pages by one page step instead of jumping, so the drag starts on the
handle; the handle then follows the pointer with the offset of the press inside
it (QSlider::mouseMoveEvent), and the goal box is the band of release x that
maps to the goal for a press at the centre pixel of the handle (`now`).
"""

from __future__ import annotations

from typing import Any

from finestate_env.components.qt import kit
from finestate_env.components.qt.renderers.ranges import GridReadout, grid_slider, slider_boxes


class SliderControl(GridReadout):
    title_key = "label"

    def build(self, state: Any) -> None:
        p = self.params
        self.steps = kit.grid_index(p["max"], p["min"], p["step"])
        self.slider = grid_slider(self.card, self.steps,
                                  kit.grid_index(state, p["min"], p["step"]), p["track"])
        self.readout = kit.TextLabel(self.card)
        self.slider.valueChanged.connect(self._show)
        self.value_widget = self.slider
        self._show()
        self.card.add(self.slider)
        self.card.add(self.readout)

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        p = self.params
        return {"loc": kit.box_of(self.card),
                **slider_boxes(self.slider, self.steps, kit.grid_index(goal, p["min"],
                                                                       p["step"]))}


CONTROL = SliderControl
