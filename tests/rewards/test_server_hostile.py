"""`finestate serve` under a hostile corpus (#44): the server started as users start it, a
generated corpus of hostile completions, malformed bodies and bad ground truths sent by
concurrent clients, mixed with well-formed requests for the same instances (so hostile
and well-formed completions are merged onto the same renders).

Asserted: no answer is a 500; every refusal names what was wrong with the status the docs
give it; every hostile completion is judged alone (0.0 with its parse_error, or its own
reward); every well-formed request's rewards equal a serial in-process run; the server's
memory stays flat; nothing of it is left after it stops."""

from __future__ import annotations

import copy
import json
import random
import threading

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
from finestate_env.agents.answers import MAX_ANSWER_CHARS
from finestate_env.backends.processes import descendants
from finestate_env.rewards import RewardScorer, ground_truth

TOKEN_ENV = "FINESTATE_REWARD_TOKEN"
CLIENTS = 8
HOSTILE_COMPLETIONS = 2400


def hostile_completions(rng: random.Random, count: int) -> list:
    """What a model in training emits, and the shapes trainers pass it in, broken."""
    def nested(depth: int, key: str = "p0") -> str:
        return f'{{"{key}":' * depth + "[1, 2]" + "}" * depth

    def any_json(depth: int):
        if depth == 0 or rng.random() < 0.3:
            return rng.choice([None, True, 0, -1, 1e308, "x", "(1, 2)", 10 ** 30, 0.5])
        if rng.random() < 0.5:
            return [any_json(depth - 1) for _ in range(rng.randint(0, 3))]
        return {rng.choice(["p0", "p1", "x", "content", "text", "type", "role"]):
                any_json(depth - 1) for _ in range(rng.randint(0, 3))}

    makers = [
        lambda: nested(rng.randint(900, 7000)),
        lambda: rng.choice("[{(\"\\<") * rng.randint(1, MAX_ANSWER_CHARS),
        lambda: "[0," * rng.randint(1, 20_000),
        lambda: '{"p0": [' + "9" * rng.randint(4000, 6000) + ', 1], "p1": [1, 2]}',
        lambda: json.dumps({"p0": [float("nan"), 1], "p1": [float("inf"), 2]}),
        lambda: '{"p0": ["one", "two"], "p1": ["three", "four"]}',
        lambda: "".join(chr(rng.randint(0, 0x2FF)) for _ in range(rng.randint(0, 400))),
        lambda: "\ud800\udfff\x00\x1b]0;title\x07" * rng.randint(1, 50),
        lambda: " " * MAX_ANSWER_CHARS + '{"p0": [1, 2], "p1": [3, 4]}',
        lambda: json.dumps({"p0": [1.7e308, 1.7e308], "p1": [-1.7e308, 5]}),
        lambda: f"drag({rng.uniform(-1e6, 1e6)}, 1, 2, {rng.uniform(-1e6, 1e6)})",
        lambda: [{"role": "assistant", "content": [{"type": "text", "text": any_json(3)}]}],
        lambda: [{"role": rng.choice(["assistant", 7, None]), "content": any_json(4)}],
        lambda: {"role": "assistant", "content": any_json(5)},
        lambda: any_json(6),
        lambda: [any_json(2) for _ in range(rng.randint(0, 5))],
        lambda: "<answer>" * rng.randint(1, 5000) + "(1, 2)",
        lambda: "</think>" * rng.randint(1, 5000),
    ]
    return [rng.choice(makers)() for _ in range(count)]


def bad_ground_truths(truth_text: str) -> list[tuple[object, str]]:
    """(a ground truth of the right shape and wrong values, the field its 422 names)."""
    truth = json.loads(truth_text)
    live = truth["instance"]["live"]
    cases = []

    def case(field: str, change) -> None:
        bad = copy.deepcopy(truth)
        change(bad["instance"])
        cases.append((json.dumps(bad), field))

    case("instance.live.component", lambda i: i["live"].update(component="sldr"))
    case("instance.live.params", lambda i: i["live"].update(params={}))
    case("instance.live.current_state",
         lambda i: i["live"].update(current_state="<img src=x onerror=alert(1)>"))
    case("instance.live.goal_state", lambda i: i["live"].update(goal_state=[[[]]]))
    case("instance.live.theme", lambda i: i["live"].update(theme="neon"))
    case("instance.goal_state", lambda i: i.update(goal_state=i["current_state"]))
    case("instance.gesture", lambda i: i.update(gesture="tap" if i["gesture"] == "drag"
                                               else "drag"))
    first_key = next(iter(live["params"]))
    case(f"instance.live.params.{first_key}",
         lambda i: i["live"]["params"].update({first_key: "<script>x</script>" * 40}))
    if live.get("scene"):
        case("instance.live.scene.blocks[0].rect[2]",
             lambda i: i["live"]["scene"]["blocks"][0]["rect"].__setitem__(
                 2, '608"><img src=x onerror="window.hacked=1">'))
        case("instance.live.scene.template",
             lambda i: i["live"]["scene"].update(template="../../etc"))
    return cases


