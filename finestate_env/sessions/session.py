"""One live multi-turn episode: the core every agentic adapter calls.

A session shows a task's screen, performs the agent's gestures one a turn as real input,
shows the new screen after each, and reads the control back; the reward is the state at
the end. It is the Gymnasium env's own episode (env/environment.py, `max_actions`
gestures, its crash recovery and judging), driven with the task's instance and the
agent's points, not a copy of it:

- `reset()` renders the task and returns the first `Screen`;
- `act(p0, p1)` (points in the task's convention) or `act_text(completion)` (a model's
  answer, read by the project's one answer parser) performs one gesture and returns a
  `Turn`: the new screen, the state read back, whether the episode is over;
- `finish()` is the agent saying it is done (an episode that `ends="agent"` is not over
  before: reaching the goal is not announced);
- `result()` gives the reward: 1.0 when the target's state equals the goal exactly and no
  other control of the page changed since the start (collateral), else 0.0; both are
  reported apart. None, never 0.0, when a crash left the episode unjudged (`unjudged`
  names it).

Calls into one session are serialised (a lock), so any thread may drive it; `SessionPool`
(sessions/pool.py) opens many at once and offers the same calls as coroutines.
"""

from __future__ import annotations

import base64
import contextlib
import io
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
from PIL import Image

from finestate_env.agents.answers import parse_points
from finestate_env.components import COMPONENTS
from finestate_env.core.actions import ParsedAction
from finestate_env.core.coords import point_to_pixel
from finestate_env.core.states import encode_state
from finestate_env.rewards.completions import read_completion
from finestate_env.sessions.task import SessionTask

if TYPE_CHECKING:
    from finestate_env.env.environment import FineStateEnv

Point = tuple[float, float]
Ended = Literal["goal", "actions", "agent", "unjudged", "closed"]


class SessionError(RuntimeError):
    """A session cannot do what was asked (it has ended, or was closed)."""


class SessionEnded(SessionError):
    """A gesture after the episode ended: the agent is told, nothing is performed."""


