"""`finestate serve-env` (#42): live sessions served by OpenEnv's own create_app and played
by OpenEnv's own clients (EnvClient through FineStateEnvClient, and GenericEnvClient) over
its WebSocket /ws. Each server runs in this process under uvicorn on 127.0.0.1:0, so that
a test can look into its pool; real Chromium throughout.

Exact episodes, identical starts, OpenEnv's capacity refusal, hostile actions and
malformed messages answered by field with the session still usable, clients that vanish
mid-step, idle sessions, the token, a browser killed under load, 64 clients at once
against a smaller capacity, the task routes over an export, the stateless HTTP routes, and
OpenEnv's own validators on the manifest and on a running server."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import io
import json
import os
import signal
import socket
import threading
import time
from pathlib import Path

import httpx
import numpy as np
import pytest
import uvicorn
from openenv.core import GenericEnvClient
from PIL import Image
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from finestate_env.agentic.openenv import (
    MAX_COORDINATE,
    GestureAction,
    default_max_sessions,
    make_app,
)
from finestate_env.agentic.openenv_client import FineStateEnvClient, decode_screenshot
from finestate_env.cli.main import main as finestate
from finestate_env.core.coords import box_center
from finestate_env.rewards import ground_truth
from finestate_env.sessions import SessionTask

REPO = Path(__file__).resolve().parents[2]
MISS = GestureAction(p0=[4, 4], p1=[4, 4])  # a click in the page's corner: on no control


class Served:
    """make_app(**kwargs) under uvicorn in a thread, on a free loopback port."""

    def __init__(self, **kwargs):
        self.app = make_app(**kwargs)
        self.pool = self.app.state.finestate_pool
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=0,
                                                    log_level="error"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert self.thread.is_alive() and time.monotonic() < deadline, "no server"
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.ws = f"ws://127.0.0.1:{port}/ws"

    def client(self, **kwargs):
        return FineStateEnvClient(base_url=self.url, **kwargs).sync()

    def close(self):
        self.server.should_exit = True
        self.thread.join(30)

    def wait_open(self, count: int, seconds: float = 15.0) -> int:
        """Wait until the pool has `count` sessions open; the number open then."""
        deadline = time.monotonic() + seconds
        while self.pool.open_sessions != count and time.monotonic() < deadline:
            time.sleep(0.05)
        return self.pool.open_sessions


@contextlib.contextmanager
def served(**kwargs):
    server = Served(**kwargs)
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="module")
def server():
    with served(max_sessions=3, idle_timeout_s=None, browsers=1) as server:
        yield server


@pytest.fixture(scope="module")
def slider_task(server):
    """An exported row's ground truth (a page with a slider, answers on a 0-1000 grid) as
    a session task of two gestures: drawn on the server's own pool."""
    with server.pool.open(SessionTask(seed=3, component="slider")) as session:
        truth = ground_truth(session.instance, "1000")
    return SessionTask(ground_truth=truth, max_actions=2).text()


def right_gesture(state) -> GestureAction:
    """The one gesture that reaches a one-gesture goal, from the state's boxes, in the
    task's convention."""
    boxes = state.boxes["current"] if not isinstance(state, dict) else \
        state["boxes"]["current"]
    get = state.get if isinstance(state, dict) else lambda name: getattr(state, name)
    p0, p1 = box_center(boxes["now"]), box_center(boxes["goal"])
    (w, h), coords = get("size"), get("coords")
    scale = {"1000": 1000.0, "normalized": 1.0}.get(coords)
    if scale is not None:
        p0, p1 = [p0[0] * scale / w, p0[1] * scale / h], [p1[0] * scale / w, p1[1] * scale / h]
    return GestureAction(p0=list(p0), p1=list(p1))


