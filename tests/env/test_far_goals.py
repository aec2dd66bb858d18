"""Goals further than one gesture away (issue #18, item 2): with `max_actions=K > 1` a
stepper's goal may be several steps off, a date picker's in another month, a tree's
folder inside collapsed ones and a list's option pages below or above; the boxes
are measured again after every gesture, and the oracle, following them, reaches the goal
in exactly `info["oracle_actions"]` gestures, on the three platforms, with real input."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from finestate_env.agents.scripted import OracleAgent
from finestate_env.components import COMPONENTS, Sample

K = 5
FAR_TYPES = ("stepper", "date_picker", "tree_view", "list_box")
# A phone's 1080x2400 screenshots cost ~5x the web's: fewer seeds there.
SEEDS = {"FineState-Web-v0": 50, "FineState-Desktop-v0": 50, "FineState-Mobile-v0": 20}


def _oracle_episode(env, seed: int) -> tuple[int, list[dict]]:
    """(oracle_actions, each step's info) of one oracle episode."""
    obs, info = env.reset(seed=seed)
    planned, infos, done = info["oracle_actions"], [], False
    agent = OracleAgent()
    while not done:
        obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
        infos.append(info)
        done = terminated or truncated
    return planned, infos


@pytest.mark.parametrize("name", FAR_TYPES)
@pytest.mark.parametrize("env_id", list(SEEDS))
def test_the_oracle_reaches_far_goals_in_exactly_its_planned_gestures(env_id, name):
    env = gym.make(env_id, component=name, scene="control", max_actions=K)
    plans = []
    try:
        for seed in range(SEEDS[env_id]):
            planned, infos = _oracle_episode(env, seed)
            plans.append(planned)
            assert 1 <= planned <= K
            assert len(infos) == planned, (seed, planned, [i["state"] for i in infos])
            last = infos[-1]
            assert last["success"] is True and last["action_error"] is None
            assert all(i["oracle_actions"] == planned for i in infos)
            # The boxes tell the truth on every screen: no point is exact by them while
            # the goal is further than one gesture, and the last gesture's is.
            assert [i["crosscheck"] for i in infos] == ["agree"] * planned
            assert [i["static"]["es_sr_int"] for i in infos] == [False] * (planned - 1) + [True]
    finally:
        env.close()
    if name == "tree_view":
        # As deep as the tree (folders on 3 levels at most) and the panel's rows allow:
        # about a fifth of its goals at K = 5 (62 of 300 samples).
        assert max(plans) > 1 and set(plans) <= {1, 2, 3}, plans
    elif name == "list_box":
        # As many pages as the pool holds: a lone list's pages are long (up to 12 rows
        # of 10-32 options), so most far goals are one page away.
        assert sum(p > 1 for p in plans) > len(plans) // 2, plans
    else:  # every distance 1..K is drawn, most of them further than one gesture
        assert set(plans) == set(range(1, K + 1)), plans
        assert sum(p > 1 for p in plans) > len(plans) // 2, plans


@pytest.mark.parametrize("env_id", ["FineState-Web-v0", "FineState-Desktop-v0"])
def test_far_goals_on_pages_and_boxes_measured_again_after_each_gesture(env_id):
    env = gym.make(env_id, component="date_picker", max_actions=K)
    try:
        obs, info = env.reset(seed=3)
        assert info["oracle_actions"] > 2, info["oracle_actions"]
        goal_box = info["boxes"]["current"]["goal"].copy()
        obs, _, terminated, truncated, info = env.step(OracleAgent().act(obs, info))
        assert (terminated, truncated, info["success"]) == (False, False, False)
        # A month turned: the state is the same, the calendar is not.
        assert info["state"] == info["current_state"]
        assert info["collateral"] is False
        # The same month arrow is the next gesture too, and it has not moved.
        np.testing.assert_array_equal(info["boxes"]["current"]["goal"], goal_box)
        planned, done, steps = info["oracle_actions"], False, 1
        while not done:
            obs, _, terminated, truncated, info = env.step(OracleAgent().act(obs, info))
            steps += 1
            done = terminated or truncated
        assert info["success"] is True and steps == planned
    finally:
        env.close()


@pytest.mark.fast
def test_one_gesture_episodes_keep_their_goals_and_every_other_type_its_own():
    rng = np.random.default_rng
    for name, component in COMPONENTS.items():
        for seed in range(50):
            sample = component.sample(rng(seed), (1280, 720))
            assert component.far_goal(rng(seed), sample, 1) is sample
            assert component.oracle_actions(sample.params, sample.current_state,
                                             sample.goal_state) == 1
            far = component.far_goal(rng(seed), sample, K)
            planned = component.oracle_actions(far.params, far.current_state, far.goal_state)
            assert 1 <= planned <= K
            assert not component.states_equal(far.current_state, far.goal_state, far.params)
            if name not in FAR_TYPES:
                assert far is sample, name


@pytest.mark.fast
def test_far_goal_formulas():
    stepper, dates = COMPONENTS["stepper"], COMPONENTS["date_picker"]
    params = {"fields": [{"label": "Copies", "min": 1, "max": 10, "step": 1, "unit": ""}],
              "target": 0}
    assert stepper.oracle_actions(params, 2, 6) == 4
    assert stepper.oracle_actions(params, 6, 5) == 1
    assert dates.oracle_actions({}, "2026-12-25", "2027-02-17") == 3  # two turns and the day
    assert dates.oracle_actions({}, "2026-12-25", "2026-11-15") == 2
    assert dates.oracle_actions({}, "2026-12-25", "2026-12-01") == 1
    # A field with room for 2 steps down only: the goal is as far as the field goes.
    tight = {"fields": [{"label": "Pets", "min": 0, "max": 2, "step": 1, "unit": ""}],
             "target": 0}
    for seed in range(20):
        far = stepper.far_goal(np.random.default_rng(seed), Sample(tight, 2, 1), K)
        assert far.goal_state in (0, 1)
    # A far date's day is one no neighbouring month's greyed cells show (15th to 21st).
    for seed in range(50):
        far = dates.far_goal(np.random.default_rng(seed), Sample({}, "2026-01-31", "2026-01-02"), K)
        if far.goal_state[:7] != "2026-01":
            assert 15 <= int(far.goal_state[8:]) <= 21


def test_vector_envs_and_check_env_take_far_goals():
    from gymnasium.utils.env_checker import check_env

    env = gym.make("FineState-Web-v0", component="date_picker", scene="control", max_actions=K)
    try:
        check_env(env.unwrapped)  # equal seeds and actions: equal infos, boxes measured again
    finally:
        env.close()
    vec = gym.make_vec("FineState-Web-v0", num_envs=2, scene="control",
                       component="stepper", max_actions=K)
    try:
        _, infos = vec.reset(seed=[0, 2])  # 5 and 2 clicks away
        assert infos["oracle_actions"].tolist() == [5, 2]
        assert infos["boxes"]["current"]["goal"].shape == (2, 4)
        corner = np.ones((2, 2), np.float32)
        _, _, terminated, truncated, infos = vec.step({"p0": corner, "p1": corner})
        assert not (terminated.any() or truncated.any())
        assert infos["oracle_actions"].tolist() == [5, 2]
    finally:
        vec.close()


def test_run_prints_the_oracles_gestures_beside_the_agents(tmp_path, capsys):
    import json

    from finestate_env.cli.main import main

    assert main(["run", "--agent", "oracle", "--episodes", "6", "--max-actions", str(K),
                 "--scene", "control", "--component", "stepper,date_picker",
                 "--out", str(tmp_path)]) == 0
    assert "(the oracle's" in capsys.readouterr().out
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert [r["gestures"] for r in records] == [r["oracle_gestures"] for r in records]
    assert all(r["episode_success"] for r in records)
    assert any(r["gestures"] > 1 for r in records)
    episodes = json.loads((tmp_path / "summary.json").read_text())["episodes"]
    assert episodes["gestures_median"] == episodes["oracle_gestures_median"]
