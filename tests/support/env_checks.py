"""Gymnasium's check_env on an env as gym.make makes it, wrappers and all.

The learner options (`obs_type`, `action_type`, `goal_obs`, `reward`, ...) are wrappers
around the env (finestate_env/env/make.py): `env.unwrapped` is the raw env, the episode with
its own spaces, and the options' spaces and values are the wrapped env's. Tests check both.
Gymnasium's checker then advises checking `env.unwrapped` instead: that one warning is
beside the point here, and every other stays what the test makes of it.
"""

from __future__ import annotations

import warnings

import gymnasium as gym
from gymnasium.utils.env_checker import check_env


def check_env_as_made(env: gym.Env, **kwargs) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r".*is different from the unwrapped version")
        check_env(env, **kwargs)
