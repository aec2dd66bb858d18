"""Scoring completions by the state their gesture produces: the one routine behind every
trainer's reward function and the reward server.

A completion is read as two points (rewards/completions.py), its gesture performed as
real input on the row's instance, the control read back and judged by the env's own
judging routine (env/episode.py, `judge`). The completions of one instance are scored
on **one render**: the backend shows the instance once and performs each (p0, p1) from
its current state, restoring that state in place between gestures (Backend.probe), so
a GRPO group of 8 costs one render and 8 gestures, not 8 episodes.

Reward modes, side by side:

- `exact` (default): 1.0 when the state read back equals the goal state exactly, on the
  type's own grid, else 0.0;
- `box`: 1.0 when p1 lies in the goal box, the static point-in-box reward of the
  published GUI-grounding recipes (computed from the row alone, no browser, unless
  `crosscheck=True` also judges it live);
- `box_now`: 1.0 when p0 lies in `loc` and `now` (on the control, where its state is
  shown) and p1 in the goal box: the released code's four rates all paid, and the static
  rule the two-point audit measured least hackable (docs/training-vlms.md, "What a box
  reward pays for"); from the row alone, like `box`;
- `shaped`: 1 - the type's distance from the state read back to the goal (each type's
  `distance`, in [0, 1], 0 exactly at the goal), so 1.0 exactly at the goal.

An answer with no readable points (`parse_error`) or points off the screen
(`action_error`) is scored 0.0 in every mode: it is the model's doing. A completion that
could not be judged (the browser died twice, a call timed out twice) gets the reward
None and says why (`unjudged`): never a silent 0.

One completion's failure is its own. An unexpected error while a batch is scored (a bug
the completion's input meets) is not passed to the batch: its completions are scored
again one by one, on a fresh render each, so that every other completion of the group,
and every other request merged into the same render, gets its own reward; the one whose
judgement fails is unjudged with the error named, and the error logged once with the
instance and the completion (`counts["faults"]`).

Work is done by worker threads, each with backends of its own (a page each in a shared
browser by default; web pages drawn without frames, which probing does not need).
Completions submitted while every worker is busy wait in one queue, merged by instance,
so concurrent requests for one instance share a render. A worker's page is left showing
the instance it scored last, and more completions of that instance wait for that worker,
which goes on from there without rendering it again (WebBackend.probe): a group sent as
one request per completion (OpenRLHF) costs one render. The queue is bounded: past
`max_pending` completions, `submit` raises Overloaded.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from finestate_env.backends import Backend, BackendCrashed
from finestate_env.components import COMPONENTS
from finestate_env.core import scoring
from finestate_env.core.errors import UsageError
from finestate_env.core.scoring import REWARD_MODES, STATIC_MODES, RewardMode
from finestate_env.core.states import encode_state
from finestate_env.env.episode import judge
from finestate_env.replay.backend_pool import BackendPool
from finestate_env.rewards.completions import ReadAnswer, read_answer
from finestate_env.rewards.ground_truth import BadGroundTruth, GroundTruth

if TYPE_CHECKING:
    from finestate_env.backends.web import WebBackend

# Completions that may wait for a worker before submit refuses more (Overloaded).
MAX_PENDING = 4096
# The most completions of one instance scored in one probe call (a bigger group is scored
# in turns, each going on from the page the last one left).
MAX_GROUP = 64
# Retries of a group whose renderer died or timed out (the backend restarts itself).
RETRIES = 1

log = logging.getLogger("finestate.rewards")


class Overloaded(RuntimeError):
    """More completions are waiting than the scorer accepts (`max_pending`): try later."""


class TooLarge(UsageError):
    """More completions in one submission than the scorer ever holds (`max_pending`): no
    retry can succeed; send fewer at a time."""


@dataclass(frozen=True)
class Score:
    """One completion's reward and the verdicts a trainer logs beside it."""

    reward: float | None  # None: it could not be judged (`unjudged` says why)
    mode: RewardMode
    parse_error: str | None = None  # no readable points in the completion
    action_error: str | None = None  # points read, but off the screen
    sr_loc: bool = False  # p0 in the control's box (SR@Loc)
    sr_int: bool = False  # p1 in the control's state-changing core (SR@Int)
    static_exact: bool = False  # p1 in the goal box: the box proxy's verdict
    live_exact: bool | None = None  # the state read back equals the goal (None: not judged live)
    crosscheck: str | None = None  # static beside live: agree, false_accept, false_reject
    state: str | None = None  # the state read back (canonical JSON text), when judged live
    unjudged: str | None = None  # why no reward could be computed

    def metrics(self) -> dict[str, float]:
        """The verdicts as numbers (1.0 / 0.0) for a trainer's logs; those not computed
        are left out."""
        out = {"sr_loc": float(self.sr_loc), "sr_int": float(self.sr_int),
               "static_exact": float(self.static_exact),
               "parse_error": float(self.parse_error is not None),
               "action_error": float(self.action_error is not None),
               "unjudged": float(self.unjudged is not None)}
        if self.live_exact is not None:
            out["live_exact"] = float(self.live_exact)
        if self.crosscheck is not None:
            out["false_accept"] = float(self.crosscheck == "false_accept")
            out["false_reject"] = float(self.crosscheck == "false_reject")
        return out

    def as_json(self) -> dict[str, Any]:
        return {"reward": self.reward, "mode": self.mode, "parse_error": self.parse_error,
                "action_error": self.action_error, "sr_loc": self.sr_loc,
                "sr_int": self.sr_int, "static_exact": self.static_exact,
                "live_exact": self.live_exact, "crosscheck": self.crosscheck,
                "state": self.state, "unjudged": self.unjudged}


