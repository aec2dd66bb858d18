"""The released FineState-Bench record layouts, read and written.

Both layouts hold `image`, `component{name, type, current_state, target_state,
instructions{locate, interact}}` and `processing_details`, whose boxes are
normalised [0, 1] xyxy with inclusive edges:

- web and mobile: `{bbox, now_coords, target_coords}`;
- desktop: `{locate, loactebbox, interact, interactbbox}` (their spelling), which
  the released code reads as bbox = `locate`, now_coords = `loactebbox`,
  target_coords = `interactbbox`.

Mapping into the project's four boxes (docs/design.md §4), chosen so that `release`
scoring reproduces the released code exactly (it falls back to `bbox` when
now_coords / target_coords are empty):

| box | from |
|---|---|
| loc | bbox (desktop: locate) |
| now | now_coords (desktop: loactebbox), else bbox |
| goal | target_coords (desktop: interactbbox), else bbox |
| core | desktop: interact; web/mobile: `core_coords` (added by this project's export), else bbox |

Exported records carry the released fields plus `id`, `platform`, `family`,
`gesture`, `width`, `height` and (web/mobile) `processing_details.core_coords`;
the released code ignores keys it does not read.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, get_args

from finestate_env.core.coords import convert_box
from finestate_env.core.schema import Boxes, BoxSet, Gesture, Instance, Instructions, Platform, Size
from finestate_env.datasets.formats.imported import (
    IdAssigner,
    SizeFinder,
    infer_family,
    infer_platform,
    normalise_type,
    recorded_size,
)
from finestate_env.datasets.formats.jsonl import FormatError, number_quad, shown
from finestate_env.datasets.formats.project import write_lines

GESTURES = get_args(Gesture)

WEB_BOX_FIELDS = ("bbox", "now_coords", "target_coords")
DESKTOP_BOX_FIELDS = ("locate", "loactebbox", "interact", "interactbbox")
_NORMALISED_BOX = ("[x1, y1, x2, y2]: four numbers in [0, 1] (normalised) with "
                   "x1 <= x2 and y1 <= y2")


def _box(details: dict[str, Any], key: str, path: Path, line: int,
         required: bool = False) -> tuple[float, float, float, float] | None:
    """A normalised box of `processing_details`; null or [] means absent (as released)."""
    value = details.get(key)
    field = f"processing_details.{key}"
    if value is None or value == []:
        if required:
            raise FormatError(path, line, field, _NORMALISED_BOX, shown(value))
        return None
    box = number_quad(value)
    if (box is None or box[0] > box[2] or box[1] > box[3]
            or not all(0.0 <= v <= 1.0 for v in box)):
        raise FormatError(path, line, field, _NORMALISED_BOX, shown(value))
    return box


def _text(mapping: dict[str, Any], key: str, field: str, path: Path, line: int) -> str:
    value = mapping.get(key)
    if not isinstance(value, str):
        raise FormatError(path, line, field, "a string",
                          "nothing" if value is None else shown(value))
    return value


def _object(mapping: dict[str, Any], key: str, field: str, path: Path,
            line: int) -> dict[str, Any]:
    value = mapping.get(key)
    if not isinstance(value, dict):
        raise FormatError(path, line, field, "a JSON object",
                          "nothing" if value is None else shown(value))
    return value


def parse_finestate_bench(record: dict[str, Any], path: Path, line: int, desktop: bool, *,
                          sizes: SizeFinder, ids: IdAssigner,
                          platform: Platform | None = None) -> Instance:
    """One released record (either layout) as an `Instance` without a live block."""
    image = _text(record, "image", "image", path, line)
    component = _object(record, "component", "component", path, line)
    component_type = normalise_type(_text(component, "type", "component.type", path, line))
    instructions = _object(component, "instructions", "component.instructions", path, line)
    locate = _text(instructions, "locate", "component.instructions.locate", path, line)
    interact = _text(instructions, "interact", "component.instructions.interact", path, line)
    details = _object(record, "processing_details", "processing_details", path, line)
    if desktop:
        loc = _box(details, "locate", path, line, required=True)
        now = _box(details, "loactebbox", path, line)
        core = _box(details, "interact", path, line)
        goal = _box(details, "interactbbox", path, line)
    else:
        loc = _box(details, "bbox", path, line, required=True)
        now = _box(details, "now_coords", path, line)
        goal = _box(details, "target_coords", path, line)
        core = _box(details, "core_coords", path, line)
    normalized = Boxes(loc=loc, core=core or loc, goal=goal or loc, now=now or loc)
    size = sizes(image, recorded_size(record, path, line), path, line, "image")
    pixels = Boxes(**{name: convert_box(getattr(normalized, name), "normalized", "pixel", size)
                      for name in ("loc", "core", "goal", "now")})
    gesture = record.get("gesture")
    return Instance(
        id=ids(record, image, line),
        platform=infer_platform(record, image, "desktop" if desktop else "web", platform),
        component=component_type, family=infer_family(record, image, component_type),
        gesture=gesture if gesture in GESTURES else None,
        instructions=Instructions(locate=locate, interact=interact),
        current_state=component.get("current_state"), goal_state=component.get("target_state"),
        image=image.replace("\\", "/"), size=Size(width=size[0], height=size[1]),
        boxes=BoxSet(current=pixels, target=pixels), normalized_boxes=normalized)


def _normalised(instance: Instance) -> Boxes:
    if instance.normalized_boxes is not None:  # an imported record goes back out as it came
        return instance.normalized_boxes
    size = (instance.size.width, instance.size.height)
    current = instance.boxes.current
    return Boxes(**{name: convert_box(getattr(current, name), "pixel", "normalized", size)
                    for name in ("loc", "core", "goal", "now")})


def finestate_bench_record(instance: Instance) -> dict[str, Any]:
    """`instance` in the released layout of its platform (desktop or web/mobile)."""
    boxes = _normalised(instance)
    if instance.platform == "desktop":
        details = {"locate": list(boxes.loc), "loactebbox": list(boxes.now),
                   "interact": list(boxes.core), "interactbbox": list(boxes.goal)}
    else:
        details = {"bbox": list(boxes.loc), "now_coords": list(boxes.now),
                   "target_coords": list(boxes.goal), "core_coords": list(boxes.core)}
    params = instance.live.params if instance.live is not None else {}
    return {
        "id": instance.id,
        "image": instance.image,
        "platform": instance.platform,
        "family": instance.family,
        "gesture": instance.gesture,
        "width": instance.size.width,
        "height": instance.size.height,
        "component": {
            "name": str(params.get("label", instance.component)),
            "type": instance.component,
            "current_state": instance.current_state,
            "target_state": instance.goal_state,
            "instructions": {"locate": instance.instructions.locate,
                             "interact": instance.instructions.interact},
        },
        "processing_details": details,
    }


def _dump(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, allow_nan=False)


def export_finestate_bench(instances: Iterable[Instance], path: str | Path,
                           record: Callable[[Instance], dict[str, Any]] = finestate_bench_record,
                           ) -> Path:
    """`--format finestate`: one released-layout record a line."""
    return write_lines((_dump(record(instance)) for instance in instances), path)
