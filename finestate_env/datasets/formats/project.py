"""The project's own layout: one `Instance` a line (docs/design.md §5)."""

from __future__ import annotations

import contextlib
import hashlib
import math
import os
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

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
        if not all_finite(record.get(name)):
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


def all_finite(value: Any) -> bool:
    """No NaN or infinity anywhere in a JSON value."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(all_finite(item) for item in value)
    if isinstance(value, dict):
        return all(all_finite(item) for item in value.values())
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


@contextlib.contextmanager
def staged(path: str | Path) -> Iterator[TextIO]:
    """A text file that becomes `path` whole or not at all: what the block writes goes to
    `path.partial`, which replaces `path` when the block ends. When the block raises (a bad
    line met half-way through a stream), the partial file and the folders made for it are
    removed, and an earlier file at `path` is left as it was."""
    path = Path(path)
    made = []  # the folders this call makes, innermost first
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        made.append(folder)
        folder = folder.parent
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    opened = False
    try:
        with write_new(partial, "w", encoding="utf-8", newline="\n") as f:
            opened = True
            yield f
        os.replace(partial, path)
    except BaseException:
        if opened:
            partial.unlink(missing_ok=True)
        for folder in made:
            try:
                folder.rmdir()
            except OSError:
                break
        raise


def write_lines(lines: Iterable[str], path: str | Path) -> Path:
    """Write text lines to `path` as they come (`staged`), so that a failure half-way
    leaves any earlier file at `path` whole, and no partial file."""
    path = Path(path)
    with staged(path) as f:
        for line in lines:
            f.write(line + "\n")
    return path


def write_instances(instances: Iterable[Instance], path: str | Path) -> Path:
    """The project layout: one instance a line, as `Instance.model_dump_json()` writes it."""
    return write_lines((instance.model_dump_json() for instance in instances), path)


def relocate_images(instances: Iterable[Instance], from_dir: str | Path,
                    to_dir: str | Path, images_root: str | Path | None = None,
                    trusted: bool = False) -> list[Instance]:
    """The instances with their images brought into `to_dir` (`ImageMove`), in a list."""
    move = ImageMove(from_dir, to_dir, images_root, trusted)
    moved = [move(instance) for instance in instances]
    move.bring()
    return moved


class ImageMove:
    """Instances' images brought into `to_dir` (where the instances will be written), so
    that the dataset is one folder whose paths stay inside it (core/files.py). Called on
    an instance, it finds the image (relative to `images_root`, else `from_dir`) and gives
    the instance with `image` naming the same relative path under `to_dir`; `bring()`
    then links each image found, or copies it, there: once every instance was read, so
    that a file refused half-way brings nothing. Images not found are left as they were.
    Each distinct image is held as two paths until `bring()`."""

    def __init__(self, from_dir: str | Path, to_dir: str | Path,
                 images_root: str | Path | None = None, trusted: bool = False) -> None:
        self.from_dir, self.to_dir = from_dir, Path(to_dir)
        self.images_root, self.trusted = images_root, trusted
        self._found: dict[str, str] = {}  # relative name under to_dir -> the image found

    def __call__(self, instance: Instance) -> Instance:
        found = locate_image(instance.image, self.from_dir, self.images_root, self.trusted)
        if found is None:
            return instance
        relative = _relative_name(found, Path(self.images_root or self.from_dir))
        self._found.setdefault(relative, str(found))
        return instance.model_copy(update={"image": relative})

    def bring(self) -> None:
        for relative, found in self._found.items():
            _bring(Path(found), self.to_dir / relative)


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
