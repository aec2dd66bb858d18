"""Drag reorder: a titled card with a vertical list of rows, reordered by dragging.

One action: press on the row of the item to move at p0, drag, release at p1;
exactly one item moves to exactly one other index. The new index depends on
p1's y alone: it is the number of other items whose row midpoint (in the layout
at the press) lies above the pointer, so the goal region is a horizontal band
of the list. Moving an item to an adjacent index is the same list as moving
its neighbour the other way; the instance names which item to drag (`item`),
and the boxes are measured for dragging that one.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from finestate_env.components.base import (
    STAGE_MARGIN,
    ComponentType,
    Grab,
    Sample,
    Slot,
    choose,
    distinct_pair,
    sample_anchor,
    touch_size,
)
from finestate_env.components.params import MAX_TEXT, Anchor, Params, Pixels, Text
from finestate_env.core.schema import Instructions

# (title, labels): the list shows 4-7 distinct labels of one theme.
_LISTS = (
    ("Sidebar order", ("Inbox", "Invoices", "Reports", "Contacts", "Calendar", "Projects",
                       "Settings", "Archive", "Files")),
    ("Priorities", ("Fix login bug", "Review budget", "Plan sprint", "Update docs",
                    "Call supplier", "Hire designer", "Release notes", "Audit logs")),
    ("Playlist", ("Blue Horizon", "Night Drive", "Paper Moon", "Golden Hour", "Slow Rain",
                  "City Lights", "Morning Tide", "Static Hearts")),
    ("Dashboard widgets", ("Revenue", "Active users", "Orders", "Conversion", "Churn",
                           "Traffic", "Tickets", "Refunds")),
    ("Navigation", ("Home", "Products", "Pricing", "Blog", "About", "Careers", "Contact")),
    ("Reading list", ("Dune", "Emma", "Beloved", "Ulysses", "Middlemarch", "Persuasion",
                      "Walden", "Kindred")),
)
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh")
_ROWS = (4, 7)
_ROW_HEIGHT = (36, 44)
_GAP = (4, 8)
# Card height besides the rows: borders, padding, title and its margin.
_CHROME_HEIGHT = 2 + 2 * 12 + 20 + 10


def _move(rng: np.random.Generator, labels: list[str]) -> tuple[str, list[str]]:
    """(item, goal): one item of `labels` and the order with it moved to another index."""
    source, target = distinct_pair(rng, 0, len(labels))  # any index but the current one
    item = labels[source]
    goal = [label for label in labels if label != item]
    goal.insert(target, item)
    return item, goal


class DragReorderParams(Params):
    title: Text  # the card's title
    item: Text  # the label of the item to move (one of the state's labels)
    row_height: Pixels
    gap: Pixels  # between two rows
    width: Pixels  # the card's width
    anchor: Anchor


class DragReorder(ComponentType):
    name = "drag_reorder"
    params_model = DragReorderParams
    family = "view_manipulation"
    gesture = "drag"
    code_size = _ROWS[1]
    # The drop slot is fine along y (a row's pitch, half a row at the ends); the
    # rows a finger grabs are TOUCH_TARGET tall on a phone.
    touch_goal = "band"
    goal_params = ("item",)
    aliases = ("Reorder", "Reorder list", "Sortable list", "Drag and reorder")
    grab = Grab("now", "the row of the item to move")
    # Qt's list spacing pads the first and last rows too (up to 8 px the web's
    # list does not have, less 5 px of the web card's chrome): a list that
    # fills its slot on the web is 3 px too tall in Qt, so it is sampled for 3
    # px less.
    slots = {
        "web": Slot(target=421, narrow=True),
        "mobile": Slot(target=360),
        "desktop": Slot(target=400, narrow=True, pad=(0, 3)),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The card's title."""
        return params["title"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        title, pool = choose(rng, _LISTS)
        row_height = touch_size(int(rng.integers(_ROW_HEIGHT[0], _ROW_HEIGHT[1] + 1)), touch)
        gap = int(rng.integers(_GAP[0], _GAP[1] + 1))
        free = viewport[1] - 2 * STAGE_MARGIN - _CHROME_HEIGHT + gap
        fits = max(2, free // (row_height + gap))  # a small viewport shortens the list
        count = min(int(rng.integers(_ROWS[0], _ROWS[1] + 1)), fits, len(pool))
        labels = [pool[int(i)] for i in rng.choice(len(pool), size=count, replace=False)]
        item, goal = _move(rng, labels)
        params = {
            "title": title, "item": item, "row_height": row_height, "gap": gap,
            "width": int(min(rng.integers(220, 321), viewport[0] - 2 * STAGE_MARGIN)),
            "anchor": sample_anchor(rng),
        }
        return Sample(params, labels, goal)

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        """The same items in a new order, and a new item to move to a new slot."""
        labels = [sample.current_state[int(i)] for i in rng.permutation(len(sample.current_state))]
        item, goal = _move(rng, labels)
        return Sample({**sample.params, "item": item}, labels, goal)

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        def is_labels(value: Any) -> bool:  # an order of distinct labels, the moved one in it
            return (isinstance(value, list) and len(value) <= self.code_size
                    and all(isinstance(v, str) and len(v) <= MAX_TEXT for v in value)
                    and len(set(value)) == len(value) and params["item"] in value)

        return is_labels(a) and is_labels(b) and a == b

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: each item's slot / (n - 1), the items in alphabetical order (the
        states of one instance are orders of the same items)."""
        last = max(1, len(state) - 1)
        return [state.index(label) / last for label in sorted(state)]

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """Pairs of items in the opposite order to the goal's / all pairs (the normalised
        Kendall tau distance); 1 when the state is not an order of the goal's items."""
        if not (self.states_equal(state, state, params) and sorted(state) == sorted(goal)):
            return 1.0
        where = {label: i for i, label in enumerate(state)}
        order = [where[label] for label in goal]
        pairs = len(order) * (len(order) - 1) // 2
        swapped = sum(order[i] > order[j] for i in range(len(order))
                      for j in range(i + 1, len(order)))
        return swapped / pairs if pairs else 0.0

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        title, item = sample.params["title"], sample.params["item"]
        index, last = sample.goal_state.index(item), len(sample.goal_state) - 1
        place = _ORDINALS[index]
        templates = [f"Move '{item}' to the {place} place.",
                     f"Drag '{item}' so that it is {place} in the list.",
                     f"Reorder the list so that '{item}' is in position {index + 1}."]
        if index == 0:
            templates += [f"Drag '{item}' to the top of the list.", f"Put '{item}' first."]
        if index == last:
            templates += [f"Drag '{item}' to the bottom of the list.", f"Put '{item}' last."]
        locate = choose(rng, (f"Locate the {title} card.", f"Find '{item}' in the {title} card.",
                              f"Where is the '{item}' row?"))
        return Instructions(locate=locate, interact=choose(rng, templates))

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        return " > ".join(state)
