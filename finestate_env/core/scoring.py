"""Scoring as pure functions over points, boxes and verdicts (docs/design.md §4).

Every box here is `[x1, y1, x2, y2]` with inclusive edges, in the same frame as
the points it is tested against; there is no tolerance anywhere. Nothing here
touches a browser: the live `exact` comes in as a bool read back elsewhere.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Literal

from finestate_env.core.schema import Boxes, CrossCheck, StageVerdicts

METRICS = ("sr_loc", "sr_int", "es_sr_loc", "es_sr_int")

# The reward modes of rewards/scorer.py, named here (no import of the scorer, its browser
# backends and pydantic models) so that the command line can offer them at start-up.
RewardMode = Literal["exact", "box", "box_now", "shaped"]
REWARD_MODES: tuple[RewardMode, ...] = ("exact", "box", "box_now", "shaped")
STATIC_MODES: tuple[RewardMode, ...] = ("box", "box_now")  # scored from the row alone


def point_in_box(point: Sequence[float] | None, box: Sequence[float] | None) -> bool:
    """True when `point` lies in `box`, edges included. A missing point or box is a miss."""
    if point is None or box is None:
        return False
    x, y = point
    if not (math.isfinite(x) and math.isfinite(y)):
        return False
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def static_exact(p1: Sequence[float] | None, boxes: Boxes) -> bool:
    """The box proxy for exactness: the operate point lies in the goal box."""
    return point_in_box(p1, boxes.goal)


def grip_exact(p0: Sequence[float] | None, p1: Sequence[float] | None, boxes: Boxes) -> bool:
    """The `box_now` proxy: p0 grips the control where its state is shown (in `loc` and
    in `now`) and p1 lies in the goal box; the released code's four rates all paid."""
    return (point_in_box(p0, boxes.loc) and point_in_box(p0, boxes.now)
            and point_in_box(p1, boxes.goal))


def stage_verdicts(p0: Sequence[float] | None, p1: Sequence[float] | None,
                   boxes: Boxes, exact: bool) -> StageVerdicts:
    """SR@Loc, SR@Int and their exact-state versions for one action.

    `exact` is either the static proxy (`static_exact`) or the live read-back.
    """
    loc = point_in_box(p0, boxes.loc)
    interact = point_in_box(p1, boxes.core)
    return StageVerdicts(sr_loc=loc, sr_int=interact,
                         es_sr_loc=loc and exact, es_sr_int=interact and exact)


def crosscheck(static: bool, live: bool) -> CrossCheck:
    """Compare the box verdict with the control's truth for one action."""
    if static == live:
        return "agree"
    return "false_accept" if static else "false_reject"


def release_verdicts(p0: Sequence[float] | None, p1: Sequence[float] | None,
                     bbox: Sequence[float], now_coords: Sequence[float] | None = None,
                     target_coords: Sequence[float] | None = None) -> StageVerdicts:
    """The four rates of the released FineState-Bench evaluation code, reproduced exactly.

    Points and boxes are normalised [0, 1] xyxy, inclusive edges:
    `sr_loc` = p0 in bbox; `es_sr_loc` = p0 in now_coords (bbox when absent);
    `sr_int` = `es_sr_int` = p1 in target_coords (bbox when absent).
    """
    now_box = now_coords if now_coords is not None else bbox
    target_box = target_coords if target_coords is not None else bbox
    hit_int = point_in_box(p1, target_box)
    return StageVerdicts(sr_loc=point_in_box(p0, bbox), sr_int=hit_int,
                         es_sr_loc=point_in_box(p0, now_box), es_sr_int=hit_int)


class MetricCounts:
    """One group's counts, a verdict at a time: results, each metric's successes, and the
    results counted `missing`."""

    __slots__ = ("n", "hits", "missing")

    def __init__(self) -> None:
        self.n = self.missing = 0
        self.hits = dict.fromkeys(METRICS, 0)

    def add(self, verdict: StageVerdicts | None, missing: bool) -> None:
        self.n += 1
        self.missing += missing
        if verdict is not None:
            for name in METRICS:
                self.hits[name] += bool(getattr(verdict, name))

    def rates(self) -> dict[str, float | int]:
        """`{sr_loc, sr_int, es_sr_loc, es_sr_int, n, missing}`; rates over none are 0.0."""
        n = self.n
        rates: dict[str, float | int] = {name: (self.hits[name] / n if n else 0.0)
                                         for name in METRICS}
        rates["n"] = n
        rates["missing"] = self.missing
        return rates


def metric_set(verdicts: Iterable[StageVerdicts | None]) -> dict[str, float | int]:
    """Rates over instances: `{sr_loc, sr_int, es_sr_loc, es_sr_int, n, missing}`.

    A `None` verdict is a missing prediction: it counts in `n` as a miss and in
    `missing` apart. Rates over zero instances are 0.0.
    """
    counts = MetricCounts()
    for verdict in verdicts:
        counts.add(verdict, verdict is None)
    return counts.rates()


def crosscheck_counts(outcomes: Iterable[CrossCheck]) -> dict[str, int]:
    counts = {"agree": 0, "false_accept": 0, "false_reject": 0}
    for outcome in outcomes:
        counts[outcome] += 1
    return counts
