"""One gesture, performed and judged: the routine that `env.step`, replay and probing share.

Judging an action is always the same sequence (docs/design.md §4): the state read back
is compared with the goal on the type's own grid (live exact), `p1` is tested against
the goal box (static exact), both give the four stage-wise verdicts, and the pair gives
the cross-check. `perform_and_judge` adds the real input and the read-back in front;
probing performs its gestures in one batch (Backend.probe) and judges each with `judge`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from finestate_env.backends import Backend
from finestate_env.components import COMPONENTS
from finestate_env.core import scoring
from finestate_env.core.schema import Boxes, CrossCheck, Instance, StageVerdicts

Point = Sequence[float]
# perform_and_judge's default shown state, the instance's current one (None cannot stand
# for it: an accordion with nothing open is None).
CURRENT: Any = object()


@dataclass(frozen=True)
class Judgement:
    """What one action did to the control, and what the boxes said it would do."""

    state: Any  # read back from the control; the shown state when nothing was performed
    live_exact: bool  # the state read back equals the goal state
    static_exact: bool  # p1 lies in the goal box
    static: StageVerdicts  # the four verdicts with the box proxy for exactness
    live: StageVerdicts  # the four verdicts with the read-back
    crosscheck: CrossCheck
    action_error: str | None = None  # why nothing (or not all) was performed
    timings: dict[str, float] = field(default_factory=dict)  # ms: action, readback
    # A page scene's distractors the action changed (their labels, in the scene's order):
    # each is read back whole before and after the gesture. Empty for a lone control.
    changed: tuple[str, ...] = ()
    # The distractors' states read back after the gesture: what the next gesture of the
    # episode starts from (empty for a lone control, or when nothing was performed).
    distractor_states: tuple[Any, ...] = ()

    @property
    def collateral(self) -> bool:
        """The action changed something other than the target."""
        return bool(self.changed)


def judge(instance: Instance, p0: Point | None, p1: Point | None, state: Any, *,
          boxes: Boxes, action_error: str | None = None,
          timings: dict[str, float] | None = None, changed: Sequence[str] = (),
          distractor_states: Sequence[Any] = (), goal_in_reach: bool = True) -> Judgement:
    """Judge the state an action left, against `instance`'s goal and against `boxes`.

    `boxes` is the current configuration's boxes in screenshot pixels: the live
    measurement in an env step, the file's annotation in a replay. An action with an
    `action_error` is never live exact, whatever the state. `goal_in_reach` False: the
    goal is more than one gesture away from the screen acted on, so its goal box is the
    next gesture's (episodes of several gestures), and no point is exact by the boxes.
    """
    if instance.live is None:
        raise ValueError(f"instance {instance.id!r} has no live block: nothing live to judge")
    live_exact = action_error is None and COMPONENTS[instance.component].states_equal(
        state, instance.goal_state, instance.live.params)
    static_exact = goal_in_reach and scoring.static_exact(p1, boxes)
    return Judgement(
        state=state, live_exact=live_exact, static_exact=static_exact,
        static=scoring.stage_verdicts(p0, p1, boxes, static_exact),
        live=scoring.stage_verdicts(p0, p1, boxes, live_exact),
        crosscheck=scoring.crosscheck(static_exact, live_exact),
        action_error=action_error, timings=timings or {}, changed=tuple(changed),
        distractor_states=tuple(distractor_states))


def perform_and_judge(backend: Backend, instance: Instance, p0: Point | None, p1: Point | None,
                      *, boxes: Boxes, action_error: str | None = None,
                      shown_state: Any = CURRENT, goal_in_reach: bool = True,
                      distractors_shown: Sequence[Any] | None = None) -> Judgement:
    """Perform `instance`'s gesture from p0 to p1 as real input, read the control back, judge.

    The backend must show `instance`, in its current state or, later in an episode of
    several gestures, in `shown_state` (default: the current state). With an
    `action_error` (a point the screen does not have, NaN ...) nothing is performed and
    the control keeps the state it shows; `goal_in_reach` as for `judge`.
    `distractors_shown`: a page's distractor states as shown, when the caller has them
    (read back by the render, or after the episode's last gesture); else they are read
    before the gesture. Nothing but input changes them, and no input came since. BackendCrashed
    propagates: the caller decides whether to retry (replay) or to report it (the env).
    """
    if action_error is not None:
        shown = instance.current_state if shown_state is CURRENT else shown_state
        return judge(instance, p0, p1, shown, boxes=boxes, action_error=action_error,
                     goal_in_reach=goal_in_reach)
    scene = instance.live.scene if instance.live is not None else None
    before: Sequence[Any] = []
    if scene is not None:
        before = backend.read_distractors() if distractors_shown is None else distractors_shown
    started = time.perf_counter()
    backend.perform(instance.gesture, tuple(p0), tuple(p1))
    acted = time.perf_counter()
    changed: list[str] = []
    if scene is not None:  # collateral: what else the gesture changed, read back whole
        state, after = backend.read_state_and_distractors()
        changed = [d.label for d, was, now in zip(scene.distractors, before, after, strict=True)
                   if was != now]
    else:
        state, after = backend.read_state(), []
    timings = {"action": _ms(started, acted), "readback": _ms(acted, time.perf_counter())}
    return judge(instance, p0, p1, state, boxes=boxes, timings=timings, changed=changed,
                 distractor_states=after, goal_in_reach=goal_in_reach)


def _ms(start: float, end: float) -> float:
    return round((end - start) * 1000.0, 3)
