"""The two-point audit (replay/precision.py): the gestures each static rule pays in full,
performed live, and how many reach the goal.

The fast tests hold the drawing and the statistics to their definitions and the rules to
the project's own scoring code; the live ones hold the audit's verdicts to what the env
itself reads back after the same gestures, on web, the phone and the desktop."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import finestate_env  # noqa: F401  (registers the ids)
from finestate_env.core import scoring
from finestate_env.core.coords import box_center
from finestate_env.replay import precision
from finestate_env.replay.precision import (
    RULES,
    audit_precision,
    bootstrap,
    draw_gestures,
    on_edge,
    rule_rng,
    start_grid,
    summarize_precision,
    wilson,
)
from finestate_env.rewards import ground_truth
from finestate_env.rewards.scorer import score_group
from finestate_env.runs.jobs import read_records


def inside(point, box) -> bool:
    return scoring.point_in_box(point, box)


def on_perimeter(point, box) -> bool:
    x, y = point
    return inside(point, box) and (x in (box[0], box[2]) or y in (box[1], box[3]))


@pytest.mark.fast
def test_gestures_lie_in_their_boxes_and_every_fifth_on_the_edges():
    rng = np.random.default_rng(0)
    p0_box, p1_box = (10.0, 20.0, 30.0, 25.0), (100.0, 100.0, 100.0, 140.0)
    pairs = draw_gestures(p0_box, p1_box, 40, rng)
    assert len(pairs) == 40
    for index, (p0, p1) in enumerate(pairs):
        assert inside(p0, p0_box) and inside(p1, p1_box)
        if index % 5 == 4:
            assert on_perimeter(p0, p0_box) and on_perimeter(p1, p1_box)
    # A zero-area box is its one point, on its edge.
    assert on_edge((5.0, 6.0, 5.0, 6.0), rng) == (5.0, 6.0)


@pytest.mark.fast
def test_the_random_stream_depends_on_the_seed_the_instance_and_the_rule_alone():
    box = (0.0, 0.0, 500.0, 500.0)

    def drawn(seed, instance, rule):
        return draw_gestures(box, box, 5, rule_rng(seed, instance, rule))

    assert drawn(0, "a", "box") == drawn(0, "a", "box")
    assert drawn(0, "a", "box") != drawn(1, "a", "box")
    assert drawn(0, "a", "box") != drawn(0, "b", "box")
    assert drawn(0, "a", "box") != drawn(0, "a", "core")


@pytest.fixture(scope="module")
def page_instances():
    env = gym.make("FineState-Web-v0", backend="fake").unwrapped
    found = []
    for seed in range(12):
        env.reset(seed=seed)
        found.append(env.instance)
    env.close()
    return found


@pytest.mark.fast
def test_every_drawn_gesture_is_paid_in_full_by_the_scoring_code_of_its_rule(page_instances):
    for instance in page_instances:
        boxes = instance.boxes.current
        screen = (0.0, 0.0, instance.size.width - 1.0, instance.size.height - 1.0)
        truth = ground_truth(instance, "pixel")
        for name, rule in RULES.items():
            p0_box, p1_box = rule.regions(boxes, screen)
            pairs = draw_gestures(p0_box, p1_box, 10, rule_rng(0, instance.id, name))
            for p0, p1 in pairs:
                if name == "stagewise":
                    verdicts = scoring.stage_verdicts(p0, p1, boxes,
                                                      scoring.static_exact(p1, boxes))
                elif name == "release":
                    verdicts = scoring.release_verdicts(p0, p1, boxes.loc, boxes.now,
                                                        boxes.goal)
                    assert scoring.grip_exact(p0, p1, boxes)  # the box_now reward mode
                else:
                    verdicts = None
                if verdicts is not None:
                    assert all(verdicts.model_dump().values()), (name, p0, p1, verdicts)
                if name == "core":
                    assert inside(p0, boxes.core) and inside(p1, boxes.goal)
            if name == "box":  # the reward server's box mode pays every one of them
                answers = [f'{{"p0": [{p0[0]}, {p0[1]}], "p1": [{p1[0]}, {p1[1]}]}}'
                           for p0, p1 in pairs]
                assert [s.reward for s in score_group(None, truth, answers, "box")] == [1.0] * 10


@pytest.mark.fast
def test_wilson_and_bootstrap_intervals_by_hand():
    z2 = precision.Z95 ** 2
    assert wilson(0, 20)[0] == 0.0
    assert math.isclose(wilson(0, 20)[1], z2 / (20 + z2))
    assert math.isclose(wilson(20, 20)[0], 20 / (20 + z2))
    low, high = wilson(10, 20)
    assert math.isclose(low + high, 1.0) and math.isclose(low, 0.2993, abs_tol=1e-4)
    assert wilson(0, 0) is None
    assert bootstrap([(3, 20)]) is None  # one instance: no spread to resample
    assert bootstrap([(5, 20)] * 4) == (0.25, 0.25)  # alike instances: no spread
    low, high = bootstrap([(0, 20), (20, 20), (10, 20), (20, 20)])
    assert 0.0 <= low < 0.625 < high <= 1.0
    assert bootstrap([(0, 20), (20, 20), (10, 20)]) == bootstrap([(0, 20), (20, 20), (10, 20)])


@pytest.mark.fast
def test_start_grid_spans_loc_with_its_edges():
    points = start_grid((0.0, 0.0, 310.0, 20.0), 32)
    xs, ys = sorted({x for x, _ in points}), sorted({y for _, y in points})
    assert xs[0] == 0.0 and xs[-1] == 310.0 and len(xs) == 32
    assert ys == [0.0, 10.0, 20.0]  # 10 px apart, as along x
    # 95 px tall: points ~3 px apart, so the two edges of a 2 px wide box, not its middle.
    assert start_grid((5.0, 5.0, 7.0, 100.0), 32)[:3] == [(5.0, 5.0), (7.0, 5.0), (5.0, 8.06)]


def record(component, gesture, counts, start=None):
    return {"component": component, "gesture": gesture, "status": "sound", "start": start,
            "precision": {name: {"gestures": g, "reached": r, "misses": []}
                          for name, (r, g) in counts.items()}}


@pytest.mark.fast
def test_summary_pools_gestures_per_rule_type_and_gesture_kind():
    records = [
        record("slider", "drag", {"stagewise": (2, 20), "release": (20, 20), "box": (0, 20),
                                  "core": (0, 0)},
               start={"measured": [1, 1, 5, 5], "iou_now": 0.5, "iou_core": 0.25,
                      "iou_loc": 0.1, "share_of_loc": 0.2, "probes": 10, "hits": 2}),
        record("slider", "drag", {"stagewise": (4, 20), "release": (19, 20), "box": (1, 20),
                                  "core": (10, 20)},
               start={"measured": None, "iou_now": 0.0, "iou_core": 0.0, "iou_loc": 0.0,
                      "share_of_loc": 0.0, "probes": 10, "hits": 0}),
        record("checkbox", "tap", dict.fromkeys(RULES, (20, 20))),
        {"component": "checkbox", "status": "error", "error": "the browser died"},
    ]
    summary = summarize_precision(records)
    assert summary["instances"] == 3 and summary["left_out"] == 1
    slider = summary["by_component"]["slider"]
    assert slider["stagewise"]["precision"] == 6 / 40 and slider["stagewise"]["gestures"] == 40
    assert slider["core"]["unpayable"] == 1 and slider["core"]["precision"] == 0.5
    assert summary["by_gesture"]["tap"]["box"]["precision"] == 1.0
    assert summary["overall"]["release"]["reached"] == 59
    assert summary["start"]["slider"]["found"] == 1 and summary["start"]["slider"]["iou_now"] == 0.5
    assert "checkbox" not in summary["start"]
    line = precision.headline(summary)
    assert "drags stagewise 15% [" in line and "taps stagewise 100% [" in line


# -- Live: the audit's verdicts are the env's ---------------------------------------------


def replayed(env, seed: int, p0, p1) -> bool:
    """Whether the env, reset with `seed`, reaches the goal with this gesture."""
    env.reset(seed=seed)
    _, _, _, _, info = env.step({"p0": np.asarray(p0, dtype=np.float32),
                                 "p1": np.asarray(p1, dtype=np.float32)})
    return bool(info["success"])


@pytest.mark.parametrize("env_id", ["FineState-Web-v0", "FineState-Mobile-v0",
                                    "FineState-Desktop-v0"])
def test_audit_verdicts_are_what_the_env_reads_back_after_the_same_gesture(env_id):
    env = gym.make(env_id, component="slider", scene="control").unwrapped
    try:
        env.reset(seed=3)
        instance = env.instance
        rules, start = audit_precision(env.backend, instance, gestures=10, seed=0)
        assert {name: result.gestures for name, result in rules.items()} == dict.fromkeys(RULES, 10)
        if env_id != "FineState-Desktop-v0":
            # The HTML and Android sliders put the thumb under the pointer wherever it was
            # grabbed: p0 anywhere on the thumb (release) and p1 in the goal box works. Qt's
            # keeps the grab offset, so a thumb grabbed at its edge lands off the goal.
            assert rules["release"].reached == 10, rules["release"].misses
        # Pressing anywhere on the screen (the box reward) mostly grabs nothing.
        assert rules["box"].reached < 10
        # Each verdict is the env's own for that gesture: misses and hits of two rules.
        misses = rules["release"].misses + rules["box"].misses
        for p0, p1 in misses[:3]:
            assert not replayed(env, 3, p0, p1), (p0, p1)
        hits = [pair for pair in draw_gestures(*RULES["release"].regions(instance.boxes.current,
                                                                         (0, 0, 1, 1)),
                                               10, rule_rng(0, instance.id, "release"))
                if pair not in rules["release"].misses]
        for p0, p1 in hits[:2]:
            assert replayed(env, 3, p0, p1), (p0, p1)
        assert start is not None and start.measured is not None
        now = instance.boxes.current.now
        assert inside(box_center(now), start.measured)  # the thumb is a start
        for p0 in start.hits[:: max(1, len(start.hits) // 2)]:
            assert replayed(env, 3, p0, box_center(instance.boxes.current.goal)), p0
    finally:
        env.close()


def test_a_tap_reaches_the_goal_under_every_rule_and_has_no_start_region():
    env = gym.make("FineState-Web-v0", component="checkbox").unwrapped
    try:
        env.reset(seed=5)
        rules, start = audit_precision(env.backend, env.instance, gestures=10, seed=0)
        assert {name: (r.gestures, r.reached) for name, r in rules.items()} == \
            dict.fromkeys(RULES, (10, 10))
        assert start is None
    finally:
        env.close()


# -- `finestate audit`, as a benchmark author runs it ---------------------------------------

FINESTATE = [sys.executable, "-m", "finestate_env.cli"]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*FINESTATE, *args], capture_output=True, text=True, timeout=600)


def test_finestate_audit_reports_each_rule_per_type_continues_and_draws_it(tmp_path):
    made = cli("generate", "--n", "4", "--seed", "2", "--component", "slider,checkbox",
               "--out", str(tmp_path / "data"))
    assert made.returncode == 0, made.stderr
    path = tmp_path / "data" / "instances.jsonl"
    out = tmp_path / "audit"
    done = cli("audit", "--instances", str(path), "--out", str(out), "--density", "2",
               "--gestures", "8", "--quiet")
    assert done.returncode == 0, done.stderr
    summary = json.loads((out / "audit_summary.json").read_text())["precision"]
    assert summary["instances"] == 4 and set(summary["rules"]) == set(RULES)
    for table in summary["by_component"].values():
        for rule in RULES:
            assert table[rule]["gestures"] == 8 * table[rule]["instances"] > 0
            assert 0.0 <= table[rule]["ci"][0] <= table[rule]["precision"] <= table[rule]["ci"][1]
    assert summary["by_component"]["checkbox"]["box"]["precision"] == 1.0
    assert set(summary["start"]) == {"slider"}
    records = read_records(out / "audit.jsonl")
    # The printed table and line are the summary's.
    assert precision.headline(summary) in done.stdout
    slider = summary["by_component"]["slider"]
    assert f"slider          drag    {precision.percent(slider['stagewise']):>17}" in done.stdout
    # One picture of the measured regions per type, drawn in the report with the table and plot.
    pictures = json.loads((out / "audit_summary.json").read_text())["regions_pictures"]
    assert set(pictures) == {"slider", "checkbox"}
    assert all((out / name).stat().st_size > 0 for name in pictures.values())
    html = (out / "report.html").read_text()
    assert 'id="precision"' in html and 'id="start-regions"' in html
    assert html.count('alt="measured regions of a ') == 2
    assert "precision per type and rule" in html
    # Run again: nothing is redone; with other settings: refused, naming them.
    again = cli("audit", "--instances", str(path), "--out", str(out), "--density", "2",
                "--gestures", "8", "--quiet")
    assert again.returncode == 0, again.stderr
    assert read_records(out / "audit.jsonl") == records
    other = cli("audit", "--instances", str(path), "--out", str(out), "--density", "2",
                "--gestures", "9", "--quiet")
    assert other.returncode == 2 and "gestures 8 there, 9 now" in other.stderr
    assert read_records(out / "audit.jsonl") == records
    # `finestate report` on the audit's folder writes the same sections.
    (out / "report.html").unlink()
    assert cli("report", str(out)).returncode == 0
    assert 'id="precision"' in (out / "report.html").read_text()


def test_an_imported_static_dataset_is_audited_as_not_replayable(tmp_path):
    path = Path(__file__).parents[1] / "data" / "finestate_bench_web.jsonl"  # released records
    done = cli("audit", "--instances", str(path), "--out", str(tmp_path / "audit"), "--quiet")
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "audit" / "audit_summary.json").read_text())
    lines = summary["instances"]
    assert lines > 0 and summary["status"]["not_replayable"] == lines
    assert summary["precision"]["instances"] == 0 and summary["precision"]["left_out"] == lines
    assert "two-point audit" not in done.stdout
