"""The project's own layout: one `Instance` a line (docs/design.md §5)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from finestate_env.components.domain import InvalidLive, check_instance
from finestate_env.core.schema import Instance
from finestate_env.datasets.formats.jsonl import FormatError, from_validation_error


def parse_instance(record: dict[str, Any], path: Path, line: int) -> Instance:
    """The instance of one line, its live block checked against its type's own domain
    (components/domain.py): nothing a renderer may not be handed passes."""
    try:
        instance = Instance.model_validate(record)
        check_instance(instance, "")
    except ValidationError as exc:
        raise from_validation_error(path, line, exc) from None
    except InvalidLive as exc:
        raise FormatError(path, line, exc.field.lstrip("."), "", "", problem=exc.problem) \
            from None
    return instance


def write_lines(lines: Iterable[str], path: str | Path) -> Path:
    """Write text lines to `path` through a temporary file, so that a failure half-way
    leaves any earlier file at `path` whole."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with open(partial, "w", encoding="utf-8", newline="\n") as f:
        for line in lines:
            f.write(line + "\n")
    os.replace(partial, path)
    return path


def write_instances(instances: Iterable[Instance], path: str | Path) -> Path:
    """The project layout: one instance a line, as `Instance.model_dump_json()` writes it."""
    return write_lines((instance.model_dump_json() for instance in instances), path)


def relocate_images(instances: Iterable[Instance], from_dir: str | Path,
                    to_dir: str | Path, images_root: str | Path | None = None) -> list[Instance]:
    """`image` paths rewritten relative to `to_dir` (where the instances will be written),
    for the images that exist relative to `from_dir` (or `images_root`); others unchanged."""
    moved = []
    for instance in instances:
        found = locate_image(instance.image, from_dir, images_root)
        if found is not None:
            relative = Path(os.path.relpath(found, Path(to_dir).resolve())).as_posix()
            instance = instance.model_copy(update={"image": relative})
        moved.append(instance)
    return moved


def locate_image(image: str | None, base_dir: str | Path,
                 images_root: str | Path | None = None) -> Path | None:
    """The existing file an `image` field names: relative to `images_root` when given, else
    to the records file's folder; Windows separators are accepted. None when not found."""
    if not image:
        return None
    name = image.replace("\\", "/")
    roots = [Path(images_root)] if images_root is not None else []
    roots.append(Path(base_dir))
    for root in roots:
        candidate = (root / name).resolve()
        if candidate.is_file():
            return candidate
    return None
