"""The box audit proves sound boxes and catches wrong ones."""

from __future__ import annotations

import pytest
from restore_check import check_restores_in_place

from finestate_env import components
from finestate_env.backends.base import Backend
from finestate_env.core.coords import box_center
from finestate_env.replay.audit import audit_instance, box_iou, grid


@pytest.mark.fast
def test_box_iou_and_grid_hand_computed():
    assert box_iou((0, 0, 9, 9), (0, 0, 9, 9)) == 1.0
    assert box_iou((0, 0, 9, 9), (5, 0, 14, 9)) == 50 / 150
    assert box_iou((0, 0, 9, 9), (10, 10, 12, 12)) == 0.0
    assert grid((0, 0, 2, 2), 5) == [(x, y) for y in (0, 1, 2) for x in (0, 1, 2)]
    assert grid((10, 20, 30, 20), 3) == [(10, 20), (20, 20), (30, 20)]


def test_audit_is_sound_and_tight(env_for, component):
    env = env_for(component)
    env.reset(seed=21)
    report = audit_instance(env.backend, env.instance, density=3, core_density=6)
    assert report.soundness == 1.0, f"unsound points: {report.unsound}"
    if components.COMPONENTS[component].goal_box_is_region:
        # Only sub-pixel slivers of the goal region may lie outside the box.
        x1, y1, x2, y2 = report.goal
        far = [(x, y) for x, y in report.outside_hits
               if not (x1 - 1 < x < x2 + 1 and y1 - 1 < y < y2 + 1)]
        assert far == [], f"the goal is reached well outside the goal box at {far}"


def test_audit_catches_a_shifted_goal_box(env_for, component):
    env = env_for(component)
    env.reset(seed=22)
    instance = env.instance
    x1, y1, x2, y2 = instance.boxes.current.goal
    width, height = x2 - x1 + 1, y2 - y1 + 1
    # Shift across the box's narrow side, by its own size: a band-shaped region
    # (a slider value, a list slot) is narrow that way, and long the other.
    dx, dy = (width, 0) if width <= height else (0, height)
    shifted = instance.boxes.current.model_copy(update={"goal": (x1 + dx, y1 + dy,
                                                                 x2 + dx, y2 + dy)})
    tampered = instance.model_copy(
        update={"boxes": instance.boxes.model_copy(update={"current": shifted})})
    report = audit_instance(env.backend, tampered, density=3, core_density=3)
    assert report.soundness < 1.0


def test_pipelined_probes_give_the_states_of_one_render_per_probe(env_for, component):
    """The page's in-place restore between pipelined probes (WebBackend.probe)
    must give exactly what rendering afresh before every gesture gives."""
    env = env_for(component)
    env.reset(seed=23)
    instance = env.instance
    backend = env.backend
    p0 = box_center(instance.boxes.current.now)
    points = grid(instance.boxes.current.core, 3) + grid(instance.boxes.current.goal, 2)
    pairs = [(p0, p1) for p1 in points]
    fast = backend.probe(instance.live, instance.gesture, pairs)
    slow = Backend.probe(backend, instance.live, instance.gesture, pairs)
    assert fast == slow
    # Page script cannot press the marker key: an untrusted F24 records nothing.
    backend.evaluate("spec => FineState.startProbing(spec)", {
        "component": instance.component, "params": instance.live.params,
        "state": instance.live.current_state, "theme": instance.live.theme})
    backend.evaluate("window.dispatchEvent(new KeyboardEvent('keydown', {key: 'F24'}))")
    assert backend.evaluate("FineState.takeProbes()") == []
    backend.evaluate("FineState.stopProbing()")


def test_restore_between_probes_shows_exactly_a_fresh_render(env_for, component):
    """Between probes the page restores the control in place (each renderer's
    restore), not by building it again: exactly as first rendered."""
    env = env_for(component)
    env.reset(seed=24)
    check_restores_in_place(env.backend, env.instance, density=7)
