"""Why the box proxy and the control disagree, per type (docs/design.md §4).

The static verdict asks whether p1 lies in the goal box; the live one reads the
control back. They part in two ways, and for each disagreement the points and
the instance's boxes say which mechanism it was:

- **false accept** (the box says yes, the control no): for a drag, p1 is only
  half the gesture. The press at p0 must grab what the drag moves (a handle, a
  row, a thumb, the track); a p0 that misses it moves nothing, or something
  else, wherever p1 lands. A map's pan is relative (p1 - p0), and its goal box
  is measured for a press at the pin's centre, so a press off the centre shifts
  where p1 must land. A false accept for a tap is a box that is wrong.
- **false reject** (the box says no, the control yes): the goal box is a
  rectangle drawn conservatively inside the region that reaches the goal. A
  knob's or a clock's region is a ring sector, of which the box is the largest
  inscribed rectangle; box edges are whole pixels, so a point less than a pixel
  outside can still reach the goal; a relative pan pressed off the pin's centre
  moves the region itself.

`explain` gives one line per type and mechanism with what was measured (how far
p0 was off what it must grab, how far p1 was outside the goal box). What each type
contributes is declared on the type (`components.base.ComponentType`): what a drag
must grab (`grab`), whether it pans relatively (`relative_drag`), the shape of a goal
region no rectangle fills (`goal_region`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from finestate_env.components import COMPONENTS, ComponentType
from finestate_env.components.base import Grab
from finestate_env.core.coords import box_center
from finestate_env.core.schema import Boxes
from finestate_env.core.scoring import point_in_box


def _type(component: str) -> ComponentType | None:
    """The type's definition; None for a type imported records name that is none of ours."""
    return COMPONENTS.get(component)


def _grab(component: str) -> Grab | None:
    kind = _type(component)
    return kind.grab if kind is not None else None


def _relative(component: str) -> bool:
    kind = _type(component)
    return kind is not None and kind.relative_drag


def _goal_region(component: str) -> str | None:
    kind = _type(component)
    return kind.goal_region if kind is not None else None


def _region_key(region: str) -> str:
    """The mechanism's key for a goal region's shape: "ring sector" -> "ring_sector"."""
    return "_".join(region.split())


@dataclass(frozen=True)
class Disagreement:
    """One action on which the box and the control disagree; points and boxes in pixels."""

    component: str
    gesture: str | None
    crosscheck: str  # "false_accept" or "false_reject"
    p0: tuple[float, float] | None
    p1: tuple[float, float] | None
    boxes: Boxes
    state: Any
    current_state: Any


def disagreement_of(result: Any, instance: Any) -> Disagreement | None:
    """The disagreement of one result (a live step's or a replay's: `component`,
    `crosscheck`, `p0`, `p1`, `state`) on `instance`, or None when they agree, or when the
    instance is unknown or has no pixel boxes."""
    if (result.crosscheck not in ("false_accept", "false_reject") or instance is None
            or instance.boxes is None):
        return None
    return Disagreement(component=result.component, gesture=instance.gesture,
                        crosscheck=result.crosscheck, p0=result.p0, p1=result.p1,
                        boxes=instance.boxes.current, state=result.state,
                        current_state=instance.current_state)


def distance_outside(point: tuple[float, float] | None, box) -> float | None:
    """How far `point` lies outside `box` (0 inside), the larger of the two axes, in px."""
    if point is None:
        return None
    dx = max(box[0] - point[0], 0.0, point[0] - box[2])
    dy = max(box[1] - point[1], 0.0, point[1] - box[3])
    return max(dx, dy)


def mechanism(case: Disagreement) -> str:
    """Which way the box proxy failed on this action: "missed_grab", "relative_press",
    "tap_box_wrong", "drag_box_wrong", the goal region's shape ("ring_sector"),
    "relative_region", "subpixel" or "conservative"."""
    if case.crosscheck == "false_accept":
        if case.gesture != "drag":
            return "tap_box_wrong"
        if _relative(case.component):
            return "relative_press"
        grab = _grab(case.component)
        if grab is not None and not point_in_box(case.p0, getattr(case.boxes, grab.box)):
            return "missed_grab"
        return "drag_box_wrong"
    region = _goal_region(case.component)
    if region is not None:
        return _region_key(region)
    if _relative(case.component):
        return "relative_region"
    outside = distance_outside(case.p1, case.boxes.goal)
    return "subpixel" if outside is not None and outside < 1.0 else "conservative"


