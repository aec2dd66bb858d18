"""Many live sessions in one process: opened from tasks, bounded, reaped, spread over browsers.

- Each session drives an env of its own (a page of its own in a shared browser on the web
  and the phone: sessions/session.py). Pages are spread over one browser per
  CORES_PER_BROWSER cores (`browsers`), as make_vec spreads its envs
  (env/vector.py), so that no one browser's begin-frame lock serialises them all.
- A closed session's env is kept for the next session of the same screen (platform,
  size, gestures, ending): opening one is then a render, not a page launch.
- `max_sessions` bounds the sessions open at once: past it `open` raises PoolFull (a
  clear error, never unbounded memory). Idle envs count too and are closed first.
- Sessions idle for `idle_timeout_s` are closed by a reaper thread (`closed` says why);
  their next call raises SessionError.
- A browser that dies is restarted by the env of each session on it, which performs the
  episode's gestures again (env/environment.py's recovery); a session whose episode
  cannot be restored ends unjudged with the cause named (its reward None, never 0.0),
  and the other sessions go on.
- `close()` closes every session and env; the backends' own guards stop every browser
  when the process dies (backends/parent_death.py).

Sessions are sync and serialised; `aopen` and `AsyncSession` run the same calls in
worker threads for trainers that gather their samples on an event loop (verl, OpenRLHF,
verifiers).
"""

from __future__ import annotations

import asyncio
import atexit
import itertools
import os
import threading
import time
from typing import Any

from finestate_env.core.errors import UsageError
from finestate_env.env.environment import FineStateEnv, resolve_viewport
from finestate_env.env.vector import browser_kwargs, default_browsers
from finestate_env.sessions.session import GuiSession, Screen, SessionResult, Turn
from finestate_env.sessions.task import SessionTask

DEFAULT_MAX_SESSIONS = 64
DEFAULT_IDLE_TIMEOUT_S = 600.0


class PoolFull(RuntimeError):
    """As many sessions are open as the pool allows (`max_sessions`): close one first."""


class SessionPool:
    """Live sessions of one process (the module docstring). `backend` and
    `backend_options` are the env's (default: each platform's own backend)."""

    def __init__(self, *, max_sessions: int = DEFAULT_MAX_SESSIONS,
                 idle_timeout_s: float | None = DEFAULT_IDLE_TIMEOUT_S,
                 browsers: int | None = None, backend: str | None = None,
                 backend_options: dict[str, Any] | None = None) -> None:
        if isinstance(max_sessions, bool) or not isinstance(max_sessions, int) or \
                max_sessions < 1:
            raise UsageError(f"max_sessions must be a whole number of at least 1, got "
                             f"{max_sessions!r}")
        if idle_timeout_s is not None and not idle_timeout_s > 0:
            raise UsageError(f"idle_timeout_s must be above 0 (or None: never), got "
                             f"{idle_timeout_s!r}")
        self.max_sessions = max_sessions
        self.idle_timeout_s = idle_timeout_s
        self.browsers = browsers or default_browsers(max_sessions)
        self.backend = backend
        self.backend_options = dict(backend_options or {})
        self._lock = threading.Lock()
        self._open: dict[str, GuiSession] = {}
        self._idle: dict[tuple, list[FineStateEnv]] = {}
        self._envs = 0  # envs alive: open sessions' and idle ones
        self._made = itertools.count()  # envs made, for spreading them over browsers
        self._ids = itertools.count(1)
        self._closed = False
        self._reaper: threading.Thread | None = None
        self._stop = threading.Event()

    # -- sessions -------------------------------------------------------------
    def open(self, task: Any) -> GuiSession:
        """A session of `task` (SessionTask.read's forms), reset: its first screen is
        `session.observe()`. PoolFull when `max_sessions` are open."""
        task = SessionTask.read(task)
        key = _env_key(task)
        with self._lock:
            if self._closed:
                raise UsageError("the session pool is closed")
            env = self._idle_env(key)
            if env is None:
                if self._envs >= self.max_sessions and not self._evict_idle():
                    raise PoolFull(f"{len(self._open)} sessions are open, the most this pool "
                                   f"allows (max_sessions={self.max_sessions}): close one")
                self._envs += 1
                index = next(self._made)
            session_id = f"s{next(self._ids)}"
        if env is None:
            try:
                env = self._make_env(key, index)
            except BaseException:
                with self._lock:
                    self._envs -= 1
                raise
        session = GuiSession(task, env, session_id=session_id, on_close=self._returned)
        with self._lock:
            self._open[session_id] = session
        try:
            session.reset()
        except BaseException:
            session.close("reset failed")
            raise
        self._start_reaper()
        return session

    async def aopen(self, task: Any) -> AsyncSession:
        """`open` in a worker thread, as an AsyncSession."""
        return AsyncSession(await asyncio.to_thread(self.open, task))

    def get(self, session_id: str) -> GuiSession:
        with self._lock:
            session = self._open.get(session_id)
        if session is None:
            raise KeyError(f"no open session {session_id!r}")
        return session

    @property
    def open_sessions(self) -> int:
        with self._lock:
            return len(self._open)

    def reap(self, now: float | None = None) -> list[str]:
        """Close the sessions idle for longer than `idle_timeout_s`: their ids."""
        if self.idle_timeout_s is None:
            return []
        now = time.monotonic() if now is None else now
        with self._lock:
            stale = [s for s in self._open.values()
                     if now - s.last_used > self.idle_timeout_s]
        for session in stale:
            session.close(f"idle for more than {self.idle_timeout_s:g} s")
        return [s.id for s in stale]

    def close(self) -> None:
        """Close every session and env. Idempotent."""
        with self._lock:
            self._closed = True
            sessions = list(self._open.values())
        self._stop.set()
        for session in sessions:
            session.close("the pool closed")
        with self._lock:
            envs = [env for envs in self._idle.values() for env in envs]
            self._idle.clear()
            self._envs -= len(envs)
        for env in envs:
            env.close()

    def __enter__(self) -> SessionPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- inside ---------------------------------------------------------------
    def _make_env(self, key: tuple, index: int) -> FineStateEnv:
        platform, width, height, max_actions, stop_at_goal, scene, level = key
        kwargs: dict[str, Any] = {"backend": self.backend,
                                  "backend_options": dict(self.backend_options)}
        kwargs = browser_kwargs(kwargs, index, self.browsers)
        if level is not None:
            kwargs["level"] = level
        else:
            kwargs["scene"] = scene
        return FineStateEnv(platform=platform, viewport=(width, height),
                            max_actions=max_actions, stop_at_goal=stop_at_goal,
                            coord_mode="pixel", **kwargs)

    def _returned(self, session: GuiSession, env: FineStateEnv | None) -> None:
        with self._lock:
            self._open.pop(session.id, None)
            keep = env is not None and not self._closed and session.closed != "reset failed"
            if keep:
                self._idle.setdefault(_env_key(session.task), []).append(env)
            elif env is not None:
                self._envs -= 1
        if env is not None and not keep:
            env.close()

    def _idle_env(self, key: tuple) -> FineStateEnv | None:
        envs = self._idle.get(key)
        return envs.pop() if envs else None

    def _evict_idle(self) -> bool:
        """Close one idle env of another screen to make room (under the lock); False when
        every env is in use."""
        for envs in self._idle.values():
            if envs:
                env = envs.pop()
                self._envs -= 1
                threading.Thread(target=env.close, daemon=True).start()
                return True
        return False

    def _start_reaper(self) -> None:
        if self.idle_timeout_s is None or self._reaper is not None:
            return
        with self._lock:
            if self._reaper is not None:
                return
            self._reaper = threading.Thread(target=self._reap_forever, daemon=True,
                                            name="finestate-session-reaper")
        self._reaper.start()

    def _reap_forever(self) -> None:
        interval = min(max(self.idle_timeout_s / 4, 0.05), 30.0)
        while not self._stop.wait(interval):
            self.reap()


