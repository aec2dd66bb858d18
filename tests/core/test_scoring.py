"""Scoring on hand-computed cases: inclusive edges, no tolerance, release mode."""

from __future__ import annotations

import math

import pytest

from finestate_env.core import scoring
from finestate_env.core.coords import box_from_pixel, point_from_pixel, point_to_pixel
from finestate_env.core.schema import Boxes, StageVerdicts

# Needs no browser, X display, device or JDK: the fast tier (make test-fast).
pytestmark = pytest.mark.fast

BOXES = Boxes(loc=(10, 10, 110, 60), core=(20, 30, 100, 50), goal=(40, 30, 49, 50),
              now=(70, 30, 79, 50))


@pytest.mark.parametrize("point, inside", [
    ((10, 10), True), ((110, 60), True), ((110.0001, 60), False), ((9.9999, 10), False),
    ((60, 35), True), ((60, 61), False), (None, False), ((math.nan, 20), False),
    ((math.inf, 20), False),
])
def test_point_in_box_inclusive_edges(point, inside):
    assert scoring.point_in_box(point, BOXES.loc) is inside


def test_stage_verdicts_hand_computed():
    # p0 in loc, p1 in core and in goal; exactness comes from outside.
    v = scoring.stage_verdicts((50, 20), (45, 40), BOXES, exact=True)
    assert v == StageVerdicts(sr_loc=True, sr_int=True, es_sr_loc=True, es_sr_int=True)
    v = scoring.stage_verdicts((50, 20), (45, 40), BOXES, exact=False)
    assert v == StageVerdicts(sr_loc=True, sr_int=True, es_sr_loc=False, es_sr_int=False)
    # p0 outside loc, p1 in core but outside goal.
    v = scoring.stage_verdicts((5, 5), (60, 40), BOXES, exact=scoring.static_exact((60, 40), BOXES))
    assert v == StageVerdicts(sr_loc=False, sr_int=True, es_sr_loc=False, es_sr_int=False)
    # p0 in loc, p1 outside core: exact alone does not make es_sr_int.
    v = scoring.stage_verdicts((50, 20), (105, 40), BOXES, exact=True)
    assert v == StageVerdicts(sr_loc=True, sr_int=False, es_sr_loc=True, es_sr_int=False)


def test_static_exact_is_p1_in_goal():
    assert scoring.static_exact((40, 30), BOXES) and scoring.static_exact((49, 50), BOXES)
    assert not scoring.static_exact((49.5, 50), BOXES)
    assert not scoring.static_exact(None, BOXES)


@pytest.mark.parametrize("static, live, outcome", [
    (True, True, "agree"), (False, False, "agree"),
    (True, False, "false_accept"), (False, True, "false_reject"),
])
def test_crosscheck(static, live, outcome):
    assert scoring.crosscheck(static, live) == outcome


def test_release_mode_hand_computed():
    bbox, now, target = (0.1, 0.1, 0.5, 0.5), (0.2, 0.2, 0.3, 0.3), (0.4, 0.4, 0.5, 0.5)
    v = scoring.release_verdicts((0.25, 0.25), (0.45, 0.45), bbox, now, target)
    assert v == StageVerdicts(sr_loc=True, sr_int=True, es_sr_loc=True, es_sr_int=True)
    # p0 in bbox but not in now_coords; p1 in bbox but not in target_coords.
    v = scoring.release_verdicts((0.15, 0.15), (0.2, 0.2), bbox, now, target)
    assert v == StageVerdicts(sr_loc=True, sr_int=False, es_sr_loc=False, es_sr_int=False)
    # Without now/target the bbox stands in for both.
    v = scoring.release_verdicts((0.15, 0.15), (0.2, 0.2), bbox)
    assert v == StageVerdicts(sr_loc=True, sr_int=True, es_sr_loc=True, es_sr_int=True)
    # Inclusive edges, no tolerance.
    v = scoring.release_verdicts((0.5, 0.5), (0.5000001, 0.45), bbox, None, target)
    assert (v.sr_loc, v.sr_int) == (True, False)


def test_metric_set_counts_missing_as_miss():
    hit = StageVerdicts(sr_loc=True, sr_int=True, es_sr_loc=True, es_sr_int=False)
    miss = StageVerdicts(sr_loc=False, sr_int=True, es_sr_loc=False, es_sr_int=False)
    rates = scoring.metric_set([hit, miss, None, hit])
    assert rates == {"sr_loc": 0.5, "sr_int": 0.75, "es_sr_loc": 0.5, "es_sr_int": 0.0,
                     "n": 4, "missing": 1}
    assert scoring.metric_set([]) == {"sr_loc": 0.0, "sr_int": 0.0, "es_sr_loc": 0.0,
                                      "es_sr_int": 0.0, "n": 0, "missing": 0}


def test_coordinate_round_trips():
    size = (1280, 720)
    assert point_to_pixel((0.5, 0.5), "normalized", size) == (640.0, 360.0)
    assert point_to_pixel((500, 250), "1000", size) == (640.0, 180.0)
    assert point_from_pixel((640, 360), "normalized", size) == (0.5, 0.5)
    assert box_from_pixel((128, 72, 1279, 719), "normalized", size) == (0.1, 0.1,
                                                                        1279 / 1280, 719 / 720)


def test_grid_equality_is_exact_and_rejects_malformed_states():
    from finestate_env.components.base import on_grid_index

    assert on_grid_index(7.4, 0, 0.1) == 74
    assert on_grid_index(0.1 + 0.2, 0, 0.1) == 3  # float representation error is not a miss
    assert on_grid_index(7.45, 0, 0.1) is None  # off the grid: never rounded onto it
    for bad in (math.nan, math.inf, -math.inf, "7.4", None, True, [7.4]):
        assert on_grid_index(bad, 0, 0.1) is None