def _span(values: list[float]) -> str:
    if not values:
        return "an unknown distance"
    low, high = min(values), max(values)
    return f"{low:.1f} px" if round(low, 1) == round(high, 1) else f"{low:.1f}-{high:.1f} px"


def _line(key: str, component: str, cases: list[Disagreement]) -> str:
    """The explanation of `cases` (one type, one mechanism), with what was measured."""
    n = len(cases)
    p1_out = [d for c in cases if (d := distance_outside(c.p1, c.boxes.goal)) is not None]
    if key == "missed_grab":
        grab = _grab(component)
        box, noun = grab.box, grab.noun
        off = [d for c in cases if (d := distance_outside(c.p0, getattr(c.boxes, box)))]
        still = sum(c.state == c.current_state for c in cases)
        effect = ("so the drag moved nothing" if still == n
                  else f"so the drag moved nothing ({still}) or the wrong thing ({n - still})")
        return (f"p1 was in the goal box, but p0 was {_span(off)} outside {noun} "
                f"(`{box}`), {effect}")
    if key == "relative_press":
        off = [max(abs(c.p0[0] - centre[0]), abs(c.p0[1] - centre[1])) for c in cases
               if c.p0 is not None and (centre := box_center(c.boxes.now))]
        return (f"p1 was in the goal box, but the pan is p1 - p0 and the box is measured for a "
                f"press at the pin's centre: p0 was {_span(off)} off it, which moves where "
                "p1 must land")
    if key == "tap_box_wrong":
        return "p1 was in the goal box, yet the click did not reach the goal: the box is wrong"
    if key == "drag_box_wrong":
        return "p1 was in the goal box and p0 grabbed the control, yet the drag missed the goal"
    region = _goal_region(component)
    if region is not None and key == _region_key(region):
        return (f"p1 was {_span(p1_out)} outside the goal box but inside the "
                f"{_goal_region(component)} that reaches the goal (the box is the largest "
                "rectangle inside it)")
    if key == "relative_region":
        return ("p1 was outside the goal box, but p0 was off the pin's centre too, which moved "
                "the region that reaches the goal onto p1")
    if key == "subpixel":
        return (f"p1 was {_span(p1_out)} outside the goal box: box edges are whole pixels, and "
                "a point less than a pixel beyond one can still reach the goal")
    return (f"p1 was {_span(p1_out)} outside the goal box, which lies conservatively inside the "
            "region that reaches the goal")


def explain(cases: Iterable[Disagreement]) -> dict[str, dict[str, Any]]:
    """Per type (sorted): `gesture`, `false_accept`, `false_reject` counts and `lines`, one
    `(crosscheck, count, text)` per mechanism, false accepts first."""
    by_type: dict[str, list[Disagreement]] = {}
    for case in cases:
        by_type.setdefault(case.component, []).append(case)
    table: dict[str, dict[str, Any]] = {}
    for component, group in sorted(by_type.items()):
        lines = []
        for kind in ("false_accept", "false_reject"):
            by_key: dict[str, list[Disagreement]] = {}
            for case in group:
                if case.crosscheck == kind:
                    by_key.setdefault(mechanism(case), []).append(case)
            for key, members in sorted(by_key.items(), key=lambda item: -len(item[1])):
                lines.append((kind, len(members), _line(key, component, members)))
        table[component] = {
            "gesture": group[0].gesture,
            "false_accept": sum(c.crosscheck == "false_accept" for c in group),
            "false_reject": sum(c.crosscheck == "false_reject" for c in group),
            "lines": lines,
        }
    return table


def why(case: Disagreement) -> str:
    """The explanation of one disagreement."""
    return _line(mechanism(case), case.component, [case])
