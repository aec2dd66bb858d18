"""Checkbox: a card of 3-7 labelled checkboxes, one of them named as the target.

State: the sorted list of the checked labels, the whole group. One action:
hover p0 (over the target's row), click p1 on the target's checkbox square or
on its label text; as an HTML <label> would, the square, the gap after it and
the text form one clickable element, and a click there toggles that item. The
goal is the current set with the target toggled, so only a click on the
target's clickable element reaches it; a click on another item toggles that
item instead (a different set), a click on the rest of the row (the blank
space, the muted count) does nothing.

On a phone (touch) each clickable element is at least `hit` CSS px each way
(the square keeps its size inside it, as Material's 18 dp box sits in a 48 dp
target), and so is each row; a card with no room for that takes fewer items.
There the elements touch row to row, and all are as wide as the widest.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pydantic import model_validator

from finestate_env.components.base import (
    TOUCH_TARGET,
    ComponentType,
    Sample,
    Slot,
    choose,
    sample_anchor,
    set_code,
    set_distance,
    touch_size,
)
from finestate_env.components.params import (
    Anchor,
    Index,
    Int,
    Params,
    Pixels,
    Text,
    distinct_list_of,
    list_of,
)
from finestate_env.core.schema import Instructions

# (card title, its labels, whether rows show a muted count on the right)
_GROUPS = (
    ("Toppings", ("Mushrooms", "Olives", "Onions", "Peppers", "Pineapple", "Extra cheese",
                  "Jalapenos", "Bacon", "Spinach", "Ham", "Sweetcorn"), False),
    ("Notify me about", ("Comments", "Mentions", "New followers", "Weekly digest",
                         "Product updates", "Security alerts", "Direct messages", "Replies"),
     False),
    ("Filters", ("Free shipping", "In stock", "On sale", "New arrivals", "4 stars & up",
                 "Top rated", "Eco friendly", "Local pickup"), True),
    ("Amenities", ("Wi-Fi", "Parking", "Pool", "Gym", "Breakfast", "Pet friendly",
                   "Air conditioning", "Kitchen"), True),
    ("Languages", ("English", "French", "German", "Spanish", "Italian", "Japanese",
                   "Portuguese", "Dutch"), False),
    ("Columns to show", ("Name", "Email", "Phone", "Company", "Status", "Last seen",
                         "Created", "Owner"), False),
    ("Dietary needs", ("Vegetarian", "Vegan", "Gluten free", "Dairy free", "Nut free",
                       "Halal", "Kosher"), False),
    ("Include in backup", ("Photos", "Documents", "Contacts", "Messages", "Music",
                           "App data", "Call history"), False),
)
_HINTS = ("Select all that apply.", "Choose any number.", "Pick as many as you like.")
_COUNT = (3, 7)
_WIDTH = (240, 320)
_ROW_PX = (28, 40)
_BOX_PX = (16, 18, 20)
_CHAR_PX = 10  # a generous width of one 14 px character in any theme font
# The card's height besides its rows: 2 border + 24 padding + 24 title (+ 24 hint).
_OVERHEAD, _OVERHEAD_HINT = 50, 74


class CheckboxParams(Params):
    title: Text
    hint: Text | None  # a line under the title, or null
    labels: distinct_list_of(Text, 1, _COUNT[1])  # the items, distinct (the state is a set of them)
    counts: list_of(Int, 1, _COUNT[1]) | None  # a muted count per item, or null
    target: Index  # the item named to toggle
    width: Pixels  # the card's width
    row: Pixels  # a row's height
    box: Pixels  # the checkbox square's size
    anchor: Anchor
    hit: Pixels | None = None  # on a phone: the least size of an item's clickable element

    @model_validator(mode="after")
    def _target_and_counts(self) -> CheckboxParams:
        count = len(self.labels)
        if self.target >= count:
            raise ValueError(f"target must index labels (0 to {count - 1}), got {self.target}")
        if self.counts is not None and len(self.counts) != count:
            raise ValueError(f"counts must be null or as long as labels ({count}), got "
                             f"{len(self.counts)}")
        return self


class Checkbox(ComponentType):
    name = "checkbox"
    params_model = CheckboxParams
    family = "toggle_option"
    gesture = "tap"
    code_size = _COUNT[1]
    aliases = ("Checkboxes", "Checkbox group")
    siblings = True
    # Qt's card layout puts 8 px between rows: a taller desktop slot, sampled
    # for 52 px less than it.
    slots = {
        "web": Slot(target=363, distractor=260, min_width=336, narrow=True),
        "mobile": Slot(target=282, distractor=138, min_width=360),
        "desktop": Slot(target=363, distractor=312, min_width=336, narrow=True, pad=(0, 52)),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The label of the named item."""
        return params["labels"][params["target"]]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        title, pool, with_counts = choose(rng, _GROUPS)
        count = int(rng.integers(_COUNT[0], min(_COUNT[1], len(pool)) + 1))
        if touch:  # finger-sized rows under the tallest overhead (a hint), at least one
            count = max(1, min(count, (viewport[1] - 16 - _OVERHEAD_HINT) // TOUCH_TARGET))
        labels = [pool[i] for i in rng.permutation(len(pool))[:count]]
        target = int(rng.integers(count))
        current, goal = _ticks(rng, labels, target)
        counts = [int(rng.integers(1, 500)) for _ in range(count)] if with_counts else None
        hint = choose(rng, _HINTS) if rng.random() < 0.4 else None
        box = int(choose(rng, _BOX_PX))
        # Width: the longest label, its box and count must fit; never wider than the page.
        need = 34 + box + 8 + _CHAR_PX * max(len(label) for label in labels) + (48 if counts else 0)
        width = max(need, int(rng.integers(_WIDTH[0], _WIDTH[1] + 1)))
        width = min(width, viewport[0] - 16)
        overhead = _OVERHEAD_HINT if hint else _OVERHEAD
        row = int(rng.integers(_ROW_PX[0], _ROW_PX[1] + 1))
        row = touch_size(max(24, min(row, (viewport[1] - 16 - overhead) // count)), touch)
        params = {
            "title": title, "hint": hint, "labels": labels, "counts": counts, "target": target,
            "width": width, "row": row, "box": box, "anchor": sample_anchor(rng),
        }
        if touch:
            params["hit"] = TOUCH_TARGET
        return Sample(params, current, goal)

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        """New ticks of every box, the same named box to toggle (its row is the control,
        `loc`)."""
        current, goal = _ticks(rng, sample.params["labels"], sample.params["target"])
        return Sample(sample.params, current, goal)

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        return _valid(a, params) and _valid(b, params) and a == b

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: one number per box, in the group's order: 1.0 ticked, 0.0 not."""
        return set_code(state, params["labels"])

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """Boxes whose tick differs from the goal / boxes in the group."""
        if not (_valid(state, params) and _valid(goal, params)):
            return 1.0
        return set_distance(state, goal, list(params["labels"]))

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        title = sample.params["title"]
        label = sample.params["labels"][sample.params["target"]]
        locate = choose(rng, (f"Locate the '{label}' checkbox.",
                              f"Find '{label}' under \"{title}\".",
                              f"Where is the '{label}' option in the {title} card?",
                              f"Point at the checkbox labelled '{label}'."))
        if label in sample.goal_state:
            interact = choose(rng, (f"Check '{label}'.", f"Tick '{label}' under \"{title}\".",
                                    f"Select the '{label}' checkbox.",
                                    f"Turn on '{label}' in {title}."))
        else:
            interact = choose(rng, (f"Uncheck '{label}'.", f"Untick '{label}'.",
                                    f"Clear the '{label}' checkbox under \"{title}\".",
                                    f"Deselect '{label}' in {title}."))
        return Instructions(locate=locate, interact=interact)

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        return ", ".join(state) if state else "(none checked)"


def _ticks(rng: np.random.Generator, labels: list[str],
           target: int) -> tuple[list[str], list[str]]:
    """(current, goal): each box ticked or not, and those ticks with the target's toggled."""
    checked = [bool(rng.integers(2)) for _ in labels]
    current = sorted(label for label, on in zip(labels, checked, strict=True) if on)
    return current, sorted(set(current) ^ {labels[target]})


def _valid(state: Any, params: dict[str, Any]) -> bool:
    """A list of distinct labels of this card, in sorted order."""
    if not isinstance(state, list) or not all(isinstance(s, str) for s in state):
        return False
    return (set(state) <= set(params["labels"]) and len(set(state)) == len(state)
            and state == sorted(state))