def malformed_bodies(truth_text: str, max_pending: int) -> list[tuple[str, object, dict, int,
                                                                        str]]:
    """(path, body, headers, status, the start of the detail)."""
    deep = b'{"groups": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    return [
        ("/score", b'{"groups": [', {}, 422, "body: not JSON"),
        ("/score", deep, {}, 422, "body: "),
        ("/score", b"\xff\xfe\x00garbage", {}, 422, "body: "),
        ("/score", {"groups": [{"ground_truth": truth_text, "completions": ["x"]}]},
         {"content-type": "text/plain"}, 415, "content-type: 'text/plain' is not JSON"),
        ("/get_reward", {"query": ["q"], "prompts": ["q"], "labels": [truth_text]},
         {"content-type": ""}, 415, "content-type: 'none' is not JSON"),
        ("/score", {"groups": [{"ground_truth": truth_text,
                                "completions": ["(1, 2)"] * (max_pending + 1)}]}, {}, 413,
         f"body: {max_pending + 1} completions in one request, the most this server holds "
         f"at once is {max_pending}"),
        ("/score", {"groups": [{"ground_truth": 12, "completions": ["x"]}]}, {}, 422,
         "groups[0].ground_truth"),
        ("/score", {"groups": [{"ground_truth": truth_text, "completions": ["x"]}],
                    "mode": None, "extra": {"a": [1]}}, {}, 422, "extra: "),
        ("/get_reward", {"query": [1], "prompts": ["q"], "labels": [truth_text]}, {}, 422,
         "query[0]: "),
        ("/get_reward", {"query": ["q"] * 3, "prompts": ["q"], "labels": [truth_text]}, {},
         422, "prompts: 1 items for 3 queries"),
    ]


@pytest.fixture(scope="module")
def rows():
    """[(ground truth, its 8 well-formed completions, their serial in-process rewards)]:
    two lone controls and an app page."""
    truths = []
    for scene, seeds in (("control", (11, 12)), ("page", (13,))):
        env = gym.make("FineState-Web-v0", scene=scene).unwrapped
        try:
            for seed in seeds:
                env.reset(seed=seed)
                truths.append(ground_truth(env.instance, "pixel"))
        finally:
            env.close()
    groups = [group_completions(truth, index) for index, truth in enumerate(truths)]
    with RewardScorer(workers=1) as scorer:
        expected = [[s.as_json() for s in scorer.score([t] * len(g), g)]
                    for t, g in zip(truths, groups, strict=True)]
    assert all({s["reward"] for s in e} == {0.0, 1.0} for e in expected)
    return list(zip(truths, groups, expected, strict=True))


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS"))


