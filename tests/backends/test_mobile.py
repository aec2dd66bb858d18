"""FineState-Mobile-v0: every type on an emulated phone, operated by touch (issue #8).

The web's bar on a 1080x2400 screen (360x800 CSS px at device scale factor 3):
the oracle reaches the goal with the static verdict equal to the live one, the
goal boxes are proven by touch probes, the audit is sound, the same seed gives
the same pixels, bad actions are reported, and closing leaves nothing behind.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from restore_check import check_restores_in_place

from finestate_env import components
from finestate_env.agents.scripted import OracleAgent
from finestate_env.components.base import TOUCH_TARGET
from finestate_env.components.themes import MOBILE_THEMES
from finestate_env.core.coords import box_center
from finestate_env.core.schema import LiveSpec, Size
from finestate_env.core.scoring import point_in_box
from finestate_env.replay.audit import audit_instance
from finestate_env.replay.probe import probe_points

SCREEN = (1080, 2400)
ORACLE_SEEDS = range(30)
ENV_SEEDS = range(3)
# CSS px: a tap that hits no target is moved onto one nearby by Blink's touch
# adjustment, whatever the finger's radius (measured: 3 CSS px outside a target
# still hits it; 11 never did on any type).
TAP_FRINGE = 11


@pytest.fixture(scope="module")
def env():
    """One phone for the whole module: each test picks its type per reset. The control
    alone: these tests are about each type on a phone (touch, boxes, audit); phone pages,
    the default scene, run the same checks in tests/components/test_scenes_live.py."""
    env = gym.make("FineState-Mobile-v0", render_mode="rgb_array", scene="control").unwrapped
    yield env
    env.close()


def test_a_phone_screen_driven_by_touch(env):
    obs, info = env.reset(seed=0, options={"component": "switch"})
    # The screenshot is the phone's native resolution, and so is the action frame.
    assert obs["screenshot"].shape == (SCREEN[1], SCREEN[0], 3)
    assert env.observation_space["screenshot"].shape == (SCREEN[1], SCREEN[0], 3)
    assert env.action_space["p1"].high.tolist() == [float(SCREEN[0]), float(SCREEN[1])]
    assert env.backend.layout_viewport == (360, 800)
    assert env.backend.evaluate("[innerWidth, innerHeight, devicePixelRatio]") == [360, 800, 3]
    assert env.instance.live.theme in MOBILE_THEMES
    env.backend.evaluate("""() => { window.__seen = [];
        for (const type of ['pointerdown', 'pointerup', 'click', 'mousemove'])
          window.addEventListener(type, (e) => window.__seen.push(
            [type, e.pointerType ?? null, e.isTrusted]), true); }""")
    _, reward, _, _, info = env.step(OracleAgent().act(obs, info))
    assert reward == 1.0
    seen = env.backend.evaluate("window.__seen")
    # A finger, not a mouse: nothing hovers at p0 first; touch pointer events,
    # then the compatibility mouse event and the click a tap makes on a phone.
    assert [s[:2] for s in seen] == [["pointerdown", "touch"], ["pointerup", "touch"],
                                     ["mousemove", None], ["click", "touch"]]
    assert all(s[2] for s in seen)


def test_no_point_of_the_screen_lets_the_browser_pan(env):
    """Where a touch finds no `touch-action: none` up its ancestors, the browser may pan
    on its own, and a pan cancels the control's pointer: the drag reverts. It asks its
    compositor when the page's main thread is slow to answer, which made the phone
    soaks' rare reverted drag. The root refuses pans, so every point of the screen does."""
    env.reset(seed=0, options={"component": "drag_reorder"})
    pannable = env.backend.evaluate("""() => {
        const pannable = [];
        for (let y = 2; y < innerHeight; y += 16) for (let x = 2; x < innerWidth; x += 16) {
          let el = document.elementFromPoint(x, y);
          while (el && getComputedStyle(el).touchAction !== 'none') el = el.parentElement;
          if (!el) pannable.push([x, y]);
        }
        return pannable; }""")
    assert pannable == []


def _live(env, component: str, seed: int) -> LiveSpec:
    sample = components.COMPONENTS[component].sample(np.random.default_rng(seed),
                                                  env.backend.layout_viewport, touch=True)
    return LiveSpec(component=component, params=sample.params,
                    current_state=sample.current_state, goal_state=sample.goal_state,
                    theme=MOBILE_THEMES[seed % len(MOBILE_THEMES)],
                    viewport=Size(width=SCREEN[0], height=SCREEN[1]), seed=seed,
                    backend="MobileBackend")


def test_oracle_reaches_goal_and_boxes_agree(env, component):
    """30 seeds through the backend (touch, read-back), 3 through the whole env."""
    definition, backend = components.COMPONENTS[component], env.backend
    failures = []
    for seed in ORACLE_SEEDS:
        live = _live(env, component, seed)
        rendered = backend.render(live)
        boxes = rendered.boxes.current
        p1 = box_center(boxes.goal)
        [state] = backend.probe(live, definition.gesture, [(box_center(boxes.now), p1)])
        live_exact = definition.states_equal(state, live.goal_state, live.params)
        if not (live_exact and point_in_box(p1, boxes.goal)
                and definition.states_equal(rendered.state, live.current_state, live.params)):
            failures.append((seed, live.goal_state, state))
    assert failures == [], f"oracle failed on {len(failures)}/{len(ORACLE_SEEDS)}: {failures[:5]}"
    agent = OracleAgent()
    for seed in ENV_SEEDS:
        obs, info = env.reset(seed=seed, options={"component": component})
        _, reward, terminated, _, info = env.step(agent.act(obs, info))
        assert (reward, terminated, info["crosscheck"], info["action_error"]) == (
            1.0, True, "agree", None), (seed, info["goal_state"], info["state"])
        assert info["static"] == info["live"] and all(info["live"].values())


