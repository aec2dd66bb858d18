"""The reward server and the OpenEnv server on a Ray cluster, with Ray Serve
(`finestate serve --ray ADDRESS`, `finestate serve-env --ray ADDRESS`; docs/cluster.md).

Each server is one Ray Serve application of one deployment whose replicas each build the
server's own ASGI app, as the local command builds it (rewards/server.py's `create_app`
over a RewardScorer, agentic/openenv.py's `make_app` over a SessionPool): every replica
has its own browsers and pages, and refuses past its own capacity as one machine does
(the reward server's 503 past `max_pending`, OpenEnv's CAPACITY_REACHED past
`max_sessions`). Serve's proxy takes the clients' HTTP and WebSockets and hands each
request to a replica:

- A WebSocket is one request from its upgrade to its close: every message of an OpenEnv
  session goes to the replica that accepted it, and it counts as one ongoing request of
  that replica for as long as it is open (measured here: the autoscaler's "ongoing
  requests" of a replica are its open sessions).
- Replicas are scaled by that count within `[min_replicas, max_replicas]` (Serve's
  autoscaling, `target_ongoing_requests`: three quarters of a replica's sessions; for the
  reward server, requests a worker), at most `replicas_per_node` on a node.
- Requests go to the replica with the fewest ongoing requests, wherever it runs
  (`LeastOngoingRouter`): Serve's own router would send everything to the replicas on
  the proxy's node until their `max_ongoing_requests` are all taken. A replica's
  `max_ongoing_requests` is its capacity plus HTTP_HEADROOM, so a full replica still
  answers itself (CAPACITY_REACHED, 503) rather than the proxy queueing; requests that
  find every replica past that wait in the proxy up to MAX_QUEUED, then get Serve's 503.
- Every response and WebSocket upgrade carries the replica's node (`X-FineState-Node`)
  and replica id (`X-FineState-Replica`), written by the replica that made it.
- A replica that dies (killed, its node lost) takes its WebSockets with it: their
  clients see the connection closed, an error, never an observation or a reward; Serve
  starts a new replica and the survivors take new sessions meanwhile. A replica stopped
  on purpose (scaled down, the command stopped) gives its open requests `drain_s` to end.

`serve_on_ray` deploys one of them (`reward_server` or `env_server`), prints where it
answers, and runs until interrupted (SIGINT or SIGTERM); then it deletes its application
(a second interrupt ends its replicas at once), and Serve itself when a finestate command
started Serve and no application is left on it, so that no replica, browser, proxy or
controller is left. A command killed outright (SIGKILL) leaves its application running
on the cluster: the next start says so, and `replace=True` takes it over. `app(args)` is
the same deployment for a Serve config file (KubeRay's RayService).
"""

from __future__ import annotations

import contextlib
import logging
import random
import signal
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ray.experimental.internal_kv import _internal_kv_del, _internal_kv_get, _internal_kv_put
from ray.serve.request_router import FIFOMixin, PendingRequest, RequestRouter, RunningReplica

from finestate_env.core.errors import UsageError

NODE_HEADER = "x-finestate-node"
REPLICA_HEADER = "x-finestate-replica"
# Requests a full replica still takes beyond its capacity, for /health, /schema, /state
# and the like (and so that a session past the capacity is refused by the replica itself).
HTTP_HEADROOM = 16
MAX_QUEUED = 64  # requests waiting in a proxy for a replica, past which Serve answers 503
SESSIONS_TARGET_SHARE = 0.75  # a replica this full (open sessions) asks for another one
REQUESTS_PER_WORKER = 8  # the reward server's target: ongoing requests per scoring worker
# A browser's footprint with its Python around it (runs/ray_jobs.py's ACTOR_MEMORY_MIB,
# from docs/figures.md): what a replica asks Ray for per browser.
BROWSER_MIB = 600
START_TIMEOUT_S = 300.0  # the application running, its replicas placed and started
POLL_S = 2.0
ROUTER = "finestate_env.agentic.ray_serve:LeastOngoingRouter"


class LeastOngoingRouter(FIFOMixin, RequestRouter):
    """Every replica is a candidate, the one with the fewest ongoing requests wins (ties
    broken at random): Serve's default router tries the replicas on the proxy's own node
    first, which would stack every session there."""

    async def choose_replicas(self, candidate_replicas: list[RunningReplica],
                              pending_request: PendingRequest | None = None,
                              ) -> list[list[RunningReplica]]:
        replicas = list(candidate_replicas)
        random.shuffle(replicas)
        return [replicas] if replicas else []