def test_a_hostile_corpus_costs_no_500_and_no_well_formed_reward(rows):
    rng = random.Random(44)
    hostile = hostile_completions(rng, HOSTILE_COMPLETIONS)
    max_pending = 256
    work: list[tuple[str, object]] = []
    # Well-formed requests, each group three times over, as /score and as OpenRLHF's
    # one-sample /get_reward: the reference the hostile traffic must not move.
    for row, (_, group, _) in enumerate(rows):
        for _ in range(3):
            work.append(("good-score", row))
            work += [("good-sample", (row, i)) for i in range(len(group))]
    # Hostile completions for the same instances, in /score groups of 1-12 (so they share
    # renders with the well-formed ones) and one-sample /get_reward requests.
    i = 0
    while i < len(hostile):
        size = rng.randint(1, 12)
        work.append(("hostile-score", (rng.randrange(len(rows)), hostile[i:i + size])))
        i += size
    for completion in hostile[:200]:
        if isinstance(completion, str):
            work.append(("hostile-sample", (rng.randrange(len(rows)), completion)))
    for truth, _, _ in rows:
        work += [("bad-truth", case) for case in bad_ground_truths(truth.text())]
        work += [("malformed", case) for case in malformed_bodies(truth.text(), max_pending)]
    rng.shuffle(work)

    port = free_port()
    server = Server(serve_command(port, workers=2, shared_browser=False,
                                  extra=["--max-pending", str(max_pending)]), port,
                    env={TOKEN_ENV: ""})
    with server:
        # Warm: each worker's browser up, the first requests' allocations made.
        for truth, group, _ in rows:
            request(port, "POST", "/score", {"groups": [{"ground_truth": truth.text(),
                                                         "completions": group}]})
        rss_before = rss_kib(server.process.pid)
        failures: list[str] = []
        counts = {"hostile": 0, "parse_error": 0, "503": 0}
        lock = threading.Lock()
        todo = list(work)

        def check(kind: str, item, status: int, body, headers) -> None:
            if status == 500 or status >= 500 and status != 503:
                failures.append(f"{kind}: {status} {str(body)[:300]}")
                return
            if status == 503:  # the queue was full: a retry can succeed, and says when
                assert headers.get("retry-after") == "1", headers
                with lock:
                    counts["503"] += 1
                return
            if kind == "good-score":
                want = rows[item][2]
                if status != 200 or body["groups"][0]["scores"] != want:
                    failures.append(f"{kind} {item}: {status} {str(body)[:300]}")
            elif kind == "good-sample":
                row, index = item
                want = rows[row][2][index]["reward"]
                if status != 200 or body["rewards"] != [want]:
                    failures.append(f"{kind} {item}: {status} {str(body)[:300]}")
            elif kind == "hostile-score":
                if status != 200:
                    failures.append(f"{kind}: {status} {str(body)[:300]}")
                    return
                for score in body["groups"][0]["scores"]:
                    with lock:
                        counts["hostile"] += 1
                        counts["parse_error"] += score["parse_error"] is not None
                    if score["reward"] is None or not 0.0 <= score["reward"] <= 1.0 or (
                            score["parse_error"] is not None and score["reward"] != 0.0):
                        failures.append(f"{kind}: a score {score}")
            elif kind == "hostile-sample":
                if status != 200 or not 0.0 <= body["rewards"][0] <= 1.0:
                    failures.append(f"{kind}: {status} {str(body)[:300]}")
            elif kind == "bad-truth":
                _, field = item
                if status != 422 or field not in body["detail"]:
                    failures.append(f"{kind} {field}: {status} {str(body)[:300]}")
            elif kind == "malformed":
                _, _, _, want_status, detail = item
                if status != want_status or not body["detail"].startswith(detail):
                    failures.append(f"{kind} {detail!r}: {status} {str(body)[:300]}")

        def send(kind: str, item):
            if kind == "good-score":
                truth, group, _ = rows[item]
                return request(port, "POST", "/score", {"groups": [
                    {"ground_truth": truth.text(), "completions": group}]})
            if kind == "good-sample":
                row, index = item
                truth, group, _ = rows[row]
                return request(port, "POST", "/get_reward", get_reward_body(
                    truth.text(), prompt_of(truth), group[index]))
            if kind == "hostile-score":
                row, completions = item
                return request(port, "POST", "/score", {"groups": [
                    {"ground_truth": rows[row][0].text(), "completions": completions}]})
            if kind == "hostile-sample":
                row, completion = item
                truth = rows[row][0]
                return request(port, "POST", "/get_reward", get_reward_body(
                    truth.text(), prompt_of(truth), completion))
            if kind == "bad-truth":
                text, _ = item
                return request(port, "POST", "/score", {"groups": [
                    {"ground_truth": text, "completions": ["(1, 2)"]}]})
            path, body, headers, _, _ = item
            return request(port, "POST", path, body, headers=headers)

        def client() -> None:
            while True:
                with lock:
                    if not todo:
                        return
                    kind, item = todo.pop()
                for _ in range(20):  # a 503 is sent again after its Retry-After, as clients do
                    status, body, headers = send(kind, item)
                    if status != 503:
                        break
                    check(kind, item, status, body, headers)
                    threading.Event().wait(0.2)
                check(kind, item, status, body, headers)

        clients = [threading.Thread(target=client) for _ in range(CLIENTS)]
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join()
        assert not failures, f"{len(failures)} wrong answers, the first: {failures[:5]}"
        assert counts["hostile"] > HOSTILE_COMPLETIONS * 0.9
        assert counts["parse_error"] > counts["hostile"] / 2
        health = server.health()
        assert health["status"] == "ok" and health["faults"] == 0 and health["pending"] == 0
        grown = (rss_kib(server.process.pid) - rss_before) / 1024
        assert grown < 60, f"the server's memory grew by {grown:.0f} MiB"
        # And it answers the well-formed groups exactly as before.
        for truth, group, expected in rows:
            status, body, _ = request(port, "POST", "/score", {"groups": [
                {"ground_truth": truth.text(), "completions": group}]})
            assert status == 200 and body["groups"][0]["scores"] == expected
        pid = server.process.pid
        below = descendants(pid)
        assert below, "no browser below the server"
    assert server.process.returncode == 0, server.output()
    left = [p for p in below if _alive(p)]
    assert not left, f"left running after stop: {left}"


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1][0] != "Z"
    except FileNotFoundError:
        return False
