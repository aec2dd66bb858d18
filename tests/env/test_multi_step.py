"""Episodes of several gestures (issue #18): `max_actions=K` and `reward="shaped"`, on the
three platforms, with real input; the default (one gesture, exact reward) unchanged."""

from __future__ import annotations

import json

import gymnasium as gym
import numpy as np
import pytest
from env_checks import check_env_as_made
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env

from finestate_env import decode_state
from finestate_env.agents.scripted import NoisyOracleAgent, OracleAgent
from finestate_env.components import COMPONENTS

ENV_IDS = ["FineState-Web-v0", "FineState-Mobile-v0", "FineState-Desktop-v0"]
# A tap at the screen's corner: on a lone control it meets nothing, so nothing changes.
NOWHERE = {"p0": np.array([1.0, 1.0], np.float32), "p1": np.array([1.0, 1.0], np.float32)}


def _make(env_id: str, **kwargs):
    return gym.make(env_id, scene="control", component="radio_group", **kwargs)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_an_episode_goes_on_until_the_goal_and_the_shaped_reward_counts_the_way(env_id):
    env = _make(env_id, max_actions=3, reward="shaped")
    try:
        obs, info = env.reset(seed=7)
        start = info["distance"]
        assert start == 1.0 and info["actions"] == 0  # a radio group: another option
        obs, reward, terminated, truncated, info = env.step(NOWHERE)
        assert (reward, terminated, truncated) == (0.0, False, False)
        assert info["success"] is False and info["actions"] == 1
        assert info["distance"] == start and info["state"] == info["current_state"]
        obs, reward, terminated, truncated, info = env.step(OracleAgent().act(obs, info))
        assert (terminated, truncated) == (True, False) and info["success"] is True
        assert info["distance"] == 0.0 and info["actions"] == 2
        assert reward == start - 0.0 + 1.0  # the distance covered, plus reaching the goal
        with pytest.raises(ResetNeeded, match="ended"):
            env.step(NOWHERE)
    finally:
        env.close()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_an_episode_is_truncated_after_max_actions_gestures(env_id):
    env = _make(env_id, max_actions=2)
    try:
        env.reset(seed=8)
        assert env.step(NOWHERE)[2:4] == (False, False)
        _, reward, terminated, truncated, info = env.step(NOWHERE)
        assert (reward, terminated, truncated) == (0.0, False, True)
        assert info["actions"] == 2
        # A bad action uses a gesture up too, and is reported, never raised.
        env.reset(seed=8)
        _, _, _, _, info = env.step({"p0": np.array([np.nan, 1], np.float32),
                                     "p1": np.array([1, 1], np.float32)})
        assert "not finite" in info["action_error"] and info["actions"] == 1
    finally:
        env.close()


def test_one_gesture_stays_the_default_protocol():
    env = gym.make("FineState-Web-v0", scene="control", component="radio_group")
    try:
        # No wrapper of a learner option (reward="shaped" would be one): under gym.make's
        # OrderEnforcing and checker, the env itself.
        assert env.unwrapped.max_actions == 1 and env.env.env is env.unwrapped
        env.reset(seed=7)
        _, reward, terminated, truncated, info = env.step(NOWHERE)
        assert (reward, terminated, truncated) == (0.0, True, False)  # a miss ends it too
        assert info["distance"] == 1.0 and info["actions"] == 1
    finally:
        env.close()


def test_the_shaped_reward_is_the_decrease_of_the_types_own_distance():
    """An oracle with 40 px of noise on p1 moves sliders and steppers to other values: every
    step's reward is the decrease of the distance the type defines, state to goal."""
    env = gym.make("FineState-Web-v0", scene="control", component=["slider", "stepper"],
                   max_actions=4, reward="shaped")
    agent = NoisyOracleAgent(sigma_p0=1.0, sigma_p1=40.0, seed=3)
    moved = 0
    try:
        for seed in range(6):
            obs, info = env.reset(seed=seed)
            before, params = info["distance"], env.unwrapped.instance.live.params
            done = False
            while not done:
                obs, reward, terminated, truncated, info = env.step(agent.act(obs, info))
                state = decode_state(info["state"])
                after = COMPONENTS[info["component"]].distance(
                    state, decode_state(info["goal_state"]), params)
                assert info["distance"] == after
                assert reward == (before - after) + float(info["success"])
                moved += before != after
                before, done = after, terminated or truncated
    finally:
        env.close()
    assert moved > 0  # the random drags did move some controls


def test_check_env_passes_with_several_gestures():
    env = gym.make("FineState-Web-v0", max_actions=3, reward="shaped", render_mode="rgb_array")
    try:
        check_env(env.unwrapped)  # the raw env
        check_env_as_made(env)  # with ShapedReward
    finally:
        env.close()


@pytest.mark.fast
def test_bad_options_name_what_is_wrong():
    for bad in (0, 101, 2.5, True):
        with pytest.raises(ValueError, match="max_actions"):
            gym.make("FineState-Web-v0", max_actions=bad)
    with pytest.raises(ValueError, match="reward"):
        gym.make("FineState-Web-v0", reward="dense")


def test_a_vector_env_batches_several_gesture_episodes():
    vec = gym.make_vec("FineState-Web-v0", num_envs=2, scene="control",
                       component="radio_group", max_actions=2)
    try:
        _, infos = vec.reset(seed=20)
        actions = {key: np.stack([NOWHERE[key]] * 2) for key in NOWHERE}
        _, _, terminated, truncated, infos = vec.step(actions)
        assert not terminated.any() and not truncated.any()
        assert infos["actions"].tolist() == [1, 1] and infos["distance"].dtype == np.float64
        _, _, terminated, truncated, infos = vec.step(actions)
        assert truncated.all() and not terminated.any()
    finally:
        vec.close()


def test_run_prints_the_episodes_beside_the_first_gestures_metrics(tmp_path, capsys):
    from finestate_env.cli.main import main

    assert main(["run", "--agent", "random", "--episodes", "8", "--max-actions", "4",
                 "--scene", "control", "--component", "radio_group,switch",
                 "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    assert "episodes of up to 4 gestures" in printed
    summary = json.loads((tmp_path / "summary.json").read_text())
    episodes = summary["episodes"]
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    first = sum(r["success"] for r in records) / len(records)
    assert episodes["n"] == 8 and episodes["episode_success"] >= first
    assert all(1 <= r["gestures"] <= 4 for r in records)
    assert all(r["episode_success"] or r["gestures"] == 4 for r in records)
