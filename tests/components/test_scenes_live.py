"""Page scenes (issue #16): every type in an app page among live distractors, on the
web, on the phone and on the desktop (every test taking `page_env` runs on all three).

What holds for a lone control holds on a page: the oracle reaches the goal with
static == live, the goal box is sound under probing (audit), the same seed gives
the same pixels, script sets no state (the distractors' neither), probes restore
the whole page in place; and a page adds its own: the instruction names the
target unambiguously, and `collateral` tells when the action changed a distractor.
On the phone the page's target keeps the touch rule (finger-sized goals).

The issue asks for the oracle on 50 seeds per type; to keep the suite's time
modest each type gets PAGE_SEEDS here plus one sweep of SWEEP episodes over all
types (tests/support/page_sweep.py runs 50 per type, outside the suite).

The tests that take `page_env` run on every platform of ENV_IDS (a web page in
Chromium, a Qt window in Xvfb); how a test reaches into a platform (page script on
the web, the Qt app's socket on the desktop) is in the tests named for it.
"""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest

from finestate_env import components, decode_state
from finestate_env.agents.scripted import OracleAgent
from finestate_env.components import scenes
from finestate_env.components.base import TOUCH_TARGET
from finestate_env.core.coords import box_center
from finestate_env.core.schema import Boxes
from finestate_env.replay.audit import audit_instance, grid
from finestate_env.replay.probe import probe_points

PAGE_SEEDS = range(2)
SWEEP = {"web": 90, "mobile": 60, "desktop": 80}
ENV_IDS = {"web": "FineState-Web-v0", "mobile": "FineState-Mobile-v0",
           "desktop": "FineState-Desktop-v0"}


@pytest.fixture(scope="module")
def web_page_env():
    env = gym.make(ENV_IDS["web"], scene="page").unwrapped
    yield env
    env.close()


@pytest.fixture(scope="module")
def mobile_page_env():
    env = gym.make(ENV_IDS["mobile"], scene="page").unwrapped
    yield env
    env.close()


@pytest.fixture(scope="module")
def desktop_page_env():
    env = gym.make(ENV_IDS["desktop"], scene="page").unwrapped
    yield env
    env.close()


@pytest.fixture(params=list(ENV_IDS))
def page_env(request):
    """A page env of each platform in turn (one env per platform for the module)."""
    return request.getfixturevalue(f"{request.param}_page_env")


@pytest.fixture(params=["web", "mobile"])
def browser_page_env(request):
    """A page env of each platform drawn in Chromium (page script reaches into it)."""
    return request.getfixturevalue(f"{request.param}_page_env")


def _reset(env, component, seed):
    return env.reset(seed=seed, options={"component": component})


def _page_with(env, target, kind):
    """The first page from seed 0 on with a `kind` distractor beside a `target`: the
    distractor's index in the scene, and the distractor."""
    for seed in range(50):
        _reset(env, target, seed)
        found = [(i, d) for i, d in enumerate(env.instance.live.scene.distractors)
                 if d.component == kind]
        if found:
            return found[0]
    pytest.fail(f"no page with a {kind} distractor beside a {target} in 50 seeds")


def test_oracle_on_pages(page_env, component):
    agent, failures = OracleAgent(), []
    for seed in PAGE_SEEDS:
        obs, info = _reset(page_env, component, seed)
        scene = page_env.instance.live.scene
        assert scene is not None and scenes.MIN_DISTRACTORS <= len(scene.distractors) <= 15
        _, reward, terminated, _, info = page_env.step(agent.act(obs, info))
        if not (info["success"] and reward == 1.0 and info["crosscheck"] == "agree"
                and info["static"] == info["live"] and info["collateral"] is False
                and info["collateral_changed"] == "[]"):
            failures.append((seed, scene.template, info["goal_state"], info["state"],
                             info["crosscheck"], info["collateral_changed"]))
        assert terminated
    assert failures == []


