"""Streams (#49): `finestate import`, `score`, `export`, `replay` and `audit` hold one line of
their instances at a time, never the whole file, nor all their records.

A file of 20,000 lines keeps every command's process under a fixed bound that the
whole-file code went far past (measured before streaming, on the same files: export 592,
score 629, replay 404, import 314, audit 301 MB; streamed, each under 105); a small file
gives the same files and summaries as the list-based library calls, whose summaries are
checked here against the pre-streaming summaries (a list of every record, grouped). And
a bad last line still leaves nothing behind: the output becomes a file only once every
line was read.
"""

from __future__ import annotations

import json
import random
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.stream_bench import COMMANDS, command_lines, finestate, make_files
from finestate_env.core import scoring
from finestate_env.core.errors import UsageError
from finestate_env.core.metrics import metric_table
from finestate_env.core.static_scoring import score
from finestate_env.datasets.formats import (
    InstanceReader,
    export,
    read_instances,
    read_predictions,
    relocate_images,
    write_instances,
)
from finestate_env.replay import precision
from finestate_env.replay.records import ReplayRecord, summarize_replay
from finestate_env.runs.jobs import read_records

LINES = 20_000
LIMIT_MB = 200.0
FINESTATE = [sys.executable, "-m", "finestate_env.cli"]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*FINESTATE, *args], capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def big(tmp_path_factory) -> Path:
    """benchmarks/stream_bench.py's files at LINES lines (one live instance in static.jsonl),
    and a small mixed file beside them (`small.jsonl`, `small-predictions.jsonl`)."""
    folder = tmp_path_factory.mktemp("streams")
    make_files(folder, LINES, live=1, code=None)
    data = folder / "data"
    rows = []
    with open(data / "static.jsonl") as f:
        for number, line in zip(range(40), f, strict=False):
            row = json.loads(line)
            if number == 1:
                row = {**json.loads((data / "instances.jsonl").open().readline()),
                       "id": row["id"]}  # a second live instance
            if number > 2 and number % 3 == 0:  # static ones of other types and platforms
                row.update(component="slider", family="numeric_range")
            if number > 2 and number % 5 == 0:
                row["platform"] = "mobile"
            rows.append(json.dumps(row))
    rows.insert(7, '{"id": "cut')  # a bad line (skipped with --skip-invalid)
    (data / "small.jsonl").write_text("\n".join(rows) + "\n")
    rng = random.Random(0)
    predictions = []
    for number, row in enumerate(json.loads(r) for r in rows if r.startswith('{"id": "w')):
        boxes = row["boxes"]["current"]
        inside = lambda box: [rng.uniform(box[0], box[2]),  # noqa: E731
                              rng.uniform(box[1], box[3])]
        prediction = {"id": row["id"], "p0": inside(boxes["now"]),
                      "p1": inside(boxes["goal"] if number % 2 else boxes["core"]),
                      "coords": "pixel"}
        if number % 7 == 3:
            prediction["p0"] = None
        if number % 11 == 4:
            prediction["p1"] = "[1, 2]"
        if number % 9 == 5:
            continue  # no prediction
        predictions.append(json.dumps(prediction))
        if number % 8 == 2:
            predictions.append(json.dumps({**prediction, "p1": [0, 0]}))  # a repeat: ignored
    predictions.insert(3, json.dumps({"id": "no-such-instance", "p0": [1, 1], "p1": [2, 2],
                                      "coords": "pixel"}))
    (data / "small-predictions.jsonl").write_text("\n".join(predictions) + "\n")
    return folder


def test_every_file_command_stays_under_a_bound_whatever_the_file_length(big):
    lines = command_lines(big)
    peaks = {}
    for name in COMMANDS:  # export first: import reads what it wrote
        row = finestate(lines[name], None, 600, big)
        assert row["rc"] == 0, (name, row.get("stderr"))
        peaks[name] = row["peak_rss_mb"]
    assert all(peak <= LIMIT_MB for peak in peaks.values()), peaks
    # Every line went through: nothing was dropped to save memory.
    for path in ("data/finestate-bench.jsonl", "imported/instances.jsonl",
                 "scored/results.jsonl", "replayed/results.jsonl", "audited/audit.jsonl"):
        with open(big / path) as f:
            assert sum(1 for _ in f) == LINES, path
    summary = json.loads((big / "replayed" / "summary.json").read_text())
    assert summary["outcomes"]["performed"] == 1
    assert summary["outcomes"]["not_replayable"] == LINES - 1


