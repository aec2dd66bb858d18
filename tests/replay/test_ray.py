"""`--ray`: replay and audit on Ray actors give what a local run gives (issue #19).

On a real Ray: an instance started on this machine, and a cluster of two nodes on
this machine (`ray.cluster_utils.Cluster`, one CPU each, so two actors must land on
two nodes). Every actor drives a real Chromium. Checked: the same result lines and
summary as `--workers 1`; a rerun after a killed driver resumes without counting
anything twice; an actor that dies is restarted and its batch retried once, then
written as errors with their cause; Ctrl-C stops the actors and leaves no browser.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from two_node_cluster import RAY_ENV, two_node_cluster

from finestate_env.backends.processes import command_lines
from finestate_env.core.coords import box_center
from finestate_env.runs.jobs import read_records

FINESTATE = [sys.executable, "-m", "finestate_env.cli"]


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    """12 generated page instances and predictions: the oracle's, every third one missing."""
    from finestate_env.datasets.formats import read_instances
    from finestate_env.datasets.generate import generate

    folder = tmp_path_factory.mktemp("ray-dataset")
    path = generate(folder, n=12, seed=3)
    instances = read_instances(path).items
    rows = []
    for index, instance in enumerate(instances):
        boxes = instance.boxes.current
        p1 = [5.0, 5.0] if index % 3 == 0 else list(box_center(boxes.goal))
        rows.append({"id": instance.id, "p0": list(box_center(boxes.now)), "p1": p1,
                     "coords": "pixel"})
    predictions = folder / "predictions.jsonl"
    predictions.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return path, predictions, instances


def replay_args(dataset, out: Path, *more: str) -> list[str]:
    path, predictions, _ = dataset
    return [*FINESTATE, "replay", "--instances", str(path), "--predictions", str(predictions),
            "--out", str(out), "--quiet", *more]


def run(args: list[str], timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=RAY_ENV)


def without_timings(records: list[dict]) -> dict[str, dict]:
    return {r["key"]: {k: v for k, v in r.items() if k != "timings"} for r in records}


@pytest.fixture(scope="module")
def local_run(dataset, tmp_path_factory):
    """`--workers 1`: the results and summary every Ray run must equal."""
    out = tmp_path_factory.mktemp("ray-baseline")
    done = run(replay_args(dataset, out, "--workers", "1"))
    assert done.returncode == 0, done.stderr
    records = read_records(out / "results.jsonl")
    assert {r["outcome"] for r in records} == {"performed"}
    assert {r["live_exact"] for r in records} == {True, False}, "misses and hits both"
    return without_timings(records), json.loads((out / "summary.json").read_text())


def differences(got: dict[str, dict], expected: dict[str, dict]) -> dict:
    """{key: {field: (got, expected)}} wherever two sets of records differ."""
    found = {}
    for key in got.keys() | expected.keys():
        a, b = got.get(key, {}), expected.get(key, {})
        fields = {f: (a.get(f), b.get(f)) for f in a.keys() | b.keys() if a.get(f) != b.get(f)}
        if fields:
            found[key] = fields
    return found


def assert_same_as_local(out: Path, local_run) -> None:
    records = read_records(out / "results.jsonl")
    keys = [r["key"] for r in records]
    assert len(keys) == len(set(keys)), "a result counted twice"
    assert differences(without_timings(records), local_run[0]) == {}
    assert json.loads((out / "summary.json").read_text()) == local_run[1]


def actor_pids(root: int) -> set[int]:
    """The Ray actors of the runner below process `root` (Ray titles them
    `ray::ClassName`): a local instance's are below its driver, a cluster's below
    the process that started its nodes."""
    from finestate_env.backends.processes import descendants, parent

    below = descendants(root)
    titled = {pid for pid, line in command_lines().items()
              if pid in below and line.startswith(b"ray::BatchActor")}
    # An actor starting its browser forks: until the child's exec it carries the
    # actor's title (`ray::BatchActor.run`, its parent an actor). A loaded machine
    # stretches that moment enough to be seen (twice in CI, and here under load).
    return {pid for pid in titled if parent(pid) not in titled}


def left_behind(pids: set[int]) -> set[int]:
    """Those of `pids` still running, and every browser they started (its profile folder
    is named after its owner's pid: backends/scratch.py)."""
    from finestate_env.backends.processes import alive

    lines = command_lines()
    browsers = {pid for pid, line in lines.items()
                for owner in pids if f"finestate-chromium-{owner}-".encode() in line}
    return alive(pids | browsers)


def wait_gone(pids: set[int], timeout: float = 60) -> set[int]:
    deadline = time.monotonic() + timeout
    while (left := left_behind(pids)) and time.monotonic() < deadline:
        time.sleep(0.5)
    return left


