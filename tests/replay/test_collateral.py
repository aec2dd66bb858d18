"""Collateral on pages, through replay and the report (issue #16, item 4).

A page instance is replayed twice: once by the oracle (nothing else changes) and
once with a click on a distractor slider's rail (that slider moves). The records
name what changed, the summary counts it, the command line prints it and the
report shows it, both as a table and on the step's card.
"""

from __future__ import annotations

import json

import pytest
from test_replay import run_cli, write_predictions

from finestate_env.backends.web import WebBackend
from finestate_env.core.coords import box_center
from finestate_env.datasets.formats import read_instances
from finestate_env.datasets.generate import generate
from finestate_env.replay.records import ReplayRecord
from finestate_env.runs.jobs import read_records

RAIL = """i => { const r = document.querySelectorAll('#stage > .fs-control')[1 + i]
                  .querySelector('.fs-slider-rail').getBoundingClientRect();
                return [r.left, r.top, r.right, r.bottom]; }"""


def _switch_page_with_a_slider(folder):
    """A generated switch page that has a slider among its distractors, and its index."""
    instances = read_instances(generate(folder, n=8, seed=0, component="switch",
                                        scene="page")).items
    for instance in instances:
        sliders = [i for i, d in enumerate(instance.live.scene.distractors)
                   if d.component == "slider"]
        if sliders:
            return instance, sliders[0], folder / "instances.jsonl"
    raise AssertionError("no generated switch page had a slider distractor in 8 seeds")


def test_replay_records_counts_and_reports_collateral(tmp_path):
    instance, index, path = _switch_page_with_a_slider(tmp_path / "data")
    distractor = instance.live.scene.distractors[index]
    backend = WebBackend()
    try:
        backend.render(instance.live)
        left, top, right, bottom = backend.evaluate(RAIL, index)
    finally:
        backend.close()
    # Whichever end of the rail is farther from the slider's value moves it.
    x = left + 1 if distractor.state > distractor.params["min"] else right - 1
    off_target = [x, (top + bottom) / 2]
    others = [i for i in read_instances(path).items if i.id != instance.id][:1]
    rows = [{"id": instance.id, "p0": off_target, "p1": off_target, "coords": "pixel"}] + [
        {"id": i.id, "p0": list(box_center(i.boxes.current.now)),
         "p1": list(box_center(i.boxes.current.goal)), "coords": "pixel"} for i in others]
    predictions = write_predictions(tmp_path / "p.jsonl", rows)
    out = tmp_path / "out"
    done = run_cli("replay", "--instances", str(path), "--predictions", str(predictions),
                   "--out", str(out), "--quiet", "--report")
    assert done.returncode == 0, done.stderr

    records = {r["id"]: r for r in read_records(out / "results.jsonl")}
    assert records[instance.id]["collateral_changed"] == [distractor.label]
    assert records[instance.id]["live_exact"] is False
    assert [records[i.id]["collateral_changed"] for i in others] == [[]]
    assert all(records[i.id]["live_exact"] for i in others)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["collateral"] == {"episodes": 1, "with_success": 0,
                                     "by_component": {"switch": 1}}
    assert "collateral: 1 steps changed another control (0 of them still reached the goal)" \
        in done.stdout
    html = (out / "report.html").read_text()
    assert 'id="collateral"' in html
    assert f"also changed: {distractor.label}" in html


@pytest.mark.fast
def test_a_live_run_keeps_collateral_for_the_report():
    from finestate_env.core.schema import StageVerdicts, StepResult

    verdicts = StageVerdicts(sr_loc=True, sr_int=True, es_sr_loc=True, es_sr_int=True)
    step = StepResult(id="web-slider-x", component="slider", family="numeric_range", platform="web",
                      p0=(1.0, 2.0), p1=(3.0, 4.0), state=5, goal_state=5, success=True,
                      static=verdicts, live=verdicts, crosscheck="agree",
                      collateral_changed=["Bass"])
    record = ReplayRecord.from_step(step)
    assert record.collateral_changed == ["Bass"] and record.live_exact is True
    assert StepResult.model_validate_json(step.model_dump_json()).collateral is True
