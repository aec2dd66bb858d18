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
    """The text of a completion in any of the trainers' shapes (the module docstring); ""
    where it holds none (`read_completion` says why)."""
    return read_completion(completion)[0]


def read_completion(completion: Any) -> tuple[str, str | None]:
    """(the completion's text, None), or ("", why no text could be read from it). Total:
    a part of the wrong type is left out, never an error that stops a batch."""
    if isinstance(completion, str):
        return completion, None
    if isinstance(completion, dict):
        return _content_text(completion.get("content"), "the message's content")
    if isinstance(completion, list | tuple):
        # Conversational: the assistant's turns, in order (a tool-calling rollout may
        # hold several); a list of typed parts is one message's content.
        if completion and all(isinstance(m, dict) and "role" in m for m in completion):
            turns = [_content_text(m.get("content"), f"message {i}'s content")
                     for i, m in enumerate(completion) if m.get("role") == "assistant"]
            if not turns:
                return "", "the chat messages hold no assistant turn"
            text = "\n".join(t for t, _ in turns)
            return text, None if text else next((why for _, why in turns if why), None)
        return _content_text(completion, "the completion")
    return "", (f"a completion must be text or chat messages, got "
                f"{type(completion).__name__}")


def _content_text(content: Any, what: str) -> tuple[str, str | None]:
    """A message's content as text: a string, or the text parts of a list of typed parts
    (a bare string part counts as text; parts that are not text are left out)."""
    if content is None or isinstance(content, str):
        return content or "", None
    parts = [content] if isinstance(content, dict) else content
    if not isinstance(parts, list | tuple):
        return "", f"{what} is {type(content).__name__}, not text or a list of parts"
    texts, skipped = [], None
    for index, part in enumerate(parts):
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and part.get("type", "text") == "text":
            if isinstance(part.get("text"), str):
                texts.append(part["text"])
            elif skipped is None:
                skipped = (f"{what}: part {index}'s text is "
                           f"{type(part.get('text')).__name__}, not text")
    text = "".join(texts)
    return text, None if text else skipped


def response_of(query: str, prompt: str) -> str:
    """The model's continuation in OpenRLHF's `query` (the templated prompt, then the
    response, special tokens kept): what follows `prompt` in it. The prompt itself holds
    an example answer (`{"p0": [x, y], ...}`), so it must never be read as the answer.
    A query that is not text is given back as it is (read_completion says what it is)."""
    if not isinstance(query, str):
        return query
    if not isinstance(prompt, str):
        prompt = ""
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
    text, unreadable = read_completion(completion)
    if unreadable is not None:
        return ReadAnswer(None, None, parse_error=unreadable)
    parsed = parse_points(text)
    if parsed.error is not None:
        return ReadAnswer(None, None, parse_error=parsed.error)
    p0, p1 = truth.to_pixels(parsed.p0), truth.to_pixels(parsed.p1)
    checked = parse_action({"p0": p0, "p1": p1}, "pixel", truth.size)
    if checked.error is not None:  # the points that are on the screen kept, as the env does
        return ReadAnswer(checked.p0, checked.p1, action_error=checked.error)
    return ReadAnswer(checked.p0, checked.p1)
