"""What a model is told in a multi-turn session, and how its reply is read: one place for
every adapter (TRL's typed tools, verl's, OpenRLHF's and verifiers' text turns).

The first turn states the task, the gesture and the coordinate convention of the model's
profile (agents/vlm_prompt.py); every later turn is the new screen (and the session's
feedback text, empty by default). Nothing says whether the goal was reached.

A text turn is read as one gesture (the project's answer parser: JSON `{"p0": [x, y],
"p1": [x, y]}`, `drag(...)`, `click(...)`...) or as the agent ending the episode: a reply
whose final answer is `done` (any case, optional punctuation or `<answer>` block) and
holds no point.
"""

from __future__ import annotations

import re
from typing import Any

from finestate_env.agents.vlm_prompt import coordinate_rule

DONE_WORD = "done"
_DONE = re.compile(r"^\W*(?:<answer>\s*)?done\W*(?:</answer>\s*)?$", re.IGNORECASE)
_DONE_TAIL = re.compile(r"(?:<answer>\s*)?\bdone\W*(?:</answer>)?\s*$", re.IGNORECASE)


def session_prompt(instruction: str, coords: str, frame: tuple[int, int], max_actions: int,
                   *, tool: bool = False) -> str:
    """The first turn's text: the task, the gesture, the convention, the turn budget, and
    how to end. `tool`: the model calls a `gesture` tool (and `done`) instead of replying
    with JSON."""
    lines = [
        f"You operate the graphical user interface in this screenshot ({frame[0]}x{frame[1]} "
        f"pixels). Task: {instruction}",
        "Each turn, make one gesture: press at (x0, y0) and release at (x1, y1); the same "
        "point twice is a click or a tap. After each gesture you see the new screen, and you "
        "may correct the control with another gesture.",
        coordinate_rule(coords, frame),  # type: ignore[arg-type]
        f"You have at most {max_actions} gesture{'s' if max_actions != 1 else ''}.",
    ]
    if tool:
        lines.append("Call the gesture tool for each gesture; when the control shows exactly "
                     "what the task asks, call the done tool (or stop calling tools).")
    else:
        lines.append('Reply with only a JSON object for each gesture: {"p0": [x0, y0], '
                     '"p1": [x1, y1]}. When the control shows exactly what the task asks, '
                     f'reply with only the word {DONE_WORD}.')
    return "\n".join(lines)


def turn_prompt(feedback: str) -> str:
    """The text beside a later turn's screenshot."""
    text = "The screen after your gesture."
    return f"{text}\n{feedback}" if feedback else text


def says_done(reply: Any) -> bool:
    """Whether a text reply ends the episode: its final answer is `done`, with no point."""
    if not isinstance(reply, str):
        return False
    text = reply.strip()
    if "</think>" in text:  # a reasoning model's thoughts do not end anything
        text = text.rsplit("</think>", 1)[1].strip()
    if _DONE.match(text):
        return True
    return bool(_DONE_TAIL.search(text)) and not re.search(r"\d", text[-200:])
