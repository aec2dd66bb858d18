"""Reading points and boxes out of a model's free-text answer (pure functions).

Models answer in many shapes: a JSON object `{"p0": [x, y], "p1": [x, y]}`
(often inside a ```json fence or with prose around it, or a computer-use call such as
`{"action": "left_click_drag", "start_coordinate": [x, y], "coordinate": [x, y]}`),
labelled text `p0: (x, y)`, an action call `click(x, y)` or `drag(x0, y0, x1, y1)`, or
just two `[x, y]` / `(x, y)` pairs in order. A reasoning model's answer is read from its
last `<answer>...</answer>` block when it has one, else from what follows its last
`</think>`, so that points it only thought about are not taken. This module reads
all of them and returns the numbers as written: which coordinate convention
they are in (pixels, [0, 1], 0-1000) is the model profile's business, not the
parser's. An answer that cannot be read gives `None` points and a message
naming what was wrong; nothing here raises on any input text.

Reading is total and bounded, because a model in training writes anything (a bracket
repeated to its length limit, JSON nested thousands deep, 5,000-digit numbers): the
answer's length is bounded (MAX_ANSWER_CHARS), embedded JSON is found by one iterative
scan and decoded only where it nests at most MAX_JSON_DEPTH deep (no recursion over the
model's text), a few rescans at most (MAX_RESCANS), and numbers are read as floats
(never Python ints, whose conversion is refused past 4,300 digits). Every pattern here
is linear in the text.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from typing import Any

Point = tuple[float, float]
Box = tuple[float, float, float, float]

# Keys a model may use for each point, lower-cased; the first match wins.
P0_KEYS = ("p0", "locate", "locate_point", "point0", "point_0", "start", "press",
           "start_coordinate", "start_point", "start_box")
P1_KEYS = ("p1", "interact", "interact_point", "operate", "operate_point", "point1", "point_1",
           "end", "release", "action_point", "coordinate", "end_coordinate", "end_point",
           "end_box", "point")
BOX_KEYS = ("box", "bbox", "bounding_box", "box_2d")
DESCRIPTION_KEYS = ("description", "desc", "target", "element")

# The longest answer read, in characters, once the answer part is chosen (_final_answer):
# a longer one is a parse error. Real answers are a few hundred characters; a reasoning
# model's thinking is not part of it.
MAX_ANSWER_CHARS = 65_536
# JSON nested deeper than this is not decoded as JSON (an answer's shapes nest at most 3
# deep); its shallower parts still are.
MAX_JSON_DEPTH = 16
# Scans for embedded JSON after an unclosed bracket or string swallowed the rest.
MAX_RESCANS = 4

# ASCII digits only: `\d` would take other scripts' digits too.
_NUMBER = r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
_PAIR = re.compile(rf"[\[(]\s*({_NUMBER})\s*,\s*({_NUMBER})\s*[\])]")
_QUAD = re.compile(rf"\[\s*({_NUMBER})\s*,\s*({_NUMBER})\s*,\s*({_NUMBER})\s*,\s*({_NUMBER})\s*\]")
# An action call with both points: drag(x0, y0, x1, y1) (and its usual other names).
_DRAG_CALL = re.compile(rf"(?<![A-Za-z0-9_])(?:drag|left_click_drag|drag_to|swipe)\s*\(\s*"
                        rf"({_NUMBER})\s*,\s*({_NUMBER})\s*,\s*({_NUMBER})\s*,\s*({_NUMBER})"
                        rf"\s*\)", re.IGNORECASE)
_ANSWER_START = re.compile(r"<answer>", re.IGNORECASE)
_ANSWER_END = re.compile(r"</answer>", re.IGNORECASE)
_THINK_END = re.compile(r"</think>", re.IGNORECASE)
_LABELLED = {
    label: re.compile(rf"(?<![A-Za-z0-9_]){label}['\"]?\s*[:=]\s*['\"]?\s*[\[(]\s*({_NUMBER})"
                      rf"\s*,\s*({_NUMBER})\s*[\])]", re.IGNORECASE)
    for label in ("p0", "p1")
}


@dataclass(frozen=True)
class ParsedPoints:
    """The two points as the model wrote them (its own convention), or why they are missing."""

    p0: Point | None
    p1: Point | None
    error: str | None = None  # None when both points were read
    note: str | None = None  # how an incomplete answer was completed (one point for both)


@dataclass(frozen=True)
class ParsedDetection:
    """A detector's answer: what the target is and where (xyxy, the model's convention)."""

    description: str | None
    box: Box | None
    error: str | None = None


def parse_points(text: str) -> ParsedPoints:
    """`p0` and `p1` from an answer, trying JSON, then labelled text, then bare pairs."""
    if not isinstance(text, str) or not text.strip():
        return ParsedPoints(None, None, "the answer is empty")
    text = _final_answer(text)
    if not text.strip():
        return ParsedPoints(None, None, "the answer block is empty")
    if len(text) > MAX_ANSWER_CHARS:
        return ParsedPoints(None, None, f"the answer is {len(text)} characters long, more "
                                        f"than the {MAX_ANSWER_CHARS} read")
    for obj in _json_values(text):
        found = _points_from_json(obj)
        if found is not None:
            return found
    drag = _DRAG_CALL.search(text)
    if drag:
        x0, y0, x1, y1 = (_float(v) for v in drag.groups())
        return _checked(_finite(x0, y0), _finite(x1, y1))
    labelled = {label: _LABELLED[label].search(text) for label in ("p0", "p1")}
    if labelled["p0"] and labelled["p1"]:
        return _checked(_pair(labelled["p0"]), _pair(labelled["p1"]))
    pairs = [_pair(m) for m in _PAIR.finditer(text)]
    if len(pairs) >= 2:
        return _checked(pairs[0], pairs[1])
    if len(pairs) == 1:
        return _single(pairs[0])
    return ParsedPoints(None, None, f"no point found in the answer {_excerpt(text)}")


def parse_detection(text: str) -> ParsedDetection:
    """A description and an xyxy box from a detector's answer (JSON, or bare `[x1, y1, x2, y2]`)."""
    if not isinstance(text, str) or not text.strip():
        return ParsedDetection(None, None, "the answer is empty")
    if len(text) > MAX_ANSWER_CHARS:
        return ParsedDetection(None, None, f"the answer is {len(text)} characters long, "
                                           f"more than the {MAX_ANSWER_CHARS} read")
    for obj in _json_values(text):
        if not isinstance(obj, dict):
            continue
        keys = {str(k).lower(): v for k, v in obj.items()}
        description = next((str(keys[k]) for k in DESCRIPTION_KEYS if k in keys
                            and isinstance(keys[k], str)), None)
        raw_box = next((keys[k] for k in BOX_KEYS if k in keys), None)
        if raw_box is None and description is None:
            continue
        box = _as_box(raw_box) if raw_box is not None else None
        if box is None:
            return ParsedDetection(description, None,
                                   f"no valid [x1, y1, x2, y2] box in the answer {_excerpt(text)}")
        return ParsedDetection(description, box)
    match = _QUAD.search(text)
    if match:
        box = _ordered_box([_float(v) for v in match.groups()])
        if box is not None:
            return ParsedDetection(None, box)
    return ParsedDetection(None, None, f"no box found in the answer {_excerpt(text)}")


