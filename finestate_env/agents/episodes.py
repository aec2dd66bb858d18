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
    """`episodes` live episodes, episode i reset with seed `seed + i`. `on_result` is called
    after each step with its result, the observation the agent acted on and the reset's info."""
    results = []
    for i in range(episodes):
        obs, reset_info = env.reset(seed=seed + i)
        action = agent.act(obs, reset_info)
        _, _, _, _, info = env.step(action)
        result = step_result(info, action)
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
        collateral_changed=json.loads(info["collateral_changed"]))


def _point(action: Any, key: str) -> tuple[float, float] | None:
    try:
        x, y = (float(v) for v in action[key])
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    return (x, y) if all(map(_finite, (x, y))) else None


def _finite(v: float) -> bool:
    return v == v and v not in (float("inf"), float("-inf"))