def _without(records: list[dict], *keys: str) -> list[dict]:
    return [{k: v for k, v in record.items() if k not in keys} for record in records]


def test_streamed_commands_write_what_the_list_based_calls_do(big, tmp_path):
    data = big / "data"
    small, predictions = data / "small.jsonl", data / "small-predictions.jsonl"
    instances = read_instances(small, skip_invalid=True)
    assert len(instances.items) == 40 and len(instances.skipped) == 1
    read = read_predictions(predictions)

    # score: the records in file order, the summary as `score` gives it over lists.
    done = cli("score", "--instances", str(small), "--predictions", str(predictions),
               "--out", str(tmp_path / "scored"), "--skip-invalid")
    assert done.returncode == 0, done.stderr
    records, summary = score(instances.items, read.items)
    assert (tmp_path / "scored" / "results.jsonl").read_text() == "".join(
        json.dumps(record.to_json()) + "\n" for record in records)
    summary["counts"]["skipped_lines"] = {"instances": 1, "predictions": 0}
    assert json.loads((tmp_path / "scored" / "summary.json").read_text()) == summary
    for group in ("overall", "by_platform", "by_family", "by_component"):
        assert summary[group] == reference_metric_table(records, "verdicts")[group]
    assert summary["counts"]["unknown_ids"] == ["no-such-instance"]
    assert summary["counts"]["duplicate_ids"] and summary["counts"]["no_prediction"]

    # export, every layout; import of the FineState-Bench one.
    for fmt in ("finestate-env", "finestate", "screenspot"):
        out = tmp_path / f"export-{fmt}.jsonl"
        done = cli("export", str(small), "--format", fmt, "--out", str(out), "--skip-invalid")
        assert done.returncode == 0, done.stderr
        export(instances.items, tmp_path / "listed.jsonl", fmt)
        assert out.read_bytes() == (tmp_path / "listed.jsonl").read_bytes(), fmt
    released = data / "small-finestate-bench.jsonl"
    released.write_bytes((tmp_path / "export-finestate.jsonl").read_bytes())
    done = cli("import", str(released), "--out", str(tmp_path / "imported"))
    assert done.returncode == 0, done.stderr
    assert "read 40 instances, skipped 0 invalid lines" in done.stdout
    write_instances(relocate_images(read_instances(released).items, data,
                                    tmp_path / "listed-import"),
                    tmp_path / "listed-import" / "instances.jsonl")
    assert ((tmp_path / "imported" / "instances.jsonl").read_bytes()
            == (tmp_path / "listed-import" / "instances.jsonl").read_bytes())
    assert sorted(p.name for p in (tmp_path / "imported" / "images").iterdir()) == sorted(
        p.name for p in (tmp_path / "listed-import" / "images").iterdir())

    # replay: the library's list-based replay of the same pairs gives the same records.
    from finestate_env.replay.live_replay import pair_predictions, replay

    done = cli("replay", "--instances", str(small), "--predictions", str(predictions),
               "--out", str(tmp_path / "replayed"), "--skip-invalid", "--quiet")
    assert done.returncode == 0, done.stderr
    paired = pair_predictions(instances.items, read.items)
    listed, listed_summary = replay(paired.jobs, tmp_path / "listed-replay", progress=False)
    streamed = read_records(tmp_path / "replayed" / "results.jsonl")
    assert _without(streamed, "timings") == _without(
        [record.model_dump(mode="json") for record in listed], "timings")
    summary = json.loads((tmp_path / "replayed" / "summary.json").read_text())
    assert summary.pop("counts") == {"predictions": len(read.items),
                                     "unknown_ids": paired.unknown,
                                     "duplicate_ids": paired.duplicates}
    assert summary == listed_summary == reference_replay_summary(listed)
    assert summary["outcomes"]["performed"] == 2

    # audit: the same records and summary as audit_file over the list.
    from finestate_env.replay.dataset_audit import AuditSettings, audit_file, summarize_audit

    settings = ["--density", "2", "--gestures", "3", "--start-points", "3", "--seed", "1"]
    done = cli("audit", "--instances", str(small), "--out", str(tmp_path / "audited"),
               "--skip-invalid", "--quiet", "--no-report", *settings)
    assert done.returncode == 0, done.stderr
    listed, listed_summary = audit_file(
        instances.items, tmp_path / "listed-audit",
        AuditSettings(density=2, gestures=3, start_points=3, seed=1), progress=False)
    streamed = read_records(tmp_path / "audited" / "audit.jsonl")
    assert _without(streamed, "probes_per_second") == _without(listed, "probes_per_second")
    summary = json.loads((tmp_path / "audited" / "audit_summary.json").read_text())
    as_json = lambda value: json.loads(json.dumps(value))  # noqa: E731 (intervals: lists)
    assert summary == as_json(listed_summary) == as_json(reference_audit_summary(listed))
    assert as_json(summarize_audit(iter(listed))) == summary
    assert summary["status"]["not_replayable"] == 38 and summary["precision"]["instances"] == 2


