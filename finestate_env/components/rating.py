"""Rating: star ratings for 2-4 named items on a review card, one of them the target.

One action: hover p0 (over the target's rating row), click p1 on a star. On a
5-star control each star is two square hit elements: its left half sets k - 0.5,
its right half sets k (half-star precision); on a 10-star control a star is one
hit element and sets k. A click always sets the value (clicking the current
value keeps it: there is no clear-by-click), and the gaps between stars do
nothing. The other items' stars are live too, but the state is the target's
rating alone: a number on the 0.5 grid (5 stars) or the 1 grid (10 stars), 0
meaning not rated yet. The goal is any other rating above 0, reached by one
click on the half (or whole) star that yields it.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

import numpy as np
from pydantic import Field, model_validator

from finestate_env.components.base import (
    ComponentType,
    Sample,
    Slot,
    choose,
    grid_code,
    grid_distance,
    same_grid_point,
    sample_anchor,
    touch_size,
)
from finestate_env.components.params import Anchor, Index, Num, Params, Pixels, Text, list_of
from finestate_env.core.schema import Instructions

# (card title, rated aspects).
_DOMAINS = (
    ("Rate your meal", ("Food", "Service", "Ambience", "Value", "Cleanliness")),
    ("How was your stay?", ("Location", "Rooms", "Staff", "Cleanliness", "Breakfast", "Value")),
    ("Review this product", ("Quality", "Design", "Battery life", "Ease of use",
                             "Value for money")),
    ("Course feedback", ("Content", "Instructor", "Pace", "Materials", "Exercises")),
    ("Rate the film", ("Story", "Acting", "Visuals", "Soundtrack", "Ending")),
    ("Your trip", ("Driver", "Vehicle", "Route", "Punctuality", "Comfort")),
)
_CHAR_PX = 9.5  # a safe upper bound on a 14 px label character's advance, any theme font
_CARD_CHROME = (34, 26 + 28)  # card padding + border (x); that plus the title line (y)
_CAPTION_PX = 80  # rating.css .fs-rate-caption
_SPACING = 12  # between label, stars and caption in a row, and between rows


def _fit(layout: str, count: int, stars: int, size: int, gap: int, label_px: int,
         hit: int) -> tuple[int, int]:
    """(width, height) of the card in px, as rating.css lays it out; `hit` is the
    height of the stars' hit elements (and so of the row of stars)."""
    row_stars = stars * size + (stars - 1) * gap
    if layout == "inline":
        width = label_px + _SPACING + row_stars + _SPACING + _CAPTION_PX
        row = max(hit, 20)
    else:  # stacked: label and caption on a line, the stars below
        width = max(row_stars, label_px + _SPACING + _CAPTION_PX)
        row = 20 + 6 + hit
    return (width + _CARD_CHROME[0],
            count * row + (count - 1) * _SPACING + _CARD_CHROME[1])


def _value(k: int, step: float) -> float | int:
    """The k-th value of the grid: floats on the half-star grid, ints on the whole one."""
    return k * step if step == 0.5 else k


def _pair(rng: np.random.Generator, steps: int) -> tuple[int, int]:
    """(current, goal) steps of the grid: sometimes not rated yet (0), the goal any other
    rating above 0."""
    current_k = 0 if rng.random() < 0.15 else int(rng.integers(1, steps + 1))
    if current_k == 0:
        return current_k, int(rng.integers(1, steps + 1))
    goal_k = int(rng.integers(1, steps))
    return current_k, goal_k + (goal_k >= current_k)


_MOST_ITEMS = 4  # the most rated items of a card (the sampler draws 2-4)


class RatingParams(Params):
    title: Text  # the card's title
    labels: list_of(Text, 2, _MOST_ITEMS)  # the rated items, top to bottom
    # Each item's rating (0: not rated yet); the target's is None (its state is the
    # instance's).
    values: list_of(Num | None, 2, _MOST_ITEMS)
    target: Index  # the item the instructions name
    stars: Annotated[int, Field(strict=True, ge=5, le=10, multiple_of=5)]  # 5 or 10
    step: Annotated[float, Field(strict=True, ge=0.5, le=1, multiple_of=0.5)]  # 0.5 or 1
    size: Pixels  # a star's size
    gap: Pixels  # between stars
    layout: Literal["inline", "stacked"]  # the stars beside the label or below it
    label_width: Pixels
    width: Pixels  # the card's width
    anchor: Anchor
    hit: Pixels | None = None  # on a phone: the height of the stars' hit elements

    @model_validator(mode="after")
    def _ratings_on_the_grid(self) -> RatingParams:
        if self.step != (0.5 if self.stars == 5 else 1):
            raise ValueError(f"step must be 0.5 with 5 stars and 1 with 10 stars, got "
                             f"{self.step} with {self.stars}")
        if len(self.values) != len(self.labels):
            raise ValueError(f"values must hold one rating per label: {len(self.labels)} "
                             f"labels, {len(self.values)} values")
        if self.target >= len(self.labels):
            raise ValueError(f"target must be below len(labels) = {len(self.labels)}, "
                             f"got {self.target}")
        steps = round(self.stars / self.step)
        for i, value in enumerate(self.values):
            if value is not None and not same_grid_point(value, value, 0, self.step, steps):
                raise ValueError(f"values[{i}] must be None or a rating from 0 to {self.stars} "
                                 f"in steps of {self.step}, got {value}")
        return self


