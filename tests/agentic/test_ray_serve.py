"""`finestate serve-env --ray` and `finestate serve --ray` (#42, part 3): the servers on Ray
Serve, on a real two-node Ray cluster on this machine (tests/support/two_node_cluster.py,
one CPU a node, shared by the module), each command in a process of its own as a user
runs it, played by OpenEnv's own client (FineStateEnvClient: OpenEnv's EnvClient) and
plain HTTP through Serve's own proxy; real Chromium in every replica.

Which replica answered is read from the X-FineState-Node and X-FineState-Replica headers
that the replica itself puts on each response and WebSocket upgrade.

Checked: sessions that fill a replica make Serve start another on the other node, and
the next sessions land there; every gesture of a session goes to the replica that
accepted it (a miss then the right gesture pays exactly 1.0, which only the same page
can); a replica's own capacity is OpenEnv's CAPACITY_REACHED; a replica killed
(`ray.kill`) mid-episode gives its session an error, never a reward, while the other
replica's sessions go on and new sessions land on live replicas; the reward server's
/score answers on the cluster exactly as the scorer in this process, its replicas on
both nodes refuse past their own bound (413, 503 with Retry-After); Ctrl-C leaves no
replica, browser, proxy or Serve controller behind.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from two_node_cluster import RAY_ENV, two_node_cluster
from websockets.exceptions import ConnectionClosed

from benchmarks.reward_bench import free_port, group_completions, make_rows, request
from finestate_env.agentic.openenv_client import FineStateEnvClient, GestureAction
from finestate_env.backends.processes import alive, command_lines, descendants, parent
from finestate_env.core.coords import box_center

FINESTATE = [sys.executable, "-m", "finestate_env.cli"]
MISS = GestureAction(p0=[4, 4], p1=[4, 4])  # a click in the page's corner: on no control
TASK = {"seed": 3, "component": "slider", "max_actions": 3}
START_S = 240


@pytest.fixture(scope="module")
def cluster():
    with two_node_cluster() as running:
        yield running


class RayServed:
    """`finestate SERVER --ray ...` in a session of its own, as from a terminal; its stderr
    lines as they come. `started()` waits for the line that says where it answers."""

    def __init__(self, server: str, address: str, *args: str, env: dict | None = None):
        self.server = server
        self.process = subprocess.Popen(
            [*FINESTATE, server, "--ray", address, "--port", str(free_port()), *args],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            env={**RAY_ENV, **(env or {})}, start_new_session=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        self.line = self.url = ""
        self.port = 0

    def started(self) -> str:
        """Its line `finestate SERVER: ... http://HOST:PORT[/prefix] ... on Ray Serve ...`:
        its URL and port are taken from it (the proxy's, whichever command started it)."""
        if not self.line:
            self.line = self.wait_for(f"finestate {self.server}: ", START_S)
            self.url = re.search(r"http://[^ )]+", self.line).group(0)
            self.port = int(re.search(r":(\d+)", self.url.split("//")[1]).group(1))
        return self.line

    def _read(self) -> None:
        for line in self.process.stderr:
            self.lines.append(line.rstrip("\n"))

    def output(self) -> str:
        return "\n".join(self.lines)

    def wait_for(self, start: str, seconds: float) -> str:
        """The first line that starts with `start` (the command's own lines do)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            found = next((line for line in self.lines if line.startswith(start)), None)
            if found is not None:
                return found
            assert self.process.poll() is None, f"the command ended:\n{self.output()}"
            time.sleep(0.2)
        raise AssertionError(f"no line {start!r} after {seconds:g} s:\n{self.output()}")

    def stop(self, how: int = signal.SIGINT) -> int:
        """Ctrl-C, as a terminal sends it (or a service manager's SIGTERM); the exit
        status."""
        os.killpg(self.process.pid, how)
        return self.process.wait(timeout=150)

    def kill(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def nodes_in(line: str) -> set[str]:
    """The node ids (8 characters) a line of the command names: `... on 2 nodes (a, b)`."""
    found = re.search(r"replicas on \d+ nodes \(([^)]*)\)", line)
    assert found, line
    return set(found.group(1).split(", "))


def where(client) -> tuple[str, str]:
    """(node id's first 8 characters, replica id) of the replica that accepted this
    client's WebSocket, from its upgrade response."""
    headers = client._async._ws.response.headers  # OpenEnv's socket: websockets' response
    return headers["x-finestate-node"][:8], headers["x-finestate-replica"]


def open_session(url: str):
    client = FineStateEnvClient(base_url=url).sync()
    client.connect()
    try:
        result = client.reset(**TASK)
    except BaseException:
        client.close()
        raise
    assert result.reward is None and not result.done
    return client


def right_gesture(state) -> GestureAction:
    boxes = state.boxes["current"]
    return GestureAction(p0=list(box_center(boxes["now"])), p1=list(box_center(boxes["goal"])))


def play_to_goal(client) -> float:
    """A miss, then the right gesture: the rewards of both turns."""
    missed = client.step(MISS)
    assert (missed.reward, missed.done) == (0.0, False)
    reached = client.step(right_gesture(client.state()))
    return reached.reward


def ray_kill(address: str, app: str, replica: str) -> None:
    """`ray.kill` the replica's actor, from a driver of its own (this process keeps no Ray
    connection: two_node_cluster's note)."""
    name = f"SERVE_REPLICA::{app}#FineStateServer#{replica}"
    code = ("import ray, sys; ray.init(address=sys.argv[1], logging_level='error'); "
            "ray.kill(ray.get_actor(sys.argv[2], namespace='serve'), no_restart=True)")
    done = subprocess.run([sys.executable, "-c", code, address, name], env=RAY_ENV,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


SERVE_TITLES = (b"ray::ServeReplica:", b"ray::ServeController", b"ray::ProxyActor")


def serve_processes(root: int) -> dict[int, bytes]:
    """Serve's processes below the cluster's: replicas, the controller, the proxies (a
    forked child that still carries its parent's title is left out)."""
    below = descendants(root)
    titled = {pid: line for pid, line in command_lines().items()
              if pid in below and line.startswith(SERVE_TITLES)}
    return {pid: line for pid, line in titled.items() if parent(pid) not in titled}


def left_behind(pids: set[int], seconds: float = 60) -> set[int]:
    """Those of `pids` still running after `seconds`, with every browser they started (its
    profile folder is named after its owner's pid: backends/scratch.py)."""
    deadline = time.monotonic() + seconds
    while True:
        lines = command_lines()
        browsers = {pid for pid, line in lines.items()
                    for owner in pids if f"finestate-chromium-{owner}-".encode() in line}
        left = alive(pids | browsers)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.5)


def answers(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def check_sessions(served: RayServed, cluster, seen: set[int]) -> None:
    """serve-env: scaled by open sessions onto the second node, pinned, refused past a
    replica's capacity, a replica killed mid-episode. `seen` gains Serve's processes."""
    assert "1 replicas on 1 nodes" in served.started(), served.line
    clients = []
    try:
        first = [open_session(served.url) for _ in range(2)]
        clients += first
        assert len({where(c) for c in first}) == 1
        (node_a, replica_a), = {where(c) for c in first}
        # Two open sessions are over the target (3/4 of 2): Serve adds a replica, which
        # goes to the other node (one a node).
        scaled = served.wait_for("replicas: 2 replicas on 2 nodes", 90)
        second = [open_session(served.url) for _ in range(2)]
        clients += second
        assert len({where(c) for c in second}) == 1
        (node_b, replica_b), = {where(c) for c in second}
        assert nodes_in(scaled) == {node_a, node_b}
        seen |= set(serve_processes(cluster.pid))

        # Both replicas are full: the next session is refused by a replica itself.
        with pytest.raises(RuntimeError, match="CAPACITY_REACHED"):
            clients.append(open_session(served.url))

        # Each session's turns go to its own replica: the right gesture after a miss
        # pays exactly 1.0, on both nodes.
        assert play_to_goal(first[0]) == 1.0
        assert play_to_goal(second[0]) == 1.0
        first[0].close()  # frees a place on the survivor-to-be
        assert second[1].step(MISS).reward == 0.0  # mid-episode on the replica to kill
        gesture = right_gesture(second[1].state())

        ray_kill(cluster.address, "finestate-serve-env", replica_b)
        # The session's socket dies with its replica. OpenEnv's client either sees it
        # closed, or (once it knows) opens a new socket on a live replica, where a step
        # before any reset is refused: an error either way, never a reward.
        with pytest.raises((ConnectionError, ConnectionClosed, RuntimeError),
                           match=r"(?s)step before reset|close|Connect"):
            second[1].step(gesture)
        second[1].close()  # a trainer's reaction to the error: its slot is freed
        # The other replica's sessions go on.
        assert play_to_goal(first[1]) == 1.0
        # A new session lands on a live replica (the survivor, or Serve's replacement).
        fresh = open_session(served.url)
        clients.append(fresh)
        assert where(fresh)[1] != replica_b
        assert play_to_goal(fresh) == 1.0
    finally:
        for client in clients:
            client.close()


def score_body(truth, completions) -> dict:
    return {"groups": [{"ground_truth": truth.text(), "completions": completions}]}


def in_process_rewards() -> tuple[list, list[list[str]], list[list[float]]]:
    """Three lone controls, their 8 completions each, and the rewards RewardScorer gives
    them in this process."""
    from finestate_env.rewards import RewardScorer

    truths = make_rows("control", 3, seed=1)
    groups = [group_completions(truth, index) for index, truth in enumerate(truths)]
    with RewardScorer(workers=1) as scorer:
        expected = [[s.reward for s in scorer.score([truth] * 8, group)]
                    for truth, group in zip(truths, groups, strict=True)]
    assert all({0.0, 1.0} <= set(rewards) for rewards in expected)
    return truths, groups, expected


def check_rewards(served: RayServed, truths, groups, expected) -> None:
    """serve: /score on both nodes' replicas, as in process; each replica's own bounds."""
    assert "2 replicas on 2 nodes" in served.started(), served.line
    prefix = "/" + served.url.split("/", 3)[3] if served.url.count("/") > 2 else ""

    def score(index: int) -> tuple[int, object, str]:
        """Scored on the cluster, retried after each 503 (a replica full)."""
        while True:
            status, body, headers = request(served.port, "POST", f"{prefix}/score",
                                            score_body(truths[index], groups[index]))
            if status != 503:
                return status, body, headers.get("x-finestate-node", "")
            assert headers.get("retry-after") == "1", body
            time.sleep(1)

    with ThreadPoolExecutor(6) as pool:
        done = list(pool.map(score, [i % 3 for i in range(6)]))
    for i, (status, body, _node) in enumerate(done):
        assert status == 200, body
        assert body["groups"][0]["rewards"] == expected[i % 3]
    assert {node[:8] for _, _, node in done} == nodes_in(served.line)

    # A request no replica could ever hold: its own bound, named.
    status, body, _ = request(served.port, "POST", f"{prefix}/score",
                              score_body(truths[0], groups[0] + groups[1][:1]))
    assert status == 413 and "--max-pending" in body["detail"], body
    status, body, headers = request(served.port, "GET", f"{prefix}/health")
    assert status == 200 and body["max_pending"] == 8 and headers["x-finestate-node"]


def test_both_servers_on_a_two_node_cluster(cluster):
    baseline: dict = {}
    computing = threading.Thread(target=lambda: baseline.update(
        rows=in_process_rewards()), daemon=True)
    computing.start()
    sessions = RayServed("serve-env", cluster.address, "--max-sessions", "2",
                         "--min-replicas", "1", "--max-replicas", "2", "--idle-timeout", "0",
                         "--replica-cpus", "0.5", env={"FINESTATE_ENV_TOKEN": ""})
    commands = [sessions]
    try:
        sessions.started()
        # The second server joins the Serve that the first started, under its own prefix.
        rewards = RayServed("serve", cluster.address, "--min-replicas", "2",
                            "--max-replicas", "2", "--workers", "1", "--max-pending", "8",
                            "--replica-cpus", "0.5", "--route-prefix", "/rewards",
                            env={"FINESTATE_REWARD_TOKEN": ""})
        commands.append(rewards)
        seen: set[int] = set()
        check_sessions(sessions, cluster, seen)
        computing.join(240)
        check_rewards(rewards, *baseline["rows"])
        assert rewards.port == sessions.port

        seen |= set(serve_processes(cluster.pid))
        # Ctrl-C with a session open: its replica would wait for it (60 s); Ctrl-C again
        # ends the replicas at once, and the session gets an error.
        held = open_session(sessions.url)
        os.killpg(sessions.process.pid, signal.SIGINT)
        sessions.wait_for("stopping finestate-serve-env", 60)
        assert sessions.stop() == 0, sessions.output()
        assert "ending finestate-serve-env's replicas now" in sessions.lines
        with pytest.raises((ConnectionError, ConnectionClosed, RuntimeError)):
            held.step(MISS)
        held.close()
        # The last one (stopped as a service manager stops it): Serve goes too.
        assert rewards.stop(signal.SIGTERM) == 0, rewards.output()
        for served in (sessions, rewards):
            assert f"finestate {served.server}: stopped" in served.lines, served.output()
        assert left_behind(seen) == set(), "a replica, its browser, or Serve outlived them"
        assert serve_processes(cluster.pid) == {}
        assert not answers(sessions.port), "the proxy still listens"
    finally:
        for served in commands:
            served.kill()


@pytest.mark.fast
def test_ray_options_are_refused_where_they_cannot_apply(capsys, monkeypatch):
    from finestate_env.cli.main import main as finestate

    monkeypatch.setenv("FINESTATE_REWARD_TOKEN", "")
    monkeypatch.setenv("FINESTATE_ENV_TOKEN", "")
    refusals = [
        (["serve", "--min-replicas", "2"],
         "--min-replicas: for Ray Serve replicas, given without --ray"),
        # Other machines reach 0.0.0.0: without a token, refused before joining a cluster.
        (["serve-env", "--ray", "127.0.0.1:9", "--host", "0.0.0.0"],
         "--host 0.0.0.0 serves other machines: set a token in $FINESTATE_ENV_TOKEN"),
        (["serve", "--ray", "127.0.0.1:9", "--min-replicas", "3", "--max-replicas", "2"],
         "--min-replicas 3 is above --max-replicas 2"),
        (["serve-env", "--ray", "127.0.0.1:9", "--port", "0"],
         "--port: 0 is not a port Serve's proxy can take"),
    ]
    for argv, message in refusals:
        assert finestate(argv) == 2, argv
        assert message in capsys.readouterr().err, argv


@pytest.mark.fast
def test_the_replica_headers_name_the_replica_that_answered():
    """WhereHeaders, on its own: HTTP responses and WebSocket upgrades both carry them."""
    import asyncio

    from finestate_env.agentic.ray_serve import WhereHeaders

    sent = []

    async def app(scope, receive, send):
        await send({"type": "websocket.accept" if scope["type"] == "websocket"
                    else "http.response.start", "headers": [(b"a", b"1")]})

    async def send(message):
        sent.append(message)

    wrapped = WhereHeaders(app, node="n" * 56, replica="r1")
    for kind in ("http", "websocket"):
        asyncio.run(wrapped({"type": kind}, None, send))
    assert [dict(m["headers"]) for m in sent] == [
        {b"a": b"1", b"x-finestate-node": b"n" * 56, b"x-finestate-replica": b"r1"}] * 2


@pytest.mark.fast
def test_a_serve_config_file_builds_the_same_deployment(monkeypatch):
    """`import_path: finestate_env.agentic.ray_serve:app` (KubeRay's serveConfigV2): the
    deployment the command would make, and the token required."""
    from finestate_env.agentic.ray_serve import HTTP_HEADROOM, ROUTER, app
    from finestate_env.core.errors import UsageError

    monkeypatch.delenv("FINESTATE_ENV_TOKEN", raising=False)
    with pytest.raises(UsageError, match=r"\$FINESTATE_ENV_TOKEN is not set"):
        app({"server": "serve-env"})
    monkeypatch.setenv("FINESTATE_ENV_TOKEN", "secret")
    with pytest.raises(UsageError, match="max_pending: not options of serve-env"):
        app({"server": "serve-env", "max_pending": 3})
    with pytest.raises(UsageError, match="server: 'gym' is not serve or serve-env"):
        app({"server": "gym"})
    built = app({"server": "serve-env", "max_sessions": 4, "min_replicas": 2,
                 "max_replicas": 6, "replica_cpus": 2})._bound_deployment
    config = built._deployment_config
    assert (config.autoscaling_config.min_replicas, config.autoscaling_config.max_replicas,
            config.autoscaling_config.target_ongoing_requests) == (2, 6, 3.0)
    assert config.max_ongoing_requests == 4 + HTTP_HEADROOM
    assert config.request_router_config.request_router_class == ROUTER
    assert built._replica_config.max_replicas_per_node == 1
    assert built.ray_actor_options["num_cpus"] == 2.0
    server, settings = built.init_args
    assert server == "serve-env" and settings["token"] == "secret"
    assert settings["max_sessions"] == 4


@pytest.mark.fast
def test_every_replica_is_a_candidate_wherever_it_runs():
    """LeastOngoingRouter gives Serve one rank of all the replicas (Serve's router then
    takes the one with the fewest ongoing requests): none is preferred for its node."""
    import asyncio

    from finestate_env.agentic.ray_serve import LeastOngoingRouter

    replicas = [f"replica-{i}" for i in range(5)]
    orders = set()
    for _ in range(20):
        ranks = asyncio.run(LeastOngoingRouter.choose_replicas(None, replicas))
        assert len(ranks) == 1 and sorted(ranks[0]) == replicas
        orders.add(tuple(ranks[0]))
    assert len(orders) > 1, "ties are broken at random"
    assert asyncio.run(LeastOngoingRouter.choose_replicas(None, [])) == []