# -- what runs in a replica ---------------------------------------------------------------
def build_reward_app(*, mode: str, workers: int, crosscheck: bool, shared_browser: bool,
                     max_pending: int, token: str | None) -> Any:
    """`finestate serve`'s app, as the local command builds it."""
    from finestate_env.rewards.scorer import RewardScorer
    from finestate_env.rewards.server import create_app

    scorer = RewardScorer(mode, workers=workers, crosscheck=crosscheck,
                          backend_options={"shared_browser": shared_browser},
                          max_pending=max_pending)
    return create_app(scorer, token=token)


def build_env_app(*, max_sessions: int, idle_timeout_s: float | None, token: str | None,
                  tasks: Any, browsers: int) -> Any:
    """`finestate serve-env`'s app, as the local command builds it."""
    from finestate_env.agentic.openenv import make_app

    return make_app(max_sessions=max_sessions, idle_timeout_s=idle_timeout_s, token=token,
                    tasks=tasks, browsers=browsers)


BUILDERS: dict[str, Callable[..., Any]] = {"serve": build_reward_app,
                                           "serve-env": build_env_app}


class ServerReplica:
    """A replica of one server: it builds the server's app in its own process (Serve calls
    `__serve_build_asgi_app__` once the replica runs; `serve.ingress()` makes the class
    Serve's ASGI ingress), with its node and replica id on every response."""

    def __init__(self, server: str, settings: dict[str, Any]) -> None:
        self._server, self._settings = server, settings

    def __serve_build_asgi_app__(self) -> Any:
        import ray
        from ray import serve

        app = BUILDERS[self._server](**self._settings)
        node = ray.get_runtime_context().get_node_id()
        replica = serve.get_replica_context().replica_id.unique_id
        app.add_middleware(WhereHeaders, node=node, replica=replica)
        return app


class WhereHeaders:
    """Adds the replica's node and id to every HTTP response and WebSocket upgrade (a plain
    ASGI middleware, outermost)."""

    def __init__(self, app: Any, node: str, replica: str) -> None:
        self.app = app
        self.headers = [(NODE_HEADER.encode(), node.encode()),
                        (REPLICA_HEADER.encode(), replica.encode())]

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)

        async def tagged(message: dict[str, Any]) -> None:
            if message["type"] in ("http.response.start", "websocket.accept",
                                   "websocket.http.response.start"):
                message = {**message, "headers": [*message.get("headers", []),
                                                  *self.headers]}
            await send(message)

        await self.app(scope, receive, tagged)


# -- what the command deploys -------------------------------------------------------------
@dataclass(frozen=True)
class ServerSpec:
    """One server's deployment: what each replica builds and asks Ray for, how full it
    may get, and the autoscaler's target."""

    server: str  # "serve" or "serve-env": the command, and the builder
    settings: dict[str, Any]  # the builder's keyword arguments
    cpus: float
    memory_mib: int
    capacity: int  # what the replica refuses past itself (sessions; completions)
    target_ongoing: float
    drain_s: float
    describe: str  # one line of what a replica holds

    @property
    def app_name(self) -> str:
        return f"finestate-{self.server}"


