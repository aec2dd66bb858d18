"""The two-point audit: of the gestures a static rule pays in full, how many truly work.

A static rule pays a prediction in full when its two points lie in the rule's boxes
(inclusive edges, no tolerance). For each rule below, the audit draws gestures the rule
pays in full, performs them live on one render of the instance (Backend.probe), and
counts those whose read-back state is exactly the goal: the rule's **precision**.

Rules (the boxes are the instance's current boxes, in screenshot pixels):

- `stagewise`: this project's default static scoring (core/static_scoring.py), all four
  rates paid: p0 in `loc`, p1 in `goal` and in `core`.
- `release`: the released FineState-Bench code's four rates paid: p0 in `loc` and in
  `now`, p1 in `goal` (an imported record without `now_coords` / `target_coords` has
  `loc` there: formats.finestate_bench reproduces the released fallback to bbox).
- `box`: the `box` reward mode (rewards/scorer.py): p1 in `goal`, p0 anywhere on the
  screenshot.
- `core`: p1 in `goal`, p0 in `core`.

Gestures drawn, per instance and rule (`draw_gestures`): K in all; every fifth has both
points on the perimeters of their boxes (uniform along the edge: edges are paid too),
the others both points uniform over their boxes. The random stream is seeded by the run's
seed, the instance id and the rule, so an instance's gestures do not depend on the order
or the company it is audited in.

The **start region** is where p0 must press for a drag to reach the goal: a grid over
`loc` (20 points along its longer side, as many per pixel along the other) and a finer
one over `now` (8 per side: a thin handle such as a splitter falls between the coarse
grid's points), every point dragged to the centre of the goal box. Its bounding box is
set beside the annotated `now`, `core` and `loc` (IoU), as replay.audit sets the
measured goal region beside the goal box. A tap is performed at p1 alone (p0 only moves
the pointer), so it has none.

Intervals are 95%: Wilson's score interval over the gestures pooled, and a percentile
bootstrap over instances (gestures on one instance are not independent; 2,000
resamples, seeded) where there are at least two.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from finestate_env.core.schema import Boxes, Instance
from finestate_env.env.episode import judge
from finestate_env.replay.audit import Box, box_iou, grid

Point = tuple[float, float]
Pair = tuple[Point, Point]


def intersect(a: Box | None, b: Box | None) -> Box | None:
    """The common part of two inclusive-edge boxes, None when they do not meet."""
    if a is None or b is None:
        return None
    box = (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))
    return box if box[0] <= box[2] and box[1] <= box[3] else None


@dataclass(frozen=True)
class Rule:
    """A static rule, as the boxes where it pays p0 and p1 in full."""

    name: str
    pays: str  # the definition, as the report prints it
    regions: Callable[[Boxes, Box], tuple[Box | None, Box | None]]  # (boxes, screen) -> p0, p1


RULES: dict[str, Rule] = {rule.name: rule for rule in (
    Rule("stagewise", "p0 in loc; p1 in goal and core (all four stagewise rates)",
         lambda b, screen: (b.loc, intersect(b.goal, b.core))),
    Rule("release", "p0 in loc and now; p1 in goal (the released code's four rates)",
         lambda b, screen: (intersect(b.loc, b.now), b.goal)),
    Rule("box", "p1 in goal; p0 anywhere (the box reward mode)",
         lambda b, screen: (screen, b.goal)),
    Rule("core", "p0 in core; p1 in goal",
         lambda b, screen: (b.core, b.goal)),
)}
RULE_NAMES = tuple(RULES)
GESTURES = 20  # per rule and instance, by default
EDGE_EVERY = 5  # every fifth gesture has its points on the boxes' edges
START_POINTS = 20  # grid points along the longer side of loc for the start region
START_NOW_POINTS = 8  # ... and per side of now
Z95 = 1.959963984540054
BOOTSTRAP_RESAMPLES = 2000


def uniform_in(box: Box, rng: np.random.Generator) -> Point:
    return (float(rng.uniform(box[0], box[2])), float(rng.uniform(box[1], box[3])))


def on_edge(box: Box, rng: np.random.Generator) -> Point:
    """A point uniform along the perimeter of `box` (its edges belong to it)."""
    x1, y1, x2, y2 = box
    width, height = x2 - x1, y2 - y1
    t = float(rng.uniform(0.0, 2 * (width + height)))
    if t < width:
        return (x1 + t, y1)
    if t < width + height:
        return (x2, y1 + t - width)
    if t < 2 * width + height:
        return (x2 - (t - width - height), y2)
    return (x1, y2 - (t - 2 * width - height))


def draw_gestures(p0_box: Box, p1_box: Box, count: int, rng: np.random.Generator) -> list[Pair]:
    """`count` gestures paid in full by a rule with these boxes (module docstring)."""
    pairs = []
    for index in range(count):
        place = on_edge if index % EDGE_EVERY == EDGE_EVERY - 1 else uniform_in
        pairs.append((place(p0_box, rng), place(p1_box, rng)))
    return pairs


def rule_rng(seed: int, instance_id: str, rule: str) -> np.random.Generator:
    """The random stream of one (instance, rule): independent of the run's order."""
    return np.random.default_rng([seed, zlib.crc32(instance_id.encode()),
                                  RULE_NAMES.index(rule)])


