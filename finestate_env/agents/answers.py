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
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
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

_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_PAIR = re.compile(rf"[\[(]\s*({_NUMBER})\s*,\s*({_NUMBER})\s*[\])]")
_QUAD = re.compile(rf"\[\s*({_NUMBER})\s*,\s*({_NUMBER})\s*,\s*({_NUMBER})\s*,\s*({_NUMBER})\s*\]")
# An action call with both points: drag(x0, y0, x1, y1) (and its usual other names).
_DRAG_CALL = re.compile(rf"(?<![A-Za-z0-9_])(?:drag|left_click_drag|drag_to|swipe)\s*\(\s*"
                        rf"({_NUMBER})\s*,\s*({_NUMBER})\s*,\s*({_NUMBER})\s*,\s*({_NUMBER})"
                        rf"\s*\)", re.IGNORECASE)
_ANSWER_BLOCK = re.compile(r"<answer>(.*?)</answer>", re.IGNORECASE | re.DOTALL)
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
    for obj in _json_values(text):
        found = _points_from_json(obj)
        if found is not None:
            return found
    drag = _DRAG_CALL.search(text)
    if drag:
        x0, y0, x1, y1 = (float(v) for v in drag.groups())
        return _checked(*((x, y) if math.isfinite(x) and math.isfinite(y) else None
                          for x, y in ((x0, y0), (x1, y1))))
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
        box = _ordered_box([float(v) for v in match.groups()])
        if box is not None:
            return ParsedDetection(None, box)
    return ParsedDetection(None, None, f"no box found in the answer {_excerpt(text)}")


# -- helpers -------------------------------------------------------------------

def _final_answer(text: str) -> str:
    """The part of `text` that is the answer: the last <answer> block, else what follows
    the last </think>, else all of it."""
    blocks = _ANSWER_BLOCK.findall(text)
    if blocks:
        return blocks[-1]
    ends = list(_THINK_END.finditer(text))
    return text[ends[-1].end():] if ends else text


def _json_values(text: str):
    """Every JSON object or array embedded in `text`, outermost first, in order."""
    decoder = json.JSONDecoder()
    i = 0
    while i < len(text):
        if text[i] in "{[":
            try:
                value, end = decoder.raw_decode(text, i)
            except (json.JSONDecodeError, RecursionError):
                i += 1
                continue
            yield value
            i = end
        else:
            i += 1


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


def _ordered_box(numbers: list[float]) -> Box | None:
    if not all(math.isfinite(n) for n in numbers):
        return None
    x1, y1, x2, y2 = numbers
    return min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        number = float(value)
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            return None
    else:
        return None
    return number if math.isfinite(number) else None


def _pair(match: re.Match) -> Point | None:
    x, y = (float(v) for v in match.groups()[:2])
    return (x, y) if math.isfinite(x) and math.isfinite(y) else None


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