def test_openenvs_client_plays_an_exact_episode(server, slider_task):
    with server.client() as env:
        first = env.reset(task=slider_task, episode_id="e-1")
        assert (first.reward, first.done) == (None, False)
        image = first.observation.image()
        assert image.size == (first.observation.width, first.observation.height)
        assert "slider" in first.observation.instruction.lower()
        state = env.state()
        assert (state.episode_id, state.step_count, state.coords) == ("e-1", 0, "1000")
        assert set(state.boxes["current"]) == {"loc", "core", "goal", "now"}
        assert state.goal_state != state.current_state

        missed = env.step(MISS)
        assert (missed.reward, missed.done) == (0.0, False)
        reached = env.step(right_gesture(state))
        assert (reached.reward, reached.done) == (1.0, True)  # two gestures: no more left
        assert "No gestures are left" in reached.observation.feedback
        state = env.state()
        assert (state.step_count, state.at_goal, state.reward, state.ended) == (
            2, True, 1.0, "actions")
        assert state.current_state == state.goal_state and state.collateral == []
        with pytest.raises(RuntimeError, match="episode has ended.*EXECUTION_ERROR"):
            env.step(MISS)
    assert server.wait_open(0) == 0


def test_a_seed_draws_what_gym_draws_and_may_end_at_the_goal(server):
    with server.client() as env:
        env.reset(seed=3, component="slider", max_actions=3, ends="goal", feedback="state")
        state = env.state()
        assert state.instance_id.startswith("web-slider-") and state.coords == "pixel"
        missed = env.step(MISS)
        assert "The control now shows" in missed.observation.feedback and not missed.done
        reached = env.step(right_gesture(state))
        assert (reached.reward, reached.done, env.state().ended) == (1.0, True, "goal")


def test_generic_client_and_identical_starts(server, slider_task):
    with GenericEnvClient(base_url=server.url).sync() as generic, server.client() as typed:
        a = generic.reset(task=json.loads(slider_task))  # the task as a dict
        b = typed.reset(task=slider_task)
        assert a.observation["screenshot_png_b64"] == b.observation.screenshot_png_b64
        assert np.array_equal(decode_screenshot(a.observation, as_array=True),
                              b.observation.image(as_array=True))
        state = generic.state()
        step = generic.step(right_gesture(state).model_dump(exclude_defaults=True))
        assert (step.reward, step.done, step.metadata["turn"]) == (1.0, False, 1)
        assert generic.state()["at_goal"] is True


def test_capacity_is_refused_with_openenvs_code_and_freed_on_close(server):
    clients = [server.client() for _ in range(3)]
    extra = server.client()
    try:
        for client in clients:
            client.reset(seed=1, component="switch")
        with pytest.raises(RuntimeError, match="CAPACITY_REACHED"):
            extra.reset(seed=1, component="switch")
        clients.pop().close()
        server.wait_open(2)
        for _ in range(50):  # OpenEnv frees the slot once the close handshake is done
            try:
                extra.reset(seed=1, component="switch")
                break
            except (RuntimeError, ConnectionError) as exc:
                assert "CAPACITY_REACHED" in str(exc) or "connect" in str(exc).lower()
                time.sleep(0.1)
        else:
            pytest.fail("the freed slot was never given to the waiting client")
        assert extra.step(MISS).reward == 0.0
    finally:
        for client in [*clients, extra]:
            client.close()
    assert server.wait_open(0) == 0


HOSTILE = {
    "NaN": ({"p0": [float("nan"), 10], "p1": [10, 10]}, r"p0\[0\]: Input should be a finite"),
    "infinity": ({"p0": [10, 10], "p1": [float("inf"), 10]}, r"p1\[0\]"),
    "string": ({"p0": ["12", 10], "p1": [10, 10]}, r"p0\[0\]: Input should be a valid number"),
    "bool": ({"p0": [True, 10], "p1": [10, 10]}, r"p0\[0\]"),
    "enormous": ({"p0": [1e308, 10], "p1": [10, 10]},
                 rf"p0\[0\]: Input should be less than or equal to {MAX_COORDINATE:.0f}"),
    "huge integer": ({"p0": [10**400, 10], "p1": [10, 10]}, r"p0\[0\]"),
    "missing p1": ({"p0": [10, 10]}, r"p1: Field required"),
    "three numbers": ({"p0": [1, 2, 3], "p1": [1, 2]}, r"p0: List should have at most 2"),
    "a point as text": ({"p0": "10,10", "p1": [1, 2]}, r"p0: Input should be a valid list"),
    "extra field": ({"p0": [1, 2], "p1": [1, 2], "p2": [3, 4]},
                    r"p2: Extra inputs are not permitted"),
}