class AsyncSession:
    """A GuiSession's calls as coroutines, each run in a worker thread (the session
    serialises them), for trainers that gather their samples on an event loop."""

    def __init__(self, session: GuiSession) -> None:
        self.session = session

    async def act(self, p0: Any, p1: Any) -> Turn:
        return await asyncio.to_thread(self.session.act, p0, p1)

    async def act_text(self, completion: Any) -> Turn:
        return await asyncio.to_thread(self.session.act_text, completion)

    async def reset(self) -> Screen:
        return await asyncio.to_thread(self.session.reset)

    async def finish(self) -> SessionResult:
        return await asyncio.to_thread(self.session.finish)

    async def close(self) -> None:
        await asyncio.to_thread(self.session.close)

    def observe(self) -> Screen:
        return self.session.observe()

    def result(self) -> SessionResult:
        return self.session.result()


def _env_key(task: SessionTask) -> tuple:
    """What an env is made for: sessions with equal keys can share one, one after another."""
    truth = task.ground_truth
    stop_at_goal = task.ends == "goal"
    if truth is not None:
        size = truth.instance.size
        return (truth.instance.platform, size.width, size.height, task.max_actions,
                stop_at_goal, None, None)
    platform = task.platform or "web"
    width, height = resolve_viewport(platform, None)
    return (platform, width, height, task.max_actions, stop_at_goal, task.scene, task.level)


# -- the process's pools: one per settings, shared by a trainer's adapter instances -------
MAX_SESSIONS_VAR = "FINESTATE_MAX_SESSIONS"
_SHARED: dict[tuple, SessionPool] = {}
_SHARED_LOCK = threading.Lock()


def shared_pool(max_sessions: int | None = None,
                idle_timeout_s: float | None = DEFAULT_IDLE_TIMEOUT_S,
                browsers: int | None = None, backend: str | None = None) -> SessionPool:
    """The process's SessionPool for these settings, made on first use and closed when the
    process exits: a trainer makes its environment instances, agent loops or agent
    instances as batches need them, and they all share one pool's browsers.
    `max_sessions`: else the FINESTATE_MAX_SESSIONS variable, else 64."""
    if max_sessions is None:
        given = os.environ.get(MAX_SESSIONS_VAR)
        try:
            max_sessions = int(given) if given else DEFAULT_MAX_SESSIONS
        except ValueError:
            raise UsageError(f"{MAX_SESSIONS_VAR}={given!r} is not a whole number") from None
    key = (max_sessions, idle_timeout_s, browsers, backend)
    with _SHARED_LOCK:
        pool = _SHARED.get(key)
        if pool is None:
            if not _SHARED:
                atexit.register(close_shared_pools)
            pool = _SHARED[key] = SessionPool(max_sessions=max_sessions,
                                              idle_timeout_s=idle_timeout_s,
                                              browsers=browsers, backend=backend)
        return pool


def close_shared_pools() -> None:
    """Close every shared pool of the process (their sessions and browsers)."""
    with _SHARED_LOCK:
        pools = list(_SHARED.values())
        _SHARED.clear()
    for pool in pools:
        pool.close()
