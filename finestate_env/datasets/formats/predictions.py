"""Prediction files: `{"id", "p0": [x, y], "p1": [x, y], "coords"}` one a line.

`coords` (`pixel`, `normalized` or `1000`) is required: a point without its
convention cannot be scored. A missing or null point is a *missing* point; a
point that is not two finite numbers is a *wrong-format* point (as ScreenSpot-Pro
counts them). Neither is a file error: the prediction is kept, the point is
None, and `format_errors` (extra metadata on the prediction) says what was wrong,
so that the scorer counts it apart. Other keys (model, tokens ...) are kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from finestate_env.core.coords import CONVENTIONS
from finestate_env.core.schema import POINT_KEYS, Prediction
from finestate_env.datasets.formats.jsonl import (
    FormatError,
    ReadResult,
    number_pair,
    records,
    shown,
)
from finestate_env.datasets.formats.project import write_lines


def parse_prediction(record: dict, path: Path, line: int) -> Prediction:
    ident = record.get("id")
    if isinstance(ident, bool) or not isinstance(ident, str | int):
        raise FormatError(path, line, "id", "a string (the instance id)",
                          "nothing" if ident is None else shown(ident))
    coords = record.get("coords")
    if coords not in CONVENTIONS:
        raise FormatError(path, line, "coords", f"one of {list(CONVENTIONS)}",
                          "nothing" if coords is None else shown(coords))
    fields = {key: value for key, value in record.items() if key not in ("id", "coords")}
    errors = {}
    for key in POINT_KEYS:
        value = record.get(key)
        point = None if value is None else number_pair(value)
        if value is not None and point is None:
            errors[key] = f"expected [x, y], two finite numbers, got {shown(value)}"
        fields[key] = point
    fields.pop("format_errors", None)
    if errors:
        fields["format_errors"] = errors
    return Prediction(id=str(ident), coords=coords, **fields)


def read_predictions(path: str | Path, *, skip_invalid: bool = False) -> ReadResult:
    """Every prediction of a JSON Lines file. A line without a usable `id` or `coords`, or
    that is not a JSON object, raises `FormatError` (or is skipped and reported)."""
    path = Path(path)
    result = ReadResult(items=[], layout="predictions", path=path)
    for line, record in records(path):
        try:
            if isinstance(record, FormatError):
                raise record
            result.items.append(parse_prediction(record, path, line))
            result.lines.append(line)
        except FormatError as exc:
            if not skip_invalid:
                raise
            result.skipped.append(str(exc))
    return result


def write_predictions(predictions: Iterable[Prediction], path: str | Path) -> Path:
    return write_lines((p.model_dump_json(exclude_none=False) for p in predictions), path)
