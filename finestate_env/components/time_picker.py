"""Time picker: a labelled time field with its Material-style clock popup open in minute mode.

One action: one click on the dial. The hour is fixed (the header shows it, but
the popup stays in minute mode and the header does not switch modes); the
minute is set by the click's angle around the dial centre alone: 0 degrees at
12 o'clock, clockwise, minute = round(angle / 6) mod 60, so each minute owns a
6 degree wedge. Only clicks on the dial ring count, between 35 % of the dial
radius and the radius; the centre and anything off the dial change nothing,
nor do the inert Cancel/OK buttons. The popup stays open, so the target
configuration has the same layout. The goal region is a ring sector, which no
rectangle fills (goal_box_is_region is False). The state is "HH:MM" (24 h).
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import Field

from finestate_env.components.base import (
    STAGE_MARGIN,
    TOUCH_TARGET,
    ComponentType,
    Sample,
    Slot,
    choose,
    distinct_pair,
    sample_anchor,
)
from finestate_env.components.measures import measure
from finestate_env.components.params import Anchor, Params, Pixels, Text
from finestate_env.core.schema import Instructions

_LABELS = ("Alarm", "Meeting start", "Reminder", "Wake-up", "Departure", "Pickup",
           "Lunch break", "Check-in", "Bedtime", "Class start", "Shift end", "Delivery slot")
_TITLES = ("Select time", "Set time", "Pick a time", "Enter time")
_RADIUS = (100, 130)
_MIN_RADIUS = 40
# Fixed parts of the two layouts (see time_picker.css), in CSS px. Portrait:
# label 20 + 4, field 36, popup gap 4, borders 2, padding 24, title 20 + 8,
# header 52 + 12, dial margin 12, buttons 32; width: padding 32 + borders 2 (the
# widths are web/measures.js's, which time_picker.js sets).
_PORTRAIT = {"height": 226, "width": measure("time_picker", "portrait_width")}
# Landscape (header and buttons in a 120 px column left of the dial, 16 px gap):
# height besides the dial: label, field, gap, borders, padding = 90.
_LANDSCAPE = {"height": 90, "width": measure("time_picker", "landscape_width")}
# ASCII digits only: re's \d takes any script's digits (Arabic-Indic ones, say), which
# int() reads as well.
_STATE = re.compile(r"([01][0-9]|2[0-3]):[0-5][0-9]")


def _valid(state: Any) -> bool:
    return isinstance(state, str) and _STATE.fullmatch(state) is not None


class TimePickerParams(Params):
    label: Text  # the time field's label
    title: Text  # the popup's title
    hour: Annotated[int, Field(strict=True, ge=0, le=23)]  # the fixed hour the header shows
    radius: Pixels  # the dial's radius
    layout: Literal["portrait", "landscape"]  # header above the dial or beside it
    anchor: Anchor
    knob: Pixels | None = None  # on a phone: the selector knob's size


class TimePicker(ComponentType):
    name = "time_picker"
    params_model = TimePickerParams
    family = "specific_data"
    gesture = "tap"
    code_size = 2
    goal_box_is_region = False
    # A minute's wedge is 6 degrees wide, fine along both axes away from the four
    # quarter hours (no axis-aligned box in it is a finger long): on a phone the
    # knob, Material's 48 dp selector handle, is what is finger-sized.
    touch_goal = "grab"
    aliases = ()
    goal_region = "ring sector"
    # Qt's time list (10 x 56 px) has one width whatever the sampler draws:
    # a shorter desktop slot, not the narrow column.
    slots = {
        "web": Slot(target=502, narrow=True),
        "mobile": Slot(target=360),
        "desktop": Slot(target=285),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The control's label."""
        return params["label"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        hour = int(rng.integers(24))
        current, goal = distinct_pair(rng, 0, 60)  # any minute but the current one
        wanted = int(rng.integers(_RADIUS[0], _RADIUS[1] + 1))
        free_w = viewport[0] - 2 * STAGE_MARGIN
        free_h = viewport[1] - 2 * STAGE_MARGIN
        fit_portrait = min(free_h - _PORTRAIT["height"], free_w - _PORTRAIT["width"]) // 2
        fit_landscape = min(free_h - _LANDSCAPE["height"], free_w - _LANDSCAPE["width"]) // 2
        # Portrait as on a phone held upright; a short viewport gets the landscape
        # layout (header beside the dial) when that leaves the larger dial.
        layout = "portrait" if fit_portrait >= min(wanted, fit_landscape) else "landscape"
        fit = fit_portrait if layout == "portrait" else fit_landscape
        radius = max(_MIN_RADIUS, min(wanted, fit))
        params = {
            "label": choose(rng, _LABELS), "title": choose(rng, _TITLES), "hour": hour,
            "radius": radius, "layout": layout, "anchor": sample_anchor(rng),
        }
        if touch:
            params["knob"] = TOUCH_TARGET
        return Sample(params, f"{hour:02d}:{current:02d}", f"{hour:02d}:{goal:02d}")

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        """Two new minutes of the hour shown (the header's hour is fixed)."""
        hour = sample.params["hour"]
        current, goal = distinct_pair(rng, 0, 60)
        return Sample(sample.params, f"{hour:02d}:{current:02d}", f"{hour:02d}:{goal:02d}")

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        return _valid(a) and _valid(b) and a == b

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [hour / 23, minute / 59]."""
        return [int(state[:2]) / 23, int(state[3:]) / 59]

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """Minutes between the two times round the clock (the shorter way) / 720."""
        if not (_valid(state) and _valid(goal)):
            return 1.0
        minutes = [int(value[:2]) * 60 + int(value[3:]) for value in (state, goal)]
        apart = abs(minutes[0] - minutes[1])
        return min(apart, 1440 - apart) / 720

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        label = sample.params["label"]
        goal = sample.goal_state
        hour, minute = int(goal[:2]), int(goal[3:])
        twelve = f"{(hour + 11) % 12 + 1}:{minute:02d} {'AM' if hour < 12 else 'PM'}"
        locate = choose(rng, (f"Locate the {label} time picker.",
                              f"Find the {label} field and its clock.",
                              f"Where is the clock dial for {label}?"))
        interact = choose(rng, (
            f"Set {label} to {goal}.",
            f"Pick {goal} on the {label} clock.",
            f"Change the {label} time to {goal}.",
            f"Make {label} {twelve}.",
            f"Keep the hour and set the minutes of {label} to {minute:02d} ({goal}).",
        ))
        return Instructions(locate=locate, interact=interact)
