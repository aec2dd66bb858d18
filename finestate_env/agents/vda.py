"""The Visual Diagnostic Assistant (VDA): a description and a localisation hint for the model.

FineState-Bench's VDA adds, before the model answers, what the target control
is and where it is. Two sources:

- `oracle`: built from the instance itself by design (an upper bound on what a
  perfect assistant could say): a description from its type, family, gesture
  and shown state, and its `core` box (where operating changes the state at
  all, docs/design.md §4) with the box's centre. It never gives the goal box.
- `model`: a detector model is asked first, through the same client, for a
  description and a box of the control the instruction is about.

`parts` ablates the hint: only the description, only the box (with its
centre), or both. Boxes are kept in screenshot pixels and written into the
prompt in the answering model's coordinate convention.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from finestate_env.agents.answers import parse_detection
from finestate_env.core.coords import box_center, box_from_pixel, box_to_pixel
from finestate_env.core.errors import UsageError
from finestate_env.core.schema import CoordConvention, Instance

VDAMode = Literal["none", "oracle", "model"]
VDAParts = Literal["description", "box", "both"]
VDA_MODES: tuple[VDAMode, ...] = ("none", "oracle", "model")
VDA_PARTS: tuple[VDAParts, ...] = ("description", "box", "both")

_GESTURE_WORDS = {"tap": "operated by a click", "drag": "operated by a drag"}


@dataclass(frozen=True)
class Hint:
    """What the assistant says about the target: `box` is xyxy screenshot pixels."""

    source: str  # "oracle" or "model:<detector name>"
    description: str | None
    box: tuple[float, float, float, float] | None
    error: str | None = None  # why a model hint is empty or partial

    def as_json(self) -> dict[str, Any]:
        return {"source": self.source, "description": self.description,
                "box": None if self.box is None else list(self.box), "error": self.error}


def oracle_hint(instance: Instance) -> Hint:
    """The hint a perfect assistant gives: the instance's type in words and its `core` box."""
    kind = instance.component.replace("_", " ")
    family = (instance.family or "ui").replace("_", " ")
    how = _GESTURE_WORDS.get(instance.gesture or "", "")
    shown = json.dumps(instance.current_state, ensure_ascii=False)
    description = (f"The control to operate is a {kind} (a {family} control"
                   f"{', ' + how if how else ''}); it currently shows {shown}.")
    return Hint("oracle", description, tuple(instance.boxes.current.core))


def hint_text(hint: Hint, parts: VDAParts, convention: CoordConvention,
              size: tuple[int, int]) -> str | None:
    """The sentence added to the prompt, in the answering model's convention; None if empty."""
    if parts not in VDA_PARTS:
        raise UsageError(f"VDA parts must be one of {VDA_PARTS}, got {parts!r}")
    sentences = []
    if parts in ("description", "both") and hint.description:
        sentences.append(hint.description.strip())
    if parts in ("box", "both") and hint.box is not None:
        box = box_from_pixel(hint.box, convention, size)
        centre = box_center(box)
        corners = ", ".join(format_coord(v, convention) for v in box)
        cx, cy = (format_coord(v, convention) for v in centre)
        sentences.append(f"Its bounding box is [{corners}] and its centre is ({cx}, {cy}).")
    if not sentences:
        return None
    return "Assistant's hint about the target control: " + " ".join(sentences)


def format_coord(value: float, convention: CoordConvention) -> str:
    """A coordinate as written to a model: a tenth of a pixel or of the 0-1000 grid, 1e-4 of 1."""
    digits = 4 if convention == "normalized" else 1
    return f"{round(value, digits):g}"


def detection_prompt(instruction: str, convention: CoordConvention,
                     size: tuple[int, int], coordinate_rule: str) -> str:
    """What the detector is asked: which control the instruction is about, and where."""
    return (
        f"The screenshot is {size[0]}x{size[1]} pixels. A user wants to do this: {instruction}\n"
        "Find the UI control this task is about. Describe it in one sentence (its kind, its "
        "label, the state it shows) and give its bounding box.\n"
        f"{coordinate_rule}\n"
        'Reply with only a JSON object: {"description": "...", "box": [x1, y1, x2, y2]}.')


def detection_hint(answer: str, detector: str, convention: CoordConvention,
                   size: tuple[int, int]) -> Hint:
    """A detector's answer as a hint (box converted to pixels); an unreadable box is dropped."""
    parsed = parse_detection(answer)
    box = None if parsed.box is None else box_to_pixel(parsed.box, convention, size)
    return Hint(f"model:{detector}", parsed.description, box, parsed.error)
