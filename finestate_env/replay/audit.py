"""The box audit: prove or disprove an instance's boxes by probing the live control.

A grid of points inside `goal` must all reach the goal state (soundness); a
grid over `core` measures where the goal state is really reached, so the
annotated goal box can be set beside the measured region (tightness, IoU).
Every probe is a real gesture on the rendered control (replay.probe).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from finestate_env.core.schema import Instance
from finestate_env.replay.probe import probe_points

Box = tuple[float, float, float, float]


@dataclass
class AuditReport:
    """What probing found for one instance. Boxes are pixels, inclusive edges."""

    instance_id: str
    component: str
    goal: Box  # the annotated goal box
    goal_probes: int
    unsound: list[tuple[float, float]]  # points inside `goal` that did not reach the goal
    core_probes: int
    region_hits: int  # core-grid points that reached the goal
    region_hits_in_goal: int  # ... of which inside the goal box
    measured_goal: Box | None  # bounding box of every probe that reached the goal
    seconds: float
    outside_hits: list[tuple[float, float]] = field(default_factory=list)

    @property
    def soundness(self) -> float:
        """Share of probes inside the goal box that reached the goal (1.0 = sound)."""
        return 1.0 - len(self.unsound) / self.goal_probes if self.goal_probes else 1.0

    @property
    def tightness(self) -> float:
        """Share of the goal-reaching core-grid points that the goal box covers."""
        return self.region_hits_in_goal / self.region_hits if self.region_hits else 1.0

    @property
    def iou(self) -> float:
        """IoU of the annotated goal box and the measured goal region's bounding box."""
        return box_iou(self.goal, self.measured_goal) if self.measured_goal else 0.0

    @property
    def probes_per_second(self) -> float:
        return (self.goal_probes + self.core_probes) / self.seconds if self.seconds else 0.0

    def as_dict(self) -> dict:
        return {"instance_id": self.instance_id, "component": self.component,
                "goal": list(self.goal), "soundness": self.soundness,
                "tightness": self.tightness, "iou": self.iou,
                "measured_goal": list(self.measured_goal) if self.measured_goal else None,
                "unsound": [list(p) for p in self.unsound],
                "outside_hits": [list(p) for p in self.outside_hits],
                "probes": self.goal_probes + self.core_probes,
                "probes_per_second": self.probes_per_second}


def box_iou(a: Box, b: Box) -> float:
    """IoU of two inclusive-edge pixel boxes (a box [x, x] is one pixel wide)."""
    ix = min(a[2], b[2]) - max(a[0], b[0]) + 1
    iy = min(a[3], b[3]) - max(a[1], b[1]) + 1
    if ix <= 0 or iy <= 0:
        return 0.0
    inter = ix * iy
    area = lambda r: (r[2] - r[0] + 1) * (r[3] - r[1] + 1)  # noqa: E731
    return inter / (area(a) + area(b) - inter)


def grid(box: Box, per_side: int) -> list[tuple[float, float]]:
    """`per_side` x `per_side` points spread over `box`, its edges and corners included
    (fewer where the box is narrower than that many whole pixels)."""
    x1, y1, x2, y2 = box
    xs = np.unique(np.round(np.linspace(x1, x2, min(per_side, int(x2 - x1) + 1)), 2))
    ys = np.unique(np.round(np.linspace(y1, y2, min(per_side, int(y2 - y1) + 1)), 2))
    return [(float(x), float(y)) for y in ys for x in xs]


# Probes per side of the goal box by default (and three times as many over the core
# box): what `finestate audit` and `make bench` use.
DENSITY = 5


def audit_instance(backend, instance: Instance, density: int = DENSITY,
                   core_density: int | None = None) -> AuditReport:
    """Probe `instance` (already rendered by `env.reset`) and report on its goal box.

    `density` points per side inside the goal box; `core_density` (default
    3 x density) per side over the core box.
    """
    boxes = instance.boxes.current
    started = time.perf_counter()
    inside = grid(boxes.goal, density)
    in_goal = set(inside)
    over_core = [p for p in grid(boxes.core, core_density or 3 * density) if p not in in_goal]
    # One probing run for both grids: each run begins with a render of its own.
    probes = probe_points(backend, instance, inside + over_core)
    goal_results, core_results = probes[:len(inside)], probes[len(inside):]
    seconds = time.perf_counter() - started
    reached = [p.p1 for p in goal_results + core_results if p.reached_goal]
    core_hits = [p.p1 for p in core_results if p.reached_goal]
    x1, y1, x2, y2 = boxes.goal
    return AuditReport(
        instance_id=instance.id, component=instance.component, goal=boxes.goal,
        goal_probes=len(inside), unsound=[p.p1 for p in goal_results if not p.reached_goal],
        core_probes=len(over_core), region_hits=len(core_hits),
        region_hits_in_goal=sum(x1 <= x <= x2 and y1 <= y <= y2 for x, y in core_hits),
        measured_goal=(min(x for x, _ in reached), min(y for _, y in reached),
                       max(x for x, _ in reached), max(y for _, y in reached)) if reached else None,
        seconds=seconds,
        outside_hits=[p for p in core_hits if not (x1 <= p[0] <= x2 and y1 <= p[1] <= y2)],
    )
