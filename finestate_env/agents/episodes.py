"""Running an agent over live episodes (`finestate run`, the precision curve)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from finestate_env.core.schema import StageVerdicts, StepResult
from finestate_env.core.states import decode_state


def run_episodes(env, agent, episodes: int, seed: int = 0,
                 on_result: Callable[[StepResult, Any, dict[str, Any]], None] | None = None,
                 ) -> list[StepResult]:
    """`episodes` live episodes, episode i reset with seed `seed + i`; one result each.

    An env of several gestures per episode (`max_actions` > 1) is stepped until the
    episode ends, the agent acting on each new observation and info: the result is the
    first gesture's (the FineState protocol) with the episode's `gestures`,
    `episode_success` and `episode_collateral_changed`. `on_result` is called after each
    episode with its result, the observation of the first gesture and the reset's info.
    """
    several = getattr(env.unwrapped, "max_actions", 1) > 1
    results = []
    for i in range(episodes):
        obs, reset_info = env.reset(seed=seed + i)
        action = agent.act(obs, reset_info)
        next_obs, _, terminated, truncated, info = env.step(action)
        result = step_result(info, action)
        if several:
            gestures, changed = 1, list(result.collateral_changed)
            while not (terminated or truncated):
                action = agent.act(next_obs, info)
                next_obs, _, terminated, truncated, info = env.step(action)
                gestures += 1
                changed += [c for c in json.loads(info["collateral_changed"]) if c not in changed]
            result = result.model_copy(update={
                "gestures": gestures, "episode_success": bool(info["success"]),
                "unjudged": result.unjudged or info.get("unjudged"),
                "episode_collateral_changed": changed,
                "oracle_gestures": int(info["oracle_actions"])})
        results.append(result)
        if on_result:
            on_result(result, obs, reset_info)
    return results


def step_result(info: dict[str, Any], action: Any) -> StepResult:
    """The record of one step, from the env's step `info` (points as the agent gave them)."""
    instance = json.loads(info["instance"])
    return StepResult(
        id=instance["id"], component=info["component"], family=info["family"],
        platform=instance["platform"], p0=_point(action, "p0"), p1=_point(action, "p1"),
        state=decode_state(info["state"]), goal_state=decode_state(info["goal_state"]),
        success=info["success"], static=StageVerdicts(**info["static"]),
        live=StageVerdicts(**info["live"]), crosscheck=info["crosscheck"],
        action_error=info["action_error"], timings=info.get("timings", {}),
        collateral_changed=json.loads(info["collateral_changed"]),
        unjudged=info.get("unjudged"))


def _point(action: Any, key: str) -> tuple[float, float] | None:
    try:
        x, y = (float(v) for v in action[key])
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    return (x, y) if all(map(_finite, (x, y))) else None


def _finite(v: float) -> bool:
    return v == v and v not in (float("inf"), float("-inf"))
