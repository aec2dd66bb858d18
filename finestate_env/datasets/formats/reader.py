"""Reading an instances file of any supported layout (detected from its first record)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from finestate_env.core.files import outside_problem
from finestate_env.core.schema import Platform
from finestate_env.datasets.formats.finestate_bench import DESKTOP_BOX_FIELDS, parse_finestate_bench
from finestate_env.datasets.formats.imported import (
    IdAssigner,
    SizeFinder,
    is_known_type,
    with_size,
)
from finestate_env.datasets.formats.jsonl import FormatError, ReadResult, records, shown
from finestate_env.datasets.formats.project import parse_instance
from finestate_env.datasets.formats.screenspot import box_format_of, parse_screenspot

LAYOUTS = ("finestate-env", "finestate-bench-web", "finestate-bench-desktop",
           "screenspot-xyxy", "screenspot-xywh")

_WHAT = ("a finestate-env instance (id, boxes, size, ...), a FineState-Bench record "
         "(image, component, processing_details) or a ScreenSpot record "
         "(img_filename, bbox, instruction)")


def _detect(record: dict[str, Any]) -> tuple[str | None, bool]:
    """(layout, certain): `certain` when the keys that define the layout are there; an
    uncertain guess (say, a FineState-Bench record missing its boxes) defers to the file's."""
    if "boxes" in record or "live" in record or ("size" in record and "id" in record):
        return "finestate-env", True
    details = record.get("processing_details")
    # `bbox` first: a web record may carry other keys (an `interact` the released code
    # never reads), and the released code's own desktop conversion has both.
    if isinstance(details, dict) and "bbox" in details:
        return "finestate-bench-web", True
    if isinstance(details, dict) and any(key in details for key in DESKTOP_BOX_FIELDS):
        return "finestate-bench-desktop", True
    if "processing_details" in record or ("component" in record and "image" in record):
        return "finestate-bench-web", False
    if "img_filename" in record or ("bbox" in record and "instruction" in record):
        return f"screenspot-{box_format_of(record)}", True
    if "image" in record or "component" in record:
        return "finestate-bench-web", False
    return None, False


def detect_layout(record: dict[str, Any]) -> str | None:
    """The layout one record is in, or None when it is in none of `LAYOUTS`."""
    return _detect(record)[0]


def _kind(layout: str) -> str:
    return "screenspot" if layout.startswith("screenspot") else layout


def read_instances(path: str | Path, *, skip_invalid: bool = False,
                   platform: Platform | None = None, images: str | Path | None = None,
                   image_size: tuple[int, int] | None = None,
                   trusted_paths: bool = False) -> ReadResult:
    """Every instance of `path`, in any of `LAYOUTS`; `.layout` is the detected one.

    A bad line raises `FormatError` naming file, line and field; with `skip_invalid`
    it is left out and its message kept in `.skipped`. Imported (non-project)
    records have no live block; `platform`, `images` (the folder image paths are
    relative to, default: the file's folder) and `image_size` (when there is no image
    to read it from) fill in what they do not say (see `formats.imported`); the last two
    also give a project-layout instance without a size (an import that found none) its
    size. `.unknown_types` counts the FineState-Bench records whose type is none of the
    23 (`formats.imported.canonical_type`); `.lines` is each item's line. An `image` path
    that leads out of its folder (absolute, `..`, a symlink out) is a bad line naming the
    field, unless `trusted_paths` (core/files.py).
    """
    path = Path(path)
    result = ReadResult(items=[], path=path)
    sizes = SizeFinder(path.parent, images, image_size, trusted_paths)
    ids = IdAssigner(path)
    first_line = 0
    seen: dict[str, int] = {}
    for line, record in records(path):
        try:
            if isinstance(record, FormatError):
                raise record
            layout, certain = _detect(record)
            if not result.layout:
                if layout is None:
                    raise FormatError(path, line, "record", _WHAT,
                                      f"an object with keys {shown(sorted(record))}")
                result.layout, first_line = layout, line
            elif not certain:
                layout = result.layout  # parse it as the file's layout: field-level errors
            elif _kind(layout) != _kind(result.layout):
                raise FormatError(path, line, "record",
                                  f"a {result.layout} record like line {first_line}",
                                  f"a {layout} record")
            if layout == "finestate-env":
                instance = parse_instance(record, path, line)
                if instance.id in seen:
                    raise FormatError(path, line, "id", "an id used once",
                                      f"{shown(instance.id)}, already on line {seen[instance.id]}")
                seen[instance.id] = line
                if instance.image and not trusted_paths and (
                        problem := outside_problem(instance.image)) is not None:
                    raise FormatError(path, line, "image", "", "", problem=problem)
                if instance.size is None:
                    instance = with_size(instance, sizes(instance.image, None, path, line,
                                                         "image", required=False))
            elif layout.startswith("finestate-bench"):
                instance = parse_finestate_bench(
                    record, path, line, layout == "finestate-bench-desktop", sizes=sizes,
                    ids=ids, platform=platform)
                if not is_known_type(instance.component):
                    unknown = result.unknown_types
                    unknown[instance.component] = unknown.get(instance.component, 0) + 1
            else:
                instance = parse_screenspot(record, path, line, sizes=sizes, ids=ids,
                                            platform=platform)
            result.items.append(instance)
            result.lines.append(line)
        except FormatError as exc:
            if not skip_invalid:
                raise
            result.skipped.append(str(exc))
    return result
