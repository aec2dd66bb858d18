"""Every implemented component type, live in Chromium: the bar of issue #2.

The oracle reaches the goal every time, the boxes are proven by probing,
the same seed gives the same pixels, and script cannot fake the goal state.
"""

from __future__ import annotations

import numpy as np

from finestate_env import components, decode_state
from finestate_env.agents.scripted import OracleAgent
from finestate_env.core.coords import box_center
from finestate_env.core.scoring import point_in_box
from finestate_env.replay.probe import probe_points

# 30 seeds a type (690 episodes; 50 took ~70 s more of make test on 2 cores): the oracle on
# further draws runs in test_scenes_live (pages), test_mobile, test_desktop and the soaks.
ORACLE_SEEDS = range(30)
PROBE_SEEDS = range(5)
BLANK = (1.0, 1.0)  # the stage margin: no control is ever placed there


def test_oracle_reaches_goal_and_boxes_agree(env_for, component):
    env, agent = env_for(component), OracleAgent()
    failures = []
    for seed in ORACLE_SEEDS:
        obs, info = env.reset(seed=seed)
        _, reward, terminated, truncated, info = env.step(agent.act(obs, info))
        if not (info["success"] and reward == 1.0 and info["crosscheck"] == "agree"
                and info["static"] == info["live"] and info["action_error"] is None):
            failures.append((seed, info["goal_state"], info["state"], info["crosscheck"]))
        assert terminated and not truncated
    assert failures == [], f"oracle failed on {len(failures)}/{len(ORACLE_SEEDS)}: {failures[:5]}"


def _edge_points(box, offset):
    """Five points along each side of `box`, `offset` px outside it, with the side's name."""
    x1, y1, x2, y2 = box
    xs, ys = np.linspace(x1, x2, 5), np.linspace(y1, y2, 5)
    for x in xs:
        yield "top", (x, y1 - offset)
        yield "bottom", (x, y2 + offset)
    for y in ys:
        yield "left", (x1 - offset, y)
        yield "right", (x2 + offset, y)


def test_goal_box_is_sound_and_tight(env_for, component):
    env = env_for(component)
    definition = components.COMPONENTS[component]
    for seed in PROBE_SEEDS:
        env.reset(seed=seed)
        instance = env.instance
        boxes = instance.boxes.current
        x1, y1, x2, y2 = boxes.goal
        inside = [box_center(boxes.goal), (x1, y1), (x2, y1), (x1, y2), (x2, y2)]
        for probe in probe_points(env.backend, instance, inside):
            assert probe.reached_goal, (
                f"seed {seed}: p1={probe.p1} inside goal {boxes.goal} gave {probe.state!r}, "
                f"goal {instance.goal_state!r}")
        if not definition.goal_box_is_region:
            continue
        # One pixel beyond an edge: outside the goal region, unless outside core too.
        outside = [p for _, p in _edge_points(boxes.goal, 1) if point_in_box(p, boxes.core)]
        for probe in probe_points(env.backend, instance, outside):
            assert not probe.reached_goal, (
                f"seed {seed}: p1={probe.p1} just outside goal {boxes.goal} still gave the "
                f"goal {instance.goal_state!r}: the box is not tight")


def test_same_seed_same_instance_and_pixels(env_for, component):
    env = env_for(component)
    obs_a, info_a = env.reset(seed=11)
    env.step(OracleAgent().act(obs_a, info_a))  # move the pointer and change state in between
    env.reset(seed=12)
    obs_b, info_b = env.reset(seed=11)
    assert info_a["instance"] == info_b["instance"]
    assert obs_a["instruction"] == obs_b["instruction"]
    assert obs_a["screenshot"].tobytes() == obs_b["screenshot"].tobytes()


BYPASS_SCRIPT = """goal => {
  const [x, y] = goal;
  // Fill every form element, as a script filling a hidden input would.
  for (const input of document.querySelectorAll('input, textarea, select')) {
    input.value = '1'; input.dispatchEvent(new Event('input', {bubbles: true}));
    input.dispatchEvent(new Event('change', {bubbles: true}));
  }
  // Synthetic pointer and mouse events, and element.click(), at the goal.
  const target = document.elementFromPoint(x, y);
  const init = {bubbles: true, cancelable: true, clientX: x, clientY: y, pointerId: 1,
                button: 0, buttons: 1, isPrimary: true};
  for (const type of ['pointerdown', 'pointermove', 'pointerup'])
    target.dispatchEvent(new PointerEvent(type, init));
  for (const type of ['mousedown', 'mouseup', 'click'])
    target.dispatchEvent(new MouseEvent(type, init));
  target.click();
  // Attributes and text that look like state.
  for (const el of document.querySelectorAll('[aria-valuenow], [aria-checked], [data-value]')) {
    el.setAttribute('aria-valuenow', '1'); el.setAttribute('aria-checked', 'true');
    el.setAttribute('data-value', '1');
  }
  return FineState.state();
}"""


def test_script_cannot_reach_the_goal(env_for, component):
    env = env_for(component)
    for seed in range(5):
        _, info = env.reset(seed=seed)
        goal_center = box_center(env.instance.boxes.current.goal)
        after_script = env.backend.evaluate(BYPASS_SCRIPT, list(goal_center))
        definition = components.COMPONENTS[component]
        params = env.instance.live.params
        assert definition.states_equal(after_script, decode_state(info["current_state"]), params), (
            f"seed {seed}: script changed the state to {after_script!r}")
        # A real action that does nothing must not be credited with the goal either.
        _, reward, _, _, info = env.step({"p0": np.array(BLANK, np.float32),
                                          "p1": np.array(BLANK, np.float32)})
        assert reward == 0.0 and info["success"] is False
        assert definition.states_equal(decode_state(info["state"]), env.instance.current_state,
                                      params)
