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

What is validated is what the released evaluation code reads: `image`, the
instructions, the component type when there is one (it lower-cases it) and the
three boxes it scores with (bbox, now_coords, target_coords, or their desktop
names). Everything else may hold anything: the released code copies the desktop
`interact` and never reads it, so a point, null, a box or nothing there is a valid
record (core is `interact` only when it is a normalised box, else bbox), and
likewise `core_coords`, `width`/`height`, `name`, the states and unknown keys. The
record itself is kept as given (`Instance.source`), and an export to the same
layout writes it back with the project's keys added. A record without a type is
of type `unknown`, as the released code names it.

Exported records carry the released fields plus `id`, `platform`, `family`,
`gesture`, `width`, `height` (when the size is known) and (web/mobile)
`processing_details.core_coords`; the released code ignores keys it does not read.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, get_args

from finestate_env.core.coords import convert_box
from finestate_env.core.schema import (
    Boxes,
    Gesture,
    Instance,
    Instructions,
    Platform,
    SourceRecord,
)
from finestate_env.datasets.formats.imported import (
    IdAssigner,
    SizeFinder,
    canonical_type,
    infer_family,
    infer_platform,
    recorded_size,
    with_size,
)
from finestate_env.datasets.formats.jsonl import FormatError, number_quad, shown
from finestate_env.datasets.formats.project import all_finite, write_lines

GESTURES = get_args(Gesture)

WEB_BOX_FIELDS = ("bbox", "now_coords", "target_coords")
DESKTOP_BOX_FIELDS = ("locate", "loactebbox", "interact", "interactbbox")
_NORMALISED_BOX = ("[x1, y1, x2, y2]: four numbers in [0, 1] (normalised) with "
                   "x1 <= x2 and y1 <= y2")


def _normalised_box(value: Any) -> tuple[float, float, float, float] | None:
    box = number_quad(value)
    if (box is None or box[0] > box[2] or box[1] > box[3]
            or not all(0.0 <= v <= 1.0 for v in box)):
        return None
    return box


def _box(details: dict[str, Any], key: str, path: Path, line: int,
         required: bool = False) -> tuple[float, float, float, float] | None:
    """A normalised box the released code scores with; null or [] means absent (as
    released), anything else that is not a box is an error."""
    value = details.get(key)
    field = f"processing_details.{key}"
    if value is None or value == []:
        if required:
            raise FormatError(path, line, field, _NORMALISED_BOX, shown(value))
        return None
    box = _normalised_box(value)
    if box is None:
        raise FormatError(path, line, field, _NORMALISED_BOX, shown(value))
    return box


def _unread_box(details: dict[str, Any], key: str) -> tuple[float, float, float, float] | None:
    """A box the released code never reads (desktop `interact`, `core_coords`): used when it
    is a normalised box, ignored (and kept in the record as given) when it is anything else."""
    return _normalised_box(details.get(key))


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
    """One released record (either layout) as an `Instance` without a live block.

    Only what the released code reads is validated (see the module docstring); the size
    is None when nothing tells it (then `boxes` is None too, see `formats.imported`)."""
    image = _text(record, "image", "image", path, line)
    component = _object(record, "component", "component", path, line)
    raw_type = component.get("type", "unknown")  # the released code's default, lower-cased
    if not isinstance(raw_type, str):
        raise FormatError(path, line, "component.type", "a string", shown(raw_type))
    component_type = canonical_type(raw_type)
    instructions = _object(component, "instructions", "component.instructions", path, line)
    locate = _text(instructions, "locate", "component.instructions.locate", path, line)
    interact = _text(instructions, "interact", "component.instructions.interact", path, line)
    details = _object(record, "processing_details", "processing_details", path, line)
    if desktop:
        loc = _box(details, "locate", path, line, required=True)
        now = _box(details, "loactebbox", path, line)
        goal = _box(details, "interactbbox", path, line)
        core = _unread_box(details, "interact")
    else:
        loc = _box(details, "bbox", path, line, required=True)
        now = _box(details, "now_coords", path, line)
        goal = _box(details, "target_coords", path, line)
        core = _unread_box(details, "core_coords")
    normalized = Boxes(loc=loc, core=core or loc, goal=goal or loc, now=now or loc)
    size = sizes(image, recorded_size(record, path, line, strict=False), path, line, "image",
                 required=False)
    for name in ("current_state", "target_state"):
        if not all_finite(component.get(name)):  # JSON cannot write it back: not a state
            raise FormatError(path, line, f"component.{name}", "", "", problem=(
                f"{shown(component.get(name))} holds NaN or an infinity, which no state is"))
    gesture = record.get("gesture")
    layout = "finestate-bench-desktop" if desktop else "finestate-bench-web"
    instance = Instance(
        id=ids(record, image, line),
        platform=infer_platform(record, image, "desktop" if desktop else "web", platform),
        component=component_type, family=infer_family(record, image, component_type),
        gesture=gesture if gesture in GESTURES else None,
        instructions=Instructions(locate=locate, interact=interact),
        current_state=component.get("current_state"), goal_state=component.get("target_state"),
        image=image.replace("\\", "/"), size=None, boxes=None, normalized_boxes=normalized,
        source=SourceRecord(layout=layout, record=copy.deepcopy(record)))
    return with_size(instance, size)


