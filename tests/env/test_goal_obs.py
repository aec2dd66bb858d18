"""The goal options for RL live on the web: `goal_obs` (the goal state as a vector in the
observation, env/goals.py, and the GoalEnv convention HER needs, with its exact
`compute_reward`), `terminal_obs="skip"` (a terminating step takes no screenshot; render()
takes it on demand), and Gymnasium's, SB3's and the shared contract checker's verdicts on
envs made with them."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from env_checks import check_env_as_made
from gymnasium import spaces
from gymnasium.utils.env_checker import check_env
from stable_baselines3.common.env_checker import (
    _check_goal_env_compute_reward,
    _check_goal_env_obs,
)
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from finestate_env import decode_state
from finestate_env.agents.scripted import OracleAgent
from finestate_env.components import COMPONENTS, TYPE_NAMES
from finestate_env.env.goals import AddGoalVector, AsGoalEnv

VIEWPORT = (1280, 720)
TYPES = ["switch", "radio_group"]  # a code of one number each
# A point of the bare stage, away from every lone control (level 0 centres it): a tap
# there is performed and changes nothing.
BLANK = np.array([4.0, 4.0], dtype=np.float32)
BLANK_TAP = {"p0": BLANK, "p1": BLANK}
# The contract checker the suite runs (test_vector_and_checkers.py): the team's shared one
# when it is beside the checkout, else the copy in tests/support.
_SHARED_CHECKER = Path(__file__).resolve().parents[3] / "shared" / "tools" / "check_contract.py"
CONTRACT_CHECKER = Path(os.environ.get(
    "FINESTATE_CONTRACT_CHECKER",
    _SHARED_CHECKER if _SHARED_CHECKER.is_file()
    else Path(__file__).resolve().parents[1] / "support" / "check_contract.py"))


def _expected_goal(component: str, state, params: dict, width: int) -> np.ndarray:
    """The goal vector written out by hand: the type's one-hot, then its code, zero-padded.
    Switch: on 1, off 0; radio group: the option's place i / (n - 1)."""
    vector = np.zeros(len(TYPE_NAMES) + width, dtype=np.float32)
    vector[TYPE_NAMES.index(component)] = 1.0
    if component == "switch":
        code = [1.0 if state else 0.0]
    elif component == "radio_group":
        code = [params["options"].index(state) / (len(params["options"]) - 1)]
    else:
        code = list(COMPONENTS[component].state_code(state, params))
    vector[len(TYPE_NAMES):len(TYPE_NAMES) + len(code)] = code
    return vector


def _flat(action: dict) -> np.ndarray:
    """A pixel action as action_type="flat"'s [-1, 1] numbers."""
    size = np.array(VIEWPORT, dtype=np.float64)
    return np.concatenate([action["p0"] / size * 2 - 1,
                           action["p1"] / size * 2 - 1]).astype(np.float32)


@pytest.fixture(scope="module")
def goal_env():
    """A goal env of two gestures an episode (a first gesture can miss and not end it), made
    as examples/sb3_her.py makes one: a terminal step takes no screenshot."""
    env = gym.make("FineState-Web-v0", component=TYPES, level=0, goal_obs="goal_env",
                   obs_type="screenshot", obs_size=(84, 84), action_type="flat", max_actions=2,
                   terminal_obs="skip")
    yield env
    env.close()


# -- goal_obs="vector" -------------------------------------------------------------------

@pytest.fixture(scope="module")
def wide():
    """A vector-goal env whose goal space is as wide as date_picker's code, 3 numbers."""
    env = gym.make("FineState-Web-v0", component=["switch", "date_picker"], scene="control",
                   goal_obs="vector", obs_size=(160, 90))
    yield env
    env.close()


