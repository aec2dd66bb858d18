"""The check that a control restored in place between probes equals a fresh render.

Shared by the web (test_audit) and phone (test_mobile) tests: the renderers
and stage.js are the same on both, the input (mouse, touch) is not.
"""

from __future__ import annotations

import numpy as np

from finestate_env.core.coords import box_center
from finestate_env.core.schema import Boxes, Instance
from finestate_env.replay.audit import grid

# Everything a probe could leave behind that the DOM shows: markup (classes,
# inline styles, text), focus, and scroll offsets.
FINGERPRINT = """() => {
    const host = document.querySelector(".fs-control");
    return [host.outerHTML, document.activeElement === document.body,
            [...host.querySelectorAll("*")].map((e) => [e.scrollTop, e.scrollLeft])]; }"""
HOST_BOX = """() => {
    const r = document.querySelector(".fs-control").getBoundingClientRect();
    return [r.left, r.top, r.right - 1, r.bottom - 1]; }"""


def check_restores_in_place(backend, instance: Instance, density: int) -> None:
    """Probe `instance` (rendered by env.reset) all over its control, one probe
    at a time; after each the control must be exactly as first rendered: the
    same DOM, focus and scroll offsets, and at the end the same state, boxes
    and pixels. One probe per call: a change that a second probe would undo
    (a switch flipped twice) cannot hide a restore that misses it."""
    fresh_pixels = backend.screenshot()
    fresh = backend.evaluate(FINGERPRINT)
    scale = getattr(backend, "device_scale_factor", 1.0)  # screenshot px per CSS px
    host = [round(v * scale) for v in backend.evaluate(HOST_BOX)]
    current = instance.boxes.current
    p0 = box_center(current.now)
    gestures = [(p0, p1) for p1 in grid(host, density) + grid(current.core, 3)
                + grid(current.goal, 2)]
    if instance.gesture == "drag":  # drags that start on distractors too: handles, rows, views
        step = 50 * scale
        gestures += [(start, (start[0] + dx, start[1] + dy))
                     for start in grid(host, max(2, density // 2))
                     for dx, dy in ((-step, 0), (step, 0), (0, -step), (0, step))]
    changed = []
    for start, end in gestures:
        [state] = backend.probe(instance.live, instance.gesture, [(start, end)])
        changed += [end] if state != instance.live.current_state else []
        assert backend.evaluate(FINGERPRINT) == fresh, f"not restored after {start} -> {end}"
    assert changed, "no probe changed the state: nothing was restored"
    assert backend.read_state() == instance.live.current_state
    assert Boxes(**backend.evaluate("goal => FineState.boxes(goal)",
                                    instance.live.goal_state)) == current
    restored = backend.screenshot()
    assert np.array_equal(restored, fresh_pixels), (
        f"{int((restored != fresh_pixels).any(axis=2).sum())} pixels differ from a fresh render")
