"""Checking an agent's action and mapping it to screenshot pixels.

A bad action is never a crash and never silently clamped: `parse_action`
returns the points it could read and one message naming what was wrong.

The action spaces are closed boxes ([0, width] x [0, height], [0, 1], [-1, 1]), and
RL libraries clip their actions onto them, so the upper edge must be performable:
a point exactly on it (x = width, y = height) is performed at the centre of the last
pixel column or row (width - 0.5). That is the one adjustment; a point beyond the
edge is an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from finestate_env.core.coords import point_to_pixel
from finestate_env.core.schema import POINT_KEYS, CoordConvention


@dataclass(frozen=True)
class ParsedAction:
    p0: tuple[float, float] | None  # screenshot pixels, None when unreadable
    p1: tuple[float, float] | None
    error: str | None  # None when both points are valid and on screen


def parse_action(action: Any, coord_mode: CoordConvention,
                 viewport: tuple[int, int]) -> ParsedAction:
    if not isinstance(action, Mapping):
        return ParsedAction(None, None, "action must be a mapping with keys 'p0' and 'p1', "
                                        f"got {type(action).__name__}")
    points: dict[str, tuple[float, float] | None] = {}
    errors = []
    for key in POINT_KEYS:
        point, error = _parse_point(action, key, coord_mode, viewport)
        points[key] = point
        if error:
            errors.append(error)
    extra = sorted(set(map(str, action)) - set(POINT_KEYS))
    if extra:
        errors.append(f"action has unexpected keys {extra}; expected only 'p0' and 'p1'")
    return ParsedAction(points["p0"], points["p1"], "; ".join(errors) or None)


def _parse_point(action: Mapping, key: str, coord_mode: CoordConvention,
                 viewport: tuple[int, int]) -> tuple[tuple[float, float] | None, str | None]:
    if key not in action:
        return None, f"action is missing {key!r}"
    try:
        array = np.asarray(action[key], dtype=np.float64)
    except (TypeError, ValueError):
        return None, f"action[{key!r}] = {action[key]!r} is not a pair of numbers"
    if array.shape != (2,):
        return None, f"action[{key!r}] must have shape (2,), got shape {array.shape}"
    if not np.all(np.isfinite(array)):
        return None, f"action[{key!r}] = {array.tolist()} is not finite"
    x, y = point_to_pixel(array, coord_mode, viewport)
    width, height = viewport
    if not (0 <= x <= width and 0 <= y <= height):
        frame = ("[0, 1] x [0, 1]" if coord_mode == "normalized"
                 else f"[0, {width}] x [0, {height}]")
        return None, (f"action[{key!r}] = {array.tolist()} is off screen: "
                      f"{coord_mode} points must lie in {frame}")
    return (_on_last_pixel(x, width), _on_last_pixel(y, height)), None


def _on_last_pixel(value: float, size: int) -> float:
    """The space's closed upper edge is the last pixel (the module docstring says why)."""
    return size - 0.5 if value == size else value


def parse_flat_action(action: Any, viewport: tuple[int, int]) -> ParsedAction:
    """A flat action `(p0x, p0y, p1x, p1y)` in [-1, 1], -1 the screen's left (top) edge
    and 1 its right (bottom) edge, mapped to screenshot pixels."""
    try:
        array = np.asarray(action, dtype=np.float64)
    except (TypeError, ValueError):
        return ParsedAction(None, None, f"flat action {action!r} is not four numbers")
    if array.shape != (4,):
        return ParsedAction(None, None, f"flat action must have shape (4,), got {array.shape}")
    if not np.all(np.isfinite(array)):
        return ParsedAction(None, None, f"flat action {array.tolist()} is not finite")
    if np.any(np.abs(array) > 1):
        return ParsedAction(None, None, f"flat action {array.tolist()} is outside [-1, 1]")
    width, height = viewport
    x0, y0, x1, y1 = ((array + 1) / 2 * np.array([width, height, width, height])).tolist()
    return parse_action({"p0": (x0, y0), "p1": (x1, y1)}, "pixel", viewport)