def test_hostile_actions_are_refused_by_field_and_the_session_goes_on(server, slider_task):
    with GenericEnvClient(base_url=server.url).sync() as env:
        env.reset(task=slider_task)
        for name, (action, field) in HOSTILE.items():
            with pytest.raises(RuntimeError, match="VALIDATION_ERROR") as refused:
                env.step(action)
            assert refused.match(field), name
        assert env.state()["step_count"] == 0  # nothing was performed, no turn used
        step = env.step(right_gesture(env.state()).model_dump(exclude_defaults=True))
        assert step.reward == 1.0
        # numbers, but off the screen: the session's own rule, the turn is used up
        off = env.step({"p0": [5000, 5000], "p1": [5000, 5000]})
        assert "Nothing was performed" in off.observation["feedback"] and off.done


def test_malformed_messages_get_openenvs_codes(server):
    def ask(ws, text):
        ws.send(text)
        return json.loads(ws.recv(timeout=30))

    with connect(server.ws, max_size=None) as ws:
        assert ask(ws, "{not json")["data"]["code"] == "INVALID_JSON"
        # what a model in training may emit: nested thousands deep, a number of thousands
        # of digits: refused by name, and the session lives on (OpenEnv alone closed it)
        for text, why in (('{"type": "step", "data": {"p0": ' + "[" * 5000 + "]" * 5000
                           + ', "p1": [1, 1]}}', "nested too deep"),
                          ('{"type": "step", "data": {"p0": [' + "9" * 5000 + ", 1]}}",
                           "cannot be read")):
            error = ask(ws, text)["data"]
            assert error["code"] == "INVALID_JSON" and why in error["message"]
        assert ask(ws, '{"type": "dance"}')["data"]["code"] == "UNKNOWN_TYPE"
        missing = ask(ws, '{"type": "step"}')["data"]
        assert missing["code"] == "VALIDATION_ERROR" and "data: Field required" in \
            missing["message"]
        early = ask(ws, json.dumps({"type": "step", "data": {"p0": [1, 1], "p1": [1, 1]}}))
        assert early["data"]["code"] == "EXECUTION_ERROR"
        assert "step before reset" in early["data"]["message"]
        for data, field in (({"seed": -1}, "seed"), ({"task": "{"}, "not JSON"),
                            ({"seed": 1, "max_actions": 0}, "max_actions"),
                            ({"seed": 1, "colour": "red"}, "colour"),
                            ({"episode_id": 7}, "episode_id"),
                            ({"split": "train", "index": 0}, "no task splits")):
            error = ask(ws, json.dumps({"type": "reset", "data": data}))["data"]
            assert error["code"] == "EXECUTION_ERROR" and field in error["message"], data
        reset = ask(ws, json.dumps({"type": "reset", "data": {"seed": 2,
                                                              "component": "checkbox"}}))
        assert reset["type"] == "observation" and reset["data"]["done"] is False


def test_a_client_that_vanishes_mid_step_frees_its_page(server):
    with connect(server.ws, max_size=None) as ws:
        ws.send(json.dumps({"type": "reset", "data": {"seed": 4, "component": "slider"}}))
        assert json.loads(ws.recv(timeout=30))["type"] == "observation"
        assert server.pool.open_sessions == 1
        ws.send(json.dumps({"type": "step", "data": {"p0": [640, 360], "p1": [700, 360]}}))
        ws.socket.shutdown(socket.SHUT_RDWR)  # gone without a close frame, mid-step
        ws.socket.close()
        assert server.wait_open(0) == 0
    with server.client() as env:  # the server goes on
        assert env.reset(seed=4, component="slider").observation.width == 1280


