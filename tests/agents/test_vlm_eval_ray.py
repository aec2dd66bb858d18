"""`eval --ray`: Ray actors ask the model, and the predictions are the local run's (issue #19).

Against the loopback stand-in of the chat-completions API (`FakeChatAPI`), on a real
local Ray: the `openai` client, the cache and the agent run in the actors. Checked:
the same prediction lines and summary as a local run, a rerun that asks only for
what is missing, and a rate limit held across two actors.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time

import pytest
from test_vlm_agent import KEY_ENV, SECRET, USAGE, FakeChatAPI, assert_no_secret, task_of
from two_node_cluster import RAY_ENV

N = 8


@pytest.fixture(scope="module")
def instances_path(tmp_path_factory):
    from finestate_env.datasets.generate import generate

    folder = tmp_path_factory.mktemp("eval-ray")
    generate(folder, n=N, seed=4)
    return folder / "instances.jsonl"


@pytest.fixture()
def api():
    server = FakeChatAPI()
    server.sent_at = []

    def answer(prompt: str) -> str:  # each task its own points, whoever asks
        server.sent_at.append(time.monotonic())
        digest = hashlib.sha256(task_of(prompt).encode()).digest()
        return json.dumps({"p0": [digest[0], digest[1]], "p1": [digest[2], digest[3]]})

    server.answer = answer
    yield server
    server.close()


def finestate_eval(api, instances_path, out, *more: str) -> subprocess.CompletedProcess:
    env = {**RAY_ENV, KEY_ENV: SECRET}
    env.pop("OPENAI_API_KEY", None)
    return subprocess.run(
        [sys.executable, "-m", "finestate_env.cli", "eval", "--model", "gpt-4o",
         "--base-url", api.url, "--api-key-env", KEY_ENV, "--instances", str(instances_path),
         "--out", str(out), *more], env=env, capture_output=True, text=True, timeout=300)


def lines(path) -> list[str]:
    return path.read_text().splitlines()


def test_eval_on_ray_gives_the_local_predictions_and_resumes(api, instances_path, tmp_path):
    local = finestate_eval(api, instances_path, tmp_path / "local")
    assert local.returncode == 0, local.stderr
    assert len(api.requests) == N
    on_ray = finestate_eval(api, instances_path, tmp_path / "ray", "--ray", "--workers", "2",
                            "--batch-size", "2")
    assert on_ray.returncode == 0, on_ray.stderr
    assert "ray: 2 actors (1 CPU, 600 MiB each) on 1 nodes" in on_ray.stderr
    assert len(api.requests) == 2 * N  # a cache of its own: every instance asked again
    expected = lines(tmp_path / "local" / "predictions.jsonl")
    assert len(set(expected)) == N
    assert sorted(lines(tmp_path / "ray" / "predictions.jsonl")) == sorted(expected)
    local_summary = json.loads((tmp_path / "local" / "summary.json").read_text())
    ray_summary = json.loads((tmp_path / "ray" / "summary.json").read_text())
    assert ray_summary["arms"]["no-vda"]["static"] == local_summary["arms"]["no-vda"]["static"]
    usage = json.loads((tmp_path / "ray" / "usage.json").read_text())
    assert (usage["requests"], usage["cached"]) == (N, 0)
    assert usage["tokens"]["total_tokens"] == N * USAGE["total_tokens"]

    # A driver killed mid-write: three whole lines and a cut one. The rerun asks for the
    # five missing instances only (from the cache: the endpoint hears nothing).
    predictions = tmp_path / "ray" / "predictions.jsonl"
    kept = lines(predictions)[:3]
    predictions.write_text("\n".join(kept) + "\n" + lines(predictions)[3][:40])
    resumed = finestate_eval(api, instances_path, tmp_path / "ray", "--ray", "--workers", "2")
    assert resumed.returncode == 0, resumed.stderr
    assert len(api.requests) == 2 * N
    assert lines(predictions)[:3] == kept
    records = [json.loads(line) for line in lines(predictions)]
    assert [r.pop("cached") for r in records] == [False] * 3 + [True] * (N - 3)
    assert sorted(records, key=lambda r: r["id"]) == sorted(
        ({k: v for k, v in json.loads(line).items() if k != "cached"} for line in expected),
        key=lambda r: r["id"])
    usage = json.loads((tmp_path / "ray" / "usage.json").read_text())
    assert (usage["requests"], usage["cached"]) == (0, N - 3)
    assert_no_secret(on_ray, tmp_path)


def test_the_rate_limit_holds_across_two_actors(api, instances_path, tmp_path):
    per_second = 2.0
    done = finestate_eval(api, instances_path, tmp_path / "ray", "--ray", "--workers", "2",
                          "--batch-size", "1", "--rate-limit", str(per_second))
    assert done.returncode == 0, done.stderr
    assert "ray: 2 actors" in done.stderr
    assert len(api.sent_at) == N
    # Released at least (N-1)/R apart, first to last, and heard here later by a lag that
    # is longest for an actor's first request: the limit's reply is its first Ray call and
    # the openai client's first request is cold. That lag made the first arrival up to
    # 0.14 s late on an idle 2 cores (0.1 s of slack failed 1 run in 3), so the slack is
    # one interval. Still it fails if each actor had a limit of its own (the N would span
    # ~(N/2-1)/R) or none (~0.1 s).
    interval = 1 / per_second
    assert api.sent_at[-1] - api.sent_at[0] >= (N - 1) * interval - interval
    assert len(lines(tmp_path / "ray" / "predictions.jsonl")) == N


def test_rate_limit_and_workers_without_ray_are_refused(api, instances_path, tmp_path):
    for more, said in ((("--rate-limit", "2"), "--rate-limit: for Ray actors"),
                       (("--workers", "2"), "--workers 2: eval asks one question at a time")):
        done = finestate_eval(api, instances_path, tmp_path / "run", *more)
        assert done.returncode != 0 and said in done.stderr, done.stderr
    assert api.requests == [] and not os.path.exists(tmp_path / "run" / "predictions.jsonl")
