"""Chart point: a small line chart whose points are edited by dragging them up or down.

The card shows a titled line chart: 5-8 categories on the x axis (months,
weekdays, years or weeks), a y axis with gridlines and tick labels, and one
point per category. Every point is draggable; the instance names the target
one, and the state is the target's value alone.

One action: press in the target point's column of the plot (on its marker, or
anywhere in the column, which jumps the point there) at p0, drag, release at
p1. The value is set by p1's y alone: the nearest value on the chart's step
grid, clamped to the axis range; p1's x does not matter once the drag has
begun (the pointer is captured). A press in another column drags that
column's point instead. The goal region in the target's column is therefore a
horizontal band of the column. Steps are sampled so that every value owns at
least 5 px of the y axis (a whole number of pixels per step). On a phone every
column is TOUCH_TARGET px wide or more, with fewer categories where the screen
is too narrow for them all.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from pydantic import StrictBool, model_validator

from finestate_env.components.base import (
    STAGE_MARGIN,
    TOUCH_TARGET,
    ComponentType,
    Grab,
    Sample,
    Slot,
    choose,
    distinct_pair,
    grid_code,
    grid_distance,
    same_grid_point,
    sample_anchor,
    step_decimals,
    touch_size,
)
from finestate_env.components.measures import measure
from finestate_env.components.params import (
    MAX_PIXELS,
    Anchor,
    Index,
    Num,
    Params,
    Pixels,
    Positive,
    Text,
    distinct_list_of,
    list_of,
)
from finestate_env.core.schema import Instructions

# (title, subtitle, min, max, tick interval, step options): gridlines at the ticks.
_SERIES = (
    ("Revenue", "In thousands of dollars", 0, 100, 20, (1, 2, 5)),
    ("Rainfall", "In millimetres", 0, 50, 10, (0.5, 1, 2)),
    ("Average temperature", "In degrees Celsius", -10, 30, 10, (0.5, 1, 2)),
    ("Conversion rate", "Percent of sessions", 0, 10, 2, (0.1, 0.2, 0.25, 0.5)),
    ("Visitors", "In thousands", 0, 200, 50, (2, 5, 10)),
    ("Orders", "Units sold", 0, 500, 100, (5, 10, 25)),
    ("Customer score", "Average rating out of 10", 0, 10, 2, (0.1, 0.2, 0.25, 0.5)),
    ("Uptime", "Percent of time online", 90, 100, 2, (0.1, 0.2, 0.25, 0.5)),
    ("CPU load", "Average, in percent", 0, 100, 25, (1, 2.5, 5)),
    ("Signups", "New accounts", 0, 60, 10, (1, 2, 5)),
    ("Energy use", "In kilowatt-hours", 0, 40, 10, (0.5, 1, 2)),
)
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_COUNT = (5, 8)
_COLUMN = (36, 80)  # px per category, even
_MIN_PX_PER_STEP = 5
_MAX_PX_PER_STEP = 14
_GUTTER = 44  # y tick labels
# Card height besides the plot's value range: border and padding, title,
# subtitle, body margin, plot paddings (at most: the larger above, with or without data
# labels, and the one below; web/measures.js), x labels.
_PADS = (max(measure("chart_point", "pad_top"), measure("chart_point", "pad_top_labels"))
         + measure("chart_point", "pad_bottom"))
_CHROME_HEIGHT = 2 + 24 + 20 + 20 + 8 + _PADS + 24
_CHROME_WIDTH = 2 + 32 + _GUTTER


def _categories(rng: np.random.Generator, count: int) -> tuple[list[str], list[str]]:
    """Axis labels and the names the instructions use, for `count` consecutive categories."""
    kind = choose(rng, ("months", "weekdays", "years", "weeks"))
    if kind == "months":
        start = int(rng.integers(0, 12 - count + 1))
        names = list(_MONTHS[start:start + count])
        return [n[:3] for n in names], names
    if kind == "weekdays":
        count = min(count, 7)
        names = list(_WEEKDAYS[:count])
        return [n[:3] for n in names], names
    if kind == "years":
        start = int(rng.integers(2012, 2020))
        names = [str(start + i) for i in range(count)]
        return names, names
    start = int(rng.integers(1, 40))
    return [f"W{start + i}" for i in range(count)], [f"week {start + i}" for i in range(count)]


class ChartPointParams(Params):
    title: Text
    subtitle: Text
    min: Num  # the y axis's range and the values' grid min + k * step
    max: Num
    step: Positive
    tick: Positive  # the interval between gridlines
    px_per_step: Pixels  # the y axis's pixels per step
    labels: list_of(Text, 1, _COUNT[1])  # the x axis's category labels
    names: distinct_list_of(Text, 1, _COUNT[1])  # the categories as the instructions name them
    values: list_of(Num | None, 1, _COUNT[1])  # each point's value; null for the target's
    target: Index  # the point whose value is the state
    column: Pixels  # a category's width
    data_labels: StrictBool  # whether each point shows its value
    anchor: Anchor

    @model_validator(mode="after")
    def _points_on_the_axis(self) -> ChartPointParams:
        steps = (self.max - self.min) / self.step
        if not 1 <= round(steps) or abs(steps - round(steps)) > 1e-6:
            raise ValueError(f"max - min must be a whole number of steps, at least 1, got "
                             f"({self.max} - {self.min}) / {self.step} = {steps:g}")
        if not 1 <= self.px_per_step or round(steps) * self.px_per_step > MAX_PIXELS:
            raise ValueError(f"px_per_step must be at least 1 and the axis (steps * "
                             f"px_per_step) at most {MAX_PIXELS} px, got {round(steps)} * "
                             f"{self.px_per_step}")
        if self.tick < self.step:
            raise ValueError(f"tick must be at least step ({self.step}), got {self.tick}")
        count = len(self.labels)
        if len(self.names) != count or len(self.values) != count:
            raise ValueError(f"labels, names and values must be as long as each other, got "
                             f"{count}, {len(self.names)} and {len(self.values)}")
        if self.target >= count:
            raise ValueError(f"target must index labels (0 to {count - 1}), got {self.target}")
        for i, value in enumerate(self.values):
            if i != self.target and (value is None or not self.min <= value <= self.max):
                raise ValueError(f"values[{i}] must be a number in [min, max] = [{self.min}, "
                                 f"{self.max}] (only the target's is null), got {value}")
        return self


class ChartPoint(ComponentType):
    name = "chart_point"
    params_model = ChartPointParams
    family = "numeric_range"
    gesture = "drag"
    touch_goal = "band"
    aliases = ("Chart", "Line chart", "Chart points")
    grab = Grab("core", "the target point's column")
    # Qt draws the y axis beside the plot the sampler sized: 10 px less wide.
    slots = {
        "web": Slot(target=452),
        "mobile": Slot(target=360),
        "desktop": Slot(target=452, pad=(10, 0)),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The name of the target point's category."""
        return params["names"][params["target"]]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        title, subtitle, lo, hi, tick, step_options = choose(rng, _SERIES)
        max_height = min(300, viewport[1] - 2 * STAGE_MARGIN - _CHROME_HEIGHT)
        fitting = [s for s in step_options
                   if round((hi - lo) / s) * _MIN_PX_PER_STEP <= max_height]
        step = choose(rng, fitting or [max(step_options)])
        steps = int(round((hi - lo) / step))
        fewest = max(_MIN_PX_PER_STEP, math.ceil(120 / steps))
        most = max(_MIN_PX_PER_STEP, min(_MAX_PX_PER_STEP, max_height // steps))
        px_per_step = int(rng.integers(min(fewest, most), most + 1))
        labels, names = _categories(rng, int(rng.integers(_COUNT[0], _COUNT[1] + 1)))
        room = viewport[0] - 2 * STAGE_MARGIN - _CHROME_WIDTH
        if touch:  # the first categories that fit a finger's columns
            labels, names = labels[:room // TOUCH_TARGET], names[:room // TOUCH_TARGET]
        count = len(labels)
        fit = room // count
        column = 2 * (min(fit, int(rng.integers(_COLUMN[0], _COLUMN[1] + 1))) // 2)
        column = touch_size(column, touch)
        # A random walk on the step grid, so the line looks like data.
        walk = [int(rng.integers(steps // 5, steps - steps // 5 + 1))]
        for _ in range(count - 1):
            move = int(rng.integers(-(steps // 4), steps // 4 + 1))
            walk.append(min(steps, max(0, walk[-1] + move)))
        target = int(rng.integers(count))
        current_k, goal_k = distinct_pair(rng, 0, steps + 1)  # any value but the current one
        decimals = step_decimals(step)
        values: list[float | None] = [round(lo + k * step, decimals) for k in walk]
        values[target] = None  # the target's value is the instance's state, given apart
        params = {
            "title": title, "subtitle": subtitle, "min": lo, "max": hi, "step": step, "tick": tick,
            "px_per_step": px_per_step, "labels": labels, "names": names, "values": values,
            "target": target, "column": column, "data_labels": bool(rng.integers(2)),
            "anchor": sample_anchor(rng),
        }
        return Sample(params, round(lo + current_k * step, decimals),
                      round(lo + goal_k * step, decimals))

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        """Two new values of the same named point; the other points keep theirs."""
        params = sample.params
        lo, step = params["min"], params["step"]
        current_k, goal_k = distinct_pair(rng, 0, int(round((params["max"] - lo) / step)) + 1)
        decimals = step_decimals(step)
        return Sample(params, round(lo + current_k * step, decimals),
                      round(lo + goal_k * step, decimals))

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        steps = int(round((params["max"] - params["min"]) / params["step"]))
        return same_grid_point(a, b, params["min"], params["step"], steps)

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [k / n], the point's value step over the axis's last step."""
        steps = int(round((params["max"] - params["min"]) / params["step"]))
        return grid_code(state, params["min"], params["step"], steps)

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """|steps between the two values| / steps of the axis range."""
        steps = int(round((params["max"] - params["min"]) / params["step"]))
        return grid_distance(state, goal, params["min"], params["step"], steps)

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        params = sample.params
        name, title = params["names"][params["target"]], params["title"]
        goal = self.describe(sample.goal_state, params)
        locate = choose(rng, (f"Locate the {name} point in the {title} chart.",
                              f"Find the data point for {name}.",
                              f"Where is the {name} value on the {title} chart?"))
        interact = choose(rng, (
            f"Drag the {name} point to {goal}.",
            f"Set {name}'s value to {goal}.",
            f"Move the {name} data point so that it reads {goal}.",
            f"In the {title} chart, set {name} to {goal}.",
            f"Change the value for {name} to {goal}.",
        ))
        return Instructions(locate=locate, interact=interact)

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        return f"{state:.{step_decimals(params['step'])}f}"
