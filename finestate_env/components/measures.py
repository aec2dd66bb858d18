"""The numbers a sampler and its web renderer share, read from their one source.

`web/measures.js` holds them as one JSON object between two marker lines; the page
loads that file as a script (the renderers read `FineStateMeasures.<type>.<name>`), and
this module reads the same object, so that a sampler sizes a control with the numbers
its renderer draws it with. CSS px; the JS file says what each number is.
"""

from __future__ import annotations

import json
from pathlib import Path

SOURCE = Path(__file__).parent / "web" / "measures.js"
_BEGIN, _END = "// JSON begin\n", "// JSON end\n"


def _read() -> dict[str, dict[str, int]]:
    text = SOURCE.read_text()
    try:
        body = text.split(_BEGIN, 1)[1].split(_END, 1)[0]
    except IndexError:
        raise ValueError(f"{SOURCE}: no JSON object between {_BEGIN.strip()!r} and "
                         f"{_END.strip()!r}") from None
    return json.loads(body)


MEASURES: dict[str, dict[str, int]] = _read()


def measure(group: str, name: str) -> int:
    """The number `name` of `group` (a type's name, or "stage") in web/measures.js."""
    try:
        return MEASURES[group][name]
    except KeyError:
        raise KeyError(f"{SOURCE.name} has no {group}.{name}; it has "
                       f"{ {g: sorted(v) for g, v in MEASURES.items()} }") from None
