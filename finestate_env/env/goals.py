"""Goals as vectors: what the env's `goal_obs` option adds to the observation.

A goal vector is the type's id and a state's code, as float32:

    [ one-hot of the type (23, in TYPE_NAMES' order) | the state's code, zero-padded ]

The code is each type's `state_code` (widgets/<type>.py, the "Goal vector" line of its
`code` method): at most `code_size` numbers in [0, 1], equal for two states exactly when
the type's `states_equal` says the states are equal. A state the control cannot hold
(a read-back off the grid) has no code and is written as -1 throughout, which equals no
goal. The width of the code part is the widest `code_size` of the env's types, so one env
has one goal space whatever type an episode draws.

`goal_obs` (make-time option), a wrapper each (env/make.py applies them):
- `"vector"` (`AddGoalVector`): the observation gains `goal`, the goal state's vector, so
  that a policy that sees pixels needs no OCR of the instruction; an `obs_type="image"` Box
  becomes `Dict(image=..., goal=...)`.
- `"goal_env"` or True (`AsGoalEnv`): the Gymnasium-Robotics convention that HER needs:
  `Dict(observation=<what obs_type says>, achieved_goal=<the state shown>,
  desired_goal=<the goal state>)`, and `compute_reward(achieved, desired, info)`,
  vectorised over leading axes, the exact reward: 1.0 where the vectors are equal, else
  0.0 (the env's own reward for every step). It is the wrapper's method: through
  gym.make's wrappers `env.get_wrapper_attr("compute_reward")`, which is what SB3's
  `env_method("compute_reward", ...)` calls.

A type given to `reset(options=...)` (by name, as a list or as an instance) whose code is
wider than the env's goal space is refused before anything is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from finestate_env.components import COMPONENTS, TYPE_NAMES
from finestate_env.env.environment import read_instance
from finestate_env.env.wrappers import MakeOption

GoalObs = Literal["vector", "goal_env"]
GOAL_OBS: tuple[GoalObs, ...] = ("vector", "goal_env")
NO_CODE = -1.0  # every number of the code of a state the control cannot hold


def parse_goal_obs(goal_obs: Any) -> GoalObs | None:
    """The make-time option as one of GOAL_OBS, or None (no goal vector): True is
    "goal_env", as `goal_obs=True` reads."""
    if goal_obs is None or goal_obs is False:
        return None
    if goal_obs is True:
        return "goal_env"
    if goal_obs not in GOAL_OBS:
        raise ValueError(f"goal_obs must be None, True or one of {list(GOAL_OBS)}, "
                         f"got {goal_obs!r}")
    return goal_obs


def code_width(components: Sequence[str]) -> int:
    """The numbers of the code part for an env drawing `components`: the widest type's."""
    return max(COMPONENTS[name].code_size for name in components)


def goal_space(width: int) -> spaces.Box:
    return spaces.Box(NO_CODE, 1.0, shape=(len(TYPE_NAMES) + width,), dtype=np.float32)


def goal_vector(component: str, state: Any, params: dict[str, Any], width: int) -> np.ndarray:
    """The type's one-hot and `state`'s code, padded to `width` (NO_CODE throughout the
    code part for a state the control cannot hold)."""
    vector = np.zeros(len(TYPE_NAMES) + width, dtype=np.float32)
    vector[TYPE_NAMES.index(component)] = 1.0
    code = COMPONENTS[component].state_code(state, params)
    if code is None:
        vector[len(TYPE_NAMES):] = NO_CODE
    else:
        vector[len(TYPE_NAMES):len(TYPE_NAMES) + len(code)] = code
    return vector


def compute_reward(achieved_goal: Any, desired_goal: Any, info: Any = None) -> Any:
    """1.0 where the two goal vectors are equal in every number, else 0.0, over the last
    axis (a float32 array for batches, a float32 scalar for one pair). Exact: the codes
    are equal exactly when the states are (module docstring); `info` is not needed."""
    achieved, desired = np.asarray(achieved_goal), np.asarray(desired_goal)
    if achieved.shape[-1:] != desired.shape[-1:]:
        raise ValueError(f"goal vectors of different lengths: {achieved.shape} and "
                         f"{desired.shape}")
    return np.all(achieved == desired, axis=-1).astype(np.float32)


def observation_space(base: spaces.Space, goal_obs: GoalObs | None, width: int) -> spaces.Space:
    """The observation space with the goal parts of `goal_obs` (None: `base` itself)."""
    if goal_obs is None:
        return base
    goal = goal_space(width)
    if goal_obs == "goal_env":
        return spaces.Dict({"observation": base, "achieved_goal": goal,
                            "desired_goal": goal_space(width)})
    if isinstance(base, spaces.Dict):
        return spaces.Dict({**base.spaces, "goal": goal})
    return spaces.Dict({"image": base, "goal": goal})