def test_vector_goal_is_the_types_one_hot_and_the_goal_states_code_padded(wide):
    # date_picker's code has 3 numbers: a switch's one is padded with two zeros.
    env = wide
    space = env.observation_space
    assert set(space.spaces) == {"screenshot", "instruction", "goal"}
    assert space["goal"] == spaces.Box(-1.0, 1.0, (len(TYPE_NAMES) + 3,), np.float32)
    goals = set()
    for seed, name in ((0, "switch"), (1, "switch"), (2, "switch"), (0, "date_picker")):
        obs, info = env.reset(seed=seed, options={"component": name})
        params = env.unwrapped.instance.live.params
        want = _expected_goal(name, decode_state(info["goal_state"]), params, 3)
        assert obs["goal"].dtype == np.float32 and np.array_equal(obs["goal"], want), seed
        assert space.contains(obs)
        goals.add(obs["goal"].tobytes())
        # A step keeps the goal and the state's read-back stays out of it.
        obs2, *_ = env.step(OracleAgent().act(obs, info))
        assert np.array_equal(obs2["goal"], want) and space.contains(obs2)
        assert obs2["goal"] is not obs["goal"]
    assert len(goals) == 3, "the switch's on and off, and a date"
    date = _expected_goal("date_picker", decode_state(info["goal_state"]), params, 3)
    assert np.count_nonzero(date[len(TYPE_NAMES):]) > 1  # a code of more than one number


def test_a_type_too_wide_for_the_goal_space_is_refused_before_it_is_shown(wide):
    _, info = wide.reset(seed=0, options={"component": "date_picker"})
    narrow = gym.make("FineState-Web-v0", component="switch", scene="control",
                      goal_obs="vector", obs_size=(160, 90))
    try:
        assert narrow.observation_space["goal"].shape == (len(TYPE_NAMES) + 1,)
        message = ("^goal_obs: a date_picker state's code has 3 numbers, more than the 1 of "
                   "this env's goal space")
        with pytest.raises(ValueError, match=message):
            narrow.reset(seed=0, options={"component": "date_picker"})
        with pytest.raises(ValueError, match=message):
            narrow.reset(options={"instance": info["instance"]})
        assert narrow.unwrapped.instance is None  # nothing was shown
        # A type outside the env's own but as narrow is shown, its goal in the space.
        obs, info = narrow.reset(seed=0, options={"component": "radio_group"})
        assert narrow.observation_space.contains(obs)
        assert np.array_equal(obs["goal"], _expected_goal(
            "radio_group", decode_state(info["goal_state"]),
            narrow.unwrapped.instance.live.params, 1))
    finally:
        narrow.close()


@pytest.mark.parametrize("obs_type", ["image", "screenshot"])
def test_a_box_observation_with_a_vector_goal_is_a_dict_of_image_and_goal(obs_type):
    env = gym.make("FineState-Web-v0", component="radio_group", level=0, obs_type=obs_type,
                   obs_size=(84, 84), goal_obs="vector")
    plain = gym.make("FineState-Web-v0", component="radio_group", level=0, obs_type=obs_type,
                     obs_size=(84, 84))
    try:
        assert env.observation_space == spaces.Dict(
            image=plain.observation_space,
            goal=spaces.Box(-1.0, 1.0, (len(TYPE_NAMES) + 1,), np.float32))
        obs, info = env.reset(seed=3)
        image, _ = plain.reset(seed=3)
        assert env.observation_space.contains(obs)
        assert np.array_equal(obs["image"], image)  # the image is the one without goal_obs
        params = env.unwrapped.instance.live.params
        assert np.array_equal(obs["goal"], _expected_goal(
            "radio_group", decode_state(info["goal_state"]), params, 1))
    finally:
        env.close()
        plain.close()


# -- goal_obs="goal_env" ------------------------------------------------------------------

@pytest.mark.fast
def test_goal_env_space_and_true_is_goal_env():
    made = [gym.make("FineState-Web-v0", component=TYPES, obs_type="screenshot",
                     obs_size=(84, 84), goal_obs=goal_obs) for goal_obs in ("goal_env", True)]
    goal = spaces.Box(-1.0, 1.0, (len(TYPE_NAMES) + 1,), np.float32)
    for env in made:
        assert env.get_wrapper_attr("goal_obs") == "goal_env"
        assert env.observation_space == spaces.Dict(
            observation=spaces.Box(0, 255, (84, 84, 3), np.uint8), achieved_goal=goal,
            desired_goal=goal)
        env.close()