def test_targets_are_sized_for_a_finger(env, component):
    """Every goal a finger must hit is TOUCH_TARGET CSS px or more where it can be
    (components.base.ComponentType.touch_goal says which side), on every seed."""
    definition, backend = components.COMPONENTS[component], env.backend
    scale = backend.device_scale_factor
    small = []
    for seed in range(12):
        boxes = backend.render(_live(env, component, seed)).boxes.current
        box = boxes.now if definition.touch_goal == "grab" else boxes.goal
        sides = sorted(((box[2] - box[0] + 1) / scale, (box[3] - box[1] + 1) / scale))
        needed = sides[1] if definition.touch_goal == "band" else sides[0]
        if needed < TOUCH_TARGET:
            small.append((seed, definition.touch_goal, sides))
    assert small == [], f"targets under {TOUCH_TARGET} CSS px: {small}"


def test_restore_between_touch_probes_shows_exactly_a_fresh_render(env, component):
    """The in-place restore the audit relies on, after taps and swipes of a finger."""
    env.reset(seed=24, options={"component": component})
    check_restores_in_place(env.backend, env.instance, density=4)


def test_goal_box_is_sound_and_tight(env, component):
    env.reset(seed=1, options={"component": component})
    instance = env.instance
    boxes = instance.boxes.current
    x1, y1, x2, y2 = boxes.goal
    inside = [box_center(boxes.goal), (x1, y1), (x2, y1), (x1, y2), (x2, y2)]
    for probe in probe_points(env.backend, instance, inside):
        assert probe.reached_goal, (f"p1={probe.p1} inside goal {boxes.goal} gave "
                                    f"{probe.state!r}, goal {instance.goal_state!r}")
    definition = components.COMPONENTS[component]
    if not definition.goal_box_is_region:
        return
    # A drag's touch moves report fractional CSS px: one screenshot pixel (a
    # third of a CSS px) beyond an edge is outside the region. A tap that
    # misses every target is moved onto a target a few CSS px away (Chromium's
    # touch adjustment, as on a phone): beyond a tap target's edge the bar is
    # TAP_FRINGE CSS px.
    step = 1 if definition.gesture == "drag" else TAP_FRINGE * env.backend.device_scale_factor
    cx, cy = box_center(boxes.goal)
    outside = [p for p in [(x1 - step, cy), (x2 + step, cy), (cx, y1 - step), (cx, y2 + step)]
               if point_in_box(p, boxes.core)]
    for probe in probe_points(env.backend, instance, outside):
        assert not probe.reached_goal, (f"p1={probe.p1} just outside goal {boxes.goal} still "
                                        f"gave the goal {instance.goal_state!r}")


def test_audit_is_sound(env, component):
    env.reset(seed=21, options={"component": component})
    report = audit_instance(env.backend, env.instance, density=3, core_density=4)
    assert report.soundness == 1.0, f"unsound points: {report.unsound}"


def test_same_seed_same_instance_and_pixels(env, component):
    obs_a, info_a = env.reset(seed=11, options={"component": component})
    env.step(OracleAgent().act(obs_a, info_a))  # touch and change state in between
    obs_b, info_b = env.reset(seed=11, options={"component": component})
    assert info_a["instance"] == info_b["instance"]
    assert obs_a["screenshot"].tobytes() == obs_b["screenshot"].tobytes()


BAD_ACTIONS = {
    "nan": ({"p0": [float("nan"), 10.0], "p1": [10.0, 10.0]}, "'p0'", "not finite"),
    "off screen": ({"p0": [10.0, 10.0], "p1": [1080.5, 10.0]}, "'p1'", "off screen"),
    "below the screen": ({"p0": [10.0, 2400.5], "p1": [10.0, 10.0]}, "'p0'", "off screen"),
    "wrong shape": ({"p0": [1.0, 2.0, 3.0], "p1": [10.0, 10.0]}, "'p0'", "shape (2,)"),
}


@pytest.mark.parametrize("case", list(BAD_ACTIONS))
def test_bad_action_is_reported_not_raised(env, case):
    action, names, says = BAD_ACTIONS[case]
    env.reset(seed=5)
    _, reward, terminated, _, info = env.step(action)
    assert reward == 0.0 and terminated and info["success"] is False
    assert names in info["action_error"] and says in info["action_error"]
    assert info["state"] == info["current_state"]
    obs, info = env.reset(seed=6)
    _, reward, _, _, info = env.step(OracleAgent().act(obs, info))
    assert reward == 1.0 and info["action_error"] is None


@pytest.mark.fast
def test_viewport_must_divide_by_the_scale():
    with pytest.raises(ValueError, match="whole"):
        gym.make("FineState-Mobile-v0", viewport="1000x2400")
    with pytest.raises(ValueError, match="unknown theme"):
        gym.make("FineState-Mobile-v0", theme="fluent-dark")


def test_other_phone_sizes():
    env = gym.make("FineState-Mobile-v0", viewport="824x1830",
                   backend_options={"device_scale_factor": 2}).unwrapped
    try:
        obs, info = env.reset(seed=3, options={"component": "slider"})
        assert obs["screenshot"].shape == (1830, 824, 3)
        assert env.backend.layout_viewport == (412, 915)
        _, reward, _, _, _ = env.step(OracleAgent().act(obs, info))
        assert reward == 1.0
    finally:
        env.close()


