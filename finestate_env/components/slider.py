"""Slider: a horizontal track with a thumb, operated by dragging.

One action: press on the control (the thumb, or anywhere on the track, which
jumps the thumb there) at p0, drag, release at p1. The value is set by p1's x
alone, rounded to the nearest step, so the goal region is a vertical band of the
track. Steps are sampled so that every value owns at least 5 px of track.
On a phone the band a finger presses is TOUCH_TARGET px tall, the thumb in its middle.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from finestate_env.components.base import (
    STAGE_MARGIN,
    Grab,
    RangeType,
    Sample,
    Slot,
    choose,
    sample_anchor,
    step_decimals,
    touch_size,
)
from finestate_env.components.measures import measure
from finestate_env.components.params import Anchor, Pixels, RangeParams
from finestate_env.core.schema import Instructions

# (min, max, step, unit, labels): fine-grained ranges as in FineState-Bench,
# each with labels that make sense for its unit.
_RANGES = (
    (0, 100, 1, "%", ("Volume", "Brightness", "Opacity", "Battery saver", "Contrast")),
    (0, 10, 0.1, "", ("Sensitivity", "Smoothing", "Weight", "Priority")),
    (-20, 20, 0.5, " dB", ("Gain", "Bass", "Treble", "Input level")),
    (10, 35, 0.5, " °C", ("Temperature", "Target temperature", "Eco setpoint")),
    (0, 200, 2, " px", ("Border width", "Padding", "Line height", "Spacing")),
    (1, 5, 0.05, "x", ("Zoom", "Playback speed", "Magnification")),
    (0, 120, 1, " min", ("Timeout", "Sleep timer", "Auto-lock", "Duration")),
    (0, 1, 0.01, "", ("Threshold", "Alpha", "Mix", "Confidence")),
    (-3, 3, 0.1, " EV", ("Exposure", "Exposure compensation")),
    (0, 360, 5, "°", ("Rotation", "Hue", "Angle")),
)
_PX_PER_STEP = (5.0, 12.0)
_THUMB = measure("slider", "thumb")  # the thumb's size and, with a mouse, the hit band's height
_CARD_CHROME = 2 * 16 + 2 * 1  # the card's padding and border, left and right (stage.css)


class SliderParams(RangeParams):
    track: Pixels  # the track's length
    anchor: Anchor
    hit: Pixels | None = None  # on a phone: the height of the band a finger presses


class Slider(RangeType):
    name = "slider"
    params_model = SliderParams
    family = "numeric_range"
    gesture = "drag"
    touch_goal = "band"
    aliases = ()
    siblings = True
    grab = Grab("core", "the slider's track or thumb")
    slots = {
        "web": Slot(target=122, distractor=122, min_width=360),
        "mobile": Slot(target=130, distractor=130, min_width=360),
        "desktop": Slot(target=122, distractor=122, min_width=360),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The control's label."""
        return params["label"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        lo, hi, step, unit, labels = choose(rng, _RANGES)
        steps = round((hi - lo) / step)
        # On a phone the slider spans the screen less the card's padding and
        # border and the thumb's width beside the track (a 360 px phone: 290 px
        # of track); elsewhere it leaves room around it as it always did.
        reserve = 2 * STAGE_MARGIN + _CARD_CHROME + _THUMB if touch else 260
        max_track = min(1000, viewport[0] - reserve)
        px_per_step = float(rng.uniform(*_PX_PER_STEP))
        track = int(min(max_track, max(200, steps * px_per_step)))
        if track / steps < _PX_PER_STEP[0]:  # too many steps for the viewport: coarser grid
            factor = int(np.ceil(_PX_PER_STEP[0] * steps / track))
            # Rounded to the step's own decimals: 0.1 * 3 is 0.30000000000000004 in
            # binary, and the control would write all of those digits.
            step, steps = round(step * factor, step_decimals(step)), steps // factor
        top, current, goal = self.grid_pair(rng, lo, step, steps)
        params = {
            "label": choose(rng, labels), "min": lo, "max": top,
            "step": step, "unit": unit, "track": track, "anchor": sample_anchor(rng),
        }
        if touch:
            params["hit"] = touch_size(_THUMB, touch)
        return Sample(params, current, goal)

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        label = sample.params["label"]
        goal = self.describe(sample.goal_state, sample.params)
        locate = choose(rng, (f"Locate the {label} slider.", f"Find the slider for {label}.",
                              f"Where is the {label} control?"))
        interact = choose(rng, (f"Set {label} to {goal}.", f"Drag the {label} slider to {goal}.",
                                f"Adjust {label} so that it reads {goal}."))
        return Instructions(locate=locate, interact=interact)