def test_idle_sessions_are_told_and_closed():
    with served(max_sessions=1, idle_timeout_s=1.0, browsers=1) as server:
        with connect(server.ws, max_size=None) as ws:
            ws.send(json.dumps({"type": "reset", "data": {"seed": 1, "component": "switch"}}))
            assert json.loads(ws.recv(timeout=30))["type"] == "observation"
            told = json.loads(ws.recv(timeout=10))  # after a second of silence
            assert told["data"] == {"code": "SESSION_ERROR",
                                    "message": "idle for more than 1 s: the session is closed"}
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=10)
        assert server.pool.open_sessions == 0
        with server.client() as env:  # its slot is free again (capacity 1)
            env.reset(seed=1, component="switch")
            assert server.wait_open(0, seconds=10) == 0
            # EnvClient reconnects a closed socket: a new session, with no episode
            with pytest.raises(RuntimeError, match="step before reset"):
                env.step(MISS)


def test_a_token_guards_every_route_and_the_handshake_but_health():
    with served(max_sessions=1, idle_timeout_s=None, token="s3cret", browsers=1) as server:
        assert httpx.get(server.url + "/health").status_code == 200
        refused = httpx.get(server.url + "/schema")
        assert refused.status_code == 401 and "Bearer" in refused.json()["detail"]
        wrong = {"Authorization": "Bearer nope"}
        assert httpx.get(server.url + "/schema", headers=wrong).status_code == 401
        with pytest.raises(ConnectionError, match="401"):
            with server.client() as env:
                env.reset(seed=1)
        with pytest.raises(ConnectionError, match="401"):
            with server.client(headers=wrong) as env:
                env.reset(seed=1)
        good = {"Authorization": "Bearer s3cret"}
        assert httpx.get(server.url + "/schema", headers=good).status_code == 200
        with server.client(headers=good) as env:
            assert env.reset(seed=1, component="switch").done is False


def test_another_address_needs_a_token(capsys, monkeypatch):
    monkeypatch.delenv("FINESTATE_ENV_TOKEN", raising=False)
    assert finestate(["serve-env", "--host", "0.0.0.0", "--port", "0"]) == 2
    assert "set a token in $FINESTATE_ENV_TOKEN" in capsys.readouterr().err


def test_http_is_stateless_as_openenv_designs_it(server):
    observation = httpx.post(server.url + "/reset", json={"seed": 1, "component": "switch"},
                             timeout=60).json()
    png = base64.b64decode(observation["observation"]["screenshot_png_b64"])
    assert Image.open(io.BytesIO(png)).size == (1280, 720)
    assert server.pool.open_sessions == 0  # the env was closed after the request
    step = httpx.post(server.url + "/step", json={"action": {"p0": [1, 1], "p1": [1, 1]}})
    assert step.status_code == 409 and "WebSocket /ws" in step.json()["detail"]
    bad = httpx.post(server.url + "/reset", json={"seed": 1, "max_actions": 0})
    assert bad.status_code == 422 and "max_actions" in bad.json()["detail"]
    assert httpx.get(server.url + "/state").json()["step_count"] == 0
    schema = httpx.get(server.url + "/schema").json()
    assert {"p0", "p1"} <= set(schema["action"]["properties"])
    assert "screenshot_png_b64" in schema["observation"]["properties"]
    assert "boxes" in schema["state"]["properties"]


