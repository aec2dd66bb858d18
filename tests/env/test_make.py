"""The ids' entry point (env/make.py) and the learner options' wrappers, on the fake backend:
the env class keeps what it renders and captures, each option that only transforms
actions, observations or rewards is one wrapper, gym.make applies them in one order, and
the spec, render modes and vector envs see the env as before."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.wrappers import RenderCollection

import finestate_env
from finestate_env.agents.scripted import OracleAgent
from finestate_env.core.actions import ParsedAction
from finestate_env.env.environment import FineStateEnv
from finestate_env.env.goals import AddGoalVector, AsGoalEnv
from finestate_env.env.make import make_env
from finestate_env.env.observation import ObservationMaker, RLObservation
from finestate_env.env.shaping import ShapedReward
from finestate_env.env.wrappers import FlatAction, GridActions

pytestmark = pytest.mark.fast

WEB = "FineState-Web-v0"


def _stack(env: gym.Env) -> list[type]:
    """The classes from the outermost wrapper in."""
    classes = []
    while True:
        classes.append(type(env))
        if env is env.unwrapped:
            return classes
        env = env.env


def test_the_ids_enter_through_make_env_and_every_option_is_one_wrapper_in_one_order():
    for env_id in finestate_env.ENV_IDS:
        assert gym.spec(env_id).entry_point == "finestate_env.env.make:make_env"
    env = make_env(platform="web", backend="fake", action_type="flat", obs_type="image",
                   obs_size=(84, 84), goal_obs="vector", reward="shaped", max_actions=2)
    assert _stack(env) == [ShapedReward, AddGoalVector, RLObservation, FlatAction, FineStateEnv]
    env.close()
    # The defaults: the env alone, with the default spaces.
    plain = make_env(platform="web", backend="fake")
    assert type(plain) is FineStateEnv
    assert plain.observation_space == spaces.Dict(
        screenshot=spaces.Box(0, 255, (720, 1280, 3), np.uint8),
        instruction=plain.observation_space["instruction"])
    assert plain.action_space["p0"] == spaces.Box(0.0, np.float32([1280, 720]), (2,), np.float32)
    goal_env = make_env(platform="web", backend="fake", goal_obs=True)
    assert _stack(goal_env) == [AsGoalEnv, FineStateEnv]
    for env in (plain, goal_env):
        env.close()


def _scales_asked(env: gym.Env) -> list[float | None]:
    """The fake backend's captures from now on: the scale of each (None: a whole screenshot;
    the fake's scaled one is the whole screenshot too)."""
    backend, asked = env.unwrapped.backend, []
    whole = backend.screenshot
    backend.screenshot = lambda: asked.append(None) or whole()
    backend.screenshot_scaled = lambda scale: asked.append(scale) or whole()
    return asked


def test_the_observation_wrapper_asks_the_env_for_the_capture_scale_it_allows():
    for env_id, kwargs, scale in (
            (WEB, {"obs_type": "image", "obs_size": (84, 84)},
             ObservationMaker((1280, 720), "image", (84, 84)).capture_scale),
            (WEB, {"obs_type": "screenshot", "obs_size": "84x84"}, 2 * 84 / 720),
            (WEB, {"obs_type": "screenshot", "obs_size": (640, 360)}, None),
            (WEB, {"obs_dtype": "float32"}, None),
            # 84 of the phone's 1080 px width
            ("FineState-Mobile-v0", {"obs_type": "screenshot", "obs_size": (84, 84)},
             2 * 84 / 1080)):
        env = gym.make(env_id, backend="fake", scene="control", max_actions=2, **kwargs)
        try:
            assert env.get_wrapper_attr("maker").capture_scale == scale, kwargs
            asked = _scales_asked(env)
            obs, info = env.reset(seed=0)
            env.step(OracleAgent().act(obs, info))
            # The env used alone captures whole, as its space says.
            env.unwrapped.reset(seed=0)
            env.unwrapped.step({"p0": np.float32([1, 1]), "p1": np.float32([1, 1])})
            assert asked == [scale, scale, None, None], kwargs
        finally:
            env.close()
    raw = FineStateEnv(backend="fake")
    for bad in (0.0, 1.5, -0.25, "0.5", True):
        with pytest.raises(ValueError, match=r"^options\['capture_scale'\] must be None or in"):
            raw.reset(seed=0, options={"capture_scale": bad})
    raw.close()