# -- helpers -------------------------------------------------------------------

def _final_answer(text: str) -> str:
    """The part of `text` that is the answer: the last <answer> block, else what follows
    the last </think>, else all of it. Each tag is found by one scan, so the cost is
    linear however many unclosed tags the text repeats."""
    close = _last(_ANSWER_END, text, len(text))
    if close is not None:
        open_ = _last(_ANSWER_START, text, close.start())
        if open_ is not None:
            return text[open_.end():close.start()]
    end = _last(_THINK_END, text, len(text))
    return text[end.end():] if end is not None else text


def _last(pattern: re.Pattern, text: str, before: int) -> re.Match | None:
    last = None
    for last in pattern.finditer(text, 0, before):  # noqa: B007 (the last one is kept)
        pass
    return last


# Numbers as floats: a 5,000-digit integer is inf (and then not a finite point), never the
# ValueError that int() gives past Python's 4,300 digits.
_DECODER = json.JSONDecoder(parse_int=float)
_OPENERS, _CLOSERS = "{[", {"}": "{", "]": "["}
_SCANNED = re.compile(r'[\[\]{}"]')  # what the bracket scan looks at


@dataclass
class _Span:
    """A balanced bracket pair in the text: where it is, how deep it nests, its parts."""

    start: int
    end: int = -1
    height: int = 1  # 1 + the deepest nesting inside it
    children: list[_Span] = field(default_factory=list)