def check_mode(mode: str) -> RewardMode:
    if mode not in REWARD_MODES:
        raise ValueError(f"reward mode must be one of {list(REWARD_MODES)}, got {mode!r}")
    return mode  # type: ignore[return-value]


def needs_live(mode: RewardMode, crosscheck: bool) -> bool:
    """Whether scoring in `mode` performs the gestures (the static modes alone do not)."""
    return mode not in STATIC_MODES or crosscheck


def score_group(backend: Backend | None, truth: GroundTruth, completions: Sequence[Any],
                mode: RewardMode = "exact", crosscheck: bool = False) -> list[Score]:
    """Score the completions of one instance, on one render of it when judged live.

    `backend` shows `truth`'s platform at its screenshot size (None: `box` mode without
    `crosscheck`). BackendCrashed propagates: the caller retries or gives up."""
    answers = [read_answer(c, truth) for c in completions]
    live = needs_live(mode, crosscheck)
    states: dict[int, Any] = {}
    if live:
        performed = [i for i, answer in enumerate(answers) if answer.performable]
        if performed:
            if backend is None:
                raise ValueError(f"mode {mode!r} judges live: it needs a backend")
            instance = truth.instance
            got = backend.probe(instance.live, instance.gesture,
                                [(answers[i].p0, answers[i].p1) for i in performed])
            states = dict(zip(performed, got, strict=True))
    return [_score(truth, answer, states.get(i), mode, live)
            for i, answer in enumerate(answers)]