def test_gym_make_keeps_the_render_modes_of_the_class():
    assert make_env.metadata is FineStateEnv.metadata
    env = gym.make(WEB, backend="fake", render_mode="rgb_array_list", action_type="flat")
    try:
        assert type(env) is RenderCollection and env.unwrapped.render_mode == "rgb_array"
        env.reset(seed=0)
        frames = env.render()
        assert len(frames) == 1 and frames[0].shape == (720, 1280, 3)
    finally:
        env.close()


def test_the_spec_names_the_options_once_and_recreates_the_env():
    env = gym.make(WEB, backend="fake", obs_type="screenshot", obs_size="84x84",
                   action_type="flat", goal_obs="goal_env")
    try:
        assert env.spec.additional_wrappers == ()
        assert env.spec.kwargs == {"platform": "web", "backend": "fake",
                                   "obs_type": "screenshot", "obs_size": "84x84",
                                   "action_type": "flat", "goal_obs": "goal_env"}
        again = gym.make(env.spec)
        assert _stack(again) == _stack(env)
        assert (again.observation_space, again.action_space) == (env.observation_space,
                                                                 env.action_space)
        again.close()
    finally:
        env.close()
    # A wrapper applied by hand adds its option to the spec, so gym.make(spec) applies it.
    hand = FlatAction(gym.make(WEB, backend="fake"))
    assert hand.spec.kwargs == {"platform": "web", "backend": "fake", "action_type": "flat"}
    assert hand.spec.additional_wrappers == ()
    assert gym.make(hand.spec).action_space == spaces.Box(-1.0, 1.0, (4,), np.float32)
    hand.close()


def test_wrapping_the_env_by_hand_gives_what_gym_make_gives():
    made = gym.make(WEB, backend="fake", scene="control", action_type="flat",
                    obs_type="dict_bytes", obs_size=(84, 84), goal_obs="vector",
                    reward="shaped", max_actions=2)
    raw = FineStateEnv(backend="fake", scene="control", max_actions=2)
    hand = ShapedReward(AddGoalVector(RLObservation(FlatAction(raw), "dict_bytes", (84, 84))))
    try:
        assert hand.observation_space == made.observation_space
        assert hand.action_space == made.action_space
        for env in (made, hand):
            env.action_space.seed(3)
        for seed in (0, 1):
            (obs, info), (h_obs, h_info) = made.reset(seed=seed), hand.reset(seed=seed)
            assert h_info["instance"] == info["instance"]
            for key in obs:
                assert np.array_equal(h_obs[key], obs[key]), key
            for action in (made.action_space.sample(), np.float32([0.9, 0.9, 2.0, 0.0])):
                step, h_step = made.step(action), hand.step(action)
                for key in obs:
                    assert np.array_equal(h_step[0][key], step[0][key]), key
                assert h_step[1:4] == step[1:4]
                assert h_step[4]["action_error"] == step[4]["action_error"]
    finally:
        made.close()
        hand.close()


def test_flat_action_hands_the_env_its_own_reading_of_the_points():
    env = FlatAction(FineStateEnv(backend="fake", scene="control"))
    try:
        parsed = env.action(np.float32([-1, -1, 1, 1]))
        assert parsed == ParsedAction((0.0, 0.0), (1279.5, 719.5), None)
        assert "is outside [-1, 1]" in env.action(np.float32([0, 0, 1.5, 0])).error
        _, info = env.reset(seed=0)
        # The env takes such a reading as it is, whatever its coord_mode.
        _, reward, *_, info = env.unwrapped.step(ParsedAction(None, None, "given"))
        assert (reward, info["action_error"]) == (0.0, "given")
    finally:
        env.close()


