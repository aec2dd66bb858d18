"""A control's state as one fixed type: canonical JSON text.

States differ by component type (a slider's float, a tab's name, a checkbox group's
list, a date's string, None for "nothing open"). Vector envs, RLlib and TorchRL build
each info array from the first env's value, so a key whose type changes between
episodes crashes them or is silently cast (docs/design.md §4b). The env therefore puts
every state into `info` as canonical JSON text, the same text for equal states:

    >>> from finestate_env import decode_state
    >>> decode_state(info["goal_state"])
    -1.2
"""

from __future__ import annotations

import json
from typing import Any


def encode_state(state: Any) -> str:
    """Canonical JSON text of a state: sorted keys, no spaces, floats as Python's repr."""
    return json.dumps(state, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def decode_state(text: str) -> Any:
    """The state `encode_state` wrote (what `info["state"]`, `info["goal_state"]` and
    `info["current_state"]` hold)."""
    return json.loads(text)
