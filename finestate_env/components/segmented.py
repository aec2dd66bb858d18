"""Segmented control: a labelled group of 2-6 segments, one selected.

State: the selected segment's text in the target group. One action: hover p0
(over the target group), click p1 on a segment; a click anywhere on a segment
selects it. Segments are equal-width, square-cornered hit elements laid edge to
edge (the rounded pill, the dividers and the selected fill are drawn inside
them or behind them, never as hit targets), so the row of segments is one
rectangle and each segment is exactly its own region. Some cards hold a second,
independent group beside the target (named in the instructions by its label);
clicking it changes that group only, never the state. The goal is any other
segment of the target group.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pydantic import model_validator

from finestate_env.components.base import (
    ComponentType,
    Sample,
    Slot,
    choose,
    distinct_pair,
    index_code,
    sample_anchor,
    touch_size,
)
from finestate_env.components.params import Anchor, Index, Params, Pixels, Text, list_of
from finestate_env.core.schema import Instructions

# (label, segments); a group shows a contiguous run of at least two of them.
_GROUPS = (
    ("View", ("Day", "Week", "Month", "Year")),
    ("Layout", ("List", "Grid", "Board", "Table")),
    ("Size", ("XS", "S", "M", "L", "XL", "XXL")),
    ("Range", ("1D", "1W", "1M", "3M", "1Y", "All")),
    ("Units", ("Metric", "Imperial")),
    ("Sort by", ("Name", "Date", "Size", "Type")),
    ("Align", ("Left", "Center", "Right", "Justify")),
    ("Playback speed", ("0.5x", "1x", "1.5x", "2x", "3x")),
    ("Theme", ("Light", "Dark", "Auto")),
    ("Quality", ("Low", "Medium", "High", "Ultra")),
    ("Map type", ("Map", "Satellite", "Terrain")),
    ("Repeat", ("Never", "Daily", "Weekly", "Monthly")),
    ("Temperature", ("°C", "°F", "K")),
    ("Billing", ("Monthly", "Yearly")),
)
_TITLES = ("Display", "View options", "Preferences", "Settings", "Filters")
_SEGMENT_PX = (44, 96)
_WIDTH = (200, 300)
_HEIGHT_PX = (28, 36)
_CHAR_PX = 10  # a generous width of one 14 px character in any theme font


_MOST_SEGMENTS = max(len(pool) for _, pool in _GROUPS)  # a group's most segments (a pool)
_MOST_GROUPS = 2  # a card's most groups: the target and one beside it


class SegmentGroup(Params):
    """One group of a card: its label, its segments left to right, one segment's width."""

    label: Text
    segments: list_of(Text, 2, _MOST_SEGMENTS)
    segment: Pixels  # one segment's width (all are equal)


class SegmentedParams(Params):
    title: Text | None  # the card's title, or none
    width: Pixels  # the card's width
    groups: list_of(SegmentGroup, 1, _MOST_GROUPS)
    # Each group's selected segment; the target's is None (its state is the instance's).
    selected: list_of(Text | None, 1, _MOST_GROUPS)
    target: Index  # the group the instructions name
    height: Pixels  # a segment's height
    anchor: Anchor

    @model_validator(mode="after")
    def _a_selection_per_group(self) -> SegmentedParams:
        if self.target >= len(self.groups):
            raise ValueError(f"target must be below len(groups) = {len(self.groups)}, "
                             f"got {self.target}")
        if len(self.selected) != len(self.groups):
            raise ValueError(f"selected must hold one entry per group: {len(self.groups)} "
                             f"groups, {len(self.selected)} selected")
        for g, group in enumerate(self.groups):
            if len(set(group.segments)) != len(group.segments):
                raise ValueError(f"groups[{g}].segments must be distinct, got {group.segments}")
            if self.selected[g] is not None and self.selected[g] not in group.segments:
                raise ValueError(f"selected[{g}] must be None or one of groups[{g}].segments "
                                 f"{group.segments}, got {self.selected[g]!r}")
        return self


class Segmented(ComponentType):
    name = "segmented"
    params_model = SegmentedParams
    family = "toggle_option"
    gesture = "tap"
    aliases = ("Segmented control", "Segmented button")
    siblings = True
    slots = {
        "web": Slot(target=208, distractor=208, min_width=360),
        "mobile": Slot(target=230, distractor=230, min_width=360),
        "desktop": Slot(target=208, distractor=208, min_width=360),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The label of the named group."""
        return params["groups"][params["target"]]["label"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        room = viewport[0] - 16 - 34  # inside the card's border and padding
        n_groups = 2 if rng.random() < 0.4 else 1
        picks = [int(i) for i in rng.permutation(len(_GROUPS))[:n_groups]]
        height = int(rng.integers(_HEIGHT_PX[0], _HEIGHT_PX[1] + 1))
        groups, selected = [], []
        for pick in picks:
            label, pool = _GROUPS[pick]
            count = int(rng.integers(2, len(pool) + 1))
            # Equal widths, each fitting the widest text: on a narrow page, fewer segments.
            fit = 20 + _CHAR_PX * max(len(s) for s in pool)
            count = max(2, min(count, room // touch_size(fit, touch)))
            start = int(rng.integers(len(pool) - count + 1))
            segments = list(pool[start:start + count])
            fit = 20 + _CHAR_PX * max(len(s) for s in segments)
            width = max(fit, int(rng.integers(_SEGMENT_PX[0], _SEGMENT_PX[1] + 1)))
            width = min(touch_size(width, touch), room // count)
            groups.append({"label": label, "segments": segments, "segment": width})
            selected.append(segments[int(rng.integers(count))])
        target = int(rng.integers(n_groups))
        segments = groups[target]["segments"]
        current = segments.index(selected[target])
        goal = int(rng.integers(len(segments) - 1))
        goal += goal >= current  # any segment but the current one
        selected[target] = None  # the target's state is the instance's, given apart
        title = choose(rng, _TITLES) if rng.random() < 0.5 else None
        rows = max(g["segment"] * len(g["segments"]) for g in groups)
        width = max(34 + rows, int(rng.integers(_WIDTH[0], _WIDTH[1] + 1)))
        params = {
            "title": title, "width": min(width, viewport[0] - 16), "groups": groups,
            "selected": selected, "target": target, "height": touch_size(height, touch),
            "anchor": sample_anchor(rng),
        }
        return Sample(params, segments[current], segments[goal])

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        """Two new segments of the same target group (the group is the control, `loc`); a
        second group keeps its selection."""
        segments = sample.params["groups"][sample.params["target"]]["segments"]
        current, goal = distinct_pair(rng, 0, len(segments))
        return Sample(sample.params, segments[current], segments[goal])

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        segments = params["groups"][params["target"]]["segments"]
        return isinstance(a, str) and isinstance(b, str) and a in segments and a == b

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [i / (n - 1)], the selected segment's place in the target group."""
        return index_code(state, params["groups"][params["target"]]["segments"])

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        label = sample.params["groups"][sample.params["target"]]["label"]
        goal = sample.goal_state
        locate = choose(rng, (f"Locate the {label} selector.",
                              f"Find the \"{label}\" segmented control.",
                              f"Where is the {label} switcher?",
                              f"Point at the segmented buttons for {label}."))
        interact = choose(rng, (f"Switch {label} to {goal}.", f"Select '{goal}' in {label}.",
                                f"Set {label} to {goal}.",
                                f"Choose the {goal} segment under \"{label}\"."))
        return Instructions(locate=locate, interact=interact)
