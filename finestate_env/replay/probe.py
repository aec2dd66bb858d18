"""Probing a rendered instance: perform p1 at given points and read the states back.

This is how boxes are proven rather than assumed: each probe performs the
instance's gesture with real input from the instance's current state and reads
the control back (Backend.probe; the web backend restores the current state
inside the page between gestures, with no round trip and no re-measurement).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from finestate_env.core.coords import box_center
from finestate_env.core.schema import Instance
from finestate_env.env.episode import judge


@dataclass(frozen=True)
class Probe:
    p0: tuple[float, float]
    p1: tuple[float, float]
    state: Any
    reached_goal: bool


def probe_points(backend, instance: Instance, p1_points: Sequence[Sequence[float]],
                 p0: Sequence[float] | None = None) -> list[Probe]:
    """Operate at each p1 (screenshot pixels) from p0 (default: the centre of `now`).

    The backend renders the instance from its live block itself and is left
    showing the instance's current state.
    """
    if instance.live is None:
        raise ValueError(f"instance {instance.id!r} has no live block: it cannot be probed")
    start = tuple(p0) if p0 is not None else box_center(instance.boxes.current.now)
    points = [(float(p[0]), float(p[1])) for p in p1_points]
    states = backend.probe(instance.live, instance.gesture, [(start, p1) for p1 in points])
    boxes = instance.boxes.current
    return [Probe(start, p1, state, judge(instance, start, p1, state, boxes=boxes).live_exact)
            for p1, state in zip(points, states, strict=True)]
