"""Curriculum level 0 live (env `level=0`), on every platform's real renderer: each type
shows one control, in the same place and of the same size in every episode, and only its
states change; the oracle reaches every goal drawn for it.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from finestate_env.agents.scripted import OracleAgent
from finestate_env.components import COMPONENTS
from finestate_env.components.qt import DESKTOP_TYPES

SEEDS = (3, 14, 159)
# Types whose control's outer box (`loc`) follows its state, and the edges of it that hold.
# An accordion's card is as tall as its open section's body (none open: no body), and the
# stage centres the card (level 0's anchor), so its top and bottom move with the state.
LOC_FOLLOWS_STATE = {"accordion": "left right"}
CASES = [("FineState-Web-v0", name) for name in COMPONENTS] + \
        [("FineState-Mobile-v0", name) for name in COMPONENTS] + \
        [("FineState-Desktop-v0", name) for name in DESKTOP_TYPES]


@pytest.fixture(scope="module")
def env_for():
    """`env_for(env_id)` -> one level 0 env per platform, reused by every type."""
    envs: dict[str, gym.Env] = {}

    def get(env_id: str):
        if env_id not in envs:
            envs[env_id] = gym.make(env_id, level=0).unwrapped
        return envs[env_id]

    yield get
    for env in envs.values():
        env.close()


@pytest.mark.parametrize(("env_id", "name"), CASES)
def test_control_stays_and_every_goal_is_reached(env_for, env_id, name):
    env, agent = env_for(env_id), OracleAgent()
    locs = []
    for seed in SEEDS:
        obs, info = env.reset(seed=seed, options={"component": name})
        locs.append(np.asarray(info["boxes"]["current"]["loc"]).tolist())
        _, reward, terminated, _, info = env.step(agent.act(obs, info))
        assert info["success"] and reward == 1.0 and terminated, (
            f"seed {seed}: goal {info['goal_state']!r}, reached {info['state']!r}")
    edges = LOC_FOLLOWS_STATE.get(name)
    if edges is None:
        assert locs == [locs[0]] * len(SEEDS), f"the control moved or resized: {locs}"
    else:
        kept = [i for i, edge in enumerate(("left", "top", "right", "bottom")) if edge in edges]
        assert all([loc[i] for i in kept] == [locs[0][i] for i in kept] for loc in locs), locs
