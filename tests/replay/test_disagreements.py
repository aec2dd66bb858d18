"""Why the box proxy and the control disagree: each mechanism told apart from the points
and the boxes, without a browser."""

from __future__ import annotations

import pytest

from finestate_env.core.schema import Boxes
from finestate_env.replay.disagreements import (
    Disagreement,
    distance_outside,
    explain,
    mechanism,
    why,
)

# Needs no browser, X display, device or JDK: the fast tier (make test-fast).
pytestmark = pytest.mark.fast

# A table column's header: the handle (now) is 7 px wide, the goal band 5 px.
COLUMN = Boxes(loc=(100, 100, 500, 300), core=(100, 100, 500, 130), goal=(300, 100, 304, 130),
               now=(200, 100, 206, 130))
CLOCK = Boxes(loc=(50, 50, 250, 250), core=(60, 60, 240, 240), goal=(140, 60, 150, 70),
              now=(100, 100, 120, 120))
MAP = Boxes(loc=(0, 0, 400, 300), core=(0, 0, 400, 300), goal=(196, 146, 204, 154),
            now=(51, 41, 59, 49))


def case(component, gesture, crosscheck, p0, p1, boxes, state=1, current_state=1):
    return Disagreement(component=component, gesture=gesture, crosscheck=crosscheck, p0=p0,
                        p1=p1, boxes=boxes, state=state, current_state=current_state)


def test_distance_outside_is_zero_inside_and_the_larger_axis_outside():
    assert distance_outside((300, 110), COLUMN.goal) == 0.0
    assert distance_outside((304.5, 110), COLUMN.goal) == 0.5
    assert distance_outside((297, 95), COLUMN.goal) == 5.0
    assert distance_outside(None, COLUMN.goal) is None


def test_each_mechanism_is_told_apart():
    missed = case("table_column", "drag", "false_accept", (196.5, 115), (302, 115), COLUMN)
    grabbed = case("table_column", "drag", "false_accept", (203, 115), (302, 115), COLUMN)
    pan = case("zoom_pan", "drag", "false_accept", (58, 45), (200, 150), MAP)
    tap = case("tabs", "tap", "false_accept", (10, 10), (302, 115), COLUMN)
    ring = case("time_picker", "tap", "false_reject", (110, 110), (150.6, 65), CLOCK)
    sub = case("table_column", "drag", "false_reject", (203, 115), (304.4, 115), COLUMN)
    wide = case("table_column", "drag", "false_reject", (203, 115), (306, 115), COLUMN)
    moved = case("zoom_pan", "drag", "false_reject", (58, 45), (210, 150), MAP)
    assert [mechanism(c) for c in (missed, grabbed, pan, tap, ring, sub, wide, moved)] == [
        "missed_grab", "drag_box_wrong", "relative_press", "tap_box_wrong", "ring_sector",
        "subpixel", "conservative", "relative_region"]
    assert why(missed) == ("p1 was in the goal box, but p0 was 3.5 px outside the column's "
                           "resize handle (`now`), so the drag moved nothing")
    assert why(pan) == ("p1 was in the goal box, but the pan is p1 - p0 and the box is measured "
                        "for a press at the pin's centre: p0 was 3.0 px off it, which moves "
                        "where p1 must land")
    assert why(sub) == ("p1 was 0.4 px outside the goal box: box edges are whole pixels, and a "
                        "point less than a pixel beyond one can still reach the goal")
    assert why(ring) == ("p1 was 0.6 px outside the goal box but inside the ring sector that "
                         "reaches the goal (the box is the largest rectangle inside it)")


def test_explain_groups_by_type_and_mechanism_with_what_was_measured():
    cases = [
        case("table_column", "drag", "false_accept", (196.5, 115), (302, 115), COLUMN),
        case("table_column", "drag", "false_accept", (210, 115), (301, 115), COLUMN,
             state=2, current_state=1),
        case("table_column", "drag", "false_reject", (203, 115), (304.4, 115), COLUMN),
        case("knob", "drag", "false_reject", (110, 110), (151, 66), CLOCK),
        case("knob", "drag", "false_reject", (110, 110), (152.5, 66), CLOCK),
    ]
    assert explain(cases) == {
        "knob": {"gesture": "drag", "false_accept": 0, "false_reject": 2, "lines": [
            ("false_reject", 2, "p1 was 1.0-2.5 px outside the goal box but inside the ring "
                                "sector that reaches the goal (the box is the largest "
                                "rectangle inside it)")]},
        "table_column": {"gesture": "drag", "false_accept": 2, "false_reject": 1, "lines": [
            ("false_accept", 2, "p1 was in the goal box, but p0 was 3.5-4.0 px outside the "
                                "column's resize handle (`now`), so the drag moved nothing (1) "
                                "or the wrong thing (1)"),
            ("false_reject", 1, "p1 was 0.4 px outside the goal box: box edges are whole "
                                "pixels, and a point less than a pixel beyond one can still "
                                "reach the goal")]},
    }
