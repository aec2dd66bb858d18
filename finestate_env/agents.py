"""Scripted agents: `act(observation, info) -> {"p0": ..., "p1": ...}` in the env's frame.

The oracle reads the boxes from `info` (it is the upper bound the boxes
promise); the random agent ignores everything and draws from its own seed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from finestate_env.coords import box_center


class OracleAgent:
    """Presses (drag) or hovers (tap) at the centre of `now`, operates at the centre of `goal`.

    `now` lies inside `loc`, so the locate point also scores; for a drag it is
    where the control can be grabbed (the thumb, the item to move).
    """

    name = "oracle"

    def act(self, observation: Any, info: dict[str, Any]) -> dict[str, np.ndarray]:
        boxes = info["boxes"]["current"]
        return {"p0": np.asarray(box_center(boxes["now"]), dtype=np.float32),
                "p1": np.asarray(box_center(boxes["goal"]), dtype=np.float32)}


class RandomAgent:
    """Two uniform points over the whole action frame."""

    name = "random"

    def __init__(self, action_space, seed: int | None = None) -> None:
        self.action_space = action_space
        self.action_space.seed(seed)

    def act(self, observation: Any, info: dict[str, Any]) -> dict[str, np.ndarray]:
        return self.action_space.sample()


def make_agent(name: str, env, seed: int | None = None):
    if name == "oracle":
        return OracleAgent()
    if name == "random":
        return RandomAgent(env.action_space, seed=seed)
    raise ValueError(f"unknown agent {name!r}; available: oracle, random")