@pytest.mark.parametrize("command", ["export", "import", "score"])
def test_a_bad_last_line_leaves_nothing_behind(big, tmp_path, command):
    data = big / "data"
    path = tmp_path / "data" / "instances.jsonl"
    shutil.copytree(data / "images", path.parent / "images")
    lines = (data / "small.jsonl").read_text().splitlines()
    path.write_text("\n".join(line for line in lines if not line.endswith("cut")) + "\n"
                    + '{"id": 7}\n')
    out = tmp_path / "out" / "deeper"
    args = {"export": ["export", str(path), "--format", "finestate", "--out",
                       str(out / "x.jsonl")],
            "import": ["import", str(path), "--out", str(out)],
            "score": ["score", "--instances", str(path), "--predictions",
                      str(data / "small-predictions.jsonl"), "--out", str(out)]}[command]
    done = cli(*args)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(f"finestate: {path}:41: ") and "Traceback" not in done.stderr
    assert not (tmp_path / "out").exists()


def test_an_instance_read_again_from_a_changed_file_is_refused(big, tmp_path):
    path = tmp_path / "instances.jsonl"
    path.write_text("".join((big / "data" / "small.jsonl").open().readlines()[:5]))
    reader = InstanceReader(path)
    where = {instance.id: (line, offset) for line, offset, instance in reader.located()}
    with reader:
        for ident, (line, offset) in where.items():
            assert reader.load(line, offset, ident).id == ident
        path.write_text(path.read_text() + "\n")
        with pytest.raises(UsageError, match="changed while it was being read"):
            reader.load(*where[ident], ident)


# -- The summaries before streaming: every record held, grouped in lists -----------------

def reference_metric_table(results: list, which: str) -> dict:
    def metric_set(group: list) -> dict:
        rates = scoring.metric_set(getattr(r, which) for r in group)
        rates["missing"] = sum(getattr(r, which) is None or bool(getattr(r, "problems", None))
                               for r in group)
        return rates

    def grouped(attribute: str) -> dict:
        groups: dict[str, list] = {}
        for result in results:
            groups.setdefault(getattr(result, attribute), []).append(result)
        return {name: metric_set(group) for name, group in sorted(groups.items())}

    return {"overall": metric_set(results), "by_platform": grouped("platform"),
            "by_family": grouped("family"), "by_component": grouped("component")}