def _json_values(text: str):
    """Every JSON object or array embedded in `text`, outermost first, in order: each
    balanced span that decodes, else the spans inside it. Spans nested deeper than
    MAX_JSON_DEPTH are not decoded (their shallower parts are)."""
    todo = list(reversed(_balanced_spans(text)))
    while todo:
        span = todo.pop()
        if span.height <= MAX_JSON_DEPTH:
            try:
                value = _DECODER.decode(text[span.start:span.end])
            except ValueError:
                pass
            else:
                yield value
                continue
        todo.extend(reversed(span.children))


def _balanced_spans(text: str) -> list[_Span]:
    """The outermost balanced `{...}` / `[...]` spans of `text`, each with the spans inside
    it, in the order they start: one pass with a stack, JSON strings skipped inside
    brackets. What is left open by a mismatched closer or the text's end is dropped, and
    what closed inside it kept. A string never closed would swallow the rest: the scan
    goes on after its quote (at most MAX_RESCANS times), so each pass is linear."""
    found: list[_Span] = []
    position = 0
    for _ in range(MAX_RESCANS + 1):
        stack: list[tuple[str, _Span]] = []
        unclosed_string = None
        i = position
        while (next_ := _SCANNED.search(text, i)) is not None:
            i = next_.start()
            char = text[i]
            if char in _OPENERS:
                stack.append((char, _Span(i)))
            elif char in _CLOSERS:
                if stack and stack[-1][0] == _CLOSERS[char]:
                    _, span = stack.pop()
                    span.end = i + 1
                    (stack[-1][1].children if stack else found).append(span)
                    if stack:
                        stack[-1][1].height = max(stack[-1][1].height, span.height + 1)
                else:  # not JSON (or a closer outside brackets): keep what closed inside
                    _drop(stack, found)
            elif stack:  # a quote inside brackets
                end = _string_end(text, i)
                if end < 0:
                    unclosed_string = i
                    break
                i = end
            i += 1
        _drop(stack, found)
        if unclosed_string is None:
            return found
        position = unclosed_string + 1
    return found


def _drop(stack: list[tuple[str, _Span]], found: list[_Span]) -> None:
    """Give up the spans left open, keeping the spans that closed inside them (in order:
    an outer one's closed parts all precede the inner one still open)."""
    for _, unclosed in stack:
        found.extend(unclosed.children)
    stack.clear()


def _string_end(text: str, quote: int) -> int:
    """The index of the quote closing the JSON string opened at `quote`, or -1."""
    i = quote + 1
    while True:
        close = text.find('"', i)
        if close < 0:
            return -1
        backslashes = 0
        while text[close - 1 - backslashes] == "\\":
            backslashes += 1
        if backslashes % 2 == 0:
            return close
        i = close + 1