def _score(truth: GroundTruth, answer: ReadAnswer, state: Any, mode: RewardMode,
           live: bool) -> Score:
    if answer.parse_error is not None:  # nothing performed: the goal is not reached
        return Score(reward=0.0, mode=mode, parse_error=answer.parse_error,
                     live_exact=False if live else None, crosscheck="agree" if live else None)
    instance = truth.instance
    boxes = instance.boxes.current
    if not live:  # the box proxy alone, as judge computes it
        exact = scoring.static_exact(answer.p1, boxes)
        static = scoring.stage_verdicts(answer.p0, answer.p1, boxes, exact)
        paid = exact if mode == "box" else scoring.grip_exact(answer.p0, answer.p1, boxes)
        return Score(reward=float(paid) if answer.action_error is None else 0.0, mode=mode,
                     action_error=answer.action_error, sr_loc=static.sr_loc,
                     sr_int=static.sr_int, static_exact=exact)
    shown = instance.current_state if answer.action_error is not None else state
    judged = judge(instance, answer.p0, answer.p1, shown, boxes=boxes,
                   action_error=answer.action_error)
    if answer.action_error is not None:
        reward = 0.0
    elif mode == "exact":
        reward = float(judged.live_exact)
    elif mode == "box":
        reward = float(judged.static_exact)
    elif mode == "box_now":
        reward = float(scoring.grip_exact(answer.p0, answer.p1, boxes))
    else:
        distance = COMPONENTS[instance.component].distance(state, instance.goal_state,
                                                           instance.live.params)
        reward = 1.0 - min(1.0, max(0.0, float(distance)))
    return Score(reward=reward, mode=mode, action_error=answer.action_error,
                 sr_loc=judged.static.sr_loc, sr_int=judged.static.sr_int,
                 static_exact=judged.static_exact, live_exact=judged.live_exact,
                 crosscheck=judged.crosscheck,
                 state=None if answer.action_error is not None else encode_state(state))


# A group's rows repeat one ground truth text (10-20 kB for a page): read once while its
# completions come in. A read ground truth holds ~25 KiB of objects, so the cache is kept
# to the groups in flight (a trainer's step, a server's queue), not the dataset: with 4,096
# entries a reward server's Python grew ~25 KiB a group for 4,096 groups (soak, #36).
TRUTHS_CACHED = 256


@lru_cache(maxsize=TRUTHS_CACHED)
def _read_cached(text: str) -> GroundTruth:
    return GroundTruth.read(text)


def read_truth(value: Any) -> GroundTruth:
    """A ground truth from what a trainer passes (text, dict, verl's reward_model dict)."""
    if isinstance(value, dict) and "ground_truth" in value and "instance" not in value:
        value = value["ground_truth"]
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise BadGroundTruth(f"ground truth: not UTF-8 text ({exc.reason} at byte "
                                 f"{exc.start})") from None
    return _read_cached(value) if isinstance(value, str) else GroundTruth.read(value)


@dataclass
class _Pending:
    truth: GroundTruth
    mode: RewardMode
    completions: list[Any] = field(default_factory=list)
    parts: list[tuple[Future, int, int]] = field(default_factory=list)  # future, start, end