def _normalised(instance: Instance) -> Boxes:
    if instance.normalized_boxes is not None:  # an imported record goes back out as it came
        return instance.normalized_boxes
    size = (instance.size.width, instance.size.height)
    current = instance.boxes.current
    return Boxes(**{name: convert_box(getattr(current, name), "pixel", "normalized", size)
                    for name in ("loc", "core", "goal", "now")})


def _project_keys(instance: Instance) -> dict[str, Any]:
    keys: dict[str, Any] = {"id": instance.id, "image": instance.image,
                            "platform": instance.platform, "family": instance.family,
                            "gesture": instance.gesture}
    if instance.size is not None:
        keys.update(width=instance.size.width, height=instance.size.height)
    return keys


def finestate_bench_record(instance: Instance) -> dict[str, Any]:
    """`instance` in the released layout of its platform (desktop or web/mobile).

    An instance imported from a record of that same layout is that record as given (every
    field the project does not read included), with the project's keys set on it."""
    layout = ("finestate-bench-desktop" if instance.platform == "desktop"
              else "finestate-bench-web")
    if instance.source is not None and instance.source.layout == layout:
        record = copy.deepcopy(instance.source.record)
        project = _project_keys(instance)
        return {**project, **{k: v for k, v in record.items() if k not in project}}
    boxes = _normalised(instance)
    if instance.platform == "desktop":
        details = {"locate": list(boxes.loc), "loactebbox": list(boxes.now),
                   "interact": list(boxes.core), "interactbbox": list(boxes.goal)}
    else:
        details = {"bbox": list(boxes.loc), "now_coords": list(boxes.now),
                   "target_coords": list(boxes.goal), "core_coords": list(boxes.core)}
    params = instance.live.params if instance.live is not None else {}
    return {
        **_project_keys(instance),
        "component": {
            "name": str(params.get("label", instance.component)),
            "type": instance.component,
            "current_state": instance.current_state,
            "target_state": instance.goal_state,
            "instructions": {"locate": instance.instructions.locate,
                             "interact": instance.instructions.interact},
        },
        "processing_details": details,
        # A page scene (issue #16), as extra fields the released code does not read: the
        # template and each distractor's type, label, section and normalised loc box.
        **({} if instance.scene is None else {"scene": {
            "template": instance.scene.template, "section": instance.scene.section,
            "distractors": [{"type": d.component, "label": d.label, "section": d.section,
                             "bbox": list(convert_box(d.loc, "pixel", "normalized",
                                                      (instance.size.width,
                                                       instance.size.height)))}
                            for d in instance.scene.distractors]}}),
    }


def _dump(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, allow_nan=False)


def export_finestate_bench(instances: Iterable[Instance], path: str | Path,
                           record: Callable[[Instance], dict[str, Any]] = finestate_bench_record,
                           ) -> Path:
    """`--format finestate`: one released-layout record a line."""
    return write_lines((_dump(record(instance)) for instance in instances), path)
