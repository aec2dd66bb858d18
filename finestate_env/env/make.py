"""The ids' entry point: `gym.make(ID, **options)` lands in `make_env`, which builds the
env (FineStateEnv, env/environment.py: one episode of a live control) and wraps it for the
learner options, those that only transform its actions, observations or rewards:

| option | wrapper | where |
|---|---|---|
| `action_type="flat"` | `FlatAction` | env/wrappers.py |
| `obs_type`, `obs_size`, `obs_dtype` | `RLObservation` | env/observation.py |
| `goal_obs="vector"` | `AddGoalVector` | env/goals.py |
| `goal_obs="goal_env"` (or True) | `AsGoalEnv` (with `compute_reward`) | env/goals.py |
| `reward="shaped"` | `ShapedReward` | env/shaping.py |

applied in that order, innermost first, each only when its option is not the default; every
other option is the env's own. `env.unwrapped` is the env; its methods (`set_level`) and
attributes (`instance`, `backend`, ...) are reached there or through `get_wrapper_attr` and a
vector env's `call`. The one thing the env must know of a wrapper is what it captures: a
small `obs_size` lets a lone control's screen be captured at a smaller scale, which
`RLObservation` works out and asks for at each reset (`options["capture_scale"]`), so that
the env used alone (`env.unwrapped`) still captures every screen whole, as its space says.

The vector entry point (env/vector.py) builds each of its envs here too.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym

from finestate_env.env import goals, observation
from finestate_env.env.environment import FineStateEnv
from finestate_env.env.shaping import REWARDS, ShapedReward
from finestate_env.env.spaces import ACTION_TYPES, ActionType, ObsDtype, ObsType
from finestate_env.env.wrappers import FlatAction


def make_env(*, obs_type: ObsType = "dict", obs_size: tuple[int, int] | str | None = None,
             obs_dtype: ObsDtype = "uint8", action_type: ActionType = "dict",
             reward: str = "exact", goal_obs: Any = None, **options: Any) -> gym.Env:
    """FineStateEnv(**options), wrapped for the learner options (module docstring); every
    option is checked before a backend is made."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {list(REWARDS)}, got {reward!r}")
    goal = goals.goal_wrapper(goal_obs)
    if goal is goals.AsGoalEnv and reward != "exact":
        raise ValueError("goal_obs='goal_env' needs reward='exact': compute_reward is the "
                         "exact reward, and a shaped reward depends on the step before")
    if action_type not in ACTION_TYPES:
        raise ValueError(f"action_type must be one of {list(ACTION_TYPES)}, "
                         f"got {action_type!r}")
    observation.check_options(obs_type, obs_size, obs_dtype)
    env: gym.Env = FineStateEnv(**options)
    if action_type == "flat":
        env = FlatAction(env)
    if (obs_type, obs_size, obs_dtype) != ("dict", None, "uint8"):
        env = observation.RLObservation(env, obs_type, obs_size, obs_dtype)
    if goal is not None:
        env = goal(env)
    if reward == "shaped":
        env = ShapedReward(env)
    return env


# gym.make reads the render modes from its entry point: "human" and "rgb_array_list" are
# then served by its HumanRendering and RenderCollection wrappers, as for the class.
make_env.metadata = FineStateEnv.metadata  # type: ignore[attr-defined]
