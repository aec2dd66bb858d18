"""The curriculum (env option `level`, env/curriculum.py) live on the web, as a user calls it
through gym.make and gym.make_vec: what each level draws, that a seed draws the same
instance and pixels at its level, `set_level` on an env and through the ids' own vector
env, and the options it refuses. Lone switches and radio groups, and one page type, keep
it cheap; level 0's every type on every platform is tests/env/test_level0_live.py's."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest

from finestate_env.agents.scripted import OracleAgent
from finestate_env.env import curriculum

TYPES = ["switch", "radio_group"]
SEEDS = (3, 4, 5, 6, 7, 8)


@pytest.fixture(scope="module")
def env():
    """One web env of TYPES made at level 0, moved between levels by the tests that ask
    (each sets the level it needs first: the fixture is shared)."""
    env = gym.make("FineState-Web-v0", component=TYPES, level=0)
    yield env
    env.close()


@pytest.fixture(scope="module")
def plain():
    """`scene=` without `level=`: what levels 1 and 2 must equal."""
    made: dict[str, gym.Env] = {}

    def get(scene: str) -> gym.Env:
        if scene not in made:
            made[scene] = gym.make("FineState-Web-v0", component=TYPES, scene=scene)
        return made[scene]

    yield get
    for env in made.values():
        env.close()


def _at(env: gym.Env, level: int) -> gym.Env:
    env.unwrapped.set_level(level)
    assert env.unwrapped.level == level
    return env


def _instance(info: dict) -> dict:
    return json.loads(info["instance"])


def _noop() -> dict:
    """A malformed action: an episode's gesture used up, nothing performed on any page."""
    bad = np.array([-5.0, -5.0], dtype=np.float32)
    return {"p0": bad, "p1": bad}


@pytest.mark.parametrize("level", [0, 1, 2])
def test_same_seed_same_level_same_instance_and_pixels(env, level):
    _at(env, level)
    obs, info = env.reset(seed=11, options={"component": "radio_group"})
    env.reset(seed=12, options={"component": "radio_group"})  # something else shown between
    again, info2 = env.reset(seed=11, options={"component": "radio_group"})
    assert info2["instance"] == info["instance"]
    assert np.array_equal(again["screenshot"], obs["screenshot"])
    assert again["instruction"] == obs["instruction"]


@pytest.mark.parametrize("name", TYPES)
def test_level0_keeps_the_control_and_draws_only_the_states(env, name):
    _at(env, 0)
    shots, states, controls = {}, set(), []
    for seed in SEEDS:
        obs, info = env.reset(seed=seed, options={"component": name})
        live = _instance(info)["live"]
        assert "scene" not in live  # a lone control
        # goal_params is empty for both types: every param is the fixed control's.
        controls.append((live["params"], live["theme"],
                         info["boxes"]["current"]["loc"].tolist()))
        states.add((info["current_state"], info["goal_state"]))
        shots.setdefault(info["current_state"], []).append(obs["screenshot"])
    assert controls == [controls[0]] * len(SEEDS), "level 0's control changed between seeds"
    params = controls[0][0]
    assert params["anchor"] == curriculum.CENTRE
    assert params == curriculum.fixed_control(
        name, env.unwrapped.backend.layout_viewport, False).params
    assert len(states) > 1, f"every seed drew the same states: {states}"
    # The same control in the same state is the same picture, whatever the seed.
    assert len(shots) > 1
    for same in shots.values():
        assert all(np.array_equal(shot, same[0]) for shot in same)
    first, second = (same[0] for same in list(shots.values())[:2])
    assert not np.array_equal(first, second)


def test_level0_differs_from_level1_which_draws_the_control_too(env):
    _at(env, 1)
    controls = set()
    for seed in SEEDS:
        _, info = env.reset(seed=seed, options={"component": "switch"})
        live = _instance(info)["live"]
        controls.add(json.dumps([live["params"], live["theme"]], sort_keys=True))
    assert len(controls) == len(SEEDS)
    fixed = curriculum.fixed_control("switch", env.unwrapped.backend.layout_viewport, False)
    assert json.dumps([fixed.params, env.unwrapped.themes[0]], sort_keys=True) not in controls


@pytest.mark.parametrize(("level", "scene"), [(1, "control"), (2, "page")])
def test_levels_1_and_2_are_the_scenes_control_and_page(env, plain, level, scene):
    _at(env, level)
    assert env.unwrapped.scene == scene and env.unwrapped.max_actions == 1
    other = plain(scene)
    for seed in SEEDS[:2]:
        obs, info = env.reset(seed=seed)
        their_obs, theirs = other.reset(seed=seed)
        assert info["instance"] == theirs["instance"]
        assert np.array_equal(obs["screenshot"], their_obs["screenshot"])
        record = _instance(info).get("scene")
        if scene == "control":
            assert record is None
        else:
            assert record["distractors"], record
            assert all(d["component"] and d["label"] for d in record["distractors"])
        assert info["oracle_actions"] == 1


