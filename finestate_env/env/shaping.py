"""`reward="shaped"` (`ShapedReward`): the exact reward plus potential-based shaping.

Each step's reward is the decrease of the type's distance to the goal over the step (each
type's `distance`, in [0, 1], 0 exactly at the goal) plus the env's exact reward, 1.0 on
reaching the goal: shaping with the potential -distance (Ng, Harada and Russell, 1999), so
the optimal policies are those of the exact reward. The distance is the env's
`info["distance"]` after reset and after each step.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from finestate_env.env.wrappers import MakeOption

REWARDS = ("exact", "shaped")  # the make-time option `reward`; "exact" is the env's own


class ShapedReward(MakeOption, gym.Wrapper):
    """The env's exact reward plus the decrease of `info["distance"]` over the step."""

    make_options = {"reward": "shaped"}

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self._distance: float | None = None  # after the last reset or step

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        observation, info = self.env.reset(seed=seed, options=options)
        self._distance = info["distance"]
        return observation, info

    def step(self, action: Any):
        observation, reward, terminated, truncated, info = self.env.step(action)
        before, self._distance = self._distance, info["distance"]
        return observation, (before - self._distance) + reward, terminated, truncated, info