class RewardScorer:
    """Scores completions for trainers (the module docstring): `score` for a batch,
    `submit` for one instance's completions as they come, `ascore` from asyncio.

    `workers` threads (default: one per core), each with backends of its own, made on
    first use with `backend` / `backend_options` (as `gym.make` takes them). `mode` is the
    default reward mode; `crosscheck` judges `box` rewards live too (for the metrics).
    """

    def __init__(self, mode: RewardMode = "exact", *, workers: int | None = None,
                 crosscheck: bool = False, backend: str | None = None,
                 backend_options: dict[str, Any] | None = None,
                 max_pending: int = MAX_PENDING, max_group: int = MAX_GROUP,
                 retries: int = RETRIES) -> None:
        self.mode = check_mode(mode)
        self.crosscheck = bool(crosscheck)
        self.workers = int(workers or os.cpu_count() or 1)
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        self.max_pending, self.max_group, self.retries = max_pending, max_group, retries
        self._backend, self._backend_options = backend, dict(backend_options or {})
        self._queue: OrderedDict[tuple[str, str], _Pending] = OrderedDict()
        self._pending = 0  # completions waiting, not yet taken by a worker
        self._busy = 0
        self._cond = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._shown: dict[int, tuple[str, str]] = {}  # worker -> the instance its page shows
        self._closed = False
        # Backends of a kind that cannot work from two threads at once (the desktop's one
        # X input) take turns.
        self._exclusive = threading.Lock()
        self.counts = {"completions": 0, "groups": 0, "renders": 0, "retried": 0,
                       "unjudged": 0, "faults": 0}

    # -- the public calls -----------------------------------------------------
    def score(self, truths: Sequence[Any], completions: Sequence[Any],
              mode: RewardMode | None = None) -> list[Score]:
        """One Score per completion; `truths[i]` is completion i's ground truth (text,
        dict or GroundTruth), as trainers pass them: one per completion, repeated across
        a group. Completions of one instance are scored together on one render."""
        if len(truths) != len(completions):
            raise ValueError(f"{len(truths)} ground truths for {len(completions)} completions: "
                             "give one per completion")
        groups: OrderedDict[str, tuple[GroundTruth, list[int]]] = OrderedDict()
        for index, value in enumerate(truths):
            truth = read_truth(value)
            groups.setdefault(truth.key, (truth, []))[1].append(index)
        # A caller in this process waits for room in the queue (a trainer's batch may hold
        # more completions than max_pending): never Overloaded, never TooLarge.
        futures = [(part, self.submit(truth, [completions[i] for i in part], mode, wait=True))
                   for truth, indices in groups.values()
                   for part in _pieces(indices, self.max_pending)]
        scores: list[Score | None] = [None] * len(completions)
        for indices, future in futures:
            for index, score in zip(indices, future.result(), strict=True):
                scores[index] = score
        return scores  # type: ignore[return-value]

    async def ascore(self, truths: Sequence[Any], completions: Sequence[Any],
                     mode: RewardMode | None = None) -> list[Score]:
        """`score` without blocking the event loop."""
        return await asyncio.to_thread(self.score, truths, completions, mode)

    def submit(self, truth: GroundTruth | Any, completions: Sequence[Any],
               mode: RewardMode | None = None, *, wait: bool = False) -> Future:
        """Queue one instance's completions; the future gives their Scores in order.

        More than `max_pending` completions at once raise TooLarge (they never fit). When
        that many would be waiting, `wait` blocks until there is room; without it,
        Overloaded is raised (a server's client retries later)."""
        truth = read_truth(truth)
        mode = check_mode(mode or self.mode)
        future: Future = Future()
        if not needs_live(mode, self.crosscheck):  # static: nothing to wait for
            future.set_result(self._score_static(_Pending(truth, mode, list(completions))))
            return future
        with self._cond:
            if self._closed:
                raise RuntimeError("the reward scorer is closed")
            if len(completions) > self.max_pending:
                raise TooLarge(f"{len(completions)} completions in one submission: the most "
                               f"this scorer holds is {self.max_pending} (max_pending); send "
                               "at most that many at a time")
            while self._pending + len(completions) > self.max_pending:
                if not wait:
                    raise Overloaded(f"{self._pending} completions are waiting to be scored, "
                                     f"the most this scorer holds is {self.max_pending}")
                self._cond.wait()
                if self._closed:
                    raise RuntimeError("the reward scorer is closed")
            self._start_workers()
            pending = self._queue.get((truth.key, mode))
            if pending is None:
                pending = self._queue[(truth.key, mode)] = _Pending(truth, mode)
            start = len(pending.completions)
            pending.completions.extend(completions)
            pending.parts.append((future, start, len(pending.completions)))
            self._pending += len(completions)
            # Every worker looks: the one whose page shows this instance takes it (_take).
            self._cond.notify_all()
        return future

    def status(self) -> dict[str, Any]:
        """Workers, waiting completions and what was scored so far (the server's /health)."""
        with self._cond:
            return {"workers": self.workers, "busy": self._busy, "pending": self._pending,
                    "max_pending": self.max_pending, **self.counts}

    def close(self) -> None:
        """Finish what was submitted, then stop the workers and their backends."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
        for thread in self._threads:
            thread.join()
        self._threads.clear()

    def __enter__(self) -> RewardScorer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the workers ------------------------------------------------------------
    def _start_workers(self) -> None:
        while len(self._threads) < self.workers:
            thread = threading.Thread(target=self._work, daemon=True,
                                      name=f"finestate-reward-{len(self._threads)}")
            self._threads.append(thread)
            thread.start()

    def _work(self) -> None:
        pool = _Pool(self._backend_options, self._backend)
        me = threading.get_ident()
        try:
            while True:
                with self._cond:
                    while (pending := self._take(me)) is None:
                        if self._closed and not self._queue:
                            return
                        self._cond.wait()
                    self._pending -= len(pending.completions)
                    self._busy += 1
                    # Room in the queue (submit(wait=True) waits for it), and workers that
                    # waited for the queue to empty after close may stop.
                    self._cond.notify_all()
                # A caller that gave up (a client gone) cancelled its future: skipped.
                parts = [p for p in pending.parts if p[0].set_running_or_notify_cancel()]
                try:
                    scores = self._score_pending(pool, pending) if parts else []
                except BaseException as exc:  # a bug: every caller hears of it
                    for future, _, _ in parts:
                        future.set_exception(exc)
                else:
                    for future, start, end in parts:
                        future.set_result(scores[start:end])
                finally:
                    with self._cond:
                        self._busy -= 1
        finally:
            with self._cond:
                self._shown.pop(me, None)
                self._cond.notify_all()  # what this worker's page showed is anyone's now
            pool.close()

    def _take(self, me: int) -> _Pending | None:
        """What worker `me` scores next (the lock held): more completions of the instance
        its page shows, which go on from there without a render (WebBackend.probe); else
        the oldest waiting instance that no other worker's page shows (that worker takes
        it when it is free: concurrent requests of one instance, as OpenRLHF sends a
        group, cost one render, not one per worker); None: nothing for this worker."""
        key = self._shown.get(me)
        if key in self._queue:
            return self._queue.pop(key)
        elsewhere = {shown for worker, shown in self._shown.items() if worker != me}
        for key in self._queue:
            if key not in elsewhere:
                self._shown[me] = key
                return self._queue.pop(key)
        return None

    def _score_static(self, pending: _Pending) -> list[Score]:
        """The box proxy's Scores, computed from the row alone."""
        return self._isolated(pending, pending.completions, lambda completions: score_group(
            None, pending.truth, completions, pending.mode))

    def _isolated(self, pending: _Pending, completions: list[Any],
                  scores_of: Callable[[list[Any]], list[Score]]) -> list[Score]:
        """`scores_of(completions)`; when that raises (a bug some completion's input meets),
        each completion scored alone, so that only the one whose scoring raises is unjudged
        (`_fault`) and the others get their own Scores."""
        try:
            return scores_of(completions)
        except Exception as exc:  # noqa: BLE001 (one completion's fault is its own)
            if len(completions) == 1:
                return [self._fault(pending, completions[0], exc)]
        scores = []
        for completion in completions:
            try:
                scores += scores_of([completion])
            except Exception as exc:  # noqa: BLE001
                scores.append(self._fault(pending, completion, exc))
        return scores

    def _score_pending(self, pool: _Pool, pending: _Pending) -> list[Score]:
        try:
            backend = pool.for_instance(pending.truth.instance)
        except Exception as exc:  # noqa: BLE001 (no backend: nothing judged, nothing raised)
            log.error("no backend for %s: %s: %s", pending.truth.key, type(exc).__name__, exc)
            self._count("unjudged", len(pending.completions))
            return [Score(reward=None, mode=pending.mode,
                          unjudged=f"no backend could show the instance: "
                                   f"{type(exc).__name__}: {_excerpt(exc, 200)}")
                    for _ in pending.completions]
        scores: list[Score] = []
        for start in range(0, len(pending.completions), self.max_group):
            scores += self._score_chunk(pool, backend, pending,
                                        pending.completions[start:start + self.max_group])
        return scores

    def _score_chunk(self, pool: _Pool, backend: Backend, pending: _Pending,
                     completions: list[Any]) -> list[Score]:
        return self._isolated(pending, completions, lambda chunk: self._score_live(
            pool, backend, pending, chunk))

    def _score_live(self, pool: _Pool, backend: Backend, pending: _Pending,
                    completions: list[Any]) -> list[Score]:
        """The completions judged live on one render; a crash retried (`retries`), then
        their Scores unjudged with its reason. Any other error propagates (_isolated)."""
        why = None
        for attempt in range(self.retries + 1):
            renders = pool.renders(backend)
            try:
                with self._turn(backend):
                    scores = score_group(backend, pending.truth, completions, pending.mode,
                                         self.crosscheck)
            except BackendCrashed as exc:  # the backend restarts on its next render
                why = str(exc)
                self._count("retried", attempt < self.retries)
                continue
            # A backend that went on from the page its last probe left (WebBackend.probe)
            # did not render: renders counts what was shown, groups what was scored.
            self._count("renders", 1 if renders is None else pool.renders(backend) - renders)
            self._count("groups", 1)
            self._count("completions", len(scores))
            return scores
        self._count("unjudged", len(completions))
        return [Score(reward=None, mode=pending.mode,
                      unjudged=f"not judged after {self.retries + 1} tries: {why}")
                for _ in completions]

    def _fault(self, pending: _Pending, completion: Any, exc: Exception) -> Score:
        """The Score of the one completion whose judgement raised: unjudged, the error named
        and logged once with the instance and the completion."""
        log.error("scoring a completion of %s failed: %s: %s; the completion: %s",
                  pending.truth.key, type(exc).__name__, exc, _excerpt(completion),
                  exc_info=exc)
        self._count("faults", 1)
        self._count("unjudged", 1)
        return Score(reward=None, mode=pending.mode,
                     unjudged=f"scoring this completion failed: {type(exc).__name__}: "
                              f"{_excerpt(exc, 200)}")

    def _turn(self, backend: Backend) -> contextlib.AbstractContextManager:
        return contextlib.nullcontext() if backend.concurrent_steps else self._exclusive

    def _count(self, name: str, amount: int) -> None:
        with self._cond:
            self.counts[name] += int(amount)