def test_grid_actions_over_the_flat_action_and_over_points():
    flat = GridActions(gym.make(WEB, backend="fake", action_type="flat", scene="control"))
    points = GridActions(gym.make(WEB, backend="fake", scene="control"))
    try:
        for env in (flat, points):
            obs, info = env.reset(seed=1)
            goal = info["boxes"]["current"]["goal"]
            x, y = (goal[0] + goal[2]) / 2, (goal[1] + goal[3]) / 2
            cell = int(y // env.cell) * env.cols + int(x // env.cell)
            _, reward, terminated, _, info = env.step(cell)
            assert info["action_error"] is None and terminated
        assert isinstance(flat.action(0), np.ndarray) and isinstance(points.action(0), dict)
    finally:
        flat.close()
        points.close()


def test_the_env_says_the_state_it_shows_and_the_goal_wrapper_reads_it():
    env = gym.make(WEB, backend="fake", goal_obs="goal_env", max_actions=2, scene="control")
    try:
        obs, info = env.reset(seed=4)
        raw = env.unwrapped
        assert raw.shown_state == raw.instance.current_state
        shown = raw.shown_state
        obs, _, terminated, _, info = env.step(OracleAgent().act(obs, info))
        assert terminated and raw.shown_state == raw.instance.goal_state != shown
        assert np.array_equal(obs["achieved_goal"], obs["desired_goal"])
    finally:
        env.close()


def test_set_level_reaches_the_env_through_the_wrappers_and_vector_envs():
    options = {"backend": "fake", "action_type": "flat", "obs_type": "screenshot",
               "obs_size": (84, 84), "goal_obs": "goal_env"}
    env = gym.make(WEB, level=1, **options)
    envs = gym.make_vec(WEB, num_envs=2, level=1, **options)
    try:
        env.get_wrapper_attr("set_level")(0)
        assert env.unwrapped.level == 0 and env.unwrapped.scene == "control"
        envs.call("set_level", 2)
        assert [e.unwrapped.level for e in envs.envs] == [2, 2]
        assert envs.get_attr("scene") == ("page", "page")
        assert [type(e) for e in envs.envs] == [AsGoalEnv, AsGoalEnv]
        batch = envs.call("compute_reward", np.zeros((2, 24), np.float32),
                          np.zeros((2, 24), np.float32), None)
        assert [r.tolist() for r in batch] == [[1.0, 1.0], [1.0, 1.0]]
    finally:
        env.close()
        envs.close()


def test_an_observation_of_the_same_capture_is_not_built_again(monkeypatch):
    # terminal_obs="skip" and a malformed action capture nothing: the wrapper hands out a
    # copy of the observation it built from that capture (building it again would cost a
    # resize of the whole screenshot: 13 ms at 1280x720, more than the step saves).
    built, build = [], ObservationMaker.__call__
    monkeypatch.setattr(ObservationMaker, "__call__",
                        lambda self, *args: built.append(1) or build(self, *args))
    env = gym.make(WEB, backend="fake", scene="control", obs_type="screenshot",
                   obs_size=(84, 84), terminal_obs="skip", max_actions=2)
    try:
        obs, info = env.reset(seed=2)
        off = np.float32([-1, -1])
        bad, *_ = env.step({"p0": off, "p1": off})
        final, reward, terminated, *_ = env.step(OracleAgent().act(obs, info))
        assert (reward, terminated, len(built), env.unwrapped.captures) == (1.0, True, 1, 1)
        for again in (bad, final):
            assert np.array_equal(again, obs) and not np.shares_memory(again, obs)
        env.reset(seed=3)
        assert (len(built), env.unwrapped.captures) == (2, 2)
    finally:
        env.close()
