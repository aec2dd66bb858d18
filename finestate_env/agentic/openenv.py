"""An OpenEnv server over live sessions: `finestate serve-env` (docs/openenv.md).

OpenEnv (PyPI `openenv` 0.10.0) serves an `Environment` with its own `create_app`; this
module gives it the env and its types, and nothing of its protocol is copied here:

- `GestureAction` `{"p0": [x, y], "p1": [x, y]}`: one gesture, pressed at p0 and released
  at p1 (equal points: a click or tap), in screenshot pixels unless the task declares
  another convention (a ground truth's `coords`, a seeded task's `coords`/`frame`). Each
  coordinate must be a finite number of at most MAX_COORDINATE in size, and nothing else
  may be given: OpenEnv answers anything else with its VALIDATION_ERROR, which names the
  field (`make_app`'s guard writes the fields into the message), and the session is left
  as it was. Points that are numbers but lie off the screen perform nothing and use the
  turn up, the session's own rule;
- `GuiObservation`: the screenshot as a base64 PNG (`screenshot_png_b64`) with its
  `width` and `height`, the `instruction` and the session's `feedback`, with OpenEnv's
  `reward` and `done`;
- `GuiState`: what a trainer may see and the model may not: the episode id and step count,
  the instance (id, component, boxes, goal state), the state read back, the verdict so far
  (at goal, collateral, reward), and the task that reopens the same start.

`FineStateEnvironment` is one session of a process's SessionPool (sessions/pool.py) at a
time: `reset(seed=None, episode_id=None, task=None, **options)` opens one from a task (a
SessionTask's JSON text or dict, or an exported row's bare ground truth), from a task of
the server's splits (`split=`, `index=`: `--tasks DIR`), or, with only a seed, from an
instance drawn by the env as `gym.make(...).reset(seed=...)` draws it; `options` are the
session task's own fields (component, scene, level, platform, max_actions, ends,
feedback, coords, frame). `step(action)` performs the gesture as real input; its reward is
the exact verdict of the state it left (1.0 at the goal with no other control changed,
else 0.0), and `done` says that the session has ended. A step that a crash left unjudged
raises, so the client gets an error, never 0.0. `close()` ends the session at once: its
page goes back to the pool.

`make_app(...)` builds the ASGI app with `create_app` (WebSocket `/ws` sessions, the
HTTP routes, the task routes when `tasks` is given), its capacity from the cores and the
memory (`default_max_sessions`), OpenEnv's own CAPACITY_REACHED past it, an idle timeout,
and a token on every route but /health when one is given.

OpenEnv's HTTP `/reset` and `/step` are stateless (each request builds an env, calls one
method and closes it): a `/step` has no episode to act in. Episodes are played over the
WebSocket `/ws`, one session per connection (EnvClient, `FineStateEnvClient`,
`GenericEnvClient`).
"""

from __future__ import annotations

import asyncio
import base64
import functools
import hmac
import io
import json
import os
import secrets
import uuid
from pathlib import Path
from typing import Annotated, Any

import numpy as np
from openenv.core.env_server.http_server import create_app
from openenv.core.env_server.interfaces import Environment
from openenv.core.env_server.types import (
    Action,
    ConcurrencyConfig,
    EnvironmentMetadata,
    Observation,
    State,
)
from PIL import Image
from pydantic import Field

from finestate_env import __version__
from finestate_env.backends.heap import HEAP
from finestate_env.core.errors import UsageError
from finestate_env.core.extras import require
from finestate_env.core.files import json_object
from finestate_env.sessions import (
    BadTask,
    GuiSession,
    PoolFull,
    Screen,
    SessionError,
    SessionPool,
    SessionTask,
    shared_pool,
)
from finestate_env.sessions.pool import DEFAULT_IDLE_TIMEOUT_S

ENV_NAME = "finestate"
# The largest coordinate an action may carry: far beyond any screen (a point off the
# screen performs nothing and uses the turn), small enough that no arithmetic overflows.
MAX_COORDINATE = 1e6
# The capacity rule (default_max_sessions), from docs/bench/bench-sessions.json
# (benchmarks/session_bench.py, 2 cores): a session's turn costs ~33 ms of CPU and each
# open session ~37 MiB of PSS (its page, its share of the browser).
SESSION_MIB = 40
SESSIONS_PER_CORE = 32
MEMORY_SHARE = 0.5
# Options a reset takes besides seed, episode_id, task, split and index: the session
# task's own fields.
TASK_OPTIONS = ("component", "scene", "level", "platform", "max_actions", "ends", "feedback",
                "coords", "frame")