def start_and_watch(args: list[str], results: Path, lines: int, cluster: int | None = None,
                    timeout: float = 180):
    """Start `args` in a session of its own; once `results` has `lines` lines, the
    process and the pids of the actors it started (below it, or below `cluster`'s
    process; those of an earlier run may still be on their way out)."""
    earlier = actor_pids(cluster) if cluster else set()
    # As from a terminal: SIGINT at its default action, whatever this test runner
    # inherited (a shell's background job ignores SIGINT, and Python then keeps it
    # ignored, so Ctrl-C would never reach the run).
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env=RAY_ENV, start_new_session=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    root = cluster or process.pid
    seen: set[int] = set()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        seen |= actor_pids(root)
        written = results.read_bytes().count(b"\n") if results.exists() else 0
        if written >= lines:
            break
        time.sleep(0.05)
    return process, (seen | actor_pids(root)) - earlier


@pytest.fixture(scope="module")
def two_nodes():
    """A Ray cluster of two nodes on this machine, one CPU each."""
    with two_node_cluster() as cluster:
        yield cluster


def test_local_ray_gives_the_same_results_as_one_worker(dataset, local_run, tmp_path,
                                                        two_nodes):
    # With a cluster running on this machine, `--ray` alone still starts its own
    # instance: joining the cluster would put the two actors on its two nodes.
    out = tmp_path / "ray"
    done = run(replay_args(dataset, out, "--ray", "--workers", "2"))
    assert done.returncode == 0, done.stderr
    assert "ray: 2 actors (1 CPU, 600 MiB each) on 1 nodes" in done.stderr
    assert_same_as_local(out, local_run)


def test_ctrl_c_stops_the_actors_and_leaves_no_browser(dataset, local_run, tmp_path):
    out = tmp_path / "ray"
    process, actors = start_and_watch(
        replay_args(dataset, out, "--ray", "--workers", "2", "--batch-size", "1"),
        out / "results.jsonl", lines=2)
    assert process.poll() is None, process.stderr.read().decode()
    assert len(actors) == 2
    os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
    assert process.wait(timeout=60) == 130
    assert "run the same command again to continue" in process.stderr.read().decode()
    assert wait_gone(actors) == set()
    written = read_records(out / "results.jsonl")
    assert 2 <= len(written) < len(local_run[0])
    done = run(replay_args(dataset, out, "--workers", "1"))  # resumed locally
    assert done.returncode == 0, done.stderr
    assert_same_as_local(out, local_run)


@pytest.fixture
def local_ray(monkeypatch):
    import ray

    # Not RAY_AUTH_MODE: this process read it when it imported Ray; a new local
    # instance turns token authentication on by itself.
    monkeypatch.setenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    ray.init(address="local", num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1",
             configure_logging=True, logging_level="warning")
    yield ray
    ray.shutdown()


def test_a_dead_actor_is_restarted_and_its_batch_retried_once_then_written_as_errors(
        dataset, local_run, tmp_path, local_ray):
    import ray_faults
    from ray import cloudpickle  # Ray's own copy: the one that pickles its task arguments

    from finestate_env.core.schema import Prediction
    from finestate_env.replay.live_replay import lost_record, pair_predictions
    from finestate_env.runs.jobs import run_jobs
    from finestate_env.runs.ray_jobs import RaySpec

    # The actors cannot import tests/support: the dying worker travels by value.
    cloudpickle.register_pickle_by_value(ray_faults)
    path, predictions_file, instances = dataset
    predictions = [Prediction(**json.loads(line))
                   for line in predictions_file.read_text().splitlines()]
    jobs = pair_predictions(instances, predictions).jobs
    poison = jobs[4].prediction.id
    # 12 jobs, 2 actors, batches of 3: the poisoned job's batch is jobs 3-5.
    spec = RaySpec(actors=2, batch_size=3)
    for times, name in ((1, "once"), (2, "twice")):
        deaths = tmp_path / f"deaths-{name}"
        records = run_jobs(jobs, key=lambda job: job.prediction.id,
                           make_worker=functools.partial(ray_faults.DyingReplayWorker, poison,
                                                         deaths, times),
                           out=tmp_path / name / "results.jsonl", progress=False, ray=spec,
                           lost=lost_record)
        dead = {int(pid) for pid in deaths.read_text().split()}
        assert len(dead) == times
        assert wait_gone(dead) == set(), "a killed actor's browser outlived it"
        keys = [r["key"] for r in records]
        assert sorted(keys) == sorted(local_run[0])
        if times == 1:  # retried on a restarted actor: nothing lost
            assert differences(without_timings(records), local_run[0]) == {}
            continue
        errors = {r["key"]: r for r in records if r["outcome"] == "error"}
        assert sorted(errors) == sorted(job.prediction.id for job in jobs[3:6])
        for key, record in errors.items():
            assert record["error"].startswith("the Ray actor running it died twice: ")
            assert record["static"] == local_run[0][key]["static"]
        assert differences({k: v for k, v in without_timings(records).items()
                            if k not in errors},
                           {k: v for k, v in local_run[0].items() if k not in errors}) == {}


