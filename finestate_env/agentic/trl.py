"""TRL's GRPOTrainer `environment_factory` over live sessions (finestate_env.sessions).

    from finestate_env.agentic.trl import finestate_trl_env
    trainer = GRPOTrainer(model=..., args=GRPOConfig(..., max_tool_calling_iterations=6),
                          train_dataset=rows,                     # a `task` column
                          environment_factory=finestate_trl_env(max_side=512))

TRL (1.16, trl/trainer/grpo_trainer.py) calls the factory with no arguments, so the
options are bound by `finestate_trl_env(...)`, which returns a class. TRL keeps one
instance per rollout of a batch in a pool and reuses it from step to step; per rollout it

- calls `reset(**row)` with the dataset row (every column). The task is the row's `task`
  column (a SessionTask's JSON text or dict, as `finestate export-rl --max-actions K`
  writes it), else its `reward_model` or `ground_truth` column (a bare exported ground
  truth). The previous session of the instance is closed first. The list returned (the
  first screenshot as an image block, shrunk to `max_side`, then the task's text) is
  appended to the row's last user message, and the processor takes the image from there,
  for generation and for the loss. A row that shows the first turn itself (an `images`
  or `image` column, as export-rl's rows have, their prompt the task's text) gets None:
  TRL leaves its prompt as it is. A row with only a task needs no `prompt` column;
- exposes every public method other than `reset` and `get_reward` as a tool, its JSON
  schema built from the type hints and the Google docstring: `gesture(x0, y0, x1, y1)`
  performs one gesture and returns the new screenshot (an image block, which TRL
  passes to the model with the tool message) and the session's feedback; `done()` ends
  the episode. Helpers are therefore private (a leading underscore), and the class has
  no other public method;
- after the tool loop, calls `get_reward()` and appends it as a reward column named after
  the class: the session's exact reward (1.0 at the goal with no other control changed,
  else 0.0), the episode finished here if the model stopped without calling `done`.
  None when a crash left the episode unjudged: TRL turns None into NaN, keeps the row out
  of its group's baseline and gives it no advantage, where 0.0 would punish the model
  for the renderer's fault.

Nothing the model writes raises: points that are not numbers or lie off the screen
perform nothing and use the turn up (the session's own rule), and a gesture after the
episode ended (the gestures ran out, or `done` was called) is answered in words. A tool
called with missing or unknown arguments fails before reaching the method, and TRL
answers it with the error as the tool message.

The points are read in the task's convention (the ground truth's `coords`: "1000" for
the tool-calling VLMs TRL supports, Qwen3-VL, Qwen3.5 and Gemma 4: agents/vlm_prompt.py),
which the first turn states. `model=` makes `reset` refuse a task whose convention is not
the model's profile. The tool takes whole numbers (its schema says "integer", as these
models answer on a grid), so a "normalized" task is refused.

Sessions come from the process's shared pool for the option set (sessions/pool.py
`shared_pool`), opened on first use and closed at exit (`close_shared_pools()` closes them
earlier). `max_sessions` must cover the rollouts of one generation batch on this process
(each instance holds one session).
"""

from __future__ import annotations

from typing import Any

from finestate_env.agents.vlm_prompt import profile_for, session_prompt, turn_prompt
from finestate_env.core.errors import UsageError
from finestate_env.sessions import GuiSession, SessionResult, Turn, shared_pool
from finestate_env.sessions.pool import DEFAULT_IDLE_TIMEOUT_S, DEFAULT_MAX_SESSIONS
from finestate_env.sessions.session import SessionError

# TRL's examples resize screenshots to 512 or 256 px: every turn's image tokens count
# toward max_completion_length.
DEFAULT_MAX_SIDE = 512
# Where reset looks for the task in a row, first found wins.
TASK_COLUMNS = ("task", "reward_model", "ground_truth")


