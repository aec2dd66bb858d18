"""Action wrappers, and what every wrapper of a make-time option shares.

`FlatAction` is `action_type="flat"`: one Box(4) in [-1, 1] for the two points, as
continuous-control learners (PPO, SAC) take actions.

`GridActions` lays a grid of square cells over the screen and makes the action a cell, for
learners that pick among few actions (DQN and other value methods): one cell (`Discrete`)
for tap types, whose gesture the env performs as "hover p0, click p1" with both points at
the cell's centre; or two cells (`MultiDiscrete`, `points=2`), p0's and p1's, for any
type, drags included. A cell of `cell` pixels reaches every part of a control at least
`cell` pixels wide and tall, with no precision beyond that: a goal narrower than a cell
(a rating's star, a time picker's minute mark) may have no centre in it.

`MakeOption` is the part of each learner option's wrapper (`FlatAction`, `RLObservation`,
`AddGoalVector`, `AsGoalEnv`, `ShapedReward`) that keeps `env.spec` honest: the spec's
kwargs name the option, which `gym.make(env.spec)` applies again through the entry point
(env/make.py), so no wrapper is listed twice in it.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from finestate_env.core.actions import ParsedAction, parse_flat_action
from finestate_env.env.spaces import action_space


class MakeOption:
    """A wrapper that a make-time option stands for: `env.spec` is its env's with the
    option in its kwargs (as Gymnasium's TimeLimit folds itself into max_episode_steps),
    not an additional wrapper that gym.make would apply on top of the entry point's."""

    # The make-time options this wrapper applies, as `gym.make` takes them.
    make_options: dict[str, Any] = {}

    @property
    def spec(self) -> gym.envs.registration.EnvSpec | None:
        spec = self.env.spec
        if spec is None:
            return None
        # The entry point's own wrappers find their options there already: the spec stays
        # as gym.make gave it. A wrapper applied by hand adds its option.
        missing = {k: v for k, v in self.make_options.items() if k not in spec.kwargs}
        return dataclasses.replace(spec, kwargs={**spec.kwargs, **missing}) if missing else spec


class FlatAction(MakeOption, gym.ActionWrapper):
    """`action_type="flat"`: the action is `Box(-1, 1, (4,), float32)`, (p0x, p0y, p1x, p1y)
    with -1 and 1 the screen's edges, whatever the env's `coord_mode` (which still frames
    info's boxes). A malformed flat action (not four finite numbers in [-1, 1]) is the env's
    `info["action_error"]`, never raised and never clamped (core/actions.py)."""

    make_options = {"action_type": "flat"}

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.viewport: tuple[int, int] = env.unwrapped.viewport
        self.action_space = action_space(self.viewport, action_type="flat")

    def action(self, action: Any) -> ParsedAction:
        # Read here, in screenshot pixels, errors included: the env performs it as it is.
        return parse_flat_action(action, self.viewport)


class GridActions(gym.ActionWrapper):
    """The env's action as grid cells of `cell` screenshot pixels, numbered row by row
    from the top left: cell k is column k % cols, row k // cols.

    `points=1`: `Discrete(cols * rows)`, p0 = p1 = the cell's centre (tap types).
    `points=2`: `MultiDiscrete([cols * rows] * 2)`, p0's cell then p1's.
    Wraps an env of any `action_type` and `coord_mode`; the last row and column may be
    narrower than `cell` where the screen is not a whole number of cells.
    """

    def __init__(self, env: gym.Env, cell: int = 20, points: int = 1) -> None:
        super().__init__(env)
        if isinstance(cell, bool) or not isinstance(cell, int) or cell < 1:
            raise ValueError(f"cell must be a whole number of pixels >= 1, got {cell!r}")
        if points not in (1, 2):
            raise ValueError(f"points must be 1 (p0 = p1) or 2 (p0 and p1), got {points!r}")
        inner = env.unwrapped
        self.width, self.height = inner.viewport
        self.cell, self.points = cell, points
        self.cols, self.rows = math.ceil(self.width / cell), math.ceil(self.height / cell)
        cells = self.cols * self.rows
        self.action_space = (spaces.Discrete(cells) if points == 1
                             else spaces.MultiDiscrete([cells, cells]))
        # Under FlatAction the env takes the flat Box; else the points in its coord_mode.
        self._flat = isinstance(env.action_space, spaces.Box)
        self._normalized = inner.coord_mode == "normalized"

    def centre(self, k: int) -> tuple[float, float]:
        """Cell k's centre in screenshot pixels (a clipped last cell's own centre)."""
        if not 0 <= k < self.cols * self.rows:
            raise ValueError(f"cell {k} is outside 0..{self.cols * self.rows - 1}")
        col, row = k % self.cols, k // self.cols
        x0, y0 = col * self.cell, row * self.cell
        return ((x0 + min(x0 + self.cell, self.width)) / 2,
                (y0 + min(y0 + self.cell, self.height)) / 2)

    def action(self, action: Any) -> Any:
        cells = np.atleast_1d(np.asarray(action)).astype(np.int64)
        if cells.shape != (self.points,):
            raise ValueError(f"a GridActions action is {self.points} cell(s), got {action!r}")
        p0 = self.centre(int(cells[0]))
        p1 = self.centre(int(cells[-1]))
        if self._flat:  # -1 and 1 are the screen's edges (env/spaces.py)
            return np.array([2 * p0[0] / self.width - 1, 2 * p0[1] / self.height - 1,
                             2 * p1[0] / self.width - 1, 2 * p1[1] / self.height - 1],
                            dtype=np.float32)
        scale = (self.width, self.height) if self._normalized else (1, 1)
        return {name: np.array([x / scale[0], y / scale[1]], dtype=np.float32)
                for name, (x, y) in (("p0", p0), ("p1", p1))}