def test_oracle_sweep_over_every_type(page_env):
    """SWEEP episodes over all types and templates: the oracle, static == live."""
    agent, failures, templates = OracleAgent(), [], set()
    names = list(getattr(page_env.backend, "components", None) or components.COMPONENTS)
    for i in range(SWEEP[page_env.platform]):
        obs, info = _reset(page_env, names[i % len(names)], 1000 + i)
        templates.add(page_env.instance.live.scene.template)
        _, _, _, _, info = page_env.step(agent.act(obs, info))
        if not (info["success"] and info["static"] == info["live"] and not info["collateral"]):
            # The state read back tells a drag the browser cancelled (the start state)
            # from a read-back that came early (a state on the way).
            failures.append((names[i % len(names)], 1000 + i, info["crosscheck"],
                             info["collateral_changed"], info["current_state"],
                             info["state"], info["goal_state"]))
    assert failures == []
    assert templates == set(scenes.templates(page_env.platform))


def test_goal_box_probes_and_audit_on_pages(page_env, component):
    _reset(page_env, component, 7)
    instance = page_env.instance
    x1, y1, x2, y2 = goal = instance.boxes.current.goal
    inside = [box_center(goal), (x1, y1), (x2, y1), (x1, y2), (x2, y2)]
    for probe in probe_points(page_env.backend, instance, inside):
        assert probe.reached_goal, f"p1={probe.p1} in goal {goal} gave {probe.state!r}"
    report = audit_instance(page_env.backend, instance, density=3, core_density=4)
    assert report.soundness == 1.0, f"unsound points: {report.unsound}"


def test_same_seed_same_page_and_pixels(page_env, component):
    obs_a, info_a = _reset(page_env, component, 11)
    page_env.step(OracleAgent().act(obs_a, info_a))  # a drag or a tap in between
    _reset(page_env, component, 12)
    obs_b, info_b = _reset(page_env, component, 11)
    assert info_a["instance"] == info_b["instance"]
    assert obs_a["screenshot"].tobytes() == obs_b["screenshot"].tobytes()


BYPASS_SCRIPT = """() => {
  for (const el of document.querySelectorAll('#stage *')) {
    for (const type of ['pointerdown', 'pointerup', 'click'])
      el.dispatchEvent(new PointerEvent(type, {bubbles: true, clientX: 5, clientY: 5}));
    if (el.click) el.click();
  }
  return [FineState.state(), FineState.distractorStates()];
}"""


def test_script_sets_no_state_on_a_page(browser_page_env, component):
    _, info = _reset(browser_page_env, component, 3)
    before = browser_page_env.backend.read_distractors()
    state, distractors = browser_page_env.backend.evaluate(BYPASS_SCRIPT)
    params = browser_page_env.instance.live.params
    assert components.COMPONENTS[component].states_equal(
        state, decode_state(info["current_state"]), params)
    assert distractors == before


# Everything a probe could leave behind on the page: markup, focus, scroll offsets.
PAGE_FINGERPRINT = """() => {
    const stage = document.getElementById("stage");
    return [stage.innerHTML, document.activeElement === document.body,
            [...stage.querySelectorAll("*")].map((e) => [e.scrollTop, e.scrollLeft])]; }"""


def test_a_reset_shows_what_a_fresh_page_build_shows(browser_page_env, component):
    """A reset draws the page in the goal state to measure the target configuration, then
    builds the target alone again in the current state (stage.js, showTarget): the page
    then holds what building it whole shows (markup, boxes, state, pixels)."""
    env = browser_page_env
    obs, info = _reset(env, component, 7)
    after_reset = [env.backend.evaluate(PAGE_FINGERPRINT), obs["screenshot"]]
    boxes, state = env.backend.render_current(env.instance.live)  # the whole page, built anew
    assert env.backend.evaluate(PAGE_FINGERPRINT) == after_reset[0]
    assert np.array_equal(env.backend.screenshot(), after_reset[1])
    assert boxes == env.instance.boxes.current
    assert components.COMPONENTS[component].states_equal(
        state, decode_state(info["current_state"]), env.instance.live.params)


