"""Replay, dataset audit and report (`finestate replay | audit | report`), end to end.

A small dataset is made with the real env (screenshots and all), then
predictions are replayed on real Chromium: the oracle agrees with its boxes,
shifted boxes show up as false accepts and rejects and fail the audit, an
interrupted run resumes to the same results, and the report opens in
Chromium without a script error.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from finestate_env.core.coords import box_center
from finestate_env.core.schema import Instance
from finestate_env.core.scoring import point_in_box
from finestate_env.runs.jobs import read_records

TYPES = ["slider", "checkbox", "date_picker", "drag_reorder", "tabs", "color_picker"]
FINESTATE = [sys.executable, "-m", "finestate_env.cli"]


def write_dataset(folder: Path, instances: list[Instance], images_from: Path) -> Path:
    """An instances file in `folder`, with the images of `images_from` beside it."""
    (folder / "images").mkdir(parents=True, exist_ok=True)
    for instance in instances:
        target = folder / instance.image
        if not target.exists():
            shutil.copyfile(images_from / instance.image, target)
    path = folder / "instances.jsonl"
    path.write_text("".join(i.model_dump_json() + "\n" for i in instances))
    return path


def write_predictions(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """`finestate generate` over TYPES: the folder, its instances, and one instance per type."""
    from finestate_env.datasets.formats import read_instances
    from finestate_env.datasets.generate import generate

    folder = tmp_path_factory.mktemp("dataset")
    # The control alone: the expectations below (which shifted box misleads how) are
    # worked out on lone controls; tests/replay/test_collateral.py replays pages.
    path = generate(folder, n=14, seed=0, component=TYPES, scene="control")
    instances = read_instances(path).items
    one_each = {i.component: i for i in reversed(instances)}
    assert sorted(one_each) == sorted(TYPES), "the generated mix should cover every type"
    return folder, instances, [one_each[name] for name in TYPES]


def oracle_rows(instances: list[Instance], goal_of=None) -> list[dict]:
    rows = []
    for instance in instances:
        boxes = instance.boxes.current
        goal = goal_of(instance) if goal_of else boxes.goal
        rows.append({"id": instance.id, "p0": list(box_center(boxes.now)),
                     "p1": list(box_center(goal)), "coords": "pixel"})
    return rows


def run_cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*FINESTATE, *args], capture_output=True, text=True, timeout=timeout)


def results_without_timings(folder: Path) -> dict[str, dict]:
    return {r["key"]: {k: v for k, v in r.items() if k != "timings"}
            for r in read_records(folder / "results.jsonl")}


def test_oracle_replay_agrees_and_report_opens_in_chromium(dataset, tmp_path):
    folder, instances, _ = dataset
    path = folder / "instances.jsonl"
    predictions = write_predictions(tmp_path / "oracle.jsonl", oracle_rows(instances))
    out = tmp_path / "oracle"
    done = run_cli("replay", "--instances", str(path), "--predictions", str(predictions),
                   "--out", str(out), "--quiet", "--report")
    assert done.returncode == 0, done.stderr
    records = read_records(out / "results.jsonl")
    assert len(records) == len(instances)
    assert {r["crosscheck"] for r in records} == {"agree"}
    assert all(r["live_exact"] and r["boxes_match"] for r in records)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["live"]["overall"]["es_sr_int"] == 1.0
    assert summary["static"]["overall"]["es_sr_int"] == 1.0
    assert summary["crosscheck"]["agree"] == len(instances)
    assert (out / "report.html").exists()


def test_shifted_boxes_show_as_false_accepts_and_rejects_and_fail_the_audit(dataset, tmp_path):
    folder, _, one_each = dataset
    # Shift each goal box across its narrow side by its own size: the box now
    # covers points that yield another state (the true region is narrow that way).
    def shifted(instance: Instance) -> Instance:
        x1, y1, x2, y2 = instance.boxes.current.goal
        dx, dy = (x2 - x1 + 1, 0) if x2 - x1 <= y2 - y1 else (0, y2 - y1 + 1)
        current = instance.boxes.current.model_copy(
            update={"goal": (x1 + dx, y1 + dy, x2 + dx, y2 + dy)})
        return instance.model_copy(update={"boxes": instance.boxes.model_copy(
            update={"current": current})})

    tampered = [shifted(i) for i in one_each]
    path = write_dataset(tmp_path / "tampered", tampered, folder)
    # Aiming at the (wrong) annotated goal: the box says yes, the control says no.
    at_box = write_predictions(tmp_path / "at_box.jsonl", oracle_rows(tampered))
    out = tmp_path / "at_box"
    done = run_cli("replay", "--instances", str(path), "--predictions", str(at_box),
                   "--out", str(out), "--quiet", "--report")
    assert done.returncode == 0, done.stderr
    outcomes = {r["component"]: r["crosscheck"] for r in read_records(out / "results.jsonl")}
    assert outcomes == dict.fromkeys(TYPES, "false_accept")
    html = (out / "report.html").read_text()
    assert html.count('class="card"') == len(TYPES)
    # Aiming at the true goal: the box says no, the control reached the goal.
    truth = {i.id: i.boxes.current.goal for i in one_each}
    at_truth = write_predictions(tmp_path / "at_truth.jsonl",
                                 oracle_rows(tampered, goal_of=lambda i: truth[i.id]))
    out = tmp_path / "at_truth"
    assert run_cli("replay", "--instances", str(path), "--predictions", str(at_truth),
                   "--out", str(out), "--quiet").returncode == 0
    assert {r["crosscheck"] for r in read_records(out / "results.jsonl")} == {"false_reject"}
    # The audit proves the shifted boxes wrong, with a picture of each.
    audit = tmp_path / "audit"
    done = run_cli("audit", "--instances", str(path), "--out", str(audit), "--density", "2",
                   "--quiet")
    assert done.returncode == 0, done.stderr
    summary = json.loads((audit / "audit_summary.json").read_text())
    assert summary["status"]["unsound"] == len(TYPES)
    for bad in summary["unsound"]:
        assert (audit / bad["picture"]).stat().st_size > 0


def test_audit_of_generated_boxes_is_sound(dataset, tmp_path):
    folder, _, one_each = dataset
    path = write_dataset(tmp_path / "one_each", one_each, folder)
    done = run_cli("audit", "--instances", str(path), "--out", str(tmp_path / "audit"),
                   "--density", "2", "--quiet")
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "audit" / "audit_summary.json").read_text())
    assert summary["status"] == {"sound": len(TYPES), "unsound": 0, "not_replayable": 0,
                                 "error": 0}
    for density in ("0", "two"):
        refused = run_cli("audit", "--instances", str(path), "--out", str(tmp_path / density),
                          "--density", density)
        assert refused.returncode == 2 and "argument --density: " in refused.stderr
        assert not (tmp_path / density).exists()


def test_interrupted_replay_resumes_to_the_same_results(dataset, tmp_path):
    folder, instances, _ = dataset
    path = folder / "instances.jsonl"
    rows = oracle_rows(instances)
    for row in rows[::3]:  # some misses, so the results are not all alike
        row["p1"] = [5.0, 5.0]
    predictions = write_predictions(tmp_path / "mixed.jsonl", rows)
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert run_cli("replay", "--instances", str(path), "--predictions", str(predictions),
                   "--out", str(whole), "--quiet").returncode == 0
    process = subprocess.Popen([*FINESTATE, "replay", "--instances", str(path), "--predictions",
                                str(predictions), "--out", str(cut), "--quiet"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        lines = (cut / "results.jsonl").read_bytes().count(b"\n") if (
            cut / "results.jsonl").exists() else 0
        if lines >= 4 or process.poll() is not None:
            break
        time.sleep(0.02)
    os.killpg(process.pid, signal.SIGKILL)  # the whole group: python, driver, browser
    process.wait()
    written = len(read_records(cut / "results.jsonl"))
    assert 4 <= written < len(rows), "the kill should land part way through"
    done = run_cli("replay", "--instances", str(path), "--predictions", str(predictions),
                   "--out", str(cut), "--quiet")
    assert done.returncode == 0, done.stderr
    keys = [r["key"] for r in read_records(cut / "results.jsonl")]
    assert len(keys) == len(set(keys)) == len(rows)
    assert results_without_timings(cut) == results_without_timings(whole)


def test_two_workers_give_the_same_results_as_one(dataset, tmp_path):
    folder, instances, _ = dataset
    path = folder / "instances.jsonl"
    predictions = write_predictions(tmp_path / "oracle.jsonl", oracle_rows(instances[:6]))
    one, two = tmp_path / "one", tmp_path / "two"
    for out, workers in ((one, "1"), (two, "2")):
        done = run_cli("replay", "--instances", str(path), "--predictions", str(predictions),
                       "--out", str(out), "--workers", workers, "--quiet")
        assert done.returncode == 0, done.stderr
    assert results_without_timings(one) == results_without_timings(two)


def test_report_in_chromium_has_tables_charts_thumbnails_and_runs_no_input_script(
        dataset, tmp_path):
    from playwright_driver import DRIVER

    from finestate_env.backends.chromium import LAUNCH_ARGS, find_chromium

    folder, _, one_each = dataset
    hostile = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'
    # A wrong goal box so that every prediction becomes a card, and hostile text
    # in every string a card shows.
    tampered = []
    for instance in one_each[:3]:
        x1, y1, x2, y2 = instance.boxes.current.goal
        current = instance.boxes.current.model_copy(update={"goal": (x1, y1 - 400, x2, y1 - 390)})
        tampered.append(instance.model_copy(update={
            "instructions": instance.instructions.model_copy(update={"interact": hostile}),
            "boxes": instance.boxes.model_copy(update={"current": current})}))
    path = write_dataset(tmp_path / "hostile", tampered, folder)
    predictions = write_predictions(tmp_path / "p.jsonl", oracle_rows(one_each[:3]))
    out = tmp_path / "out"
    assert run_cli("replay", "--instances", str(path), "--predictions", str(predictions),
                   "--out", str(out), "--quiet").returncode == 0
    done = run_cli("report", str(out))
    assert done.returncode == 0, done.stderr
    playwright = DRIVER.acquire()
    try:
        browser = playwright.chromium.launch(executable_path=find_chromium(),
                                             args=list(LAUNCH_ARGS))
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto((out / "report.html").as_uri())
        assert errors == []
        assert page.evaluate("window.pwned") is None
        assert page.locator("#metrics tbody tr").count() >= 1 + 1 + 3  # overall, platform, ...
        assert page.locator("#crosscheck-by-type tbody tr").count() == 3
        charts = page.locator("#charts img")
        assert charts.count() == 2
        assert page.evaluate("[...document.querySelectorAll('#charts img')]"
                             ".every(i => i.naturalWidth > 0)")
        cards = page.locator("#cases .card")
        assert cards.count() == 3
        assert page.evaluate("[...document.querySelectorAll('#cases .card img')]"
                             ".every(i => i.naturalWidth > 0)")
        assert hostile in cards.first.inner_text()  # shown as text, not run
        page.select_option("#filter-type", tampered[0].component)
        assert page.locator("#cases .card:visible").count() == 1
        browser.close()
    finally:
        DRIVER.release()


def test_random_predictions_score_as_the_static_scorer_says(dataset, tmp_path):
    """Replay's static side is `finestate score`'s; live differs only where the
    cross-check says the boxes were wrong (for generated boxes: nowhere)."""
    import numpy as np

    from finestate_env.core.schema import Prediction
    from finestate_env.core.static_scoring import score
    from finestate_env.replay.live_replay import pair_predictions, replay

    _, instances, _ = dataset
    rng = np.random.default_rng(5)
    predictions = []
    for instance in instances:
        core = instance.boxes.current.core
        # Half the points land in the core, so that some predictions do succeed.
        p1 = (rng.uniform(core[0], core[2]), rng.uniform(core[1], core[3]))
        predictions.append(Prediction(id=instance.id, p0=tuple(rng.uniform(0, 720, 2)),
                                      p1=p1, coords="pixel"))
    predictions[0] = Prediction(id=instances[0].id, p0=None, p1=None)  # a miss
    jobs, unknown, _ = pair_predictions(instances, predictions)
    assert unknown == []
    records, summary = replay(jobs, tmp_path, progress=False)
    _, static = score(instances, predictions)
    for group in ("overall", "by_platform", "by_family", "by_component"):
        assert summary["static"][group] == static[group]
    assert records[0].outcome == "missing" and records[0].live is None
    by_id = {i.id: i for i in instances}
    for record in records[1:]:
        if record.crosscheck == "agree":
            assert record.live == record.static
        else:
            # The box proxy looks at p1 alone; a drag that grabs the control
            # anywhere but at the thing to move goes elsewhere: a real false
            # accept of the static score, never a false reject.
            instance = by_id[record.id]
            assert record.crosscheck == "false_accept"
            assert instance.gesture == "drag"
            assert not point_in_box(record.p0, instance.boxes.current.now)


def test_a_killed_browser_mid_run_is_restarted_and_static_only_instances_are_counted(
        dataset, tmp_path):
    from finestate_env.backends.processes import descendants, matching
    from finestate_env.core.schema import Prediction
    from finestate_env.replay.live_replay import ReplayWorker

    _, instances, _ = dataset
    worker = ReplayWorker()
    try:
        oracle = [Prediction(**row) for row in oracle_rows(instances[:2])]
        first = worker.replay(instances[0], oracle[0])
        assert first.live_exact
        for pid in descendants(os.getpid()) & matching(b"chromium"):
            os.kill(pid, signal.SIGKILL)
        second = worker.replay(instances[1], oracle[1])
        assert second.outcome == "performed" and second.live_exact
        static_only = instances[1].model_copy(update={"live": None})
        third = worker.replay(static_only, oracle[1])
        assert third.outcome == "not_replayable" and third.live is None
        assert third.static == second.static
    finally:
        worker.close()


@pytest.mark.parametrize("platform", ["desktop", "mobile"])
def test_generate_replay_and_audit_on_the_other_platforms(platform, tmp_path):
    """Replay and audit pick each instance's backend from its platform."""
    from finestate_env.datasets.formats import read_instances
    from finestate_env.datasets.generate import generate

    path = generate(tmp_path / "data", platform=platform, n=2, seed=1,
                    component=["slider", "checkbox"])
    instances = read_instances(path).items
    assert {i.platform for i in instances} == {platform}
    predictions = write_predictions(tmp_path / "oracle.jsonl", oracle_rows(instances))
    out = tmp_path / "out"
    done = run_cli("replay", "--instances", str(path), "--predictions", str(predictions),
                   "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    assert [r["crosscheck"] for r in read_records(out / "results.jsonl")] == ["agree"] * 2
    assert all(r["live_exact"] and r["boxes_match"] for r in read_records(out / "results.jsonl"))
    done = run_cli("audit", "--instances", str(path), "--out", str(out), "--density", "2",
                   "--quiet")
    assert done.returncode == 0, done.stderr
    assert json.loads((out / "audit_summary.json").read_text())["status"]["sound"] == 2