class FineStateTRLEnv:
    """One rollout's live episode, in the shape TRL's `environment_factory` expects (the
    module docstring). Use `finestate_trl_env(...)` to bind the options; the class itself
    runs with the defaults below."""

    max_side: int | None = DEFAULT_MAX_SIDE  # screenshots shrunk so no side exceeds it
    max_sessions: int = DEFAULT_MAX_SESSIONS
    idle_timeout_s: float | None = DEFAULT_IDLE_TIMEOUT_S
    backend: str | None = None  # the env's backend (None: each platform's own)
    model: str | None = None  # when set, tasks must be in this model's convention

    def __init__(self) -> None:
        self.session: GuiSession | None = None
        self.result: SessionResult | None = None  # the verdict get_reward returned

    # -- TRL's calls ------------------------------------------------------------------
    def reset(self, **row: Any) -> list[dict[str, Any]] | None:
        """Open a session of the row's task and return its first screen and the task's
        text; None when the row shows them itself (export-rl's multi-turn rows)."""
        self._close_session()
        session = shared_pool(self.max_sessions, self.idle_timeout_s,
                               self.backend).open(_task_of(row))
        try:
            self._check_convention(session.coords)
        except UsageError:
            session.close()
            raise
        self.session = session
        if _shows_first_turn(row):
            return None
        screen = session.observe()
        text = session_prompt(screen.instruction, session.coords, session.frame,
                              session.task.max_actions, tool=True)
        return [_image(screen.image(self.max_side)), _text(text)]

    def gesture(self, x0: int, y0: int, x1: int, y1: int) -> list:
        """Make one gesture on the screen: press at (x0, y0), move to (x1, y1) and release
        there. The same point twice is a click or a tap.

        Args:
            x0: Horizontal coordinate of the press point, in the coordinates the task states.
            y0: Vertical coordinate of the press point.
            x1: Horizontal coordinate of the release point.
            y1: Vertical coordinate of the release point.

        Returns:
            The screen after the gesture, with a line of feedback.
        """
        session = self.session
        if session is None:
            return [_text("No episode is open: nothing was performed.")]
        if session.done or session.closed is not None:
            return [_text(_ended_text(session))]
        try:
            turn = session.act((x0, y0), (x1, y1))
        except SessionError as exc:  # closed under us (the pool's idle reaper)
            return [_text(f"Nothing was performed: {exc}")]
        return self._shown(turn)

    def done(self) -> str:
        """End the episode. Call it when the control shows exactly what the task asks.

        Returns:
            A confirmation that the episode is over.
        """
        session = self.session
        if session is None:
            return "No episode is open."
        if session.closed is None:
            session.finish()
        return "The episode is over."

    def get_reward(self) -> float | None:
        """The session's exact reward (1.0 or 0.0), None when the episode is unjudged.
        The episode ends here if the model stopped without calling done; the session is
        then closed, its env back in the pool."""
        session = self.session
        if session is None:
            return None
        self.result = session.finish() if session.closed is None else session.result()
        session.close()
        return self.result.reward

    # -- inside -----------------------------------------------------------------------
    def _shown(self, turn: Turn) -> list[dict[str, Any]]:
        if turn.action_error is not None:  # nothing performed: the screen is unchanged
            return [_text(turn.feedback)]
        return [_image(turn.screen.image(self.max_side)), _text(turn_prompt(turn.feedback))]

    def _check_convention(self, coords: str) -> None:
        if coords == "normalized":
            raise UsageError("the gesture tool takes whole numbers, which cannot name "
                             "points in [0, 1]: export the tasks in the model's grid "
                             "('1000') or in pixels")
        if self.model is not None and profile_for(self.model).coords != coords:
            raise UsageError(
                f"the task's points are read in {coords!r}, but {self.model} answers in "
                f"{profile_for(self.model).coords!r} (agents/vlm_prompt.py): export the "
                "tasks in the model's convention")

    def _close_session(self) -> None:
        if self.session is not None:
            self.session.close()
        self.session, self.result = None, None


def finestate_trl_env(*, max_side: int | None = DEFAULT_MAX_SIDE,
                      max_sessions: int = DEFAULT_MAX_SESSIONS,
                      idle_timeout_s: float | None = DEFAULT_IDLE_TIMEOUT_S,
                      backend: str | None = None,
                      model: str | None = None) -> type[FineStateTRLEnv]:
    """FineStateTRLEnv with these options bound, for `environment_factory=` (TRL calls
    the factory with no arguments). `max_side`: the screenshots' longest side in pixels
    (None: as captured); `max_sessions`: sessions open at once in this process (at least
    the rollouts of one generation batch); `model`: refuse tasks not in its convention."""
    if max_side is not None and (isinstance(max_side, bool) or not isinstance(max_side, int)
                                 or max_side < 1):
        raise UsageError(f"max_side must be a whole number of pixels (or None), got "
                         f"{max_side!r}")
    return type("FineStateTRLEnv", (FineStateTRLEnv,), {
        "__doc__": FineStateTRLEnv.__doc__, "max_side": max_side,
        "max_sessions": max_sessions, "idle_timeout_s": idle_timeout_s,
        "backend": backend, "model": model})


def _task_of(row: dict[str, Any]) -> Any:
    for column in TASK_COLUMNS:
        if row.get(column) is not None:
            return row[column]
    raise UsageError(f"a row needs a task: one of the columns {list(TASK_COLUMNS)} (a "
                     f"session task or an exported ground truth); it has {sorted(row)}")


def _shows_first_turn(row: dict[str, Any]) -> bool:
    """Whether the row carries the first turn itself: export-rl's multi-turn rows have
    the first screenshot in `images` (TRL puts it in the prompt, before the session's
    text, which is the prompt), pixel for pixel the screen the task opens."""
    for column in ("images", "image"):
        value = row.get(column)
        if isinstance(value, list | tuple):
            value = value or None  # TRL treats an empty list as no image
        if value is not None:
            return True
    return False


def _ended_text(session: GuiSession) -> str:
    why = {"actions": "no gestures are left", "agent": "done was called",
           "unjudged": "the renderer failed"}.get(session.result().ended or "", "it closed")
    return f"The episode has ended ({why}): nothing was performed."


def _image(image: Any) -> dict[str, Any]:
    return {"type": "image", "image": image}


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}
