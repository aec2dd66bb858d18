"""Reading an instances file of any supported layout (detected from its first record)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, BinaryIO

from finestate_env.core.errors import UsageError
from finestate_env.core.files import open_regular, outside_problem
from finestate_env.core.schema import Instance, Platform
from finestate_env.datasets.formats.finestate_bench import DESKTOP_BOX_FIELDS, parse_finestate_bench
from finestate_env.datasets.formats.imported import (
    IdAssigner,
    SizeFinder,
    is_known_type,
    with_size,
)
from finestate_env.datasets.formats.jsonl import (
    FormatError,
    ReadResult,
    located_records,
    record_at,
    shown,
)
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
    """Every instance of `path`, in any of `LAYOUTS`, held in a list: `InstanceReader`'s
    pass (the same checks, errors and options) with `.items` and their `.lines`. A command
    over a file of any length streams it with `InstanceReader` instead."""
    reader = InstanceReader(path, skip_invalid=skip_invalid, platform=platform, images=images,
                            image_size=image_size, trusted_paths=trusted_paths)
    result = ReadResult(items=[], path=reader.path)
    for line, _, instance in reader.located():
        result.items.append(instance)
        result.lines.append(line)
    result.skipped, result.layout = reader.skipped, reader.layout
    result.unknown_types = reader.unknown_types
    return result


class _GivenId:
    """The id an earlier pass assigned to a record (`IdAssigner` numbers repeats in file
    order, which a record read alone cannot know)."""

    def __init__(self, ident: str) -> None:
        self.ident = ident

    def __call__(self, record: dict[str, Any], image: str, line: int) -> str:
        return self.ident


class InstanceReader:
    """The instances of `path`, one at a time: a file of any length is read holding one
    line and one instance (and each id, to refuse a repeated one).

    Iterating it (or `located()`) reads the file from its start, in any of `LAYOUTS`;
    after a pass, `layout` is the detected one, `count` the instances read, `skipped` the
    message of each line left out (`skip_invalid`; else the first bad line raises its
    `FormatError` naming file, line and field) and `unknown_types` counts the imported
    records whose type is none of the 23 (`formats.imported.canonical_type`). Imported
    (non-project) records have no live block; `platform`, `images` (the folder image
    paths are relative to, default: the file's folder) and `image_size` (when there is
    no image to read it from) fill in what they do not say (see `formats.imported`); the
    last two also give a project-layout instance without a size (an import that found
    none) its size. An `image` path that leads out of its folder (absolute, `..`, a
    symlink out) is a bad line naming the field, unless `trusted_paths` (core/files.py).

    `load(line, offset, id)` reads one instance again, after a pass, from where
    `located()` said it was: for a caller that takes the instances in another order
    than the file's (replay, in the predictions' order). Used so, close it (`with`).
    """

    def __init__(self, path: str | Path, *, skip_invalid: bool = False,
                 platform: Platform | None = None, images: str | Path | None = None,
                 image_size: tuple[int, int] | None = None,
                 trusted_paths: bool = False) -> None:
        self.path = Path(path)
        self.skip_invalid, self.platform = skip_invalid, platform
        self.trusted_paths = trusted_paths
        self._sizes = SizeFinder(self.path.parent, images, image_size, trusted_paths)
        self._file: BinaryIO | None = None
        self._read: tuple[int, int, int] | None = None  # the file a full pass read
        self._start()

    def _start(self) -> None:
        self.layout = ""
        self.count = 0
        self.skipped: list[str] = []
        self.unknown_types: dict[str, int] = {}
        self._first_line = 0
        self._ids = IdAssigner(self.path)
        self._seen: dict[str, int] = {}

    def __iter__(self) -> Iterator[Instance]:
        for _, _, instance in self.located():
            yield instance

    def located(self) -> Iterator[tuple[int, int, Instance]]:
        """(line number, byte offset of the line, instance) for every instance, in file
        order; a pass from the start, which resets the counts."""
        self._start()
        self._read = None
        for line, offset, record in located_records(self.path):
            try:
                if isinstance(record, FormatError):
                    raise record
                instance = self._instance(record, line, self._ids, first_read=True)
            except FormatError as exc:
                if not self.skip_invalid:
                    raise
                self.skipped.append(str(exc))
                continue
            self.count += 1
            yield line, offset, instance
        self._read = _identity(self.path.stat())

    def load(self, line: int, offset: int, ident: str) -> Instance:
        """The instance `located()` gave as (`line`, `offset`) with id `ident`, read again.
        A file changed since that pass is a UsageError (its lines may have moved)."""
        if self._file is None:
            if self._read is None:
                raise RuntimeError("InstanceReader.load before a whole pass of located()")
            try:
                self._file = open_regular(self.path)
            except OSError as exc:
                raise UsageError(f"cannot read {self.path} again: "
                                 f"{exc.strerror or exc}") from None
        if _identity(os.fstat(self._file.fileno())) != self._read:
            raise UsageError(f"{self.path} changed while it was being read; run again")
        record = record_at(self._file, self.path, offset, line)
        if isinstance(record, FormatError):
            raise record
        instance = self._instance(record, line, _GivenId(ident), first_read=False)
        if instance.id != ident:
            raise UsageError(f"{self.path} changed while it was being read; run again")
        return instance

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> InstanceReader:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()

    def _instance(self, record: dict[str, Any], line: int, ids, first_read: bool) -> Instance:
        """One record's instance, checked; `first_read`: in a pass (the file's layout is
        set by its first record, ids must be new, unknown types are counted)."""
        path = self.path
        layout, certain = _detect(record)
        if not self.layout:
            if layout is None:
                raise FormatError(path, line, "record", _WHAT,
                                  f"an object with keys {shown(sorted(record))}")
            self.layout, self._first_line = layout, line
        elif not certain:
            layout = self.layout  # parse it as the file's layout: field-level errors
        elif _kind(layout) != _kind(self.layout):
            raise FormatError(path, line, "record",
                              f"a {self.layout} record like line {self._first_line}",
                              f"a {layout} record")
        if layout == "finestate-env":
            instance = parse_instance(record, path, line)
            if first_read:
                if instance.id in self._seen:
                    raise FormatError(path, line, "id", "an id used once",
                                      f"{shown(instance.id)}, already on line "
                                      f"{self._seen[instance.id]}")
                self._seen[instance.id] = line
            if instance.image and not self.trusted_paths and (
                    problem := outside_problem(instance.image)) is not None:
                raise FormatError(path, line, "image", "", "", problem=problem)
            if instance.size is None:
                instance = with_size(instance, self._sizes(instance.image, None, path, line,
                                                           "image", required=False))
        elif layout.startswith("finestate-bench"):
            instance = parse_finestate_bench(
                record, path, line, layout == "finestate-bench-desktop", sizes=self._sizes,
                ids=ids, platform=self.platform)
            if first_read and not is_known_type(instance.component):
                unknown = self.unknown_types
                unknown[instance.component] = unknown.get(instance.component, 0) + 1
        else:
            instance = parse_screenspot(record, path, line, sizes=self._sizes, ids=ids,
                                        platform=self.platform)
        return instance


def _identity(status: os.stat_result) -> tuple[int, int, int]:
    return status.st_ino, status.st_size, status.st_mtime_ns