class Rating(ComponentType):
    name = "rating"
    params_model = RatingParams
    family = "specific_data"
    gesture = "tap"
    # A half star is fine along x: on a phone its hit element is a finger high.
    touch_goal = "band"
    aliases = ("Star rating", "Stars")
    siblings = True
    slots = {
        "web": Slot(target=338, distractor=220, min_width=360),
        "mobile": Slot(target=316, distractor=230, min_width=360),
        "desktop": Slot(target=300, distractor=220, min_width=360),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The label of the named item."""
        return params["labels"][params["target"]]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        title, pool = choose(rng, _DOMAINS)
        stars = int(choose(rng, (5, 5, 10)))
        step = 0.5 if stars == 5 else 1
        if stars == 5:
            size, gap = 2 * int(rng.integers(12, 21)), int(choose(rng, (0, 2, 4, 6, 8)))
        else:
            size, gap = 2 * int(rng.integers(9, 16)), int(choose(rng, (0, 2, 4)))
        count = int(rng.integers(2, 5))
        labels = [pool[int(i)] for i in rng.permutation(len(pool))[:count]]
        label_px = math.ceil(max(len(t) for t in labels) * _CHAR_PX) + 4
        layout = choose(rng, ("inline", "inline", "stacked"))
        room = (viewport[0] - 16, viewport[1] - 16)  # the stage keeps an 8 px margin

        # A star keeps its drawn size; on a phone its hit elements reach a finger's
        # height above and below it (a half star is fine along x alone).
        def hit() -> int:
            return touch_size(size, touch)

        def fits() -> bool:
            width, height = _fit(layout, count, stars, size, gap, label_px, hit())
            return width <= room[0] and height <= room[1]

        if not fits():
            layout = "stacked"
        while not fits():  # a small viewport: fewer rows, then smaller, tighter stars
            if _fit(layout, count, stars, size, gap, label_px, hit())[1] > room[1] and count > 2:
                count -= 1
            elif gap > 0:
                gap -= 2
            elif size > 16:
                size -= 2
            else:
                break
        labels = labels[:count]
        steps = round(stars / step)
        target = int(rng.integers(count))
        current_k, goal_k = _pair(rng, steps)
        values = [None if i == target else _value(int(rng.integers(steps + 1)), step)
                  for i in range(count)]
        width, _ = _fit(layout, count, stars, size, gap, label_px, hit())
        params = {
            "title": title, "labels": labels, "values": values, "target": target,
            "stars": stars, "step": step, "size": size, "gap": gap, "layout": layout,
            "label_width": label_px,
            "width": int(min(room[0], width + rng.integers(0, 81))),
            "anchor": sample_anchor(rng),
        }
        if touch:
            params["hit"] = hit()
        return Sample(params, _value(current_k, step), _value(goal_k, step))

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        """Two new ratings of the same named item (its row is the control, `loc`); the other
        items keep theirs."""
        step = sample.params["step"]
        current_k, goal_k = _pair(rng, round(sample.params["stars"] / step))
        return Sample(sample.params, _value(current_k, step), _value(goal_k, step))

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        steps = round(params["stars"] / params["step"])
        return same_grid_point(a, b, 0, params["step"], steps)

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [k / n], the rating's step (of `step` stars) over the last step."""
        return grid_code(state, 0, params["step"], round(params["stars"] / params["step"]))

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """|steps between the two ratings| / steps from 0 to the full rating."""
        steps = round(params["stars"] / params["step"])
        return grid_distance(state, goal, 0, params["step"], steps)

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        params = sample.params
        label, stars = params["labels"][params["target"]], params["stars"]
        goal = self.describe(sample.goal_state, params)
        unit = "star" if goal == "1" else "stars"
        locate = choose(rng, (f"Locate the {label} rating.", f"Find the star rating for {label}.",
                              f"Where are the stars for {label}?"))
        interact = choose(rng, (f"Rate {label} {goal} {unit}.",
                                f"Give {label} {goal} out of {stars} stars.",
                                f"Set the {label} rating to {goal}.",
                                f"Change the {label} score to {goal}/{stars}."))
        return Instructions(locate=locate, interact=interact)

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        return f"{state:g}"