@pytest.mark.parametrize("kind", ["slider", "switch", "date_picker", "drag_reorder",
                                  "segmented", "zoom_pan"])
def test_probes_restore_the_whole_page_in_place(browser_page_env, kind):
    """Probes all over the page, on distractors too, one at a time: after each the page
    is as first rendered (every control restored in place), and so are its pixels."""
    _reset(browser_page_env, kind, 5)
    backend, instance = browser_page_env.backend, browser_page_env.instance
    fresh, fresh_pixels = backend.evaluate(PAGE_FINGERPRINT), backend.screenshot()
    width, height = instance.size.width, instance.size.height
    p0 = box_center(instance.boxes.current.now)
    points = grid((4, 60, width - 5, height - 5), 7) + grid(instance.boxes.current.core, 3)
    for d in instance.scene.distractors:
        points += grid(d.loc, 3)
    for p1 in points:
        backend.probe(instance.live, instance.gesture, [(p0, p1)])
        assert backend.evaluate(PAGE_FINGERPRINT) == fresh, f"not restored after p1={p1}"
    assert backend.read_state() == instance.live.current_state
    assert Boxes(**backend.evaluate("goal => FineState.boxes(goal)",
                                    instance.live.goal_state)) == instance.boxes.current
    assert np.array_equal(backend.screenshot(), fresh_pixels)


def test_collateral_when_the_agent_operates_a_distractor(web_page_env):
    """A click on a distractor slider's rail (the target a switch) moves that slider:
    the step says so, and names it."""
    i, distractor = _page_with(web_page_env, "switch", "slider")
    rail = web_page_env.backend.evaluate(
        """i => { const r = document.querySelectorAll('#stage > .fs-control')[1 + i]
                   .querySelector('.fs-slider-rail').getBoundingClientRect();
                 return [r.left, r.top, r.right, r.bottom]; }""", i)
    middle = (rail[1] + rail[3]) / 2
    # Whichever end is farther from the slider's value moves it.
    end = rail[0] + 1 if distractor.state > distractor.params["min"] else rail[2] - 1
    point = np.array([end, middle], np.float32)
    _, reward, _, _, info = web_page_env.step({"p0": point, "p1": point})
    assert reward == 0.0 and info["collateral"] is True
    assert json.loads(info["collateral_changed"]) == [distractor.label]


def test_the_distractors_a_render_reports_are_those_read_back(page_env, component):
    """A step's collateral compares the distractors after the gesture with those the
    render reported (env.step reads them no second time before the gesture): on every
    platform and for every type they are what reading them back finds, and a read of the
    state with the distractors in one round trip answers what two reads do."""
    _, info = _reset(page_env, component, 5)
    backend = page_env.backend
    reported = page_env._distractors
    assert len(reported) == len(page_env.instance.live.scene.distractors)
    assert list(reported) == backend.read_distractors()
    state, distractors = backend.read_state_and_distractors()
    assert distractors == backend.read_distractors()
    assert components.COMPONENTS[component].states_equal(
        state, decode_state(info["current_state"]), page_env.instance.live.params)


def test_collateral_is_counted_from_the_last_gesture_not_from_the_render():
    """Two gestures: the first moves a distractor slider (collateral, named), the second
    operates the target alone; the slider, changed since the render, is not changed by
    the second gesture, so its step names nothing."""
    env = gym.make(ENV_IDS["web"], scene="page", max_actions=2).unwrapped
    try:
        i, distractor = _page_with(env, "switch", "slider")
        rail = env.backend.evaluate(
            """i => { const r = document.querySelectorAll('#stage > .fs-control')[1 + i]
                       .querySelector('.fs-slider-rail').getBoundingClientRect();
                     return [r.left, r.top, r.right, r.bottom]; }""", i)
        end = rail[0] + 1 if distractor.state > distractor.params["min"] else rail[2] - 1
        point = np.array([end, (rail[1] + rail[3]) / 2], np.float32)
        obs, reward, terminated, _, info = env.step({"p0": point, "p1": point})
        assert (reward, terminated, info["collateral"]) == (0.0, False, True)
        assert json.loads(info["collateral_changed"]) == [distractor.label]
        _, reward, terminated, _, info = env.step(OracleAgent().act(obs, info))
        assert (reward, terminated, info["collateral"]) == (1.0, True, False)
        assert info["collateral_changed"] == "[]"
    finally:
        env.close()