def test_a_killed_browser_under_load_never_pays_a_wrong_reward(slider_task):
    with served(max_sessions=4, idle_timeout_s=None, browsers=2) as server:
        clients = [server.client() for _ in range(4)]
        try:
            for client in clients:
                client.reset(task=slider_task)
            pids = {s._env.backend._browser.process.pid for s in server.pool._open.values()}
            assert len(pids) == 2  # spread over both browsers
            os.kill(min(pids), signal.SIGKILL)

            def play(client):
                try:
                    return client.step(right_gesture(client.state())).reward
                except RuntimeError as exc:  # ended without a verdict, said so
                    assert "unjudged" in str(exc), exc
                    return None

            threads_out: list = [None] * 4
            threads = [threading.Thread(target=lambda i=i: threads_out.__setitem__(
                i, play(clients[i]))) for i in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(120)
            assert all(reward in (1.0, None) for reward in threads_out), threads_out
            assert threads_out.count(1.0) >= 2  # the other browser's sessions at least
        finally:
            for client in clients:
                client.close()
        assert server.wait_open(0) == 0
        with server.client() as env:  # and new sessions are served
            env.reset(task=slider_task)
            assert env.step(right_gesture(env.state())).reward == 1.0


def test_64_clients_at_once_get_a_session_or_an_honest_refusal():
    capacity, clients = 4, 64
    with served(max_sessions=capacity, idle_timeout_s=None, browsers=1) as server:
        most = [0]
        done = threading.Event()

        def watch():
            while not done.is_set():
                most[0] = max(most[0], server.pool.open_sessions)
                time.sleep(0.01)

        async def one(seed: int):
            client = FineStateEnvClient(base_url=server.url, message_timeout_s=120)
            try:
                await client.reset(seed=seed % 4, component="switch", max_actions=1)
                step = await client.step(MISS)
                return ("played", step.reward, step.done)
            except RuntimeError as exc:
                assert "CAPACITY_REACHED" in str(exc), exc
                return ("refused",)
            finally:
                await client.close()

        async def all_at_once():
            return await asyncio.gather(*(one(seed) for seed in range(clients)))

        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            outcomes = asyncio.run(all_at_once())
        finally:
            done.set()
            watcher.join()
        played = [o for o in outcomes if o[0] == "played"]
        assert len(outcomes) == clients and 1 <= len(played) < clients
        assert all(o[1:] == (0.0, True) for o in played)  # one gesture: over, exactly 0.0
        assert most[0] <= capacity
        assert server.wait_open(0) == 0
        with server.client() as env:
            assert env.reset(seed=0, component="switch").done is False


def test_the_task_routes_serve_an_exports_splits(tmp_path):
    from finestate_env.rewards.export import export_rl

    export_rl(tmp_path, n=2, test_n=1, seed=5, model="qwen3-vl", trainers=("verl",),
              component="slider", max_actions=2)
    import pyarrow.parquet as pq

    [test_row] = pq.read_table(tmp_path / "verl" / "test.parquet").to_pylist()
    with served(max_sessions=1, idle_timeout_s=None, tasks=tmp_path, browsers=1) as server:
        base = server.url + "/finestate"
        assert httpx.get(base + "/splits").json() == [
            {"name": "test", "type": "test"}, {"name": "train", "type": "train"}]
        assert httpx.post(base + "/num_tasks", json={"split": "train"}).json() == {
            "num_tasks": 2}
        task = httpx.post(base + "/task", json={"split": "test", "index": 0}).json()["task"]
        assert task["task"] == test_row["task"] and task["id"] == test_row["extra_info"]["id"]
        assert len(httpx.post(base + "/task_range", json={"split": "train", "start": 1})
                   .json()["tasks"]) == 1
        assert httpx.post(base + "/task", json={"split": "test", "index": 9}).status_code == 400
        with server.client() as env:
            first = env.reset(split="test", index=0)
            [image] = test_row["images"]
            pixels = np.asarray(Image.open(io.BytesIO(image["bytes"])).convert("RGB"))
            assert np.array_equal(first.observation.image(as_array=True), pixels)
            assert env.state().max_actions == 2


def test_openenvs_validators_accept_the_manifest_and_the_running_server(server):
    from openenv.cli._validation import validate_running_environment
    from openenv.validation import Level, Verdict, run_validation

    report = run_validation(REPO / "deploy" / "openenv", max_level=Level.STATIC,
                            skip_build=True)
    assert report.verdict is Verdict.PASS, [(r.check_id, r.evidence) for r in report.results]
    live = validate_running_environment(server.url, timeout_s=30)
    failed = [c for c in live["criteria"] if not c["passed"]]
    assert live["passed"], failed


def test_the_default_capacity_follows_cores_and_memory():
    assert default_max_sessions(cores=2, available_mib=16_000) == 64  # 32 a core
    assert default_max_sessions(cores=16, available_mib=8_000) == 100  # half of 8 GB / 40
    assert default_max_sessions(cores=2, available_mib=10) == 1
    assert default_max_sessions() >= 1
