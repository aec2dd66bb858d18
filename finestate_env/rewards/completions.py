"""A trainer's completion read as the two FineState points, in screenshot pixels.

Trainers hand completions over in their own shapes: a string (verl's `solution_str`,
TRL's standard format), a list of chat messages (TRL's conversational format:
`[{"role": "assistant", "content": ...}]`, the content a string or a list of typed
parts), or a prompt and its continuation in one string (OpenRLHF's query, read by
`response_of`). The answer in it is read by the project's one answer parser
(agents/answers.py: JSON, `click(x, y)`, `drag(x0, y0, x1, y1)`, labelled points, an
`<answer>` block) in the convention the row's prompt asked for, then mapped to pixels
and checked against the screen exactly as the env checks an action (core/actions.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from finestate_env.agents.answers import parse_points
from finestate_env.core.actions import parse_action
from finestate_env.rewards.ground_truth import GroundTruth

Point = tuple[float, float]


@dataclass(frozen=True)
class ReadAnswer:
    """The points of one completion in screenshot pixels, or why it cannot be performed."""

    p0: Point | None
    p1: Point | None
    parse_error: str | None = None  # the text holds no readable pair of points
    action_error: str | None = None  # read, but not performable (off the screen)

    @property
    def performable(self) -> bool:
        return self.parse_error is None and self.action_error is None


def completion_text(completion: Any) -> str:
    """The text of a completion in any of the trainers' shapes (the module docstring)."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        return _content_text(completion.get("content"))
    if isinstance(completion, list | tuple):
        # Conversational: the assistant's turns, in order (a tool-calling rollout may
        # hold several); a list of typed parts is one message's content.
        if all(isinstance(m, dict) and "role" in m for m in completion):
            return "\n".join(_content_text(m.get("content")) for m in completion
                             if m.get("role") == "assistant")
        return _content_text(completion)
    raise TypeError(f"a completion must be text or chat messages, got {type(completion).__name__}")


def _content_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content
                       if isinstance(part, dict) and part.get("type") == "text")
    return str(content)


def response_of(query: str, prompt: str) -> str:
    """The model's continuation in OpenRLHF's `query` (the templated prompt, then the
    response, special tokens kept): what follows `prompt` in it. The prompt itself holds
    an example answer (`{"p0": [x, y], ...}`), so it must never be read as the answer."""
    if prompt and query.startswith(prompt):
        return query[len(prompt):]
    if prompt and prompt in query:
        return query[query.rindex(prompt) + len(prompt):]
    # A prompt decoded with other whitespace: the continuation after the last assistant
    # header of a ChatML template, else the query whole.
    marker = "<|im_start|>assistant"
    return query[query.rindex(marker) + len(marker):] if marker in query else query


def read_answer(completion: Any, truth: GroundTruth) -> ReadAnswer:
    """The completion's points in screenshot pixels, read in `truth`'s convention."""
    parsed = parse_points(completion_text(completion))
    if parsed.error is not None:
        return ReadAnswer(None, None, parse_error=parsed.error)
    p0, p1 = truth.to_pixels(parsed.p0), truth.to_pixels(parsed.p1)
    checked = parse_action({"p0": p0, "p1": p1}, "pixel", truth.size)
    if checked.error is not None:
        return ReadAnswer(p0, p1, action_error=checked.error)
    return ReadAnswer(checked.p0, checked.p1)
