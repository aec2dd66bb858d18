"""`finestate serve` driven as its clients drive it: the console script in a process of its
own (uvicorn), real HTTP on loopback, real Chromium behind it.

Every reward the server answers is held against the reward RewardScorer computes here, in
this process, for the same ground truth and completion (and RewardScorer's against fresh
episodes: tests/rewards/test_scorer_live.py). The rows are lone controls and an app page
from env resets, each with a group of 8 completions: right, wrong and unreadable
(benchmarks/reward_bench.py, group_completions).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

import gymnasium as gym
import pytest

import finestate_env  # noqa: F401 (registers the ids)
from benchmarks.reward_bench import (
    Server,
    free_port,
    get_reward_body,
    group_completions,
    prompt_of,
    request,
    serve_command,
)
from finestate_env.backends.processes import descendants
from finestate_env.rewards import RewardScorer, ground_truth
from finestate_env.rewards.server import MAX_BODY

TOKEN_ENV = "FINESTATE_REWARD_TOKEN"


@pytest.fixture(scope="module")
def rows():
    """[(ground truth, its 8 completions, the in-process Scores of them)]: three lone
    controls and an app page."""
    truths = []
    for scene, seeds in (("control", (0, 1, 2)), ("page", (0,))):
        env = gym.make("FineState-Web-v0", scene=scene).unwrapped
        try:
            for seed in seeds:
                env.reset(seed=seed)
                truths.append(ground_truth(env.instance, "pixel"))
        finally:
            env.close()
    completions = [group_completions(truth, index) for index, truth in enumerate(truths)]
    with RewardScorer(workers=1) as scorer:
        scores = scorer.score([t for t, group in zip(truths, completions, strict=True)
                               for _ in group], [c for group in completions for c in group])
    found = [(truth, group, scores[8 * i:8 * i + 8])
             for i, (truth, group) in enumerate(zip(truths, completions, strict=True))]
    # The rows tell right from wrong: each group holds both rewards.
    assert all({s.reward for s in expected} == {0.0, 1.0} for _, _, expected in found)
    return found


@pytest.fixture(scope="module")
def server():
    port = free_port()
    with Server(serve_command(port, workers=2, shared_browser=False), port,
                env={TOKEN_ENV: ""}) as running:
        yield running
    assert running.process.returncode == 0, running.output()


def post(port: int, path: str, body, **kwargs):
    return request(port, "POST", path, body, **kwargs)


def one_sample(truth, completion: str) -> dict:
    return get_reward_body(truth.text(), prompt_of(truth), completion)


def chromium_pids(pid: int) -> set[int]:
    """The Chromium processes below `pid` (each names its binary first on its command line)."""
    found = set()
    for child in descendants(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"chrom" in command.split(b"\0")[0].split(b" ")[0]:
            found.add(child)
    return found


def rss_kib(pid: int, field: str = "VmRSS") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for {pid}")


# -- the protocol ---------------------------------------------------------------------
def test_health_says_what_the_pool_is_and_does(server):
    status, body, _ = request(server.port, "GET", "/health")
    assert status == 200
    assert body["status"] == "ok" and body["mode"] == "exact" and body["workers"] == 2
    assert body["max_pending"] == 4096 and body["pending"] == 0
    assert set(body) >= {"busy", "completions", "groups", "renders", "retried", "unjudged"}


def test_get_reward_answers_a_group_as_openrlhf_reads_it(server, rows):
    for truth, completions, expected in rows:
        samples = [one_sample(truth, c) for c in completions]
        body = {key: [s[key][0] for s in samples] for key in ("query", "prompts", "labels")}
        status, answer, _ = post(server.port, "/get_reward", body)
        assert status == 200, answer
        rewards = [s.reward for s in expected]
        assert answer["rewards"] == rewards and answer["scores"] == rewards
        logs = answer["extra_logs"]
        assert logs["live_exact"] == [float(s.live_exact) for s in expected]
        assert logs["parse_error"] == [float(s.parse_error is not None) for s in expected]
        assert logs["sr_loc"] == [float(s.sr_loc) for s in expected]


def test_score_answers_every_verdict_of_every_group(server, rows):
    body = {"groups": [{"ground_truth": truth.text(), "completions": completions}
                       for truth, completions, _ in rows]}
    status, answer, _ = post(server.port, "/score", body)
    assert status == 200, answer
    for group, (_, _, expected) in zip(answer["groups"], rows, strict=True):
        assert group["rewards"] == [s.reward for s in expected]
        assert group["scores"] == [s.as_json() for s in expected]
    # A mode per request: the box proxy, computed from the row alone.
    truth, completions, _ = rows[0]
    status, answer, _ = post(server.port, "/score", {"mode": "box", "groups": [
        {"ground_truth": json.loads(truth.text()), "completions": completions}]})
    assert status == 200
    with RewardScorer("box") as box:
        assert answer["groups"][0]["rewards"] == [
            s.reward for s in box.score([truth] * 8, completions)]


def _bad_bodies(truth_text: str):
    truth = json.loads(truth_text)
    no_boxes = json.loads(truth_text)
    del no_boxes["instance"]["boxes"]
    return [
        ("/get_reward", {"query": ["q"], "prompts": ["q"]}, "labels: Field required"),
        ("/get_reward", {"query": ["a", "b"], "prompts": ["a", "b"], "labels": [truth_text]},
         "labels: 1 items for 2 queries"),
        ("/get_reward", {"query": ["a"], "prompts": ["a", "b"], "labels": [truth_text]},
         "prompts: 2 items for 1 queries"),
        ("/get_reward", {"query": ["q"], "prompts": ["q"], "labels": ["{not json"]},
         "labels[0]: ground truth: (the whole value): Invalid JSON"),
        ("/score", {"groups": [{"ground_truth": no_boxes, "completions": ["x"]}]},
         "groups[0].ground_truth: ground truth: instance.boxes: Field required"),
        ("/score", {"groups": [{"ground_truth": {**truth, "coords": "furlongs"},
                                "completions": ["x"]}]},
         "groups[0].ground_truth: ground truth: coords: Input should be 'pixel'"),
        ("/score", {"groups": [{"ground_truth": truth_text, "completions": ["x"]}],
                    "mode": "fuzzy"},
         "mode: Input should be 'exact', 'box', 'box_now' or 'shaped'"),
        ("/score", {"groups": [{"ground_truth": truth_text, "completions": []}]},
         "groups[0].completions: List should have at least 1 item"),
        ("/score", {"groups": []}, "groups: List should have at least 1 item"),
        ("/score", {"groups": [{"ground_truth": truth_text, "completions": ["x"]}],
                    "extra": 1}, "extra: Extra inputs are not permitted"),
        ("/score", b'{"groups": [', "body: not JSON ("),
        ("/score", b"", "body: Field required"),
    ]


def test_bad_requests_get_422_naming_the_field(server, rows):
    before = server.health()
    for path, body, detail in _bad_bodies(rows[0][0].text()):
        status, answer, _ = post(server.port, path, body)
        assert (status, answer["detail"][:len(detail)]) == (422, detail), (path, body)
    # Nothing of it reached a worker.
    assert server.health()["groups"] == before["groups"]


def _raw(port: int, head: bytes, body_chunks=()) -> tuple[int, dict]:
    """Send a request as bytes (a Content-Length that says more than is sent, a chunked
    body), then read the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        sock.sendall(head)
        try:
            for chunk in body_chunks:
                sock.sendall(chunk)
        except OSError:  # the server answered and closed before the rest was sent
            pass
        reply = b""
        while b"\r\n\r\n" not in reply or len(reply.split(b"\r\n\r\n", 1)[1]) < int(
                reply.split(b"content-length: ", 1)[1].split(b"\r\n", 1)[0]):
            data = sock.recv(65536)
            if not data:
                break
            reply += data
    status = int(reply.split(b" ", 2)[1])
    return status, json.loads(reply.split(b"\r\n\r\n", 1)[1])