def test_goal_env_achieved_goal_follows_the_state_and_compute_reward_is_the_reward(goal_env):
    env = goal_env.unwrapped
    compute_reward = goal_env.get_wrapper_attr("compute_reward")  # AsGoalEnv's method
    achieved, desired, rewards, infos = [], [], [], []
    for seed in range(6):
        obs, info = goal_env.reset(seed=seed)
        assert goal_env.observation_space.contains(obs)
        params = env.instance.live.params
        want = _expected_goal(info["component"], decode_state(info["goal_state"]), params, 1)
        shown = _expected_goal(info["component"], decode_state(info["current_state"]), params, 1)
        assert np.array_equal(obs["desired_goal"], want)
        assert np.array_equal(obs["achieved_goal"], shown)
        assert not np.array_equal(shown, want)  # the goal is never the state shown
        # A miss (even seeds) then the oracle; odd seeds: the oracle at once.
        for action in ([BLANK_TAP] if seed % 2 == 0 else []) + [None]:
            points = OracleAgent().act(obs, info) if action is None else action
            pixels = obs["observation"]
            obs, reward, terminated, truncated, info = goal_env.step(_flat(points))
            assert goal_env.observation_space.contains(obs)
            read = _expected_goal(info["component"], decode_state(info["state"]), params, 1)
            # The goal achieved is the state read back, also on a terminal step whose
            # pixels (terminal_obs="skip") are those the gesture acted on.
            assert np.array_equal(obs["achieved_goal"], read)
            assert np.array_equal(obs["observation"], pixels) or not terminated
            assert np.array_equal(obs["desired_goal"], want)
            assert reward == (1.0 if action is None else 0.0)
            single = compute_reward(obs["achieved_goal"], obs["desired_goal"], info)
            assert single == reward and single.dtype == np.float32 and single.shape == ()
            achieved.append(obs["achieved_goal"])
            desired.append(obs["desired_goal"])
            rewards.append(reward)
            infos.append(info)
        assert terminated and not truncated
    achieved, desired = np.stack(achieved), np.stack(desired)
    batch = compute_reward(achieved, desired, np.array(infos))
    assert batch.shape == (len(rewards),) and batch.dtype == np.float32
    assert batch.tolist() == rewards and 0.0 in rewards and 1.0 in rewards
    # HER's relabelling: the goal achieved is the goal desired, and every reward is 1.
    assert compute_reward(achieved, achieved.copy(), None).tolist() == [1.0] * len(rewards)
    # Leading axes: (2, B, width) -> (2, B).
    both = compute_reward(np.stack([achieved, achieved]), np.stack([desired, achieved]), None)
    assert both.tolist() == [rewards, [1.0] * len(rewards)]
    with pytest.raises(ValueError, match="goal vectors of different lengths"):
        compute_reward(achieved[:, :-1], desired, None)


@pytest.mark.fast
def test_only_a_goal_env_has_compute_reward():
    # It is AsGoalEnv's method, defined on the class; the raw env never has one.
    for goal_obs in (None, False, "vector"):
        env = gym.make("FineState-Web-v0", component="switch", goal_obs=goal_obs)
        assert not env.has_wrapper_attr("compute_reward"), goal_obs
        assert not hasattr(env.unwrapped, "compute_reward"), goal_obs
        env.close()
    env = gym.make("FineState-Web-v0", component="switch", goal_obs=True)
    assert env.get_wrapper_attr("compute_reward").__func__ is AsGoalEnv.compute_reward
    assert not hasattr(env.unwrapped, "compute_reward")
    assert "compute_reward" not in vars(env.get_wrapper_attr("compute_reward").__self__)
    env.close()
    vector = gym.make("FineState-Web-v0", component="switch", goal_obs="vector")
    assert vector.get_wrapper_attr("goal_obs") == "vector"
    assert type(vector.env.env) is AddGoalVector  # under OrderEnforcing, the checker
    vector.close()


@pytest.mark.fast
@pytest.mark.parametrize("goal_obs", ["goal_env", True])
def test_goal_env_refuses_the_shaped_reward(goal_obs):
    with pytest.raises(ValueError, match="^goal_obs='goal_env' needs reward='exact'"):
        gym.make("FineState-Web-v0", component="switch", goal_obs=goal_obs, reward="shaped")
    env = gym.make("FineState-Web-v0", component="switch", goal_obs="vector", reward="shaped")
    env.close()  # a goal vector alone takes any reward