# Requests the Qt app is sent with a state in them: none is an op that sets one (the
# app's ops render a spec, read back, measure or probe), so none changes anything.
FORGED_REQUESTS = [{"op": "set", "state": None}, {"op": "eval", "code": "click()"},
                   {"op": "click", "x": 5, "y": 5}, {"op": "state", "markers": 0, "state": None},
                   {"op": "distractors", "markers": 0, "states": []}]


def test_qt_app_takes_no_state_from_its_socket(desktop_page_env, component):
    """The desktop's analogue of page script: whatever the socket is sent, the target
    and every distractor keep their states, and the page its pixels."""
    env = desktop_page_env
    _, info = _reset(env, component, 3)
    backend, live = env.backend, env.instance.live
    before, pixels = backend.read_distractors(), backend.screenshot()
    for request in FORGED_REQUESTS:
        forged = {**request, "state": live.goal_state} if "state" in request else request
        try:
            backend._request("a forged request", forged)
        except RuntimeError as exc:
            assert "unknown op" in str(exc)
    assert components.COMPONENTS[component].states_equal(
        backend.read_state(), decode_state(info["current_state"]), live.params)
    assert backend.read_distractors() == before
    assert np.array_equal(backend.screenshot(), pixels)


def test_a_qt_reset_shows_what_a_fresh_page_build_shows(desktop_page_env, component):
    """The Qt app's render builds the target alone again after measuring the goal
    configuration (Stage.show_target): the screen is then what a whole new page shows
    (probing with no gesture ends with one, as every probing run does)."""
    env = desktop_page_env
    obs, info = _reset(env, component, 7)
    instance = env.instance
    env.backend.probe(instance.live, instance.gesture, [])
    assert np.array_equal(env.backend.screenshot(), obs["screenshot"])
    assert env.backend.measure(instance.live.goal_state).boxes == instance.boxes.current
    assert components.COMPONENTS[component].states_equal(
        env.backend.read_state(), decode_state(info["current_state"]), instance.live.params)


@pytest.mark.parametrize("kind", ["slider", "switch", "date_picker", "drag_reorder",
                                  "segmented", "zoom_pan", "stepper"])
def test_qt_probes_restore_the_whole_page(desktop_page_env, kind):
    """Probes all over a Qt page, on distractors too, back to back: each gives what it
    gives from a fresh render (the target and every distractor it changed are rebuilt in
    place in between), and the page ends as rendered, pixels too."""
    _reset(desktop_page_env, kind, 5)
    backend, instance = desktop_page_env.backend, desktop_page_env.instance
    fresh_pixels, fresh = backend.screenshot(), backend.read_distractors()
    width, height = instance.size.width, instance.size.height
    p0 = box_center(instance.boxes.current.now)
    points = grid((4, 90, width - 5, height - 30), 5) + grid(instance.boxes.current.core, 3)
    for d in instance.scene.distractors:
        points += grid(d.loc, 3)
    batch = backend.probe(instance.live, instance.gesture, [(p0, p1) for p1 in points])
    assert np.array_equal(backend.screenshot(), fresh_pixels)
    assert backend.read_distractors() == fresh
    alone = [backend.probe(instance.live, instance.gesture, [(p0, p1)])[0] for p1 in points[::4]]
    assert batch[::4] == alone
    assert backend.read_state() == instance.live.current_state
    assert np.array_equal(backend.screenshot(), fresh_pixels)


