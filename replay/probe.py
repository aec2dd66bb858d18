"""Probing a rendered instance: perform p1 at given points and read the states back.

This is how boxes are proven rather than assumed: each probe restores the
instance's current state inside the page (no new page, no re-measurement),
performs the instance's gesture with real input, and reads the control back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import widgets
from finestate_env.coords import box_center
from finestate_env.schema import Instance


@dataclass(frozen=True)
class Probe:
    p0: tuple[float, float]
    p1: tuple[float, float]
    state: Any
    reached_goal: bool


def probe_points(backend, instance: Instance, p1_points: Sequence[Sequence[float]],
                 p0: Sequence[float] | None = None) -> list[Probe]:
    """Operate at each p1 (screenshot pixels) from p0 (default: the centre of `now`).

    The backend must be showing `instance` (after `env.reset`); it is left
    showing the instance's current state again.
    """
    if instance.live is None:
        raise ValueError(f"instance {instance.id!r} has no live block: it cannot be probed")
    component = widgets.COMPONENTS[instance.component]
    start = tuple(p0) if p0 is not None else box_center(instance.boxes.current.now)
    probes = []
    backend.restore(instance.live)
    for point in p1_points:
        p1 = (float(point[0]), float(point[1]))
        backend.perform(instance.gesture, start, p1)
        state = backend.read_and_restore(instance.live)  # ready for the next probe
        probes.append(Probe(start, p1, state, component.states_equal(
            state, instance.goal_state, instance.live.params)))
    return probes