@pytest.mark.fast
@pytest.mark.parametrize("goal_obs", ["goal", "GoalEnv", 1, "true"])
def test_bad_goal_obs_is_refused_by_name(goal_obs):
    with pytest.raises(ValueError, match=f"goal_obs must be None, True or one of "
                                         f"\\['vector', 'goal_env'\\], got {goal_obs!r}$"):
        gym.make("FineState-Web-v0", component="switch", goal_obs=goal_obs)


# -- terminal_obs="skip" --------------------------------------------------------------

def _count_screenshots(monkeypatch, env) -> list[int]:
    """Count the backend's screenshots: the instance's own method, wrapped (it still runs)."""
    backend, calls = env.unwrapped.backend, []
    real = backend.screenshot

    def counted(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(backend, "screenshot", counted)
    return calls


def test_skip_ends_on_the_pixels_acted_on_and_render_takes_the_screen(monkeypatch):
    kwargs = {"component": "switch", "level": 0, "render_mode": "rgb_array"}
    skip = gym.make("FineState-Web-v0", terminal_obs="skip", **kwargs)
    capture = gym.make("FineState-Web-v0", **kwargs)
    try:
        calls = _count_screenshots(monkeypatch, skip)
        for seed in (1, 2):
            obs, info = skip.reset(seed=seed)
            c_obs, c_info = capture.reset(seed=seed)
            assert c_info["instance"] == info["instance"]
            before = skip.render()
            assert np.array_equal(before, obs["screenshot"])
            taken = len(calls)
            obs2, reward, terminated, truncated, info2 = skip.step(OracleAgent().act(obs, info))
            c_obs2, c_reward, *_, c_info2 = capture.step(OracleAgent().act(c_obs, c_info))
            assert len(calls) == taken  # no screenshot on the terminating step
            assert (reward, terminated, truncated, info2["state"]) == (
                c_reward, True, False, c_info2["state"]) and reward == 1.0
            # Its observation: the screen the gesture acted on, the reset's (a copy).
            assert np.array_equal(obs2["screenshot"], obs["screenshot"])
            assert obs2["instruction"] == obs["instruction"]
            assert not np.shares_memory(obs2["screenshot"], obs["screenshot"])
            # The state changed: the captured env's step shows it, and so does render().
            assert not np.array_equal(c_obs2["screenshot"], c_obs["screenshot"])
            after = skip.render()
            assert len(calls) == taken + 1
            assert np.array_equal(after, c_obs2["screenshot"])
            assert not np.array_equal(after, obs2["screenshot"])
            assert np.array_equal(skip.render(), after) and len(calls) == taken + 1
    finally:
        skip.close()
        capture.close()


def test_skip_still_captures_steps_that_go_on_and_truncated_ones(monkeypatch):
    env = gym.make("FineState-Web-v0", component="switch", level=0, terminal_obs="skip",
                   max_actions=2, render_mode="rgb_array")
    try:
        calls = _count_screenshots(monkeypatch, env)
        obs, info = env.reset(seed=5)
        assert len(calls) == 1
        # Truncated: both gestures captured.
        _, _, terminated, truncated, _ = env.step(BLANK_TAP)
        assert (terminated, truncated, len(calls)) == (False, False, 2)
        _, _, terminated, truncated, _ = env.step(BLANK_TAP)
        assert (terminated, truncated, len(calls)) == (False, True, 3)
        env.render()
        assert len(calls) == 3  # a captured end leaves render() nothing to take
        # A miss goes on (captured), the goal ends it (not captured): its pixels are the
        # miss's observation, the screen the gesture acted on.
        obs, info = env.reset(seed=5)
        obs1, _, terminated, _, info = env.step(BLANK_TAP)
        assert (terminated, len(calls)) == (False, 5)
        obs2, reward, terminated, truncated, _ = env.step(OracleAgent().act(obs1, info))
        assert (reward, terminated, truncated, len(calls)) == (1.0, True, False, 5)
        assert np.array_equal(obs2["screenshot"], obs1["screenshot"])
        assert not np.array_equal(env.render(), obs1["screenshot"]) and len(calls) == 6
        # A malformed gesture performs nothing: nothing to capture, and none taken.
        env.reset(seed=5)
        bad = np.array([-5.0, -5.0], dtype=np.float32)
        _, _, terminated, _, info = env.step({"p0": bad, "p1": bad})
        assert info["action_error"] and not terminated and len(calls) == 7
    finally:
        env.close()


@pytest.mark.fast
@pytest.mark.parametrize("terminal_obs", ["none", "Skip", None, True])
def test_bad_terminal_obs_is_refused_by_name(terminal_obs):
    with pytest.raises(ValueError, match=f"terminal_obs must be one of \\['capture', 'skip'\\], "
                                         f"got {terminal_obs!r}$"):
        gym.make("FineState-Web-v0", component="switch", terminal_obs=terminal_obs)


# -- the checkers ------------------------------------------------------------------------

@pytest.mark.filterwarnings("error")  # a checker's warning is its verdict too
def test_gymnasium_and_sb3_checkers_take_the_goal_vector_rl_mode():
    env = gym.make("FineState-Web-v0", component=TYPES, level=0, goal_obs="vector",
                   obs_type="screenshot", obs_size=(84, 84), action_type="flat",
                   terminal_obs="skip")
    try:
        # The raw env's pixel points draw Gymnasium's advice of a normalised Box (the
        # default space, every env's); the env as made, with the flat action, none.
        with pytest.warns(UserWarning, match="symmetric and normalized space"):
            check_env(env.unwrapped, skip_render_check=True)
        check_env_as_made(env, skip_render_check=True)  # with the options' wrappers
        sb3_check_env(env, warn=True)
        obs, _ = env.reset(seed=0)
        assert env.observation_space.contains(obs)
    finally:
        env.close()


@pytest.mark.filterwarnings("error")
def test_sb3_checker_takes_the_goal_env(goal_env):
    sb3_check_env(goal_env, warn=True)
    # SB3's checker takes an env whose unwrapped env has compute_reward for a goal env; here
    # compute_reward is the AsGoalEnv wrapper's, so its goal-env checks are run on that
    # wrapper directly: the Dict's three keys, that a step's reward is compute_reward's,
    # and that compute_reward is vectorised.
    wrapper = goal_env
    while not isinstance(wrapper, AsGoalEnv):
        wrapper = wrapper.env
    obs, info = goal_env.reset(seed=0)
    _check_goal_env_obs(obs, goal_env.observation_space, "reset")
    for action in (_flat(BLANK_TAP), _flat(OracleAgent().act(obs, info))):
        obs, reward, *_, info = goal_env.step(action)
        _check_goal_env_obs(obs, goal_env.observation_space, "step")
        _check_goal_env_compute_reward(obs, wrapper, float(reward), info)
    assert reward == 1.0


def _contract_checker():
    assert CONTRACT_CHECKER.is_file(), f"no contract checker at {CONTRACT_CHECKER}"
    spec = importlib.util.spec_from_file_location("check_contract", CONTRACT_CHECKER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_contract_checker_on_the_new_options():
    # Its check() makes an env by id: an id of its own with the options (the --rl part, 360
    # episodes, is test_vector_and_checkers.py's on the ids' defaults).
    checker = _contract_checker()
    env_id = "FineStateTest-Options-v0"
    gym.register(id=env_id, entry_point="finestate_env.env.environment:FineStateEnv",
                 kwargs={"platform": "web", "component": TYPES, "level": 0,
                         "terminal_obs": "skip"})
    try:
        assert checker.check(env_id) == []
        # Every info key keeps its type from level to level (a vector env builds each info
        # array from its first env's value): set_level mid-run changes none.
        env = gym.make(env_id)
        seen = set()
        for level in range(4):
            env.unwrapped.set_level(level)
            obs, info = env.reset(seed=level)
            _, _, _, _, info2 = env.step(OracleAgent().act(obs, info))
            seen.add(repr(sorted(checker.kinds(info).items()))
                     + repr(sorted(checker.kinds(info2).items())))
        env.close()
        assert len(seen) == 1, seen
    finally:
        gym.registry.pop(env_id)
