"""Knob: a round dial with an indicator, operated by dragging around its centre.

One action: press on the dial at p0 (the indicator tip, or anywhere on the dial,
which jumps the indicator there), drag, release at p1. The value is set by the
angle of p1 around the dial centre alone: 0 degrees at the top, clockwise, the
scale sweeping -135..+135 degrees, rounded to the nearest step; angles in the
bottom gap clamp to the nearer end, and p1 within a quarter radius of the centre
leaves the value as the drag last set it. The goal region is therefore a ring
sector (a wedge minus the centre), which no rectangle fills. Steps are sampled
so that every value owns a wedge of at least 7.5 degrees. On a phone a press
grabs the indicator tip within TOUCH_TARGET px around it (a wedge that fine
holds no finger-sized rectangle, so the tip is what is finger-sized).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from finestate_env.components.base import (
    Grab,
    RangeType,
    Sample,
    Slot,
    choose,
    sample_anchor,
    touch_size,
)
from finestate_env.components.measures import measure
from finestate_env.components.params import Anchor, Pixels, RangeParams
from finestate_env.core.schema import Instructions

# (min, max, step, unit): 12 to 36 steps each, fine-grained but each wedge >= 7.5 degrees.
_RANGES = (
    (0, 10, 0.5, ""), (0, 30, 1, " min"), (-12, 12, 1, " dB"), (0, 100, 5, "%"),
    (0, 360, 15, "°"), (16, 30, 0.5, " °C"), (0, 3, 0.1, "x"), (1, 4, 0.25, "x"),
    (-4, 4, 0.25, " EV"), (0, 1, 0.05, ""), (60, 180, 5, " BPM"), (0, 11, 0.5, ""),
)
_LABELS = ("Volume", "Gain", "Bass", "Treble", "Reverb", "Drive", "Mix", "Tempo",
           "Resonance", "Cutoff", "Intensity", "Fan speed")
_RADIUS = (50, 80)
_TIP = measure("knob", "tip")  # the indicator tip's dot, all a press on it grabs with a mouse


class KnobParams(RangeParams):
    radius: Pixels  # the dial's radius
    anchor: Anchor
    grab: Pixels | None = None  # on a phone: the finger-sized square around the indicator tip


class Knob(RangeType):
    name = "knob"
    params_model = KnobParams
    family = "numeric_range"
    gesture = "drag"
    goal_box_is_region = False
    touch_goal = "grab"
    aliases = ("Dial", "Rotary knob")
    siblings = True
    grab = Grab("core", "the dial")
    goal_region = "ring sector"
    # Qt's dial is drawn smaller than the web's: a shorter desktop slot.
    slots = {
        "web": Slot(target=276, distractor=276, min_width=236, narrow=True),
        "mobile": Slot(target=276, distractor=240, min_width=360),
        "desktop": Slot(target=250, distractor=250, min_width=236, narrow=True),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The control's label."""
        return params["label"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        lo, hi, step, unit = choose(rng, _RANGES)
        steps = round((hi - lo) / step)
        # The card is the dial plus ~120 px of label, ticks and readout: keep it on screen.
        radius_hi = max(_RADIUS[0], min(_RADIUS[1], (min(viewport) - 120) // 2))
        radius = int(rng.integers(_RADIUS[0], radius_hi + 1))
        top, current, goal = self.grid_pair(rng, lo, step, steps)
        params = {
            "label": choose(rng, _LABELS), "min": lo, "max": top,
            "step": step, "unit": unit, "radius": radius, "anchor": sample_anchor(rng),
        }
        if touch:
            params["grab"] = touch_size(_TIP, touch)
        return Sample(params, current, goal)

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        label = sample.params["label"]
        goal = self.describe(sample.goal_state, sample.params)
        locate = choose(rng, (f"Locate the {label} knob.", f"Find the dial for {label}.",
                              f"Where is the {label} knob?"))
        interact = choose(rng, (f"Turn the {label} knob to {goal}.", f"Set {label} to {goal}.",
                                f"Rotate the {label} dial until it reads {goal}."))
        return Instructions(locate=locate, interact=interact)