def test_a_body_over_the_limit_gets_413_unread(server):
    head = (b"POST /score HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
            b"content-length: %d\r\n\r\n" % (MAX_BODY + 1))
    status, answer = _raw(server.port, head)  # refused on the header: nothing was sent
    assert status == 413
    assert answer["detail"] == (f"body: {MAX_BODY + 1} bytes, the most this server reads "
                                f"is {MAX_BODY}")
    # Chunked, with no length said: refused once the bytes pass the limit.
    chunk = b"x" * (1 << 20)
    chunks = [b"%x\r\n" % len(chunk) + chunk + b"\r\n"] * (MAX_BODY // len(chunk) + 2)
    head = (b"POST /score HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
            b"transfer-encoding: chunked\r\n\r\n")
    status, answer = _raw(server.port, head, chunks)
    assert status == 413 and answer["detail"].startswith(f"body: over {MAX_BODY} bytes")
    assert server.health()["status"] == "ok"


def test_a_token_guards_everything_but_health(rows):
    truth, completions, expected = rows[0]
    port = free_port()
    with Server(serve_command(port, workers=1, shared_browser=False), port,
                env={TOKEN_ENV: "s3cret-token"}) as guarded:
        body = {"groups": [{"ground_truth": truth.text(), "completions": completions}]}
        for headers in ({}, {"authorization": "Bearer wrong"}, {"authorization": "s3cret-token"},
                        {"authorization": "Bearer s3cret-token-and-more"}):
            for path, payload in (("/score", body), ("/get_reward",
                                                     one_sample(truth, completions[0]))):
                status, answer, _ = post(port, path, payload, headers=headers)
                assert status == 401, (path, headers)
                assert answer["detail"].startswith("authorization: a valid 'Bearer <token>'")
        assert request(port, "GET", "/health")[0] == 200  # open: a load balancer's probe
        status, answer, _ = post(port, "/score", body,
                                 headers={"authorization": "Bearer s3cret-token"})
        assert status == 200 and answer["groups"][0]["rewards"] == [s.reward for s in expected]
        assert guarded.health()["completions"] == 8  # the refused ones were never scored


def test_serving_other_machines_without_a_token_exits_2_in_one_line():
    env = {k: v for k, v in os.environ.items() if k != TOKEN_ENV}
    port = free_port()
    result = subprocess.run(serve_command(port, 1, False) + ["--host", "0.0.0.0"],
                            capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 2
    assert result.stderr == ("finestate: --host 0.0.0.0 serves other machines: set a token in "
                             "$FINESTATE_REWARD_TOKEN first (clients send 'Authorization: "
                             "Bearer ...')\n")
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=1).close()


# -- load ---------------------------------------------------------------------------
def test_requests_for_one_instance_at_once_share_a_render(server, rows):
    """OpenRLHF sends a group as one request per completion: 24 requests for one
    instance at the same moment (a group of 8, three times over) are merged into a
    few probe calls on one render, and reward as one /score call does."""
    truth, completions, expected = rows[3]  # the app page
    samples = [one_sample(truth, c) for c in completions] * 3
    answers: list = [None] * len(samples)
    start = threading.Barrier(len(samples))

    def send(index: int) -> None:
        start.wait()
        answers[index] = post(server.port, "/get_reward", samples[index])

    before = server.health()
    threads = [threading.Thread(target=send, args=(i,)) for i in range(len(samples))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    after = server.health()
    assert [a[0] for a in answers] == [200] * 24
    rewards = [a[1]["rewards"][0] for a in answers]
    assert rewards == [s.reward for s in expected] * 3
    scored = after["completions"] - before["completions"]
    assert scored == 24
    # At most one page render for the 24 (none if a worker's page still showed it)
    assert after["renders"] - before["renders"] <= 1
    assert after["groups"] - before["groups"] < 12  # requests merged into probe calls
    status, answer, _ = post(server.port, "/score", {"groups": [
        {"ground_truth": truth.text(), "completions": completions}]})
    assert status == 200 and answer["groups"][0]["rewards"] == rewards[:8]


def test_a_flood_past_max_pending_gets_503_and_memory_stays_bounded(rows):
    """64 kB of reasoning before each answer: a request of 8 is ~0.5 MB, the flood's 160
    requests ~80 MB if they were all queued. The queue holds 16 completions; the rest are
    refused at once with 503 and Retry-After, and the server answers normally after."""
    padding = "<think>" + "Let me look at the screen again. " * 2000 + "</think>"
    port = free_port()
    with Server(serve_command(port, workers=1, shared_browser=False,
                              extra=["--max-pending", "16"]), port,
                env={TOKEN_ENV: ""}) as flooded:
        truth, completions, expected = rows[0]
        warm = post(port, "/score", {"groups": [{"ground_truth": truth.text(),
                                                 "completions": completions}]})
        assert warm[0] == 200 and flooded.health()["max_pending"] == 16
        rss_before = rss_kib(flooded.process.pid)
        answers: list = []
        pending_seen: list[int] = []
        stop = threading.Event()

        def watch() -> None:
            while not stop.is_set():
                pending_seen.append(flooded.health()["pending"])
                time.sleep(0.01)

        def flood(client: int) -> None:
            for turn in range(10):
                index = (client + turn) % len(rows)
                truth, completions, _ = rows[index]
                body = {"groups": [{"ground_truth": truth.text(),
                                    "completions": [padding + c for c in completions]}]}
                answers.append((index, post(port, "/score", body)))

        watcher = threading.Thread(target=watch)
        watcher.start()
        clients = [threading.Thread(target=flood, args=(i,)) for i in range(16)]
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join()
        stop.set()
        watcher.join()
        statuses = [answer[0] for _, answer in answers]
        assert len(answers) == 160 and set(statuses) == {200, 503}, statuses
        for index, (status, body, headers) in answers:
            if status == 200:
                assert body["groups"][0]["rewards"] == [s.reward for s in rows[index][2]]
            else:
                assert headers["retry-after"] == "1"
                assert "the most this scorer holds is 16" in body["detail"]
        assert max(pending_seen) <= 16
        grown_mib = (rss_kib(flooded.process.pid) - rss_before) / 1024
        assert grown_mib < 40, f"the server's memory grew by {grown_mib:.0f} MiB"
        # It answers again afterwards, in full.
        status, body, _ = post(port, "/score", {"groups": [
            {"ground_truth": truth.text(), "completions": completions}]})
        assert status == 200 and body["groups"][0]["rewards"] == [s.reward for s in expected]
        assert flooded.health()["pending"] == 0


# -- a browser killed under load ----------------------------------------------------
def test_a_killed_browser_costs_no_false_reward_and_the_server_keeps_serving(rows):
    """SIGKILL to every Chromium process of the server, three times while 8 clients keep
    requests in flight: every answer is the right reward, or an honest 503 (/get_reward)
    or null with the reason (/score); none is a reward for a completion that was not
    judged. The workers' browsers restart, and later requests are rewarded right."""
    samples = [(row, c) for row in range(len(rows)) for c in range(8)] * 3
    port = free_port()
    with Server(serve_command(port, workers=2, shared_browser=False), port,
                env={TOKEN_ENV: ""}) as crashed:
        # Both workers start their browsers: two instances at once.
        warm = [threading.Thread(target=post, args=(port, "/score", {"groups": [
            {"ground_truth": rows[i][0].text(), "completions": rows[i][1]}]}))
            for i in (0, 1)]
        for thread in warm:
            thread.start()
        for thread in warm:
            thread.join()
        browsers = chromium_pids(crashed.process.pid)
        assert browsers, "no Chromium below the server"
        answers: list = []
        done = threading.Semaphore(0)
        lock = threading.Lock()
        todo = list(samples)

        def client() -> None:
            while True:
                with lock:
                    if not todo:
                        return
                    row, index = todo.pop(0)
                truth, completions, _ = rows[row]
                if index == 0:  # now and then a whole group through /score
                    answer = post(port, "/score", {"groups": [
                        {"ground_truth": truth.text(), "completions": completions}]})
                    answers.append(("score", row, None, answer))
                else:
                    answer = post(port, "/get_reward", one_sample(truth, completions[index]))
                    answers.append(("get_reward", row, index, answer))
                done.release()

        clients = [threading.Thread(target=client) for _ in range(8)]
        for thread in clients:
            thread.start()
        killed: set[int] = set()
        for _ in range(3):  # three times, each after a dozen answers: the workers are busy
            for _ in range(12):
                assert done.acquire(timeout=120)
            for pid in chromium_pids(crashed.process.pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                    killed.add(pid)
        for thread in clients:
            thread.join()
        assert len(answers) == len(samples)
        honest = 0
        for kind, row, index, (status, body, headers) in answers:
            expected = rows[row][2]
            if kind == "get_reward":
                if status == 503:
                    assert "could not be judged" in body["detail"]
                    assert headers["retry-after"] == "1"
                    honest += 1
                else:
                    assert status == 200, (body, crashed.output())
                    assert body["rewards"] == [expected[index].reward]
            else:
                assert status == 200, (body, crashed.output())
                for score, want in zip(body["groups"][0]["scores"], expected, strict=True):
                    if score["reward"] is None:
                        assert score["unjudged"].startswith("not judged after 2 tries")
                        honest += 1
                    else:
                        assert score == want.as_json()
        health = crashed.health()
        assert health["status"] == "ok"
        # The kills reached work in flight: it was retried (or, twice unlucky, refused).
        assert health["retried"] + honest >= 1, health
        # New browsers, and every answer right again.
        assert browsers & killed and chromium_pids(crashed.process.pid).isdisjoint(killed)
        for truth, completions, expected in rows:
            status, body, _ = post(port, "/score", {"groups": [
                {"ground_truth": truth.text(), "completions": completions}]})
            assert status == 200 and body["groups"][0]["scores"] == [s.as_json()
                                                                     for s in expected]
        assert chromium_pids(crashed.process.pid)