def observation(base: Any, goal_obs: GoalObs | None, achieved: np.ndarray,
                desired: np.ndarray) -> Any:
    """`base` with the goal parts of `goal_obs` (the vectors are copied: an observation
    owns its arrays)."""
    if goal_obs is None:
        return base
    if goal_obs == "goal_env":
        return {"observation": base, "achieved_goal": achieved.copy(),
                "desired_goal": desired.copy()}
    if isinstance(base, dict):
        return {**base, "goal": desired.copy()}
    return {"image": base, "goal": desired.copy()}


class _GoalObservation(MakeOption, gym.Wrapper):
    """The goal vectors of the env's episode beside its observation (the subclasses say
    where). The goal space's width is the widest code among the env's components."""

    goal_obs: GoalObs

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.make_options = {"goal_obs": self.goal_obs}
        self.width = code_width(env.unwrapped.components)
        self.observation_space = observation_space(env.observation_space, self.goal_obs,
                                                   self.width)
        self._desired: np.ndarray | None = None

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        for name in _types_given(options):  # before the env shows anything
            self._check_width(name)
        observation, info = self.env.reset(seed=seed, options=options)
        self._desired = self._vector(self.env.unwrapped.instance.goal_state)
        return self._observation(observation), info

    def step(self, action: Any):
        observation, reward, terminated, truncated, info = self.env.step(action)
        return self._observation(observation), reward, terminated, truncated, info

    def _vector(self, state: Any) -> np.ndarray:
        instance = self.env.unwrapped.instance
        return goal_vector(instance.component, state, instance.live.params, self.width)

    def _observation(self, base: Any) -> Any:
        raise NotImplementedError

    def _check_width(self, name: str) -> None:
        """A type given by reset's options may lie outside the env's components: its goal
        must fit the goal space made for them."""
        needed = COMPONENTS[name].code_size
        if needed > self.width:
            raise ValueError(
                f"goal_obs: a {name} state's code has {needed} numbers, more than the "
                f"{self.width} of this env's goal space (the widest of its components "
                f"{self.env.unwrapped.components}): make the env with {name!r} among its "
                "components")


class AddGoalVector(_GoalObservation):
    """`goal_obs="vector"`: the observation gains `goal`, the goal state's vector
    (`Box(-1, 1, (23 + width,), float32)`); a Box observation becomes
    `Dict(image=<it>, goal=...)`."""

    goal_obs = "vector"

    def _observation(self, base: Any) -> Any:
        return observation(base, "vector", self._desired, self._desired)


class AsGoalEnv(_GoalObservation):
    """`goal_obs="goal_env"` (or True): `Dict(observation=<the env's observation>,
    achieved_goal=<the state shown>, desired_goal=<the goal state>)` and `compute_reward`,
    the Gymnasium-Robotics convention that hindsight experience replay needs. Only such an
    env has `compute_reward`: SB3's and Gymnasium-Robotics' checkers take any env with one
    for a goal env. The env's reward must be the exact one (not `ShapedReward`'s)."""

    goal_obs = "goal_env"

    def compute_reward(self, achieved_goal: Any, desired_goal: Any, info: Any = None) -> Any:
        """The exact reward for goal vectors (module docstring), vectorised over leading
        axes: 1.0 where they are equal in every number, else 0.0, as float32."""
        return compute_reward(achieved_goal, desired_goal, info)

    def _observation(self, base: Any) -> Any:
        # The goal achieved is the state read back, also on a terminal step whose pixels
        # (terminal_obs="skip") are those the gesture acted on.
        return observation(base, "goal_env", self._vector(self.env.unwrapped.shown_state),
                           self._desired)


def goal_wrapper(goal_obs: Any) -> type[_GoalObservation] | None:
    """The wrapper of the make-time option `goal_obs` (None: no goal vector)."""
    return {None: None, "vector": AddGoalVector, "goal_env": AsGoalEnv}[
        parse_goal_obs(goal_obs)]


def _types_given(options: dict[str, Any] | None) -> list[str]:
    """The types `reset(options=...)` names (an instance, or one or several by name); an
    unknown name or an instance without a live block is the env's to refuse."""
    options = options or {}
    if "instance" in options:
        live = read_instance(options["instance"]).live
        return [] if live is None else [live.component]
    given = options.get("component")
    if given is None:
        return []
    return [name for name in ([given] if isinstance(given, str) else list(given))
            if name in COMPONENTS]