def test_qt_collateral_when_the_agent_operates_a_distractor(desktop_page_env):
    """A click on a distractor switch (the target a slider) flips it: the step says so,
    and names it."""
    env = desktop_page_env
    i, distractor = _page_with(env, "slider", "switch")
    # The Qt app measures any control of its page for a goal (its "measure" op, which
    # sets nothing); the backend's interface asks it for the target's only.
    goal = Boxes(**env.backend._request("distractor measure", {
        "op": "measure", "index": i, "goal": not distractor.state})["boxes"]).goal
    point = np.array(box_center(goal), np.float32)
    _, reward, _, _, info = env.step({"p0": point, "p1": point})
    assert reward == 0.0 and info["collateral"] is True
    assert json.loads(info["collateral_changed"]) == [distractor.label]


def test_the_fullest_qt_reorder_lists_fit_their_slots(desktop_page_env):
    """The sampler sizes a reorder list by the web's card; Qt's list spaces its first and
    last rows too. The pages whose list fills its slot the most (rows 8 px apart, found by
    sampling alone) render on the desktop: the Qt app raises on a card over its slot (a
    3000-episode soak met one at seed 2422 before the desktop's pad)."""
    env = desktop_page_env
    slack = {}
    for seed in range(400):
        gym.Env.reset(env, seed=seed)
        live = env._sample_live(seed, "drag_reorder")
        p, rows = live.params, len(live.current_state)
        if p["gap"] == 8:
            web_card = 56 + rows * (p["row_height"] + p["gap"]) - p["gap"]
            slack[seed] = live.scene.rect[3] - 2 * 8 - web_card
    fullest = sorted(slack, key=slack.get)[:3]
    assert slack[fullest[0]] < 8  # the fullest list leaves less than one row gap free
    for seed in fullest:
        _reset(env, "drag_reorder", seed)
        x, y, w, h = env.instance.live.scene.rect
        loc = env.instance.boxes.current.loc
        assert x <= loc[0] and loc[2] <= x + w and y <= loc[1] and loc[3] <= y + h


def test_instance_records_its_scene(page_env):
    _reset(page_env, "slider", 4)
    instance = page_env.instance
    record = json.loads(instance.model_dump_json())
    assert record["scene"]["template"] == instance.live.scene.template
    assert [(d["component"], d["label"]) for d in record["scene"]["distractors"]] == [
        (d.component, d.label) for d in instance.live.scene.distractors]
    for d in instance.scene.distractors:  # each measured, inside the screen
        assert 0 <= d.loc[0] <= d.loc[2] < instance.size.width
        assert 0 <= d.loc[1] <= d.loc[3] < instance.size.height


def test_control_scene_steps_say_no_collateral(env_for):
    env = env_for("slider")
    obs, info = env.reset(seed=0)
    assert "scene" not in json.loads(info["instance"])["live"]
    _, _, _, _, info = env.step(OracleAgent().act(obs, info))
    assert info["collateral"] is False and info["collateral_changed"] == "[]"


@pytest.mark.fast
def test_page_needs_room():
    with pytest.raises(ValueError, match="1100x700"):
        gym.make("FineState-Web-v0", scene="page", viewport=(800, 600))
    with pytest.raises(ValueError, match="360x800"):  # a phone of 360x720 CSS px
        gym.make("FineState-Mobile-v0", scene="page", viewport=(1080, 2160))
    with pytest.raises(ValueError, match="scene must be one of"):
        gym.make("FineState-Web-v0", scene="poster")


@pytest.mark.parametrize("platform", list(ENV_IDS))
def test_generate_pages_records_the_scene_in_both_layouts(tmp_path, platform):
    from finestate_env.datasets import formats
    from finestate_env.datasets.generate import generate

    released = generate(tmp_path, platform=platform, n=2, seed=0, component="slider",
                        fmt="finestate", scene="page")
    instances = formats.read_instances(tmp_path / "instances.jsonl").items
    records = [json.loads(line) for line in released.read_text().splitlines()]
    for instance, record in zip(instances, records, strict=True):
        assert instance.live.scene is not None and instance.scene is not None
        assert record["scene"]["template"] == instance.scene.template
        assert [d["label"] for d in record["scene"]["distractors"]] == [
            d.label for d in instance.scene.distractors]
    assert {i.platform for i in instances} == {platform}


