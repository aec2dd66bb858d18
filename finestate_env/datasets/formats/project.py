"""The project's own layout: one `Instance` a line (docs/design.md §5)."""

from __future__ import annotations

import hashlib
import math
import os
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from finestate_env.components.domain import InvalidLive, check_instance
from finestate_env.core.errors import shown
from finestate_env.core.files import (
    open_regular,
    outside_problem,
    refuse_symlink,
    resolve_inside,
    write_new,
)
from finestate_env.core.schema import Instance
from finestate_env.datasets.formats.jsonl import FormatError, from_validation_error, records


def parse_instance(record: dict[str, Any], path: Path, line: int) -> Instance:
    """The instance of one line, its live block checked against its type's own domain
    (components/domain.py): nothing a renderer may not be handed passes."""
    for name in ("current_state", "goal_state"):
        if not _finite(record.get(name)):
            raise FormatError(path, line, name, "", "", problem=(
                f"{shown(record.get(name))} holds NaN or an infinity, which no state is "
                "(and JSON cannot write)"))
    try:
        instance = Instance.model_validate(record)
        check_instance(instance, "")
    except ValidationError as exc:
        raise from_validation_error(path, line, exc) from None
    except InvalidLive as exc:
        raise FormatError(path, line, exc.field.lstrip("."), "", "", problem=exc.problem) \
            from None
    return instance


def _finite(value: Any) -> bool:
    """No NaN or infinity anywhere in a JSON value."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_finite(item) for item in value)
    if isinstance(value, dict):
        return all(_finite(item) for item in value.values())
    return True


def remove_dataset(folder: Path) -> None:
    """Remove what a command wrote as a dataset in `folder` (its instances.jsonl and the
    images that file names inside the folder), and nothing else: the folder may hold the
    user's own files too. Never through a link."""
    listing = folder / "instances.jsonl"
    if not listing.exists() and not listing.is_symlink():
        return
    refuse_symlink(listing)
    for _, record in records(listing):
        image = record.get("image") if isinstance(record, dict) else None
        if isinstance(image, str) and outside_problem(image) is None:
            path = folder / image
            if path.is_file() and not path.is_symlink():
                path.unlink()
    listing.unlink()


def write_lines(lines: Iterable[str], path: str | Path) -> Path:
    """Write text lines to `path` through a temporary file, so that a failure half-way
    leaves any earlier file at `path` whole."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    with write_new(partial, "w", encoding="utf-8", newline="\n") as f:
        for line in lines:
            f.write(line + "\n")
    os.replace(partial, path)
    return path


def write_instances(instances: Iterable[Instance], path: str | Path) -> Path:
    """The project layout: one instance a line, as `Instance.model_dump_json()` writes it."""
    return write_lines((instance.model_dump_json() for instance in instances), path)


def relocate_images(instances: Iterable[Instance], from_dir: str | Path,
                    to_dir: str | Path, images_root: str | Path | None = None,
                    trusted: bool = False) -> list[Instance]:
    """The instances with their images brought into `to_dir` (where they will be written),
    so that the dataset is one folder whose paths stay inside it (core/files.py): each
    image found (relative to `images_root`, else `from_dir`) is linked, or copied, to the
    same relative path under `to_dir`, and `image` names that. Images not found are left
    as they were."""
    to_dir = Path(to_dir)
    moved = []
    for instance in instances:
        found = locate_image(instance.image, from_dir, images_root, trusted)
        if found is not None:
            relative = _relative_name(found, Path(images_root or from_dir))
            _bring(found, to_dir / relative)
            instance = instance.model_copy(update={"image": relative})
        moved.append(instance)
    return moved


def _relative_name(found: Path, root: Path) -> str:
    """`found`'s path under `root`, or (trusted data from elsewhere) a name under
    `external/` that a hash of its full path keeps apart from others of the same name."""
    base = root.resolve()
    if found.is_relative_to(base):
        return found.relative_to(base).as_posix()
    digest = hashlib.sha1(str(found).encode()).hexdigest()[:12]
    return f"external/{digest}-{found.name}"


def _bring(source: Path, target: Path) -> None:
    """`target` as a hard link to `source` (a copy across file systems); nothing when it is
    that file already. Never written through a link left at `target`."""
    if target.exists() and target.samefile(source):
        return
    refuse_symlink(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        target.unlink()
    try:
        os.link(source, target)
    except OSError:
        with write_new(target, "wb") as sink, open_regular(source) as f:
            shutil.copyfileobj(f, sink)


def locate_image(image: str | None, base_dir: str | Path,
                 images_root: str | Path | None = None, trusted: bool = False) -> Path | None:
    """The regular file an `image` field names: relative to `images_root` when given, else
    to the records file's folder; Windows separators are accepted. None when not found.
    A path out of its folder (absolute, `..`, a symlink out) is a UsageError unless
    `trusted` (core/files.py)."""
    if not image:
        return None
    roots = [Path(images_root)] if images_root is not None else []
    roots.append(Path(base_dir))
    for root in roots:
        candidate = resolve_inside(root, image, trusted)
        if candidate.is_file():
            return candidate
    return None
