"""List box: a labelled dropdown field with its option list open below it.

One action: click the goal option's row. The list shows 6-14 options, all
visible (no scrolling); rows are full-width rectangles that tile the list edge
to edge, so a click anywhere on a row selects that option and the list stays
open (the target configuration has the same layout). Clicking the field, or
the list's thin top and bottom padding, changes nothing. The state is the
selected option's text; options are distinct within an instance.

Episodes of several gestures (env `max_actions=K`): the goal may lie below or above
the fold. The list then holds its whole pool of options (10-32) and shows them a page
at a time, `page` rows (two fewer than the one-gesture list, so the list keeps its
height), between a "more above" and a "more below" row: a click on either turns one
page (nothing at the first or last page) and never changes the state. It opens on the
page of the selected option; the goal lies n - 1 pages away, n drawn from 1..K (as
far as the pool has pages). The oracle clicks the arrow row toward it n - 1 times,
then the option: n gestures (`oracle_actions`). While the goal's page is not shown,
the goal box is that arrow row and `now` is the field.
"""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
from pydantic import Field, model_validator

from finestate_env.components.base import (
    STAGE_MARGIN,
    ComponentType,
    Sample,
    Slot,
    choose,
    direction_with_room,
    distinct_pair,
    index_code,
    index_distance,
    sample_anchor,
    size_within,
    touch_size,
)
from finestate_env.components.params import (
    Anchor,
    Params,
    Pixels,
    Text,
    distinct_list_of,
)
from finestate_env.core.schema import Instructions

# (label, noun, options in their natural order): a sample keeps that order.
_LISTS = (
    ("Country", "country", (
        "Argentina", "Australia", "Austria", "Belgium", "Brazil", "Canada", "Chile", "Denmark",
        "Egypt", "Finland", "France", "Germany", "Greece", "India", "Ireland", "Italy", "Japan",
        "Kenya", "Mexico", "Morocco", "Netherlands", "New Zealand", "Norway", "Peru", "Poland",
        "Portugal", "Spain", "Sweden", "Switzerland", "Thailand", "Turkey", "Vietnam")),
    ("Font", "font", (
        "Arial", "Baskerville", "Calibri", "Courier New", "Futura", "Garamond", "Georgia",
        "Gill Sans", "Helvetica", "Lato", "Merriweather", "Montserrat", "Open Sans", "Palatino",
        "Roboto", "Tahoma", "Times New Roman", "Trebuchet MS", "Verdana")),
    ("Time zone", "time zone", (
        "Pacific/Honolulu", "America/Anchorage", "America/Los_Angeles", "America/Denver",
        "America/Chicago", "America/New_York", "America/Sao_Paulo", "Atlantic/Azores",
        "Europe/London", "Europe/Paris", "Europe/Berlin", "Europe/Athens", "Europe/Moscow",
        "Asia/Dubai", "Asia/Kolkata", "Asia/Bangkok", "Asia/Shanghai", "Asia/Tokyo",
        "Australia/Sydney", "Pacific/Auckland")),
    ("Font size", "font size", (
        "8 pt", "9 pt", "10 pt", "10.5 pt", "11 pt", "12 pt", "14 pt", "16 pt", "18 pt", "20 pt",
        "22 pt", "24 pt", "28 pt", "36 pt", "48 pt", "72 pt")),
    ("Shoe size", "shoe size", (
        "EU 36", "EU 36.5", "EU 37", "EU 37.5", "EU 38", "EU 38.5", "EU 39", "EU 40", "EU 40.5",
        "EU 41", "EU 42", "EU 42.5", "EU 43", "EU 44", "EU 44.5", "EU 45", "EU 46")),
    ("Language", "language", (
        "Arabic", "Chinese", "Czech", "Danish", "Dutch", "English", "Finnish", "French",
        "German", "Greek", "Hindi", "Hungarian", "Italian", "Japanese", "Korean", "Norwegian",
        "Polish", "Portuguese", "Russian", "Spanish", "Swedish", "Turkish", "Ukrainian")),
    ("Currency", "currency", (
        "AUD - Australian dollar", "BRL - Brazilian real", "CAD - Canadian dollar",
        "CHF - Swiss franc", "CNY - Chinese yuan", "DKK - Danish krone", "EUR - Euro",
        "GBP - Pound sterling", "INR - Indian rupee", "JPY - Japanese yen",
        "MXN - Mexican peso", "NOK - Norwegian krone", "PLN - Polish zloty",
        "SEK - Swedish krona", "USD - US dollar", "ZAR - South African rand")),
    ("Paper size", "paper size", (
        "A3", "A4", "A5", "A6", "B4", "B5", "Letter", "Legal", "Tabloid", "Executive",
        "Envelope #10", "Envelope DL", "Envelope C5")),
    ("Shipping speed", "shipping option", (
        "Same day", "Next day", "2 days", "3-5 days", "5-7 days", "7-10 days",
        "10-14 days", "2-3 weeks", "Pickup in store", "Locker pickup")),
    ("Repeat", "repeat interval", (
        "Never", "Every day", "Every weekday", "Every 2 days", "Every week", "Every 2 weeks",
        "Every month", "Every 2 months", "Every 3 months", "Every 6 months", "Every year")),
)
_COUNT = (6, 14)
_ROW_HEIGHT = (28, 36)
_WIDTH = (220, 300)
# Height besides the rows (see list_box.css): label 20 + 4, field 36, list gap 4,
# list borders 2 and padding 8.
_CHROME_HEIGHT = 74
# The fewest options a page of a far goal's list shows.
_FAR_PAGE_MIN = 3