def test_collateral_when_a_finger_flips_a_distractor_switch(mobile_page_env):
    """On the phone: a tap on a distractor switch's track (the target a checkbox) flips
    that switch: the step says so, and names it."""
    env = mobile_page_env
    obs, info = _reset(env, "checkbox", 0)
    switches = [i for i, d in enumerate(env.instance.live.scene.distractors)
                if d.component == "switch"]
    assert switches, "every phone page beside a checkbox has compact switch rows"
    i = switches[-1]
    distractor = env.instance.live.scene.distractors[i]
    track = env.backend.evaluate(
        """([i, row]) => { const r = document.querySelectorAll('#stage > .fs-control')[1 + i]
                   .querySelectorAll('.fs-switch-track')[row].getBoundingClientRect();
                 return [(r.left + r.right) / 2, (r.top + r.bottom) / 2]; }""",
        [i, distractor.params["target"]])
    point = np.array(track, np.float32) * env.backend.device_scale_factor
    _, reward, _, _, info = env.step({"p0": point, "p1": point})
    assert reward == 0.0 and info["collateral"] is True
    assert json.loads(info["collateral_changed"]) == [distractor.label]


def test_phone_page_targets_are_sized_for_a_finger(mobile_page_env, component):
    """The touch rule of a lone control (tests/backends/test_mobile.py) on a page too:
    the target's slot is shorter than the screen, its goal no smaller."""
    definition = components.COMPONENTS[component]
    scale = mobile_page_env.backend.device_scale_factor
    small = []
    for seed in PAGE_SEEDS:
        _, info = _reset(mobile_page_env, component, seed)
        boxes = mobile_page_env.instance.boxes.current
        box = boxes.now if definition.touch_goal == "grab" else boxes.goal
        sides = sorted(((box[2] - box[0] + 1) / scale, (box[3] - box[1] + 1) / scale))
        if (sides[1] if definition.touch_goal == "band" else sides[0]) < TOUCH_TARGET:
            small.append((seed, definition.touch_goal, sides))
    assert small == []


@pytest.mark.fast
@pytest.mark.parametrize("platform", list(ENV_IDS))
def test_instructions_name_the_target_unambiguously(platform, component):
    """Drawn without a browser, 10 pages a type: the instruction places the target in its
    section, which no other heading repeats, and names its label where the type's
    wordings can (where none can, it is the page's only control of its type); no
    distractor shows the target's label anywhere, and one of the target's own type
    shares its section only where the label tells them apart."""
    viewport = {"web": (1280, 720), "mobile": (360, 800), "desktop": (1280, 720)}[platform]
    for seed in range(10):
        rng = np.random.default_rng(seed)
        sample, scene = scenes.sample_page(rng, platform, component, viewport,
                                           touch=platform == "mobile")
        drawn = scenes.page_instructions(rng, component, sample, scene)
        headings = [b["text"] for b in scene.blocks if b["kind"] == "heading"]
        assert headings.count(scene.section) == 1, headings
        assert drawn.interact.startswith(f"In the {scene.section} section, ")
        assert scene.label == scenes.label_of(component, sample.params)
        if scene.label not in drawn.interact + drawn.locate:  # the type alone tells it
            assert component not in {d.component for d in scene.distractors}, drawn
        for d in scene.distractors:
            assert scene.label not in scenes.names_of(d.params), (d.component, d.label)
            assert d.label != scene.label
            if d.section == scene.section and d.component == component:
                assert component in scenes.SIBLING_TYPES  # told apart by the label
        assert scenes.MIN_DISTRACTORS <= len(scene.distractors) <= scenes.MAX_DISTRACTORS
