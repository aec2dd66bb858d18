"""Scripted agents: `act(observation, info) -> {"p0": ..., "p1": ...}` in the env's frame.

The oracle reads the boxes from `info` (it is the upper bound the boxes
promise); the noisy oracle adds Gaussian pixel noise to the oracle's points
(how much error each type tolerates); the random agent ignores everything and
draws from its own seed; the any-control agent knows where every control on the
screen is but not which one the instruction names (what SR@Loc asks of a page).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from finestate_env.core.coords import box_center
from finestate_env.core.errors import UsageError


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


class NoisyOracleAgent:
    """The oracle's points plus Gaussian noise: N(0, sigma^2) pixels on each coordinate.

    `sigma_p0` perturbs the locate/press point, `sigma_p1` the operate/release
    point, each from its own stream of the seeded RNG, so the noise on one point
    does not change with the sigma of the other. The unit noise is drawn whatever
    the sigma: agents built with the same seed scale the same directions, which
    makes a sweep over sigma compare like with like (common random numbers). At
    sigma 0 the points are exactly the oracle's. Sigma is in screenshot pixels
    also when the env's frame is normalised.
    """

    name = "noisy-oracle"

    def __init__(self, sigma_p0: float = 0.0, sigma_p1: float = 0.0, seed: int | None = None,
                 coord_mode: str = "pixel") -> None:
        for label, sigma in (("sigma_p0", sigma_p0), ("sigma_p1", sigma_p1)):
            if not (sigma >= 0.0 and np.isfinite(sigma)):
                raise UsageError(f"{label} must be a finite number >= 0 (pixels), got {sigma}")
        self.sigma = {"p0": float(sigma_p0), "p1": float(sigma_p1)}
        self.coord_mode = coord_mode
        streams = np.random.SeedSequence(seed).spawn(2)
        self._rng = {"p0": np.random.default_rng(streams[0]),
                     "p1": np.random.default_rng(streams[1])}
        self._oracle = OracleAgent()

    def act(self, observation: Any, info: dict[str, Any]) -> dict[str, np.ndarray]:
        action = self._oracle.act(observation, info)
        height, width = np.shape(observation["screenshot"])[:2]
        # Pixel noise in the env's frame: normalised points move by sigma / size.
        scale = np.array([1.0 / width, 1.0 / height]) if self.coord_mode == "normalized" else 1.0
        noisy = {}
        for key in ("p0", "p1"):
            unit = self._rng[key].standard_normal(2)
            if self.sigma[key] == 0.0:
                noisy[key] = action[key]
            else:
                noisy[key] = (action[key] + unit * self.sigma[key] * scale).astype(np.float32)
        return noisy


class RandomAgent:
    """Two uniform points over the whole action frame."""

    name = "random"

    def __init__(self, action_space, seed: int | None = None) -> None:
        self.action_space = action_space
        self.action_space.seed(seed)

    def act(self, observation: Any, info: dict[str, Any]) -> dict[str, np.ndarray]:
        return self.action_space.sample()


class AnyControlAgent:
    """Both points at the centre of one control drawn uniformly from those on screen:
    the target or any of a page's distractors (their measured `loc` boxes).

    It has what a detector of controls would have and nothing of the instruction: on a
    lone control it always locates the target (SR@Loc 1), on a page only by chance.
    """

    name = "any-control"

    def __init__(self, coord_mode: str = "pixel", seed: int | None = None) -> None:
        self.coord_mode = coord_mode
        self._rng = np.random.default_rng(seed)

    def act(self, observation: Any, info: dict[str, Any]) -> dict[str, np.ndarray]:
        instance = json.loads(info["instance"])
        boxes = [tuple(info["boxes"]["current"]["loc"])]
        size = instance["size"]
        # Distractors' boxes are recorded in screenshot pixels; the target's is in the env's
        # frame, which a normalised env divides by the screen's size.
        scale = ((1.0 / size["width"], 1.0 / size["height"]) if self.coord_mode == "normalized"
                 else (1.0, 1.0))
        for distractor in (instance.get("scene") or {}).get("distractors", []):
            x1, y1, x2, y2 = distractor["loc"]
            boxes.append((x1 * scale[0], y1 * scale[1], x2 * scale[0], y2 * scale[1]))
        point = np.asarray(box_center(boxes[int(self._rng.integers(len(boxes)))]), np.float32)
        return {"p0": point, "p1": point.copy()}


def make_agent(name: str, env, seed: int | None = None, sigma_p0: float = 0.0,
               sigma_p1: float = 0.0):
    """A scripted agent for `env`; `sigma_p0`/`sigma_p1` (pixels) apply to the noisy oracle."""
    if name == "oracle":
        return OracleAgent()
    if name == "noisy-oracle":
        return NoisyOracleAgent(sigma_p0, sigma_p1, seed=seed, coord_mode=env.coord_mode)
    if name == "random":
        return RandomAgent(env.action_space, seed=seed)
    if name == "any-control":
        return AnyControlAgent(env.coord_mode, seed=seed)
    raise UsageError(f"unknown agent {name!r}; available: {', '.join(AGENTS)}")


AGENTS = ("oracle", "noisy-oracle", "random", "any-control")