def start_grid(loc: Box, points: int = START_POINTS) -> list[Point]:
    """`points` along the longer side of `loc`, as many per pixel along the other, edges
    included (fewer where it is narrower than that many whole pixels)."""
    x1, y1, x2, y2 = loc
    step = max(x2 - x1, y2 - y1) / (points - 1) if points > 1 else 1.0
    columns = min(int(x2 - x1) + 1, round((x2 - x1) / step) + 1) if step else 1
    rows = min(int(y2 - y1) + 1, round((y2 - y1) / step) + 1) if step else 1
    xs = np.unique(np.round(np.linspace(x1, x2, max(1, columns)), 2))
    ys = np.unique(np.round(np.linspace(y1, y2, max(1, rows)), 2))
    return [(float(x), float(y)) for y in ys for x in xs]


def bounding_box(points: Sequence[Point]) -> Box | None:
    if not points:
        return None
    return (min(x for x, _ in points), min(y for _, y in points),
            max(x for x, _ in points), max(y for _, y in points))


@dataclass
class RuleResult:
    gestures: int  # 0: the rule pays nothing in full here (its boxes do not meet)
    reached: int
    misses: list[Pair]

    def as_dict(self) -> dict[str, Any]:
        return {"gestures": self.gestures, "reached": self.reached,
                "misses": [[list(p0), list(p1)] for p0, p1 in self.misses[:5]]}


@dataclass
class StartRegion:
    probes: int
    hits: list[Point]
    measured: Box | None
    boxes: Boxes

    def as_dict(self) -> dict[str, Any]:
        measured = self.measured
        iou = {name: (box_iou(getattr(self.boxes, name), measured) if measured else 0.0)
               for name in ("now", "core", "loc")}
        return {"probes": self.probes, "hits": len(self.hits),
                "measured": list(measured) if measured else None,
                **{f"iou_{name}": value for name, value in iou.items()},
                "share_of_loc": len(self.hits) / self.probes if self.probes else 0.0}


def _reached(instance: Instance, pairs: Sequence[Pair], states: Sequence[Any]) -> list[bool]:
    boxes = instance.boxes.current
    return [judge(instance, p0, p1, state, boxes=boxes).live_exact
            for (p0, p1), state in zip(pairs, states, strict=True)]


def audit_precision(backend, instance: Instance, gestures: int = GESTURES, seed: int = 0,
                    start_points: int = START_POINTS,
                    ) -> tuple[dict[str, RuleResult], StartRegion | None]:
    """Every rule's drawn gestures and the start grid, probed in one run on one render.

    `backend` shows `instance`'s platform at its screenshot size; it is left showing
    the instance's current state."""
    if instance.live is None:
        raise ValueError(f"instance {instance.id!r} has no live block: it cannot be probed")
    boxes = instance.boxes.current
    screen: Box = (0.0, 0.0, float(instance.size.width - 1), float(instance.size.height - 1))
    drawn: dict[str, list[Pair]] = {}
    for name, rule in RULES.items():
        p0_box, p1_box = rule.regions(boxes, screen)
        drawn[name] = ([] if p0_box is None or p1_box is None or gestures == 0 else
                       draw_gestures(p0_box, p1_box, gestures, rule_rng(seed, instance.id, name)))
    starts: list[Point] = []
    if instance.gesture == "drag" and start_points > 0:
        starts = list(dict.fromkeys(start_grid(boxes.loc, start_points)
                                    + grid(boxes.now, START_NOW_POINTS)))
    goal_centre = ((boxes.goal[0] + boxes.goal[2]) / 2, (boxes.goal[1] + boxes.goal[3]) / 2)
    pairs = [pair for name in RULES for pair in drawn[name]] + [(p, goal_centre) for p in starts]
    reached = _reached(instance, pairs, backend.probe(instance.live, instance.gesture, pairs))
    results, at = {}, 0
    for name in RULES:
        count = len(drawn[name])
        hits = reached[at:at + count]
        misses = [pair for pair, hit in zip(drawn[name], hits, strict=True) if not hit]
        results[name] = RuleResult(count, sum(hits), misses)
        at += count
    if not starts:
        return results, None
    start_hits = [p for p, hit in zip(starts, reached[at:], strict=True) if hit]
    return results, StartRegion(len(starts), start_hits, bounding_box(start_hits), boxes)


# --- Summaries -------------------------------------------------------------------------

