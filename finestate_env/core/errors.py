"""The error that bad input raises, apart from the errors that bugs raise."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any


class UsageError(ValueError):
    """Bad input from whoever runs the code: a malformed file, an option value out of its
    range, a name that names nothing, an environment that lacks what a run asks for.

    The message says what was wrong and is meant to be shown as it is: the `finestate`
    command prints it on one line and exits 2, with no traceback, while any other
    exception (a bug) keeps its traceback. It is a ValueError, so that code catching
    ValueError (Gymnasium's convention for a bad argument) catches it too.
    """


def shown(value: Any, limit: int = 80) -> str:
    """A short JSON-ish rendering of a bad value for an error message (a value nested too
    deep to write as JSON is shown by the start of its repr)."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)[:limit]
    return text if len(text) <= limit else text[:limit - 3] + "..."


def field_path(loc: Sequence[Any]) -> str:
    """A pydantic error's location as a field path: `.name` for keys, `[i]` for items."""
    return "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in loc)
