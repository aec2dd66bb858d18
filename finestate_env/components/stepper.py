"""Stepper: a card of 2-4 labelled numeric fields, each with a "-" and a "+" button.

Each row reads [label] [value] [-|+] (or the label above the field): the two
buttons sit side by side right after the value field, so they form one
contiguous box. One action: hover p0, click p1. A click on a field's "+" adds
one step to that field, a click on its "-" removes one (a disabled button at
min or max does nothing); the value never leaves the field's step grid or its
[min, max] range. The goal is exactly one step away from the current value of
the target field (up or down, never past min/max), so one click on the right
button of the right field reaches it. The other fields are real steppers too,
but the state is the target's value alone: the field is found by its label.

Episodes of several gestures (env `max_actions=K`): the goal is n steps away, n drawn
from 1..K, in a direction with room for n steps (a field shorter than that gives the
farthest value it has), and the oracle takes n clicks on the same button
(`oracle_actions`). The goal box always is the button toward the goal, so it shows the
next click of the shortest route; `reach` on the renderers counts the clicks left.

Boxes: core is the target's pair of buttons, goal the one button that moves
toward the goal, now the target's value display, loc the card. In the target
configuration (the field already shows the goal) no button moves toward it, so
the goal box there is the value display, where a click changes nothing.

On a phone (touch) the buttons and the field are at least TOUCH_TARGET CSS px
high and the buttons that wide; a card too narrow to put the label beside them
stacks it above.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from pydantic import model_validator

from finestate_env.components.base import (
    STAGE_MARGIN,
    ComponentType,
    Sample,
    Slot,
    choose,
    direction_with_room,
    grid_code,
    grid_distance,
    on_grid_index,
    same_grid_point,
    sample_anchor,
    step_decimals,
    touch_size,
)
from finestate_env.components.params import (
    Anchor,
    Index,
    Num,
    Params,
    Pixels,
    RangeParams,
    Text,
    list_of,
)
from finestate_env.core.schema import Instructions

# A field: (label, min, max options, step options, unit). The range is sampled
# from the options and cut down to whole steps.
_GROUPS = (
    ("Guests", (("Adults", 1, (6, 8, 10), (1,), ""), ("Children", 0, (4, 6, 8), (1,), ""),
                ("Infants", 0, (2, 3, 4), (1,), ""), ("Rooms", 1, (4, 5, 8), (1,), ""),
                ("Pets", 0, (2, 3), (1,), ""))),
    ("Order", (("Quantity", 1, (20, 50, 99), (1,), ""), ("Gift cards", 0, (5, 10), (1,), ""),
               ("Extra boxes", 0, (10, 20), (1, 2), ""), ("Discount", 0, (50,), (5, 2.5), " %"))),
    ("Print settings", (("Copies", 1, (10, 50, 99), (1,), ""),
                        ("Scale", 25, (200, 400), (5, 1), " %"),
                        ("Margin", 0, (50,), (0.5, 1), " mm"),
                        ("Line spacing", 1, (3,), (0.1, 0.05, 0.25), ""))),
    ("Dimensions", (("Width", 10, (200, 300), (0.5, 1, 5), " cm"),
                    ("Height", 10, (200, 250), (0.5, 1, 5), " cm"),
                    ("Depth", 5, (80, 100), (0.5, 1), " cm"),
                    ("Border", 0, (10,), (0.1, 0.25), " cm"))),
    ("Climate", (("Temperature", 16, (28, 30), (0.5, 0.1), " °C"),
                 ("Humidity", 30, (70, 80), (1, 5), " %"),
                 ("Fan level", 0, (5, 6), (1,), ""),
                 ("Eco offset", -3, (3,), (0.5, 0.25), " °C"))),
    ("Text style", (("Font size", 8, (72, 96), (0.5, 1, 2), " pt"),
                    ("Letter spacing", -2, (5,), (0.1, 0.25), " px"),
                    ("Line height", 1, (3,), (0.05, 0.1), ""),
                    ("Indent", 0, (10,), (0.5, 0.25), " em"))),
    ("Workout", (("Sets", 1, (10, 12), (1,), ""), ("Reps", 1, (30, 50), (1,), ""),
                 ("Weight", 0, (150, 200), (0.5, 1, 2.5, 5), " kg"),
                 ("Rest", 0, (300,), (5, 15), " s"))),
    ("Timer", (("Hours", 0, (12, 23), (1,), ""), ("Minutes", 0, (59,), (1, 5), ""),
               ("Seconds", 0, (59,), (1, 5, 15), ""), ("Rounds", 1, (10, 20), (1,), ""))),
)
_COUNT = (2, 4)
_BUTTON = (30, 40)  # button width; the height is the row's control height
_HEIGHT = (30, 38)
_CHAR_PX = 9  # a generous digit width in the themes' 14 px fonts
_PADDING = 2 * 16 + 2  # card padding and border, horizontally
_LABEL_MIN = 110
_ROW_PADDING = 12  # a row's vertical padding
_STACKED_LABEL = 24  # the label above the field in the stacked layout, and its margin
_CHROME_HEIGHT = 2 + 24 + 20 + 4  # card border and padding, title and its margin


def _one_step(rng: np.random.Generator, spec: dict[str, Any]) -> tuple[float, float]:
    """(current, goal) of a field: any value, and one step from it, up or down where both
    are in range."""
    n = int(round((spec["max"] - spec["min"]) / spec["step"]))
    decimals = step_decimals(spec["step"])
    current_k = int(rng.integers(n + 1))
    if current_k == 0:
        goal_k = 1
    elif current_k == n:
        goal_k = n - 1
    else:
        goal_k = current_k + choose(rng, (-1, 1))
    return (round(spec["min"] + current_k * spec["step"], decimals),
            round(spec["min"] + goal_k * spec["step"], decimals))


class StepperField(RangeParams):
    """One field of the card: its label, its grid min + k * step up to max, and its value."""

    value: Num | None  # null for the target field (its value is the instance's state)

    @model_validator(mode="after")
    def _value_in_range(self) -> StepperField:
        if self.value is not None and not self.min <= self.value <= self.max:
            raise ValueError(f"a field's value must lie in [min, max] = [{self.min}, "
                             f"{self.max}], got {self.value}")
        return self


class StepperParams(Params):
    title: Text
    fields: list_of(StepperField, 1, _COUNT[1])
    target: Index  # the field whose value is the state
    layout: Literal["inline", "stacked"]  # the label beside the controls, or above them
    button: Pixels  # a "-" or "+" button's width
    height: Pixels  # a row's control height
    field: Pixels  # the value field's width
    width: Pixels  # the card's width
    anchor: Anchor

    @model_validator(mode="after")
    def _target_and_values(self) -> StepperParams:
        if self.target >= len(self.fields):
            raise ValueError(f"target must index fields (0 to {len(self.fields) - 1}), "
                             f"got {self.target}")
        labels = [f.label for f in self.fields]
        if len(set(labels)) != len(labels):
            raise ValueError(f"the fields' labels must be distinct, got {labels}")
        for i, f in enumerate(self.fields):
            if i != self.target and f.value is None:
                raise ValueError(f"fields[{i}].value must be a number: only the target's "
                                 f"(fields[{self.target}]) is null")
        return self


class Stepper(ComponentType):
    name = "stepper"
    params_model = StepperParams
    family = "numeric_range"
    gesture = "tap"
    aliases = ("Steeper", "Spin box", "Number stepper")  # "Steeper": the released records' spelling
    siblings = True
    slots = {
        "web": Slot(target=346, distractor=220, min_width=360),
        "mobile": Slot(target=318, distractor=150, min_width=360),
        "desktop": Slot(target=300, distractor=220, min_width=360),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The label of the field to step."""
        return params["fields"][params["target"]]["label"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        title, pool = choose(rng, _GROUPS)
        count = int(rng.integers(_COUNT[0], _COUNT[1] + 1))
        picks = sorted(int(i) for i in rng.choice(len(pool), size=min(count, len(pool)),
                                                  replace=False))
        fields = []
        for i in picks:
            label, lo, his, steps, unit = pool[i]
            step = choose(rng, steps)
            hi = choose(rng, his)
            n = int(round((hi - lo) / step))
            decimals = step_decimals(step)
            fields.append({"label": label, "min": lo, "max": round(lo + n * step, decimals),
                           "step": step, "unit": unit,
                           "value": round(lo + int(rng.integers(n + 1)) * step, decimals)})
        button = int(rng.integers(_BUTTON[0], _BUTTON[1] + 1))
        height = int(rng.integers(_HEIGHT[0], _HEIGHT[1] + 1))
        chars = max(len(self._text(f[k], f)) for f in fields for k in ("min", "max"))
        field = chars * _CHAR_PX + 24 + int(rng.integers(0, 25))
        room = viewport[0] - 2 * STAGE_MARGIN - _PADDING
        # Room for the label beside the controls is asked with the drawn buttons first,
        # so that a seed draws the same numbers on a phone, then with a finger's.
        inline = room >= _LABEL_MIN + 12 + field + 2 * button and bool(rng.integers(4))
        button, height = touch_size(button, touch), touch_size(height, touch)
        controls = field + 2 * button
        inline = inline and room >= _LABEL_MIN + 12 + controls
        least = _LABEL_MIN + 12 + controls if inline else max(controls, 140)
        width = int(min(room, least + int(rng.integers(0, 81))))
        # Shrink the value field if even the stacked layout is too wide.
        field = min(field, width - 2 * button)
        # A short viewport shortens the card: drop the last rows that do not fit.
        row = height + _ROW_PADDING + (0 if inline else _STACKED_LABEL)
        fits = max(1, (viewport[1] - 2 * STAGE_MARGIN - _CHROME_HEIGHT) // row)
        fields = fields[:fits]

        target = int(rng.integers(len(fields)))
        current, goal = _one_step(rng, fields[target])
        fields[target]["value"] = None  # the target's value is the instance's state, given apart
        params = {
            "title": title, "fields": fields, "target": target, "layout":
            "inline" if inline else "stacked", "button": button, "height": height,
            "field": field, "width": width + _PADDING, "anchor": sample_anchor(rng),
        }
        return Sample(params, current, goal)

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        """A new value of the same named field, and one step from it; the other fields keep
        theirs (the named field is the control: Qt's `loc` is its row)."""
        params = sample.params
        current, goal = _one_step(rng, params["fields"][params["target"]])
        return Sample(params, current, goal)

    def far_goal(self, rng: np.random.Generator, sample: Sample, reach: int) -> Sample:
        """n steps away, n drawn from 1..reach, up or down where both have room."""
        n = int(rng.integers(1, reach + 1))
        if n == 1:
            return sample
        field = sample.params["fields"][sample.params["target"]]
        last = round((field["max"] - field["min"]) / field["step"])
        k = on_grid_index(sample.current_state, field["min"], field["step"])
        direction, n = direction_with_room(rng, n, back=k, ahead=last - k)
        goal = round(field["min"] + (k + direction * n) * field["step"],
                     step_decimals(field["step"]))
        return Sample(sample.params, sample.current_state, goal)

    def oracle_actions(self, params: dict[str, Any], current: Any, goal: Any) -> int:
        """One click a step."""
        field = params["fields"][params["target"]]
        a = on_grid_index(current, field["min"], field["step"])
        b = on_grid_index(goal, field["min"], field["step"])
        return 1 if a is None or b is None else max(1, abs(a - b))

    @staticmethod
    def _text(value: float, field: dict[str, Any]) -> str:
        return f"{value:.{step_decimals(field['step'])}f}{field['unit']}"

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        field = params["fields"][params["target"]]
        n = int(round((field["max"] - field["min"]) / field["step"]))
        return same_grid_point(a, b, field["min"], field["step"], n)

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [k / n], the target field's step on its grid over the grid's last."""
        field = params["fields"][params["target"]]
        n = int(round((field["max"] - field["min"]) / field["step"]))
        return grid_code(state, field["min"], field["step"], n)

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """|steps between the values| / steps of the target field's range."""
        field = params["fields"][params["target"]]
        n = int(round((field["max"] - field["min"]) / field["step"]))
        return grid_distance(state, goal, field["min"], field["step"], n)

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        field = sample.params["fields"][sample.params["target"]]
        label, title = field["label"], sample.params["title"]
        goal = self.describe(sample.goal_state, sample.params)
        more = sample.goal_state > sample.current_state
        locate = choose(rng, (f"Locate the {label} stepper.",
                              f"Find the {label} counter in {title}.",
                              f"Where are the buttons for {label}?"))
        interact = choose(rng, (
            f"Set {label} to {goal}.",
            f"Change {label} to {goal}.",
            f"{'Increase' if more else 'Decrease'} {label} to {goal}.",
            f"Use the stepper to make {label} read {goal}.",
            f"In {title}, set {label} to {goal}.",
        ))
        return Instructions(locate=locate, interact=interact)

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        return self._text(state, params["fields"][params["target"]])
