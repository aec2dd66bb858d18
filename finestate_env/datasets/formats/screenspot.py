"""ScreenSpot-style point-in-box grounding records, read and written.

A record is one instruction and one box: `img_filename`, `bbox`, `instruction`,
optionally `img_size: [w, h]`, `id`, `platform` / `data_source`, `ui_type` /
`data_type`. The box convention is read from `bbox_format` (`xyxy` or `xywh`)
and `coords` (`pixel`, `normalized`, `1000`) when the record names them;
otherwise it is ScreenSpot's own: `xyxy` pixels when the record has `img_size`
(ScreenSpot-Pro), `xywh` pixels when not (ScreenSpot v1). Edges are inclusive.

Imported, a record is an instance whose four boxes are all `bbox` and whose two
instructions are both `instruction`: a grounding model's one point, given as
both p0 and p1, is scored against that box.

Exported (`--format screenspot`), an instance is two records, every one naming
its convention: `<id>/locate` (the locate instruction, box `loc`) and
`<id>/interact` (the interact instruction, box `goal`, where the operate point
reaches the goal state), with `instance_id` and `task` to find them again.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from finestate_env.core.coords import (
    BOX_FORMATS,
    CONVENTIONS,
    BoxFormat,
    box_from_xyxy,
    box_to_xyxy,
    convert_box,
)
from finestate_env.core.schema import (
    Boxes,
    BoxSet,
    CoordConvention,
    Instance,
    Instructions,
    Platform,
)
from finestate_env.core.schema import Size as SizeModel
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


def box_format_of(record: dict[str, Any]) -> BoxFormat:
    """The record's box format, named or ScreenSpot's default (see the module docstring)."""
    named = record.get("bbox_format")
    if named in BOX_FORMATS:
        return named
    return "xyxy" if "img_size" in record else "xywh"


def parse_screenspot(record: dict[str, Any], path: Path, line: int, *, sizes: SizeFinder,
                     ids: IdAssigner, platform: Platform | None = None) -> Instance:
    image = record.get("img_filename", record.get("image"))
    if not isinstance(image, str):
        raise FormatError(path, line, "img_filename", "a string (the screenshot file)",
                          "nothing" if image is None else shown(image))
    instruction = record.get("instruction")
    if not isinstance(instruction, str):
        raise FormatError(path, line, "instruction", "a string",
                          "nothing" if instruction is None else shown(instruction))
    named = record.get("bbox_format")
    if named is not None and named not in BOX_FORMATS:
        raise FormatError(path, line, "bbox_format", f"one of {list(BOX_FORMATS)}", shown(named))
    coords = record.get("coords", "pixel")
    if coords not in CONVENTIONS:
        raise FormatError(path, line, "coords", f"one of {list(CONVENTIONS)}", shown(coords))
    box_format = box_format_of(record)
    raw = number_quad(record.get("bbox"))
    box = box_to_xyxy(raw, box_format) if raw is not None else None
    if box is None or box[0] > box[2] or box[1] > box[3]:
        shape = ("[x, y, width, height] with width, height >= 0" if box_format == "xywh"
                 else "[x1, y1, x2, y2] with x1 <= x2 and y1 <= y2")
        raise FormatError(path, line, "bbox", f"{shape}, four finite numbers ({coords})",
                          shown(record.get("bbox")))
    # Pixel boxes need no size, but the instance's normalised frame does; normalised
    # boxes need none (an instance without a size scores in [0, 1] alone).
    size = sizes(image, recorded_size(record, path, line), path, line, "img_filename",
                 required=coords == "pixel")
    normalized = None
    if coords != "pixel":
        normal_box = convert_box(box, coords, "normalized")
        normalized = Boxes(loc=normal_box, core=normal_box, goal=normal_box, now=normal_box)
    pixels = None
    if size is not None:
        pixel_box = convert_box(box, coords, "pixel", size)
        boxes = Boxes(loc=pixel_box, core=pixel_box, goal=pixel_box, now=pixel_box)
        pixels = BoxSet(current=boxes, target=boxes)
    kind = record.get("ui_type", record.get("data_type", "element"))
    component = normalise_type(kind) if isinstance(kind, str) and kind.strip() else "element"
    return Instance(
        id=ids(record, image, line),
        platform=infer_platform(record, image, "web", platform),
        component=component, family=infer_family(record, image, component), gesture="tap",
        instructions=Instructions(locate=instruction, interact=instruction),
        current_state=None, goal_state=None, image=image.replace("\\", "/"),
        size=None if size is None else SizeModel(width=size[0], height=size[1]),
        boxes=pixels, normalized_boxes=normalized)


def screenspot_records(instance: Instance, box_format: BoxFormat = "xyxy",
                       coords: CoordConvention = "pixel") -> list[dict[str, Any]]:
    """The two grounding records of one instance (locate, interact), convention named.

    An instance without an image size (an imported normalised record) has no pixels:
    its records are normalised whatever `coords` asks, and carry no `img_size`."""
    if instance.size is None and coords == "pixel":
        coords = "normalized"
    records = []
    for task, box_name, instruction in (
            ("locate", "loc", instance.instructions.locate),
            ("interact", "goal", instance.instructions.interact)):
        if instance.normalized_boxes is not None and coords != "pixel":
            box = convert_box(getattr(instance.normalized_boxes, box_name), "normalized", coords)
        else:
            size = (instance.size.width, instance.size.height)
            box = convert_box(getattr(instance.boxes.current, box_name), "pixel", coords, size)
        size_key = ({} if instance.size is None
                    else {"img_size": [instance.size.width, instance.size.height]})
        records.append({
            "id": f"{instance.id}/{task}", "instance_id": instance.id, "task": task,
            "img_filename": instance.image, **size_key,
            "instruction": instruction, "bbox": list(box_from_xyxy(box, box_format)),
            "bbox_format": box_format, "coords": coords,
            "platform": instance.platform, "ui_type": instance.component,
            "family": instance.family,
        })
    return records


def export_screenspot(instances: Iterable[Instance], path: str | Path,
                      box_format: BoxFormat = "xyxy", coords: CoordConvention = "pixel") -> Path:
    """`--format screenspot`: two grounding records per instance, one a line."""
    return write_lines((json.dumps(record, ensure_ascii=False, allow_nan=False)
                        for instance in instances
                        for record in screenspot_records(instance, box_format, coords)), path)
