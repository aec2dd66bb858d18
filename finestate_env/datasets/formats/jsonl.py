"""JSON Lines reading with errors that name the file, the line and the field."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from pydantic import ValidationError

from finestate_env.core.errors import UsageError, shown
from finestate_env.core.files import LineTooLong, bounded_lines, json_object, open_regular


class FormatError(UsageError):
    """A bad record: `PATH:LINE: FIELD: expected ..., got ...`."""

    def __init__(self, path: str | Path, line: int, field_name: str, expected: str,
                 got: str, *, problem: str | None = None) -> None:
        """`problem`, when given, says what is wrong in its own words (a value its type's
        domain refuses: components/domain.py) instead of "expected ..., got ..."."""
        self.path, self.line, self.field = str(path), line, field_name
        super().__init__(f"{path}:{line}: {field_name}: "
                         f"{problem or f'expected {expected}, got {got}'}")


@dataclass
class ReadResult:
    """What a reader accepted, what it skipped (one message per skipped line) and the layout.

    `lines[i]` is the line `items[i]` was read from; `unknown_types` counts the imported
    records whose component type is none of the 23 (each kept as its own group)."""

    items: list[Any]
    skipped: list[str] = field(default_factory=list)
    layout: str = ""
    path: Path | None = None
    lines: list[int] = field(default_factory=list)
    unknown_types: dict[str, int] = field(default_factory=dict)


def parse_line(raw: bytes | LineTooLong, path: Path | str, number: int) -> Any:
    """One line's JSON object, None for a blank line, or the FormatError that says why it
    is no object (core/files.py `json_object`)."""
    value, problem = json_object(raw)
    if problem is not None:
        return FormatError(path, number, "line", "one JSON object", problem)
    return value


def records(path: Path) -> Iterator[tuple[int, Any]]:
    """(line number, parsed JSON object or FormatError) for every non-blank line. Only a
    regular file is read (core/files.py), a line at most MAX_LINE_BYTES long."""
    for number, _, value in located_records(path):
        yield number, value


def located_records(path: Path) -> Iterator[tuple[int, int, Any]]:
    """`records` with each line's byte offset: (line number, offset, object or FormatError),
    one line held at a time; `record_at` reads one of them again."""
    with open_regular(path) as f:
        offset = 0
        for number, raw in enumerate(bounded_lines(f), 1):
            value = parse_line(raw, path, number)
            if value is not None:
                yield number, offset, value
            offset += raw.size if isinstance(raw, LineTooLong) else len(raw)


def record_at(f: BinaryIO, path: Path, offset: int, number: int) -> Any:
    """The object (or FormatError) of line `number`, which starts at byte `offset` of `f`
    (`path` opened with `open_regular`), as `located_records` read it."""
    f.seek(offset)
    raw = next(bounded_lines(f), b"")
    return parse_line(raw, path, number)


def from_validation_error(path: Path, line: int, exc: ValidationError,
                          prefix: str = "") -> FormatError:
    """The first problem pydantic found, as a FormatError naming the field."""
    error = exc.errors()[0]
    where = ".".join(str(part) for part in error["loc"]) or "record"
    if prefix:
        where = f"{prefix}.{where}"
    kind = error["type"]
    if kind == "missing":
        return FormatError(path, line, where, "a value (the field is required)", "nothing")
    if kind == "extra_forbidden":
        return FormatError(path, line, where, "no such field", shown(error.get("input")))
    message = error["msg"]
    for lead in ("Input should be ", "Value error, ", "Assertion failed, "):
        if message.startswith(lead):
            message = message[len(lead):]
    return FormatError(path, line, where, message, shown(error.get("input")))


def number_pair(value: Any) -> tuple[float, float] | None:
    """`[x, y]` of two finite numbers (not booleans), else None."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        return None
    try:
        x, y = float(value[0]), float(value[1])
    except OverflowError:  # an integer of hundreds of digits
        return None
    return (x, y) if math.isfinite(x) and math.isfinite(y) else None


def number_quad(value: Any) -> tuple[float, float, float, float] | None:
    """Four finite numbers (not booleans), else None."""
    if not isinstance(value, list | tuple) or len(value) != 4:
        return None
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value):
        return None
    try:
        quad = tuple(float(v) for v in value)
    except OverflowError:
        return None
    return quad if all(math.isfinite(v) for v in quad) else None  # type: ignore[return-value]
