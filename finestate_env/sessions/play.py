"""A chat model plays a session turn by turn: evaluation on the path training takes.

The conversation is the one the trainers' adapters build (agents/vlm_prompt.py): the
first user turn is the screenshot with `session_prompt`, each reply is one gesture (read
by the project's answer parser) or `done`, and each later user turn is the new screen
with `turn_prompt`. The model's reply, the gesture read from it (in screenshot pixels),
the state read back and the screen after it are kept for every turn (`Trajectory`), so a
report can show what the model saw and did.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from finestate_env.agents.answers import parse_points
from finestate_env.agents.vlm_prompt import says_done, session_prompt, turn_prompt, user_message
from finestate_env.sessions.session import GuiSession, SessionResult


@dataclass(frozen=True)
class PlayedTurn:
    """One turn: the model's reply and what it did."""

    number: int
    reply: str
    gesture: tuple[list[float], list[float]] | None  # screenshot pixels; None: none read
    state: str  # the target's state read back after it (JSON text)
    action_error: str | None
    screen: np.ndarray = field(repr=False)  # the screen after the turn


@dataclass(frozen=True)
class Trajectory:
    """A played session: its first screen, its turns, its verdict."""

    instance_id: str
    component: str
    instruction: str
    goal_state: Any
    first_screen: np.ndarray = field(repr=False)
    turns: list[PlayedTurn]
    result: SessionResult
    said_done: bool  # the model ended the episode itself

    def record(self) -> dict[str, Any]:
        """The JSON-able record of a trajectory (screens left out: they are files)."""
        return {"id": self.instance_id, "component": self.component,
                "instruction": self.instruction, "goal_state": self.goal_state,
                "said_done": self.said_done, "reward": self.result.reward,
                **{k: v for k, v in vars(self.result).items() if k != "reward"},
                "turns": [{"number": t.number, "reply": t.reply,
                           "gesture": None if t.gesture is None else list(t.gesture),
                           "state": t.state, "action_error": t.action_error}
                          for t in self.turns]}


def play(session: GuiSession, chat: Any) -> Trajectory:
    """Play `session` (reset, not yet acted on) with `chat` (a ChatClient: `complete(messages)`)
    until the model says done or the episode ends; the session is finished, not closed."""
    first = session.observe()
    task = session.task
    messages = [*user_message(first.pixels, session_prompt(
        first.instruction, session.coords, session.frame, task.max_actions))]
    turns: list[PlayedTurn] = []
    said_done = False
    while not session.done:
        reply = chat.complete(messages).text
        messages.append({"role": "assistant", "content": reply})
        if says_done(reply):
            said_done = True
            break
        turn = session.act_text(reply)
        turns.append(PlayedTurn(turn.number, reply, _gesture(session, reply, turn.action_error),
                                turn.state, turn.action_error, turn.screen.pixels))
        if turn.done:
            break
        messages.extend(user_message(turn.screen.pixels, turn_prompt(turn.feedback)))
    result = session.finish()
    instance = session.instance
    return Trajectory(instance.id, instance.component, first.instruction, instance.goal_state,
                      first.pixels, turns, result, said_done)


def _gesture(session: GuiSession, reply: str,
             action_error: str | None) -> tuple[list[float], list[float]] | None:
    """The gesture the reply named, in screenshot pixels (None when none was read)."""
    if action_error is not None and action_error.startswith("no gesture read"):
        return None
    parsed = parse_points(reply)
    if parsed.error is not None:
        return None
    try:
        return session.to_pixels(parsed.p0), session.to_pixels(parsed.p1)
    except (TypeError, ValueError, OverflowError):
        return None
