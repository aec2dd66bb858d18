"""Date picker: a labelled date field with its month calendar open below it.

One action: click the goal day's cell. The goal is another day of the month the
calendar shows (the current date's month), so one click reaches it; the popup
stays open afterwards, so the target configuration has the same layout. Days of
the neighbouring months are greyed and ignore clicks; the header arrows change
only the shown month, never the state.

Episodes of several gestures (env `max_actions=K`): the goal may lie m = n - 1 months
before or after the current date's, n drawn from 1..K, on a day from the 15th to the
21st, a day that no six-week grid shows among a neighbouring month's greyed days (on
the web they ignore clicks; Qt's would select them). The oracle clicks the month arrow
toward it m times, then the day: n gestures (`oracle_actions`). While the goal's month
is not shown, the goal box is that arrow and `now` is the date field (the selected
day's cell is in another month).
"""

from __future__ import annotations

import calendar
import re
from datetime import date
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
    touch_size,
)
from finestate_env.components.measures import measure
from finestate_env.components.params import Anchor, Params, Pixels, Text
from finestate_env.core.schema import Instructions

_LABELS = ("Departure", "Return", "Due date", "Birthday", "Start date", "End date", "Check-in",
           "Check-out", "Delivery date", "Appointment", "Deadline", "Invoice date")
_FORMATS = ("iso", "dmy", "us", "long")  # how the field writes the date; see date_picker.js
_YEARS = (2020, 2030)
_CELL_PX = (32, 40)
# The popup's side padding with a mouse, inside a 1 px border (web/measures.js).
_POPUP_PAD_X = measure("date_picker", "pad")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")
_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# A far goal's day: never among the greyed days of a neighbouring month in a six-week
# grid (at most 7 leading days, >= the 22nd, and 14 trailing ones, <= the 14th).
_FAR_DAYS = (15, 21)
_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")


def _parse(state: Any) -> date | None:
    """The date of a well-formed ISO "YYYY-MM-DD" state, else None."""
    if not isinstance(state, str) or not _ISO.fullmatch(state):
        return None
    try:
        return date.fromisoformat(state)
    except ValueError:
        return None


class DatePickerParams(Params):
    label: Text  # the date field's label
    week_start: Annotated[int, Field(strict=True, ge=0, le=1)]  # 0: Sunday first, 1: Monday
    format: Literal["iso", "dmy", "us", "long"]  # how the field writes the date
    cell: Pixels  # a day cell's size
    anchor: Anchor
    pad: Pixels | None = None  # on a phone: the popup's side padding
    nav: Pixels | None = None  # on a phone: the month arrows' size


class DatePicker(ComponentType):
    name = "date_picker"
    params_model = DatePickerParams
    family = "specific_data"
    gesture = "tap"
    code_size = 3
    aliases = ("Calendar",)
    # A phone's six weeks of finger-sized cells do not shrink: the slot keeps
    # the calendar's own height, which fits.
    slots = {
        "web": Slot(target=402, narrow=True),
        "mobile": Slot(target=466),
        "desktop": Slot(target=402, narrow=True),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The control's label."""
        return params["label"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        year = int(rng.integers(_YEARS[0], _YEARS[1] + 1))
        month = int(rng.integers(1, 13))
        days = calendar.monthrange(year, month)[1]
        current, goal = distinct_pair(rng, 1, days + 1)  # any day of the month but the current one
        # Six weeks of cells plus about 160 px of label, field, header and padding.
        fit = min((viewport[0] - 60) // 7, (viewport[1] - 180) // 6)
        cell = max(20, min(fit, int(rng.integers(_CELL_PX[0], _CELL_PX[1] + 1))))
        params = {
            "label": choose(rng, _LABELS), "week_start": choose(rng, (0, 1)),
            "format": choose(rng, _FORMATS), "cell": touch_size(cell, touch),
            "anchor": sample_anchor(rng),
        }
        if touch:
            # Seven finger-sized cells take 336 of the 344 px a 360 px phone leaves:
            # the popup's side padding gives way, and the month arrows grow too.
            free = viewport[0] - 2 * STAGE_MARGIN - 2 - 7 * params["cell"]
            params.update(pad=max(0, min(_POPUP_PAD_X, free // 2)), nav=TOUCH_TARGET)
        return Sample(params, date(year, month, current).isoformat(),
                      date(year, month, goal).isoformat())

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        """Two new days of the month shown: the calendar shows the current date's month, so
        the month (the grid of days) is kept and only the selected day changes on screen."""
        shown = _parse(sample.current_state)
        days = calendar.monthrange(shown.year, shown.month)[1]
        current, goal = distinct_pair(rng, 1, days + 1)
        return Sample(sample.params, shown.replace(day=current).isoformat(),
                      shown.replace(day=goal).isoformat())

    def far_goal(self, rng: np.random.Generator, sample: Sample, reach: int) -> Sample:
        """A day m = n - 1 months away, n drawn from 1..reach, before or after."""
        n = int(rng.integers(1, reach + 1))
        if n == 1:
            return sample
        current = _parse(sample.current_state)
        index = current.year * 12 + current.month - 1 + choose(rng, (-1, 1)) * (n - 1)
        day = int(rng.integers(_FAR_DAYS[0], _FAR_DAYS[1] + 1))
        return Sample(sample.params, sample.current_state,
                      date(index // 12, index % 12 + 1, day).isoformat())

    def oracle_actions(self, params: dict[str, Any], current: Any, goal: Any) -> int:
        """A click per month to turn, then the day's."""
        a, b = _parse(current), _parse(goal)
        if a is None or b is None:
            return 1
        return abs((b.year - a.year) * 12 + b.month - a.month) + 1

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        return _parse(a) is not None and _parse(b) is not None and a == b

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [(year - 2000) / 100, (month - 1) / 11, (day - 1) / 30]."""
        day = _parse(state)
        return [(day.year - 2000) / 100, (day.month - 1) / 11, (day.day - 1) / 30]

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """min(1, |days between the two dates| / 366): a year or more apart is 1."""
        a, b = _parse(state), _parse(goal)
        if a is None or b is None:
            return 1.0
        return min(1.0, abs((a - b).days) / 366)

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        label = sample.params["label"]
        goal = _parse(sample.goal_state)
        month = _MONTHS[goal.month - 1]
        locate = choose(rng, (f"Locate the {label} date picker.",
                              f"Find the {label} field and its calendar.",
                              f"Where is the calendar for {label}?"))
        interact = choose(rng, (
            f"Pick {goal.day} {month} {goal.year}.",
            f"Set {label} to {goal.isoformat()}.",
            f"Choose {_WEEKDAYS[goal.weekday()]}, {goal.day} {month} {goal.year}.",
            f"Change {label} to {month} {goal.day}, {goal.year}.",
        ))
        return Instructions(locate=locate, interact=interact)