def wilson(reached: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson's score interval for `reached` of `n` (None for n = 0)."""
    if n == 0:
        return None
    p = reached / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def bootstrap(per_instance: Sequence[tuple[int, int]], seed: int = 0,
              resamples: int = BOOTSTRAP_RESAMPLES) -> tuple[float, float] | None:
    """Percentile interval of the pooled precision, resampling instances (>= 2 needed)."""
    if len(per_instance) < 2:
        return None
    counts = np.asarray(per_instance, dtype=float)  # (reached, gestures) per instance
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(counts), size=(resamples, len(counts)))
    reached, gestures = counts[picks, 0].sum(axis=1), counts[picks, 1].sum(axis=1)
    shares = reached / gestures
    low, high = np.percentile(shares, [2.5, 97.5])
    return (float(low), float(high))


def rule_stats(per_instance: Sequence[tuple[int, int]], unpayable: int = 0) -> dict[str, Any]:
    """Pooled precision of (reached, gestures) per instance, with both intervals."""
    reached = sum(r for r, _ in per_instance)
    gestures = sum(g for _, g in per_instance)
    return {"instances": len(per_instance), "gestures": gestures, "reached": reached,
            "precision": reached / gestures if gestures else None,
            "ci": wilson(reached, gestures), "ci_instances": bootstrap(per_instance),
            "unpayable": unpayable}


def _rule_table(records: Iterable[dict]) -> dict[str, dict[str, Any]]:
    per_rule: dict[str, list[tuple[int, int]]] = {name: [] for name in RULES}
    unpayable = dict.fromkeys(RULES, 0)
    for record in records:
        for name, result in record["precision"].items():
            if name not in per_rule:
                continue
            if result["gestures"]:
                per_rule[name].append((result["reached"], result["gestures"]))
            else:
                unpayable[name] += 1
    return {name: rule_stats(per_rule[name], unpayable[name]) for name in RULES}


def _median(values: list[float]) -> float | None:
    return float(np.median(values)) if values else None


def _start_table(records: list[dict]) -> dict[str, Any]:
    found = [r["start"] for r in records if r["start"]["measured"] is not None]
    return {"instances": len(records), "found": len(found),
            **{key: _median([s[key] for s in found])
               for key in ("iou_now", "iou_core", "iou_loc", "share_of_loc")}}


class PrecisionTally:
    """`summarize_precision` fed one record at a time (`add`): of each audited record it
    keeps what the summary reads (per rule its gestures and reached, the start region's
    figures), not its misses; the others are counted."""

    def __init__(self) -> None:
        self.records = 0
        self._audited: list[dict] = []

    def add(self, record: dict) -> None:
        self.records += 1
        if record.get("precision"):
            self._audited.append({
                "gesture": record.get("gesture"), "component": record["component"],
                "precision": {name: {"gestures": result["gestures"],
                                     "reached": result["reached"]}
                              for name, result in record["precision"].items()},
                "start": record.get("start")})

    def summary(self) -> dict[str, Any]:
        audited = self._audited
        by_kind: dict[str, list[dict]] = {}
        by_type: dict[str, list[dict]] = {}
        for record in audited:
            by_kind.setdefault(record.get("gesture") or "unknown", []).append(record)
            by_type.setdefault(record["component"], []).append(record)
        return {
            "rules": {name: rule.pays for name, rule in RULES.items()},
            "instances": len(audited), "left_out": self.records - len(audited),
            "overall": _rule_table(audited),
            "by_gesture": {kind: _rule_table(group) for kind, group in sorted(by_kind.items())},
            "by_component": {name: {"gesture": group[0].get("gesture"), **_rule_table(group)}
                             for name, group in sorted(by_type.items())},
            "start": {name: _start_table(starts) for name, group in sorted(by_type.items())
                      if (starts := [r for r in group if r.get("start")])},
        }


def summarize_precision(records: Iterable[dict]) -> dict[str, Any]:
    """Precision per rule: overall, per gesture kind and per type, with the start region
    per drag type. Records without a `precision` entry (an error, no live block, an audit
    run before this one) are left out and counted. The records are read once."""
    tally = PrecisionTally()
    for record in records:
        tally.add(record)
    return tally.summary()


def percent(stats: dict[str, Any]) -> str:
    """`8% [6-10]`: the precision and its gesture-level interval, or `n/a`."""
    if stats["precision"] is None:
        return "n/a"
    low, high = stats["ci"]
    return f"{100 * stats['precision']:.0f}% [{100 * low:.0f}-{100 * high:.0f}]"


def headline(summary: dict[str, Any]) -> str:
    """One line: each rule's precision for drags and for taps."""
    parts = []
    for kind, label in (("drag", "drags"), ("tap", "taps")):
        table = summary["by_gesture"].get(kind)
        if table:
            parts.append(f"{label} " + ", ".join(f"{name} {percent(table[name])}"
                                                   for name in RULES))
    if not parts:
        return "two-point audit: nothing audited"
    return ("two-point audit, share of gestures each static rule pays in full that reach "
            "the goal live: " + "; ".join(parts))