def _points_from_json(obj: Any) -> ParsedPoints | None:
    if isinstance(obj, dict):
        keys = {str(k).lower(): v for k, v in obj.items()}
        raw0 = next((keys[k] for k in P0_KEYS if k in keys), None)
        raw1 = next((keys[k] for k in P1_KEYS if k in keys), None)
        if raw0 is None and raw1 is None:
            # e.g. {"action": {"p0": ..., "p1": ...}}: look one level down
            for value in keys.values():
                if isinstance(value, dict):
                    found = _points_from_json(value)
                    if found is not None:
                        return found
            return None
        p0, p1 = _as_point(raw0), _as_point(raw1)
        if raw0 is not None and raw1 is not None:
            if p0 is None or p1 is None:
                bad, raw = ("p0", raw0) if p0 is None else ("p1", raw1)
                return ParsedPoints(p0, p1, f"{bad} = {_excerpt(json.dumps(raw))} "
                                            "is not a pair of finite numbers")
            return ParsedPoints(p0, p1)
        if p0 is not None or p1 is not None:
            return _single(p0 if p0 is not None else p1)
        return ParsedPoints(None, None, f"the point in {_excerpt(json.dumps(obj))} is not a "
                                        "pair of finite numbers")
    if isinstance(obj, list) and len(obj) == 2:
        first, second = _as_point(obj[0]), _as_point(obj[1])
        if first is not None and second is not None:  # [[x0, y0], [x1, y1]]
            return ParsedPoints(first, second)
    return None


def _as_point(value: Any) -> Point | None:
    if isinstance(value, str):
        match = _PAIR.search(value) or re.fullmatch(rf"\s*({_NUMBER})\s*,\s*({_NUMBER})\s*", value)
        return _pair(match) if match else None
    if isinstance(value, dict):
        keys = {str(k).lower(): v for k, v in value.items()}
        value = [keys.get("x"), keys.get("y")]
    if isinstance(value, (list, tuple)) and len(value) in (2, 4):
        numbers = [_number(v) for v in value]
        if any(n is None for n in numbers):
            return None
        if len(numbers) == 4:  # a box where a point was asked: its centre
            box = _ordered_box(numbers)
            return None if box is None else ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        return numbers[0], numbers[1]
    return None


def _as_box(value: Any) -> Box | None:
    if isinstance(value, str):
        match = _QUAD.search(value)
        value = list(match.groups()) if match else None
    if isinstance(value, (list, tuple)) and len(value) == 4:
        numbers = [_number(v) for v in value]
        if all(n is not None for n in numbers):
            return _ordered_box(numbers)
    return None


def _ordered_box(numbers: list[float | None]) -> Box | None:
    if not all(n is not None and math.isfinite(n) for n in numbers):
        return None
    x1, y1, x2, y2 = numbers
    return min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        number = _float(value)
    elif isinstance(value, str):
        number = _float(value.strip())
    else:
        return None
    return number if number is not None and math.isfinite(number) else None


def _float(value: Any) -> float | None:
    """float(value), or None where Python refuses it (a string that is no number)."""
    try:
        return float(value)
    except (ValueError, OverflowError):
        return None


def _pair(match: re.Match) -> Point | None:
    return _finite(*(_float(v) for v in match.groups()[:2]))


def _finite(x: float | None, y: float | None) -> Point | None:
    return (x, y) if x is not None and y is not None and math.isfinite(x) \
        and math.isfinite(y) else None


def _checked(p0: Point | None, p1: Point | None) -> ParsedPoints:
    if p0 is None or p1 is None:
        return ParsedPoints(p0, p1, "a point in the answer is not finite")
    return ParsedPoints(p0, p1)


def _single(point: Point | None) -> ParsedPoints:
    if point is None:
        return ParsedPoints(None, None, "the only point in the answer is not finite")
    return ParsedPoints(point, point, note="one point given: used as p0 and p1")


def _excerpt(text: str, limit: int = 80) -> str:
    text = " ".join(text.split())
    return repr(text if len(text) <= limit else text[:limit] + "...")