# The pool's own idle reaper runs this long after the server's idle timeout: the server
# closes an idle WebSocket first (the client is told why), the pool catches what is left.
POOL_IDLE_MARGIN_S = 30.0

Coordinate = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=-MAX_COORDINATE,
                                    le=MAX_COORDINATE)]
Point = Annotated[list[Coordinate], Field(min_length=2, max_length=2)]


class GestureAction(Action):
    """One gesture: pressed at p0, released at p1 (equal points: a click or a tap), in the
    task's convention (screenshot pixels unless the task declares another)."""

    p0: Point = Field(description="[x, y] where the press starts")
    p1: Point = Field(description="[x, y] where it is released (equal to p0: a click)")


class GuiObservation(Observation):
    """What the model sees: the screen, the task in words, the session's feedback."""

    screenshot_png_b64: str = Field(default="", description="the screenshot, PNG, base64")
    width: int = Field(default=0, ge=0, description="the screenshot's width in pixels")
    height: int = Field(default=0, ge=0, description="the screenshot's height in pixels")
    instruction: str = Field(default="", description="the task in words")
    feedback: str = Field(default="", description="what the session says after a gesture "
                                                  "(nothing performed, the state read back "
                                                  "when the task asks, no gestures left)")

    def image(self, *, as_array: bool = False) -> Any:
        """The screenshot as a PIL image (`as_array`: an (height, width, 3) uint8 array)."""
        return decode_screenshot(self, as_array=as_array)


class GuiState(State):
    """What a trainer may see and the model may not (no screenshot)."""

    instance_id: str | None = None
    component: str | None = None
    platform: str | None = None
    task: str | None = Field(default=None, description="the session task's JSON text: "
                                                       "reopens the same start")
    instruction: str | None = None
    size: list[int] | None = Field(default=None, description="[width, height] of the screen")
    coords: str | None = Field(default=None, description="the convention points are read in")
    frame: list[int] | None = Field(default=None, description="[width, height] pixel "
                                                              "answers refer to")
    max_actions: int | None = None
    boxes: dict[str, Any] | None = Field(default=None, description="the instance's boxes "
                                                                   "as measured at reset, "
                                                                   "screenshot pixels")
    goal_state: Any = None
    current_state: Any = Field(default=None, description="the target's state read back")
    at_goal: bool = False
    collateral: list[str] = Field(default_factory=list, description="other controls of "
                                                                    "the page that changed")
    reward: float | None = Field(default=None, description="the verdict if it ended now")
    ended: str | None = None
    unjudged: str | None = None
    action_errors: int = 0
    oracle_actions: int | None = None


class Unjudged(RuntimeError):
    """A gesture whose outcome could not be judged: the client gets this, never 0.0."""


class NoSessionFree(RuntimeError):
    """The pool has no session free (its bound, shared with OpenEnv's HTTP /reset)."""