@dataclass(frozen=True)
class RayServeOptions:
    """Where and how wide: `address` of the cluster (HOST:PORT, auto), the proxy's HTTP
    `host` and `port`, the replicas' bounds, and the route the app answers under."""

    address: str
    host: str = "127.0.0.1"
    port: int = 8000
    min_replicas: int = 1
    max_replicas: int = 4
    replicas_per_node: int = 1
    route_prefix: str = "/"
    proxies: str = "head"  # "head": one proxy, on the head node; "every-node"
    replace: bool = False
    log_level: str = "warning"

    def __post_init__(self) -> None:
        for name in ("min_replicas", "max_replicas", "replicas_per_node"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise UsageError(f"--{name.replace('_', '-')}: a whole number of at least 1, "
                                 f"got {value!r}")
        if self.min_replicas > self.max_replicas:
            raise UsageError(f"--min-replicas {self.min_replicas} is above --max-replicas "
                             f"{self.max_replicas}")
        if not 1 <= self.port <= 65535:
            raise UsageError(f"--port: {self.port} is not a port Serve's proxy can take "
                             "(1 to 65535)")
        if not self.route_prefix.startswith("/"):
            raise UsageError(f"--route-prefix: {self.route_prefix!r} must start with /")
        if self.proxies not in ("head", "every-node"):
            raise UsageError(f"--proxies: {self.proxies!r} is not head or every-node")


def reward_server(*, mode: str, workers: int | None, crosscheck: bool, shared_browser: bool,
                  max_pending: int, token: str | None, cpus: float) -> ServerSpec:
    """The reward server's replicas: `workers` scoring threads each (default: one per CPU
    the replica asks for), a browser per worker (one in all with `shared_browser`)."""
    from finestate_env.core.scoring import REWARD_MODES

    if mode not in REWARD_MODES:
        raise UsageError(f"mode: {mode!r} is not one of {', '.join(REWARD_MODES)}")
    workers = workers or max(1, int(cpus))
    browsers = 1 if shared_browser else workers
    return ServerSpec(
        server="serve",
        settings={"mode": mode, "workers": workers, "crosscheck": crosscheck,
                  "shared_browser": shared_browser, "max_pending": max_pending,
                  "token": token},
        cpus=cpus, memory_mib=BROWSER_MIB * browsers, capacity=max_pending,
        target_ongoing=float(REQUESTS_PER_WORKER * workers), drain_s=30.0,
        describe=f"{workers} workers, mode {mode}")


def env_server(*, max_sessions: int | None, idle_timeout_s: float | None,
               token: str | None, tasks: Any, browsers: int | None,
               cpus: float) -> ServerSpec:
    """The OpenEnv server's replicas: `max_sessions` each (default: SESSIONS_PER_CORE per
    CPU the replica asks for), over `browsers` (default: one per 3 of its CPUs). The task
    splits are read here and travel to the replicas."""
    from finestate_env.agentic.openenv import SESSION_MIB, SESSIONS_PER_CORE, TaskSplits
    from finestate_env.env.vector import CORES_PER_BROWSER

    if max_sessions is None:
        max_sessions = max(1, int(SESSIONS_PER_CORE * cpus))
    if browsers is None:
        browsers = max(1, min(max_sessions, int(cpus // CORES_PER_BROWSER)))
    if tasks is not None and not isinstance(tasks, TaskSplits):
        tasks = TaskSplits.read(tasks)
    return ServerSpec(
        server="serve-env",
        settings={"max_sessions": max_sessions, "idle_timeout_s": idle_timeout_s,
                  "token": token, "tasks": tasks, "browsers": browsers},
        cpus=cpus, memory_mib=BROWSER_MIB * browsers + SESSION_MIB * max_sessions,
        capacity=max_sessions,
        target_ongoing=max(1.0, SESSIONS_TARGET_SHARE * max_sessions), drain_s=60.0,
        describe=f"{max_sessions} sessions at most, {browsers} browsers")


def deployment(spec: ServerSpec, options: RayServeOptions) -> Any:
    """The Serve application: `spec`'s replicas within `options`' bounds."""
    from ray import serve

    ingress = serve.ingress()(ServerReplica)
    return serve.deployment(
        ingress,
        name="FineStateServer",
        ray_actor_options={"num_cpus": spec.cpus, "memory": spec.memory_mib * 2**20},
        max_replicas_per_node=options.replicas_per_node,
        max_ongoing_requests=spec.capacity + HTTP_HEADROOM,
        max_queued_requests=MAX_QUEUED,
        autoscaling_config={
            "min_replicas": options.min_replicas,
            "initial_replicas": options.min_replicas,
            "max_replicas": options.max_replicas,
            "target_ongoing_requests": spec.target_ongoing,
            # Sessions come in bursts and last minutes, and a replica starts in seconds:
            # another one is asked for 3 s after the count passes the target, and one is
            # stopped only after five quiet minutes. Each replica reports its count every
            # 2 s, averaged over 6 s (Serve 2.60 still reads metrics_interval_s; a later
            # Serve takes it from an environment variable).
            "upscale_delay_s": 3.0,
            "downscale_delay_s": 300.0,
            "metrics_interval_s": 2.0,
            "look_back_period_s": 6.0,
        },
        graceful_shutdown_timeout_s=spec.drain_s,
        request_router_config={"request_router_class": ROUTER},
    ).bind(spec.server, spec.settings)


# -- a Serve config file (KubeRay's RayService, `serve deploy`) -----------------------------
TOKEN_ENVS = {"serve": "FINESTATE_REWARD_TOKEN", "serve-env": "FINESTATE_ENV_TOKEN"}
SERVER_ARGS = {
    "serve": ("mode", "workers", "crosscheck", "shared_browser", "max_pending"),
    "serve-env": ("max_sessions", "idle_timeout_s", "tasks", "browsers"),
}
SCALE_ARGS = ("replica_cpus", "min_replicas", "max_replicas", "replicas_per_node")


def app(args: dict[str, Any]) -> Any:
    """Serve's application builder for a config file's `import_path:
    finestate_env.agentic.ray_serve:app` (KubeRay's RayService `serveConfigV2`, `serve
    deploy`): `args` name the `server` ("serve" or "serve-env"), its options as the
    command takes them (snake_case: max_sessions, idle_timeout_s, browsers, tasks; mode,
    workers, crosscheck, shared_browser, max_pending) and the replicas' (replica_cpus,
    min_replicas, max_replicas, replicas_per_node). The config's http_options put the
    proxy on the network, so the token is required: the variable `token_env` (default
    FINESTATE_ENV_TOKEN or FINESTATE_REWARD_TOKEN) where the application is built."""
    import os

    args = dict(args)
    server = args.pop("server", None)
    if server not in SERVER_ARGS:
        raise UsageError(f"server: {server!r} is not serve or serve-env")
    token_env = args.pop("token_env", TOKEN_ENVS[server])
    unknown = sorted(set(args) - set(SERVER_ARGS[server]) - set(SCALE_ARGS))
    if unknown:
        raise UsageError(f"{', '.join(unknown)}: not options of {server} (it takes "
                         f"{', '.join(SERVER_ARGS[server] + SCALE_ARGS)}, server, token_env)")
    token = os.environ.get(token_env) or None
    if token is None:
        raise UsageError(f"${token_env} is not set where the application is built: a "
                         "config file's proxy serves the network, so it needs a token")
    cpus = float(args.pop("replica_cpus", 1.0))
    scale = {name: args.pop(name) for name in SCALE_ARGS[1:] if name in args}
    if server == "serve":
        from finestate_env.rewards.scorer import MAX_PENDING

        spec = reward_server(mode=args.get("mode", "exact"), workers=args.get("workers"),
                             crosscheck=bool(args.get("crosscheck", False)),
                             shared_browser=bool(args.get("shared_browser", False)),
                             max_pending=args.get("max_pending") or MAX_PENDING, token=token,
                             cpus=cpus)
    else:
        spec = env_server(max_sessions=args.get("max_sessions"),
                          idle_timeout_s=args.get("idle_timeout_s", 600.0), token=token,
                          tasks=args.get("tasks"), browsers=args.get("browsers"), cpus=cpus)
    return deployment(spec, RayServeOptions(address="config", **scale))


# -- the command ----------------------------------------------------------------------------
def serve_on_ray(spec: ServerSpec, options: RayServeOptions,
                 check_host: Callable[[str], None],
                 say: Callable[[str], None] | None = None) -> int:
    """Deploy `spec` on the cluster at `options.address`, say where it answers, and run
    until interrupted (SIGINT or SIGTERM); then remove it. `check_host(host)` refuses a
    proxy address that would serve other machines without a token (the proxy's own, when
    Serve already runs there). 0, or 1 when the application went away while it ran."""
    from finestate_env.runs.ray_jobs import ray_session

    say = say or (lambda text: print(text, file=sys.stderr, flush=True))
    logging_config = {"log_level": options.log_level.upper(), "enable_access_log": False}
    # Serve's driver-side logger says each step at INFO; the command says what matters.
    logging.getLogger("ray.serve").setLevel(options.log_level.upper())
    check_host(options.host)  # before joining the cluster: refused at once
    # SIGTERM as Ctrl-C, set once Ray has joined: ray.init puts its own handlers there
    # (one exits at once, one dumps the stack and dies), which would skip the cleanup.
    with ray_session(options.address) as ray, _interrupts_as_keyboard():
        from ray import serve
        from ray.serve.context import _get_global_client

        deployed = False
        try:
            if _get_global_client(raise_if_no_controller_running=False) is None:
                _start_serve(ray, serve, options, logging_config)
            # Serve's proxy as it runs: another command's (or a RayService's) when Serve
            # was running already.
            config = _get_global_client().http_config
            host, port = config.host, config.port
            if (host, port) != (options.host, options.port):
                say(f"Ray Serve already runs on this cluster with its proxy on {host}:{port}: "
                    "the application answers there (--host and --port apply only when this "
                    "command starts Serve)")
            check_host(host)
            _check_free(serve, _get_global_client(), spec.app_name, options.route_prefix,
                        options.replace, say)
            _check_fits(ray, spec, options)
            deployed = True
            serve._run(deployment(spec, options), _blocking=False, name=spec.app_name,
                       route_prefix=options.route_prefix, logging_config=logging_config)
            client = _get_global_client()
            replicas = _wait_running(serve, client, spec.app_name)
            base = f"{_url_host(host)}:{port}{options.route_prefix.rstrip('/')}"
            where = (f"ws://{base}/ws (http://{base})" if spec.server == "serve-env"
                     else f"http://{base}")
            say(f"finestate {spec.server}: {where} on Ray Serve · {_replicas_line(replicas)} "
                f"({options.min_replicas} to {options.max_replicas}, each {spec.cpus:g} CPU, "
                f"{spec.memory_mib} MiB, {spec.describe})"
                f"{' · token required' if spec.settings.get('token') else ''}")
            return _watch(serve, client, spec.app_name, replicas, say)
        except KeyboardInterrupt:
            return 0
        finally:
            _remove(serve, ray, spec, deployed, say)


def _start_serve(ray, serve, options: RayServeOptions, logging_config: dict) -> None:
    from ray.serve.config import ProxyLocation
    from ray.serve.context import _get_global_client

    try:
        serve.start(proxy_location=(ProxyLocation.HeadOnly if options.proxies == "head"
                                    else ProxyLocation.EveryNode),
                    http_options={"host": options.host, "port": options.port},
                    logging_config=logging_config)
    except ValueError:  # its name taken: another command started Serve meanwhile
        if _get_global_client(raise_if_no_controller_running=False) is None:
            raise
        return
    _mark_started_here(ray)


@contextlib.contextmanager
def _interrupts_as_keyboard() -> Iterator[None]:
    """SIGTERM stops the command as Ctrl-C does (a service manager's stop)."""
    def interrupt(signum, frame):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _check_free(serve, client, name: str, route_prefix: str, replace: bool,
                say: Callable[[str], None]) -> None:
    """Refuse to overwrite an application of the same name unless `replace`, or to take
    another application's route prefix."""
    for other, details in client.get_serve_details().get("applications", {}).items():
        if other != name and details.get("route_prefix") == route_prefix:
            raise UsageError(f"--route-prefix {route_prefix}: the application {other} "
                             "answers there already on this cluster's Ray Serve: give "
                             "another prefix")
    if name not in serve.status().applications:
        return
    if not replace:
        raise UsageError(f"an application named {name} already runs on this cluster's Ray "
                         "Serve (another command serving, or one that was killed): stop "
                         "it, or give --replace to take it over")
    say(f"replacing the application {name} already on the cluster")
    serve.delete(name)


def _check_fits(ray, spec: ServerSpec, options: RayServeOptions) -> None:
    """Refuse what the cluster could never place: the first replicas would wait forever."""
    nodes = [n for n in ray.nodes() if n.get("Alive")]
    fits = 0
    for node in nodes:
        resources = node.get("Resources", {})
        by_cpu = int(resources.get("CPU", 0.0) // spec.cpus) if spec.cpus else options.\
            replicas_per_node
        by_memory = int(resources.get("memory", 0.0) / 2**20 // spec.memory_mib)
        fits += min(options.replicas_per_node, by_cpu, by_memory)
    if fits < options.min_replicas:
        raise UsageError(
            f"--min-replicas {options.min_replicas}: the cluster holds {fits} replicas of "
            f"{spec.cpus:g} CPU and {spec.memory_mib} MiB ({len(nodes)} nodes, at most "
            f"{options.replicas_per_node} a node): ask for fewer or smaller replicas")


def _running_replicas(client, name: str) -> list[tuple[str, str]]:
    """(node id, replica id) of the application's running replicas."""
    app = client.get_serve_details().get("applications", {}).get(name) or {}
    found = []
    for deployment_info in app.get("deployments", {}).values():
        for replica in deployment_info.get("replicas", []):
            if str(replica.get("state", "")).endswith("RUNNING"):
                found.append((replica["node_id"], replica["replica_id"]))
    return sorted(found)


def _wait_running(serve, client, name: str) -> list[tuple[str, str]]:
    deadline = time.monotonic() + START_TIMEOUT_S
    while True:
        app = serve.status().applications.get(name)
        status = str(app.status) if app is not None else "missing"
        if status.endswith("RUNNING"):
            return _running_replicas(client, name)
        if status.endswith(("DEPLOY_FAILED", "UNHEALTHY")) or app is None:
            why = (app.message if app is not None else "") or status
            raise RuntimeError(f"Ray Serve could not start {name}: {why.strip()}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{name} was not running after {START_TIMEOUT_S:g} s "
                               f"({status}): the cluster is busy, or its nodes lack what a "
                               "replica asks for")
        time.sleep(0.5)


def _replicas_line(replicas: list[tuple[str, str]]) -> str:
    nodes = sorted({node for node, _ in replicas})
    return (f"{len(replicas)} replicas on {len(nodes)} nodes "
            f"({', '.join(node[:8] for node in nodes)})")


def _watch(serve, client, name: str, replicas: list[tuple[str, str]],
           say: Callable[[str], None]) -> int:
    """Until interrupted: say when the running replicas change; 1 if the application goes."""
    while True:
        time.sleep(POLL_S)
        app = serve.status().applications.get(name)
        if app is None:
            say(f"the application {name} was removed from the cluster: stopping")
            return 1
        now = _running_replicas(client, name)
        if now != replicas:
            say(f"replicas: {_replicas_line(now)}")
            replicas = now


def _remove(serve, ray, spec: ServerSpec, deployed: bool,
            say: Callable[[str], None]) -> None:
    """Delete the application, when this command `deployed` it (its replicas get `drain_s`
    for what they hold; Ctrl-C again ends them at once), then Serve itself when a
    finestate command started it and no application is left on it (a Serve the cluster's
    owner runs stays)."""
    from ray.serve.context import _get_global_client

    if _get_global_client(raise_if_no_controller_running=False) is None:
        return
    try:
        _delete(serve, ray, spec, deployed, say)
    except KeyboardInterrupt:  # a second Ctrl-C: no more waiting
        say(f"ending {spec.app_name}'s replicas now")
        if deployed:
            _kill_replicas(ray, spec.app_name)
        _delete(serve, ray, spec, deployed, say, again=True)


def _delete(serve, ray, spec: ServerSpec, deployed: bool, say: Callable[[str], None],
            again: bool = False) -> None:
    if deployed and spec.app_name in serve.status().applications:
        if not again:
            say(f"stopping {spec.app_name}: what its replicas hold gets up to "
                f"{spec.drain_s:g} s (Ctrl-C again: now)")
        serve.delete(spec.app_name)
        say(f"finestate {spec.server}: stopped")
    if not serve.status().applications and _started_by_finestate(ray):
        serve.shutdown()
        _internal_kv_del(STARTED_KEY, namespace=KV_NAMESPACE)


# Which Serve a finestate command started: its controller's actor id, in the cluster's own
# key-value store, so that the last command to stop shuts it down, whichever started it.
KV_NAMESPACE = "finestate"
STARTED_KEY = "serve-started-by-finestate"


def _controller_id(ray) -> str:
    from ray.serve._private.constants import SERVE_CONTROLLER_NAME, SERVE_NAMESPACE

    return ray.get_actor(SERVE_CONTROLLER_NAME, namespace=SERVE_NAMESPACE)._actor_id.hex()


def _mark_started_here(ray) -> None:
    _internal_kv_put(STARTED_KEY, _controller_id(ray), namespace=KV_NAMESPACE)


def _started_by_finestate(ray) -> bool:
    marked = _internal_kv_get(STARTED_KEY, namespace=KV_NAMESPACE)
    return marked is not None and marked.decode() == _controller_id(ray)


def _kill_replicas(ray, name: str) -> None:
    """End the application's replicas now (their actors are named
    SERVE_REPLICA::<app>#<deployment>#<id> in Serve's namespace)."""
    from ray.serve._private.constants import SERVE_NAMESPACE

    for actor in ray.util.list_named_actors(all_namespaces=True):
        if actor["namespace"] == SERVE_NAMESPACE and \
                actor["name"].startswith(f"SERVE_REPLICA::{name}#"):
            with contextlib.suppress(ValueError):  # gone meanwhile
                ray.kill(ray.get_actor(actor["name"], namespace=SERVE_NAMESPACE),
                         no_restart=True)


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