def _pieces(indices: list[int], size: int) -> list[list[int]]:
    return [indices[start:start + size] for start in range(0, len(indices), size)]


def _excerpt(value: Any, limit: int = 300) -> str:
    """`value` as a short line for a log or a message (an exception: its message)."""
    try:
        text = str(value) if isinstance(value, BaseException) else repr(value)
    except Exception:  # noqa: BLE001 (a value whose repr fails is still named)
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit] + "..."


class _Pool:
    """A worker's backends (replay/backend_pool.py), web pages among them drawn without
    frames: the scorer only probes, and a page that paints nothing takes the same input
    and reports the same states for ~30% less CPU (backends/web.py, `frames`)."""

    def __init__(self, options: dict[str, Any], backend: str | None) -> None:
        self._web = BackendPool({"frames": False, **options}, backend)
        self._other = BackendPool(options, backend)
        self._web_name = backend in (None, "web")
        self._web_backends: dict[int, WebBackend] = {}

    def for_instance(self, instance: Any) -> Backend:
        if not (self._web_name and instance.platform == "web"):
            return self._other.for_instance(instance)
        backend = self._web.for_instance(instance)
        self._web_backends[id(backend)] = backend
        return backend

    def renders(self, backend: Backend) -> int | None:
        """How many probes of `backend` rendered so far, where it tells (the web backends
        made here: WebBackend.probe goes on from its last probe's page); None: every
        probe renders."""
        web = self._web_backends.get(id(backend))
        return None if web is None else web.probe_renders

    def close(self) -> None:
        self._web.close()
        self._other.close()