class FineStateEnvironment(Environment[GestureAction, GuiObservation, GuiState]):
    """One live session at a time, from `pool` (default: the process's shared pool);
    `tasks`: the task splits the TaskProvider routes list and `reset(split=, index=)`
    opens. The module docstring says what each method does."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, pool: SessionPool | None = None, tasks: TaskSplits | None = None):
        super().__init__()
        self._pool = pool
        self._tasks = tasks
        self._session: GuiSession | None = None
        self._episode_id: str | None = None
        self._steps = 0

    @property
    def pool(self) -> SessionPool:
        if self._pool is None:
            self._pool = shared_pool()
        return self._pool

    # -- OpenEnv's Environment ------------------------------------------------
    def reset(self, seed: int | None = None, episode_id: str | None = None,
              task: Any = None, split: str | None = None, index: int | None = None,
              **options: Any) -> GuiObservation:
        if episode_id is not None and not isinstance(episode_id, str):
            raise BadTask(f"episode_id: a string, got {type(episode_id).__name__}")
        session_task = self._task(seed, task, split, index, options)
        self._end("reset")
        try:
            self._session = self.pool.open(session_task)
        except PoolFull as exc:
            raise NoSessionFree(f"no session free: {exc}") from None
        self._episode_id = episode_id or str(uuid.uuid4())
        self._steps = 0
        return _observation(self._session.observe())

    def step(self, action: GestureAction, timeout_s: float | None = None,
             **kwargs: Any) -> GuiObservation:
        session = self._session
        if session is None:
            raise SessionError("step before reset: this session has no episode; reset it "
                               "first (over the WebSocket /ws: OpenEnv's HTTP /step is "
                               "stateless, and a client whose connection was closed, idle "
                               "for instance, reconnects to a new session)")
        if not isinstance(action, GestureAction):
            action = GestureAction.model_validate(action)
        turn = session.act(action.p0, action.p1)
        self._steps += 1
        result = session.result()
        if turn.unjudged is not None or result.reward is None:
            raise Unjudged(f"unjudged: {turn.unjudged or result.unjudged}: the episode ended "
                           "without a verdict (no reward: it is not 0.0)")
        return _observation(turn.screen, feedback=turn.feedback, reward=result.reward,
                            done=turn.done, metadata={"turn": turn.number,
                                                      "ended": turn.ended})

    @property
    def state(self) -> GuiState:
        session = self._session
        if session is None:
            return GuiState(episode_id=self._episode_id, step_count=self._steps)
        instance, task, result = session.instance, session.task, session.result()
        return GuiState(
            episode_id=self._episode_id, step_count=self._steps,
            instance_id=instance.id, component=instance.component,
            platform=instance.platform, task=task.text(),
            instruction=instance.instructions.interact, size=list(session.size),
            coords=session.coords, frame=list(session.frame), max_actions=task.max_actions,
            boxes=instance.boxes.model_dump(mode="json") if instance.boxes else None,
            goal_state=instance.goal_state, current_state=json.loads(session.state_text()),
            at_goal=result.at_goal, collateral=list(result.collateral), reward=result.reward,
            ended=result.ended, unjudged=result.unjudged,
            action_errors=result.action_errors, oracle_actions=result.oracle_actions)

    def close(self) -> None:
        self._end("closed")

    def get_metadata(self) -> EnvironmentMetadata:
        return EnvironmentMetadata(
            name=ENV_NAME, version=__version__,
            description="Live UI controls in a real browser: one gesture a step (p0 press, "
                        "p1 release, in screenshot pixels unless the task says otherwise), "
                        "the screenshot as a base64 PNG, the reward the exact state read "
                        "back (1.0 at the goal with no other control changed, else 0.0)")

    # -- OpenEnv's TaskProvider (the task routes; 501 without --tasks) ---------
    def list_splits(self) -> list[str]:
        return self._splits().names()

    def list_tasks(self, split: str) -> list[dict[str, Any]]:
        return self._splits().rows(split)

    def num_tasks(self, split: str) -> int:
        return len(self._splits().rows(split))

    def get_task(self, split: str, index: int) -> dict[str, Any]:
        return self._splits().row(split, index)

    def get_task_range(self, split: str, start: int | None = None,
                       stop: int | None = None) -> list[dict[str, Any]]:
        return self._splits().rows(split)[start:stop]

    # -- inside ---------------------------------------------------------------
    def _splits(self) -> TaskSplits:
        if self._tasks is None:
            raise NotImplementedError("this server has no task splits (serve-env --tasks)")
        return self._tasks

    def _task(self, seed: Any, task: Any, split: Any, index: Any,
              options: dict[str, Any]) -> SessionTask:
        unknown = sorted(set(options) - set(TASK_OPTIONS))
        if unknown:
            raise BadTask(f"reset: unknown option(s) {', '.join(unknown)}; a reset takes "
                          f"seed, episode_id, task, split and index, and the session "
                          f"options {', '.join(TASK_OPTIONS)}")
        if split is not None or index is not None:
            if task is not None:
                raise BadTask("reset: give a task or a split and index, not both")
            if split is None or index is None:
                raise BadTask("reset: split and index go together")
            try:
                task = self._splits().row(split, index)["task"]
            except IndexError as exc:
                raise BadTask(str(exc)) from None
        if task is not None:
            fields = json.loads(SessionTask.read(task).text())
            if seed is not None:
                fields["seed"] = seed
        else:
            fields = {"seed": secrets.randbelow(2**31) if seed is None else seed}
        fields.update(options)
        return SessionTask.read(fields)

    def _end(self, why: str) -> None:
        session, self._session = self._session, None
        if session is not None:
            session.close(why)


def _observation(screen: Screen, *, feedback: str = "", reward: float | None = None,
                 done: bool = False, metadata: dict[str, Any] | None = None) -> GuiObservation:
    width, height = screen.size
    text = base64.b64encode(screen.png).decode("ascii")
    # Large buffers the process makes and frees each turn (the PNG, its base64, the JSON
    # frame OpenEnv writes): counted toward the heap's trims, as the DevTools pipes count
    # theirs (backends/heap.py), so that the server's freed pages go back.
    HEAP.received(3 * len(text))
    return GuiObservation(screenshot_png_b64=text,
                          width=width, height=height, instruction=screen.instruction,
                          feedback=feedback, reward=reward, done=done,
                          metadata=metadata or {})


def decode_screenshot(observation: GuiObservation | dict[str, Any], *,
                      as_array: bool = False) -> Any:
    """An observation's screenshot (a GuiObservation, or the dict GenericEnvClient gives)
    as a PIL image, or with `as_array` as an (height, width, 3) uint8 NumPy array."""
    text = observation["screenshot_png_b64"] if isinstance(observation, dict) else \
        observation.screenshot_png_b64
    image = Image.open(io.BytesIO(base64.b64decode(text, validate=True)))
    image = image.convert("RGB")
    return np.asarray(image) if as_array else image


class TaskSplits:
    """The task splits of an export folder (`finestate export-rl --out DIR`:
    DIR/<trainer>/<split>.parquet), one trainer's folder read (their rows hold the same
    tasks). A task is the row's `task` (a multi-turn session task) or its
    `reward_model.ground_truth` (a bare ground truth: a session with the defaults)."""

    TRAINERS = ("trl", "verl", "openrlhf")

    def __init__(self, splits: dict[str, list[dict[str, Any]]]) -> None:
        self._splits = splits

    @classmethod
    def read(cls, folder: str | Path) -> TaskSplits:
        pq = require("pyarrow.parquet", "rewards", "reading export-rl's Parquet")
        folder = Path(folder)
        if not folder.is_dir():
            raise UsageError(f"--tasks {folder}: not a folder (an export-rl --out folder)")
        for trainer in cls.TRAINERS:
            files = sorted((folder / trainer).glob("*.parquet"))
            if files:
                break
        else:
            raise UsageError(f"--tasks {folder}: no <trainer>/<split>.parquet in it (trl, "
                             "verl or openrlhf: finestate export-rl --out writes them)")
        splits = {}
        for path in files:
            names = pq.read_schema(path).names
            columns = [c for c in ("task", "reward_model", "extra_info") if c in names]
            table = pq.read_table(path, columns=columns).to_pylist()
            splits[path.stem] = [_task_row(path.stem, i, row) for i, row in enumerate(table)]
        return cls(splits)

    def names(self) -> list[str]:
        return list(self._splits)

    def rows(self, split: str) -> list[dict[str, Any]]:
        try:
            return self._splits[split]
        except KeyError:
            raise BadTask(f"split: {split!r} is not one of {self.names()}") from None

    def row(self, split: str, index: Any) -> dict[str, Any]:
        rows = self.rows(split)
        if isinstance(index, bool) or not isinstance(index, int) or \
                not 0 <= index < len(rows):
            raise IndexError(f"index: {index!r} is not a task of split {split!r} "
                             f"(0 to {len(rows) - 1})")
        return rows[index]


def _task_row(split: str, index: int, row: dict[str, Any]) -> dict[str, Any]:
    extra = row.get("extra_info") or {}
    task = row.get("task") or (row.get("reward_model") or {}).get("ground_truth")
    if not task:
        raise UsageError(f"{split}.parquet row {index}: no task and no "
                         "reward_model.ground_truth")
    return {"id": extra.get("id"), "index": index, "split": split,
            "component": extra.get("component"), "max_actions": extra.get("max_actions", 1),
            "task": task}


# -- the app ------------------------------------------------------------------------
def default_max_sessions(cores: int | None = None, available_mib: float | None = None) -> int:
    """The sessions a server holds at once by default: SESSIONS_PER_CORE per core (a turn
    costs ~33 ms of CPU: 32 sessions on a core each get a turn a second before turns
    queue, slower than a VLM answers), and no more than MEMORY_SHARE of the memory
    available now at SESSION_MIB each (~37 MiB of PSS measured); at least 1."""
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
            os.cpu_count() or 1)
    if available_mib is None:
        available_mib = _available_mib()
    by_memory = int(available_mib * MEMORY_SHARE // SESSION_MIB)
    return max(1, min(SESSIONS_PER_CORE * cores, by_memory))


def _available_mib() -> float:
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES") / 2**20


def make_app(*, max_sessions: int | None = None,
             idle_timeout_s: float | None = DEFAULT_IDLE_TIMEOUT_S,
             token: str | None = None, tasks: str | Path | TaskSplits | None = None,
             pool: SessionPool | None = None, browsers: int | None = None,
             backend: str | None = None) -> Any:
    """The OpenEnv app (a FastAPI app: ASGI) serving live sessions.

    - `max_sessions`: OpenEnv's `max_concurrent_envs`, and the pool's bound (default:
      `default_max_sessions()`); the WebSocket past it gets OpenEnv's CAPACITY_REACHED;
    - `idle_timeout_s`: a WebSocket session whose client sends nothing for this long is
      told so (SESSION_ERROR) and closed, its page freed; also OpenEnv's
      `session_timeout` (its HTTP MCP sessions). None: never;
    - `token`: every route but /health, the WebSocket handshake included, needs
      `Authorization: Bearer <token>` (401 otherwise);
    - `tasks`: an export-rl folder (or TaskSplits): OpenEnv's task routes list its
      splits, and `reset(split=, index=)` opens one of its tasks;
    - `pool`: the SessionPool to draw sessions from (not closed with the app); default
      a pool of its own, of `max_sessions` sessions over `browsers` browsers with the
      env's `backend`, closed when the app shuts down."""
    capacity = default_max_sessions() if max_sessions is None else max_sessions
    if isinstance(capacity, bool) or not isinstance(capacity, int) or capacity < 1:
        raise UsageError(f"max_sessions must be a whole number of at least 1, got "
                         f"{max_sessions!r}")
    if idle_timeout_s is not None and not idle_timeout_s > 0:
        raise UsageError(f"idle_timeout_s must be above 0 (or None: never), got "
                         f"{idle_timeout_s!r}")
    owned = pool is None
    if owned:
        pool = SessionPool(max_sessions=capacity,
                           idle_timeout_s=None if idle_timeout_s is None
                           else idle_timeout_s + POOL_IDLE_MARGIN_S,
                           browsers=browsers, backend=backend)
    if tasks is not None and not isinstance(tasks, TaskSplits):
        tasks = TaskSplits.read(tasks)
    factory = functools.partial(FineStateEnvironment, pool=pool, tasks=tasks)
    app = create_app(factory, GestureAction, GuiObservation, env_name=ENV_NAME,
                     concurrency_config=ConcurrencyConfig(max_concurrent_envs=capacity,
                                                          session_timeout=idle_timeout_s),
                     state_cls=GuiState)
    app.add_middleware(Guard, token=token, idle_timeout_s=idle_timeout_s)
    _http_errors(app)
    if owned:
        app.router.on_shutdown.append(pool.close)
    app.state.finestate_pool = pool
    app.state.finestate_max_sessions = capacity
    return app