def reference_replay_summary(records: list[ReplayRecord]) -> dict:
    live = [r for r in records if r.outcome not in ("not_replayable", "error")]
    checked = [r for r in records if r.crosscheck is not None]
    by_component: dict[str, dict[str, int]] = {}
    for record in checked:
        by_component.setdefault(record.component, scoring.crosscheck_counts([]))
        by_component[record.component][record.crosscheck] += 1
    crosscheck = scoring.crosscheck_counts(r.crosscheck for r in checked)
    crosscheck["by_component"] = dict(sorted(by_component.items()))
    changed = [r for r in records if r.collateral_changed]
    changed_by: dict[str, int] = {}
    for record in changed:
        changed_by[record.component] = changed_by.get(record.component, 0) + 1
    return {"static": reference_metric_table(records, "static"),
            "live": reference_metric_table(live, "live"), "crosscheck": crosscheck,
            "collateral": {"episodes": len(changed),
                           "with_success": sum(bool(r.live_exact) for r in changed),
                           "by_component": dict(sorted(changed_by.items()))},
            "outcomes": {name: sum(r.outcome == name for r in records) for name in
                         ("performed", "missing", "wrong_format", "not_replayable", "error")},
            "action_errors": sum(r.action_error is not None for r in records),
            "boxes_changed": sum(r.boxes_match is False for r in records)}


def reference_audit_summary(records: list[dict]) -> dict:
    def status_counts(group: list[dict]) -> dict[str, int]:
        counts = dict.fromkeys(("sound", "unsound", "not_replayable", "error"), 0)
        for record in group:
            counts[record["status"]] += 1
        return counts

    def distribution(group: list[dict]) -> dict:
        probed = [r for r in group if r["status"] in ("sound", "unsound")]
        result: dict = {"status": status_counts(group)}
        for metric in ("soundness", "tightness", "iou"):
            values = sorted(r[metric] for r in probed)
            result[metric] = ({"min": values[0], "median": statistics.median(values),
                               "mean": statistics.fmean(values), "max": values[-1]}
                              if values else None)
        return result

    by_component: dict[str, list[dict]] = {}
    for record in records:
        by_component.setdefault(record["component"], []).append(record)
    return {"instances": len(records), "status": status_counts(records),
            "probes": sum(r.get("probes", 0) for r in records),
            "unsound": [{"id": r["id"], "component": r["component"],
                         "soundness": r["soundness"], "picture": r.get("picture")}
                        for r in records if r["status"] == "unsound"],
            "by_component": {name: distribution(group)
                             for name, group in sorted(by_component.items())},
            "precision": precision.summarize_precision(list(records)),
            "regions_pictures": {r["component"]: r["regions_picture"] for r in records
                                 if r.get("regions_picture")}}


@pytest.mark.fast
def test_the_counted_summaries_equal_the_grouped_ones():
    """metric_table and summarize_replay, counted one record at a time, against the
    pre-streaming grouping, on random records (misses, problems, every outcome)."""
    rng = random.Random(3)
    verdict = lambda: {name: rng.random() < 0.5 for name in scoring.METRICS}  # noqa: E731
    records = []
    for index in range(400):
        outcome = rng.choice(("performed", "missing", "wrong_format", "not_replayable",
                              "error"))
        performed = outcome == "performed"
        records.append(ReplayRecord(
            key=str(index), id=str(index), component=rng.choice(("slider", "switch", "knob")),
            family=rng.choice(("numeric_range", "unknown")),
            platform=rng.choice(("web", "mobile", "desktop")), p0=None, p1=None,
            outcome=outcome, static=verdict() if rng.random() < 0.8 else None,
            problems={"p0": "missing"} if rng.random() < 0.2 else {},
            live=verdict() if performed else None,
            crosscheck=rng.choice(("agree", "false_accept", "false_reject"))
            if performed else None,
            live_exact=rng.random() < 0.5 if performed else None,
            boxes_match=rng.choice((True, False, None)),
            action_error="off screen" if rng.random() < 0.1 else None,
            collateral_changed=["a"] if performed and rng.random() < 0.2 else []))
    assert summarize_replay(iter(records)) == reference_replay_summary(records)
    assert metric_table(iter(records), "static") == reference_metric_table(records, "static")
    assert metric_table([], "live") == reference_metric_table([], "live")