_MOST_OPTIONS = max(len(pool) for _, _, pool in _LISTS)  # a far goal's list: a whole pool


class ListBoxParams(Params):
    label: Text  # the field's label
    noun: Text  # what an option is, in the instructions ("country")
    options: distinct_list_of(Text, 2, _MOST_OPTIONS)  # in the list's order
    row_height: Pixels
    width: Pixels
    anchor: Anchor
    # A far goal's list: the options shown a page at a time, `page` to a page.
    page: Annotated[int, Field(strict=True, ge=_FAR_PAGE_MIN, le=_MOST_OPTIONS)] | None = None

    @model_validator(mode="after")
    def _distinct_options(self) -> ListBoxParams:
        if self.page is not None and self.page >= len(self.options):
            raise ValueError(f"page must be below len(options) = {len(self.options)}, "
                             f"got {self.page}")
        return self


class ListBox(ComponentType):
    name = "list_box"
    params_model = ListBoxParams
    family = "specific_data"
    gesture = "tap"
    aliases = ("Dropdown", "Dropdown list", "Dropdown menu", "Dropdown box", "Combo box",
               "Select", "List")
    # Qt's list frame is taller than the web's: sampled for 24 px less.
    slots = {
        "web": Slot(target=580, narrow=True),
        "mobile": Slot(target=360),
        "desktop": Slot(target=580, narrow=True, pad=(0, 24)),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The control's label."""
        return params["label"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        label, noun, pool = choose(rng, _LISTS)
        row_height = int(rng.integers(_ROW_HEIGHT[0], _ROW_HEIGHT[1] + 1))
        free = viewport[1] - 2 * STAGE_MARGIN - _CHROME_HEIGHT
        if free // row_height < _COUNT[0]:  # a short viewport gets the smallest rows
            row_height = _ROW_HEIGHT[0]
        fits = max(2, free // row_height)
        count = min(int(rng.integers(_COUNT[0], _COUNT[1] + 1)), fits, len(pool))
        drawn = rng.choice(len(pool), size=count, replace=False)
        row_height = touch_size(row_height, touch)
        count = min(count, max(2, free // row_height))  # finger-sized rows: fewer where needed
        options = [pool[i] for i in sorted(int(i) for i in drawn[:count])]
        current, goal = distinct_pair(rng, 0, count)  # any option but the current one
        width = size_within(rng, _WIDTH, viewport[0] - 2 * STAGE_MARGIN)
        params = {
            "label": label, "noun": noun, "options": options, "row_height": row_height,
            "width": width, "anchor": sample_anchor(rng),
        }
        return Sample(params, options[current], options[goal])

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        options = sample.params["options"]
        current, goal = distinct_pair(rng, 0, len(options))
        return Sample(sample.params, options[current], options[goal])

    def far_goal(self, rng: np.random.Generator, sample: Sample, reach: int) -> Sample:
        """An option n - 1 pages up or down, n drawn from 1..reach, in the whole pool."""
        n = int(rng.integers(1, reach + 1))
        params = sample.params
        page = len(params["options"]) - 2  # two rows give way to the arrow rows
        if n == 1 or page < _FAR_PAGE_MIN:
            return sample
        options = list(next(pool for label, _, pool in _LISTS if label == params["label"]))
        pages = -(-len(options) // page)
        here = options.index(sample.current_state) // page
        direction, turns = direction_with_room(rng, n - 1, back=here, ahead=pages - 1 - here)
        if turns == 0:
            return sample
        first = (here + direction * turns) * page
        goal = options[first + int(rng.integers(min(page, len(options) - first)))]
        return Sample({**params, "options": options, "page": page}, sample.current_state, goal)

    def oracle_actions(self, params: dict[str, Any], current: Any, goal: Any) -> int:
        """A click per page to turn, then the option's."""
        page, options = params.get("page"), params["options"]
        if page is None or current not in options or goal not in options:
            return 1
        return abs(options.index(goal) // page - options.index(current) // page) + 1

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        options = params["options"]
        return isinstance(a, str) and isinstance(b, str) and a in options and a == b

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [i / (n - 1)], the selected option's place among the n options."""
        return index_code(state, params["options"])

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """|positions between the two options in the list| / (options - 1)."""
        return index_distance(state, goal, list(params["options"]))

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        label, noun = sample.params["label"], sample.params["noun"]
        goal = sample.goal_state
        locate = choose(rng, (f"Locate the {label} dropdown.",
                              f"Find the open {label} list.",
                              f"Where is the {label} selector?"))
        interact = choose(rng, (
            f"Select \"{goal}\" in the {label} list.",
            f"Set {label} to {goal}.",
            f"Choose {goal} as the {noun}.",
            f"Change the {noun} to \"{goal}\".",
        ))
        return Instructions(locate=locate, interact=interact)