def test_a_two_node_cluster_gives_the_same_results_and_resumes_after_a_killed_driver(
        dataset, local_run, tmp_path, two_nodes):
    whole = tmp_path / "whole"
    done = run(replay_args(dataset, whole, "--ray", two_nodes.address))
    assert done.returncode == 0, done.stderr
    assert "ray: 2 actors (1 CPU, 600 MiB each) on 2 nodes" in done.stderr
    assert_same_as_local(whole, local_run)

    # The driver killed outright: the cluster outlives it and ends its actors.
    cut = tmp_path / "cut"
    process, actors = start_and_watch(replay_args(dataset, cut, "--ray", two_nodes.address,
                                                  "--batch-size", "1"),
                                      cut / "results.jsonl", lines=3, cluster=two_nodes.pid)
    assert process.poll() is None, process.stderr.read().decode()
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert len(actors) == 2
    assert wait_gone(actors) == set()
    assert 3 <= len(read_records(cut / "results.jsonl")) < len(local_run[0])
    done = run(replay_args(dataset, cut, "--ray", two_nodes.address))
    assert done.returncode == 0, done.stderr
    assert_same_as_local(cut, local_run)


def shifted_goal(instance):
    """`instance` with its goal box moved across its narrow side by its own size: unsound."""
    x1, y1, x2, y2 = instance.boxes.current.goal
    dx, dy = (x2 - x1 + 1, 0) if x2 - x1 <= y2 - y1 else (0, y2 - y1 + 1)
    current = instance.boxes.current.model_copy(
        update={"goal": (x1 + dx, y1 + dy, x2 + dx, y2 + dy)})
    return instance.model_copy(update={"boxes": instance.boxes.model_copy(
        update={"current": current})})


def test_audit_on_ray_gives_the_same_audit_and_pictures_as_one_worker(
        dataset, tmp_path, two_nodes):
    import numpy as np
    from PIL import Image

    _, _, instances = dataset
    tampered = [shifted_goal(i) for i in instances[:2]] + instances[2:8]
    unsound = {i.id for i in instances[:2]}
    path = tmp_path / "instances.jsonl"
    path.write_text("".join(i.model_dump_json() + "\n" for i in tampered))
    audits = {}
    for name, more in (("local", ["--workers", "1"]), ("ray", ["--ray", two_nodes.address])):
        out = tmp_path / name
        done = run([*FINESTATE, "audit", "--instances", str(path), "--out", str(out),
                    "--density", "2", "--quiet", *more])
        assert done.returncode == 0, done.stderr
        audits[name] = ({r["key"]: {k: v for k, v in r.items() if k != "probes_per_second"}
                         for r in read_records(out / "audit.jsonl")},
                        json.loads((out / "audit_summary.json").read_text()))
    assert audits["ray"] == audits["local"]
    summary = audits["ray"][1]
    assert summary["status"]["sound"] == len(tampered) - len(unsound)
    assert {bad["id"] for bad in summary["unsound"]} == unsound
    for bad in summary["unsound"]:  # written by the driver, as the actors sent them
        pictures = [np.asarray(Image.open(tmp_path / name / bad["picture"]))
                    for name in ("local", "ray")]
        assert pictures[0].shape == pictures[1].shape and (pictures[0] == pictures[1]).all()


def test_bad_ray_options_are_refused_before_anything_runs(dataset, tmp_path):
    done = run(replay_args(dataset, tmp_path / "big", "--ray", "--workers", "64"))
    assert done.returncode == 2
    assert "64 Ray actors of 1 CPU and 600 MiB do not fit the cluster" in done.stderr
    done = run(replay_args(dataset, tmp_path / "zero", "--ray", "--actor-memory", "0"))
    assert done.returncode == 2
    assert "memory per actor must be at least 1 MiB, got 0" in done.stderr
    assert read_records(tmp_path / "big" / "results.jsonl") == []
    done = run(replay_args(dataset, tmp_path / "local", "--actor-memory", "900"))
    assert done.returncode == 2
    assert "--actor-memory: for Ray actors, given without --ray" in done.stderr