def test_level3_far_goals_with_the_default_and_a_given_max_actions():
    env = gym.make("FineState-Web-v0", component="stepper", level=3)
    given = gym.make("FineState-Web-v0", component="stepper", level=3, max_actions=2)
    try:
        assert env.unwrapped.scene == "page"
        assert env.unwrapped.max_actions == curriculum.FAR_ACTIONS
        plans = []
        for seed in range(4):
            _, info = env.reset(seed=seed)
            assert _instance(info)["scene"]["distractors"]
            plans.append(info["oracle_actions"])
        assert max(plans) > 1 and max(plans) <= curriculum.FAR_ACTIONS, plans
        # The far goal is reached in exactly its planned gestures, and never ends early.
        obs, info = env.reset(seed=plans.index(max(plans)))
        agent, steps, done = OracleAgent(), 0, False
        while not done:
            obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
            steps += 1
            done = terminated or truncated
        assert (steps, reward, terminated, truncated) == (max(plans), 1.0, True, False)

        assert given.unwrapped.max_actions == 2
        plans = [given.reset(seed=seed)[1]["oracle_actions"] for seed in range(4)]
        assert set(plans) == {1, 2}, plans
        given.reset(seed=0)
        ends = [given.step(_noop())[2:4] for _ in range(2)]
        assert ends == [(False, False), (False, True)]  # truncated after 2, not 4
    finally:
        env.close()
        given.close()


def test_set_level_changes_the_next_reset_only(env):
    _at(env, 0)
    obs, info0 = env.reset(seed=21, options={"component": "switch"})
    # The episode under way stays the level 0 one: its step reports that instance.
    env.unwrapped.set_level(2)
    _, _, _, _, stepped = env.step(OracleAgent().act(obs, info0))
    assert stepped["instance"] == info0["instance"] and stepped["success"]
    _, info2 = env.reset(seed=21, options={"component": "switch"})
    assert _instance(info2)["scene"]["distractors"]
    env.unwrapped.set_level(1)
    _, info1 = env.reset(seed=21, options={"component": "switch"})
    assert "scene" not in _instance(info1)
    assert len({info0["instance"], info1["instance"], info2["instance"]}) == 3
    # Level 3 takes FAR_ACTIONS gestures, and back below it one again.
    env.unwrapped.set_level(3)
    assert env.unwrapped.max_actions == curriculum.FAR_ACTIONS
    env.unwrapped.set_level(1)
    assert env.unwrapped.max_actions == 1


def test_set_level_through_make_vec(env):
    _at(env, 0)
    vec = gym.make_vec("FineState-Web-v0", num_envs=2, component=TYPES, level=0)
    try:
        assert vec.get_attr("level") == (0, 0)
        _, infos = vec.reset(seed=30)
        for k in range(2):
            assert infos["instance"][k] == env.reset(seed=30 + k)[1]["instance"], k
        vec.call("set_level", 1)
        assert vec.get_attr("level") == (1, 1) and vec.get_attr("scene") == ("control",) * 2
        _, infos = vec.reset(seed=30)
        _at(env, 1)
        for k in range(2):
            assert infos["instance"][k] == env.reset(seed=30 + k)[1]["instance"], k
        with pytest.raises(ValueError, match="got 4"):
            vec.call("set_level", 4)
        assert vec.get_attr("level") == (1, 1)
    finally:
        vec.close()


@pytest.mark.fast
@pytest.mark.parametrize("level", [5, -1, True, "1", 1.5, None])
def test_bad_levels_are_refused_by_name(env, level):
    _at(env, 1)
    message = f"^level must be one of \\[0, 1, 2, 3\\], got {repr(level).replace('.', '[.]')}$"
    if level is not None:  # None at make time: no curriculum
        with pytest.raises(ValueError, match=message):
            gym.make("FineState-Web-v0", component="switch", level=level)
    with pytest.raises(ValueError, match=message):
        env.unwrapped.set_level(level)
    assert (env.unwrapped.level, env.unwrapped.scene, env.unwrapped.max_actions) == (
        1, "control", 1)


@pytest.mark.fast
def test_numpy_integer_levels_are_taken():
    made = gym.make("FineState-Web-v0", component="switch", level=np.int64(2))
    try:
        assert made.unwrapped.level == 2 and type(made.unwrapped.level) is int
        assert made.unwrapped.scene == "page"
    finally:
        made.close()


@pytest.mark.fast
@pytest.mark.parametrize(("level", "scene", "wanted"),
                         [(0, "page", "control"), (1, "page", "control"), (2, "control", "page"),
                          (3, "control", "page")])
def test_a_scene_against_the_level_is_refused(level, scene, wanted):
    with pytest.raises(ValueError, match=f"^level {level} shows scene '{wanted}', not "
                                         f"scene='{scene}': give one of the two$"):
        gym.make("FineState-Web-v0", component="switch", level=level, scene=scene)
    # The level's own scene is no conflict.
    made = gym.make("FineState-Web-v0", component="switch", level=level, scene=wanted)
    assert made.unwrapped.scene == wanted
    made.close()


@pytest.mark.fast
def test_level3_refuses_one_gesture():
    with pytest.raises(ValueError, match="level 3's goals are several gestures away"):
        gym.make("FineState-Web-v0", component="switch", level=3, max_actions=1)