def _http_errors(app: Any) -> None:
    """OpenEnv's HTTP routes let the env's exceptions through (500): a bad task is the
    request's fault (422), a step with no episode a conflict (409: HTTP is stateless),
    no free session a 503; the message says which field or why. (Over the WebSocket,
    OpenEnv answers them as EXECUTION_ERROR frames with the same message.)"""
    from starlette.responses import JSONResponse

    def answer(status: int, headers: dict[str, str] | None = None):
        async def handler(request, exc):
            return JSONResponse({"detail": str(exc)}, status_code=status, headers=headers)
        return handler

    app.add_exception_handler(UsageError, answer(422))
    app.add_exception_handler(SessionError, answer(409))
    app.add_exception_handler(NoSessionFree, answer(503, {"Retry-After": "1"}))
    app.add_exception_handler(Unjudged, answer(503))


class Guard:
    """A plain ASGI middleware around OpenEnv's app:

    - with a token, every request and WebSocket handshake but /health needs
      `Authorization: Bearer <token>`: others get 401 (the handshake too, where the server
      can answer it with HTTP; else it is closed with 1008);
    - a WebSocket whose client sends nothing for `idle_timeout_s` gets an OpenEnv error
      frame (SESSION_ERROR, saying why) and is closed as if the client had left: OpenEnv
      closes its env and frees the slot (its own idle reaper leaves WebSocket sessions);
    - OpenEnv's VALIDATION_ERROR frames say "Invalid message" and list the errors apart;
      the message gets the fields and what was wrong with them, which EnvClient shows."""

    def __init__(self, app: Any, token: str | None = None,
                 idle_timeout_s: float | None = None) -> None:
        self.app = app
        self.expected = None if token is None else f"Bearer {token}".encode()
        self.idle_timeout_s = idle_timeout_s

    async def __call__(self, scope, receive, send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        if self.expected is not None and scope["path"] != "/health" and \
                not hmac.compare_digest(dict(scope["headers"]).get(b"authorization", b""),
                                        self.expected):
            return await _unauthorized(scope, receive, send)
        if kind == "http":
            return await self.app(scope, receive, send)
        if self.idle_timeout_s is not None:
            receive = _idle_closing(receive, send, self.idle_timeout_s)
        return await self.app(scope, _readable_frames(receive, send), _naming_fields(send))


UNAUTHORIZED = "authorization: a valid 'Authorization: Bearer <token>' header is needed"


async def _unauthorized(scope, receive, send) -> None:
    from starlette.responses import JSONResponse
    from starlette.websockets import WebSocket

    response = JSONResponse({"detail": UNAUTHORIZED}, status_code=401,
                            headers={"WWW-Authenticate": "Bearer"})
    if scope["type"] == "http":
        return await response(scope, receive, send)
    websocket = WebSocket(scope, receive, send)
    if "websocket.http.response" in scope.get("extensions", {}):
        return await websocket.send_denial_response(response)
    await websocket.close(code=1008, reason="unauthorized")


def _idle_closing(receive, send, timeout_s: float):
    pending: asyncio.Future | None = None

    async def receive_or_leave() -> dict[str, Any]:
        nonlocal pending
        if pending is None:
            pending = asyncio.ensure_future(receive())
        done, _ = await asyncio.wait({pending}, timeout=timeout_s)
        if not done:
            pending.cancel()
            error = {"type": "error", "data": {
                "message": f"idle for more than {timeout_s:g} s: the session is closed",
                "code": "SESSION_ERROR"}}
            try:
                await send({"type": "websocket.send", "text": json.dumps(error)})
            except Exception:  # noqa: BLE001 - the client left meanwhile: nothing to tell
                pass
            return {"type": "websocket.disconnect", "code": 1001}
        message, pending = pending.result(), None
        return message

    return receive_or_leave


def _readable_frames(receive, send):
    """A text frame that is no readable JSON object (nested thousands deep, a number of
    thousands of digits, not an object: what the project's one line decoder refuses,
    core/files.py json_object) is answered with OpenEnv's INVALID_JSON frame, saying why,
    and never reaches OpenEnv, whose handler takes the decoder's RecursionError for a
    broken session and closes it: one bad message costs the client nothing else."""
    async def receive_readable() -> dict[str, Any]:
        while True:
            message = await receive()
            text = message.get("text")
            if message.get("type") != "websocket.receive" or not isinstance(text, str):
                return message
            _, why = json_object(text.encode("utf-8", "surrogatepass"))
            if why is None and text.strip():
                return message
            error = {"type": "error", "data": {
                "message": f"not a readable message: {why or 'an empty frame'}",
                "code": "INVALID_JSON"}}
            await send({"type": "websocket.send", "text": json.dumps(error)})

    return receive_readable


def _naming_fields(send):
    async def send_named(message: dict[str, Any]) -> None:
        text = message.get("text")
        if message.get("type") == "websocket.send" and isinstance(text, str) and \
                text.startswith('{"type":"error"') and "VALIDATION_ERROR" in text:
            message = {**message, "text": _named(text)}
        await send(message)

    return send_named


def _named(text: str) -> str:
    """OpenEnv's VALIDATION_ERROR frame with the fields named in its message."""
    try:
        frame = json.loads(text)
        data = frame["data"]
        errors = data["errors"]
        named = "; ".join(f"{_where(e.get('loc', ()))}: {e.get('msg', 'invalid')}"
                          for e in errors)
    except (ValueError, KeyError, TypeError, AttributeError):
        return text
    data["message"] = f"{data.get('message', 'Invalid message')}: {named}"
    return json.dumps(frame)


def _where(loc: Any) -> str:
    where = ""
    for part in loc if isinstance(loc, list | tuple) else (loc,):
        where += f"[{part}]" if isinstance(part, int) else f".{part}" if where else str(part)
    return where or "message"