@dataclass(frozen=True, eq=False)
class Screen:
    """What the agent sees: the screenshot as captured, and the task in words."""

    pixels: np.ndarray  # (height, width, 3) uint8, the screen's own pixels
    instruction: str

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return int(self.pixels.shape[1]), int(self.pixels.shape[0])

    def image(self, max_side: int | None = None) -> Image.Image:
        """The screenshot as a PIL image; `max_side`: scaled down (aspect kept) so that
        neither side exceeds it, as trainers bound the image tokens of a turn."""
        image = Image.fromarray(self.pixels)
        if max_side is not None and max(image.size) > max_side:
            scale = max_side / max(image.size)
            image = image.resize((max(1, round(image.width * scale)),
                                  max(1, round(image.height * scale))), Image.BILINEAR)
        return image

    @cached_property
    def png(self) -> bytes:
        """The screenshot as PNG bytes (the same pixels give the same bytes)."""
        buffer = io.BytesIO()
        Image.fromarray(self.pixels).save(buffer, format="PNG")
        return buffer.getvalue()

    def data_url(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


@dataclass(frozen=True)
class Turn:
    """One gesture's outcome, as the agent is shown it and as a trainer logs it."""

    screen: Screen  # the screen after the gesture (the same one when nothing was performed)
    number: int  # gestures made so far, this one included
    state: str  # the target's state read back (canonical JSON text)
    action_error: str | None  # why nothing was performed (unreadable or off-screen points)
    done: bool  # no further gesture is taken
    ended: Ended | None  # why the episode ended, when it did
    feedback: str  # the text shown to the agent beside the screen ("" by default)
    unjudged: str | None = None  # the crash that left the gesture unjudged


@dataclass(frozen=True)
class SessionResult:
    """The episode's verdict: what a trainer's reward and metrics are made of."""

    reward: float | None  # 1.0 at the goal with no collateral, else 0.0; None: unjudged
    at_goal: bool  # the target's state equals the goal exactly
    collateral: tuple[str, ...]  # labels of the page's other controls that changed
    turns: int  # gestures made (malformed ones included)
    action_errors: int  # gestures that performed nothing
    oracle_actions: int  # gestures the oracle takes to the goal
    ended: Ended | None  # None while the episode goes on
    unjudged: str | None = None

    def metrics(self) -> dict[str, float]:
        """The verdicts as numbers, for a trainer's logs (unjudged episodes say so)."""
        return {"at_goal": float(self.at_goal), "collateral": float(bool(self.collateral)),
                "turns": float(self.turns), "action_errors": float(self.action_errors),
                "oracle_actions": float(self.oracle_actions),
                "unjudged": float(self.unjudged is not None)}


class GuiSession:
    """One live episode of `task` on `env` (an unwrapped FineStateEnv that the session
    drives alone; the pool makes it). `on_close` is called once, when it closes."""

    def __init__(self, task: SessionTask, env: FineStateEnv, *, session_id: str = "",
                 on_close: Any = None) -> None:
        self.task = task
        self.id = session_id
        self._env = env
        self._on_close = on_close
        self._lock = threading.RLock()
        self._screen: Screen | None = None
        self._instance: Any = None
        self._start_distractors: tuple[Any, ...] = ()
        self._distractors: tuple[Any, ...] = ()
        self._state: Any = None
        self._turns = self._errors = 0
        self._ended: Ended | None = None
        self._unjudged: str | None = None
        self._oracle_actions = 1
        self.last_used = time.monotonic()
        self.closed: str | None = None  # why, once closed

    # -- the episode ----------------------------------------------------------
    def reset(self) -> Screen:
        """Render the task afresh and return the first screen (the same pixels for every
        session of an equal task)."""
        with self._use():
            task = self.task
            if task.ground_truth is not None:
                options: dict[str, Any] = {"instance": task.ground_truth.instance}
                seed = task.ground_truth.instance.live.seed
            else:
                options = {"component": task.component} if task.component else {}
                seed = task.seed
            obs, info = self._env.reset(seed=seed, options=options)
            self._screen = Screen(obs["screenshot"], obs["instruction"])
            self._instance = self._env.instance
            self._start_distractors = self._distractors = self._env.shown_distractors
            self._state = self._env.shown_state
            self._turns = self._errors = 0
            self._ended, self._unjudged = None, None
            self._oracle_actions = int(info["oracle_actions"])
            return self._screen

    def act(self, p0: Any, p1: Any) -> Turn:
        """Perform one gesture from p0 to p1 (points in the task's convention: the
        ground truth's `coords` and `frame`, or the seeded task's). Points that are not
        two finite numbers on the screen perform nothing and use the turn up
        (`action_error` says why), as a malformed action does in the env."""
        with self._use():
            self._check_open()
            try:
                action: Any = {"p0": self.to_pixels(p0), "p1": self.to_pixels(p1)}
            except (TypeError, ValueError, IndexError, OverflowError) as exc:
                action = ParsedAction(None, None, f"points must be two numbers each: {exc}")
            return self._step(action)

    def act_text(self, completion: Any) -> Turn:
        """Perform the gesture a model's answer names (JSON, `drag(x0, y0, x1, y1)`,
        labelled points...: agents/answers.py), in the task's convention. An answer with
        no readable points performs nothing and uses the turn up."""
        with self._use():
            self._check_open()
            text, unreadable = read_completion(completion)
            parsed = parse_points(text) if unreadable is None else None
            error = unreadable if parsed is None else parsed.error
            if error is not None:
                return self._step(ParsedAction(None, None, f"no gesture read: {error}"))
            return self._step({"p0": self.to_pixels(parsed.p0),
                               "p1": self.to_pixels(parsed.p1)})

    def finish(self) -> SessionResult:
        """The agent is done: the episode ends here (if it had not) and is judged."""
        with self._use():
            if self._screen is None:
                raise SessionError("finish() before reset(): there is no episode")
            if self._ended is None:
                self._ended = "agent"
            return self.result()

    def observe(self) -> Screen:
        """The screen as it is now, no gesture."""
        with self._use():
            if self._screen is None:
                raise SessionError("observe() before reset(): there is no episode")
            return self._screen

    def result(self) -> SessionResult:
        """The verdict of the episode so far: its reward if it ended now."""
        with self._use(touch=False):
            at_goal, collateral = self._verdict()
            reward = None if self._unjudged else float(at_goal and not collateral)
            return SessionResult(reward=reward, at_goal=at_goal, collateral=collateral,
                                 turns=self._turns, action_errors=self._errors,
                                 oracle_actions=self._oracle_actions, ended=self._ended,
                                 unjudged=self._unjudged)

    def reward(self) -> float | None:
        return self.result().reward

    @property
    def instance(self) -> Any:
        """The instance shown (with its boxes as measured): for logs and scripted agents;
        a model sees only the screen."""
        return self._instance

    @property
    def done(self) -> bool:
        return self._ended is not None

    @property
    def turns(self) -> int:
        return self._turns

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the screen, in pixels."""
        return tuple(self._env.viewport)  # type: ignore[return-value]

    @property
    def coords(self) -> str:
        """The convention the agent's points are read in."""
        truth = self.task.ground_truth
        return truth.coords if truth is not None else (self.task.coords or "pixel")

    @property
    def frame(self) -> tuple[int, int]:
        """(width, height) that pixel answers refer to."""
        truth = self.task.ground_truth
        if truth is not None:
            return truth.frame.width, truth.frame.height
        frame = self.task.frame
        return (frame.width, frame.height) if frame is not None else self.size

    def state_text(self) -> str:
        """The target's state read back, as canonical JSON text."""
        return encode_state(self._state)

    def close(self, why: str = "closed") -> None:
        """End the session; its env goes back to the pool (or is closed). Idempotent."""
        with self._lock:
            if self.closed is not None:
                return
            self.closed = why
            if self._ended is None and self._screen is not None:
                self._ended = "closed"
            env, self._env = self._env, None
        if self._on_close is not None:
            self._on_close(self, env)

    def __enter__(self) -> GuiSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- inside ---------------------------------------------------------------
    def _step(self, action: Any) -> Turn:
        obs, _, terminated, truncated, info = self._env.step(action)
        self._turns += 1
        error = info["action_error"]
        if error is not None:
            self._errors += 1
        unjudged = info.get("unjudged")
        if error is None and unjudged is None:  # input came: the screen is a new one
            self._screen = Screen(obs["screenshot"], self._screen.instruction)
            self._state, self._distractors = self._env.shown_state, self._env.shown_distractors
        ended: Ended | None = None
        if unjudged is not None:
            ended, self._unjudged = "unjudged", unjudged
        elif terminated and info["success"] and self.task.ends == "goal":
            ended = "goal"
        elif terminated or truncated:
            ended = "actions"
        self._ended = ended
        return Turn(screen=self._screen, number=self._turns, state=encode_state(self._state),
                    action_error=error, done=ended is not None, ended=ended,
                    feedback=self._feedback(error, ended), unjudged=unjudged)

    def _feedback(self, error: str | None, ended: Ended | None) -> str:
        lines = []
        if error is not None:
            lines.append(f"Nothing was performed: {error}")
        if self.task.feedback == "state":
            lines.append(f"The control now shows {encode_state(self._state)}.")
        if ended == "actions":
            lines.append("No gestures are left.")
        elif ended == "unjudged":
            lines.append("The episode could not go on (the renderer failed).")
        return "\n".join(lines)

    def _verdict(self) -> tuple[bool, tuple[str, ...]]:
        instance = self._instance
        if instance is None:
            return False, ()
        at_goal = COMPONENTS[instance.component].states_equal(
            self._state, instance.goal_state, instance.live.params)
        scene = instance.live.scene
        if scene is None:
            return at_goal, ()
        changed = tuple(d.label for d, was, now in zip(
            scene.distractors, self._start_distractors, self._distractors, strict=True)
            if was != now)
        return at_goal, changed

    def to_pixels(self, point: Any) -> list[float]:
        """A point in the task's convention, in screenshot pixels."""
        x, y = (float(v) for v in point)
        if self.coords == "pixel":
            (fw, fh), (w, h) = self.frame, self.size
            return [x * w / fw, y * h / fh]
        return list(point_to_pixel((x, y), self.coords, self.size))

    def _check_open(self) -> None:
        if self._screen is None:
            raise SessionError("act() before reset(): there is no episode")
        if self._ended is not None:
            raise SessionEnded(f"the episode has ended ({self._ended}); no gesture is "
                               "performed")

    @contextlib.contextmanager
    def _use(self, touch: bool = True) -> Iterator[None]:
        """Hold the session (one call at a time); `touch`: a call that needs it open, and
        that counts as use for the pool's idle reaper."""
        with self._lock:
            if touch:
                if self.closed is not None:
                    raise SessionError(f"session {self.id!r} is closed ({self.closed})")
                self.last_used = time.monotonic()
            yield
