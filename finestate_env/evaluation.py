"""Running an agent over live episodes and summarising the results (DESIGN.md §5).

`summarize` gives the replay summary shape: the four metrics twice (static,
live) overall, by platform, family and type, plus the cross-check counts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from finestate_env import scoring
from finestate_env.schema import StageVerdicts, StepResult


def run_episodes(env, agent, episodes: int, seed: int = 0,
                 on_result: Callable[[StepResult], None] | None = None) -> list[StepResult]:
    """`episodes` live episodes, episode i reset with seed `seed + i`."""
    results = []
    for i in range(episodes):
        obs, info = env.reset(seed=seed + i)
        action = agent.act(obs, info)
        _, _, _, _, info = env.step(action)
        result = step_result(info, action)
        results.append(result)
        if on_result:
            on_result(result)
    return results


def step_result(info: dict[str, Any], action: Any) -> StepResult:
    """The record of one step, from the env's step `info` (points as the agent gave them)."""
    instance = info["instance"]
    return StepResult(
        id=instance["id"], component=info["component"], family=info["family"],
        platform=instance["platform"], p0=_point(action, "p0"), p1=_point(action, "p1"),
        state=info["state"], goal_state=info["goal_state"], success=info["success"],
        static=StageVerdicts(**info["static"]), live=StageVerdicts(**info["live"]),
        crosscheck=info["crosscheck"], action_error=info["action_error"],
        timings=info["timings"])


def _point(action: Any, key: str) -> tuple[float, float] | None:
    try:
        x, y = (float(v) for v in action[key])
    except (KeyError, TypeError, ValueError, IndexError):
        return None
    return (x, y) if all(map(_finite, (x, y))) else None


def _finite(v: float) -> bool:
    return v == v and v not in (float("inf"), float("-inf"))


def _grouped(results: list[StepResult], which: str, key: Callable[[StepResult], str]):
    groups: dict[str, list[StepResult]] = {}
    for result in results:
        groups.setdefault(key(result), []).append(result)
    return {name: scoring.metric_set(getattr(r, which) for r in group)
            for name, group in sorted(groups.items())}


def metric_table(results: list[StepResult], which: str) -> dict[str, Any]:
    """`{"overall", "by_platform", "by_family", "by_component"}` for `static` or `live`."""
    return {
        "overall": scoring.metric_set(getattr(r, which) for r in results),
        "by_platform": _grouped(results, which, lambda r: r.platform),
        "by_family": _grouped(results, which, lambda r: r.family),
        "by_component": _grouped(results, which, lambda r: r.component),
    }


def crosscheck_table(results: Iterable[Any]) -> dict[str, Any]:
    """`{"agree", "false_accept", "false_reject", "by_component"}` over the results
    that have a cross-check (a miss or a static-only record has none)."""
    checked = [r for r in results if r.crosscheck is not None]
    by_component: dict[str, dict[str, int]] = {}
    for result in checked:
        by_component.setdefault(result.component, scoring.crosscheck_counts([]))
        by_component[result.component][result.crosscheck] += 1
    table: dict[str, Any] = scoring.crosscheck_counts(r.crosscheck for r in checked)
    table["by_component"] = dict(sorted(by_component.items()))
    return table


def summarize(results: Iterable[StepResult]) -> dict[str, Any]:
    results = list(results)
    return {"static": metric_table(results, "static"), "live": metric_table(results, "live"),
            "crosscheck": crosscheck_table(results),
            "action_errors": sum(r.action_error is not None for r in results)}


def format_summary(summary: dict[str, Any]) -> str:
    """A plain-text table: each metric static beside live, overall and per type."""
    lines = []
    header = f"{'':<22}{'n':>5}  " + "  ".join(
        f"{name:>19}" for name in ("SR@Loc", "SR@Int", "ES-SR@Loc", "ES-SR@Int"))
    lines.append(header)
    lines.append(f"{'':<22}{'':>5}  " + "  ".join(f"{'static   live':>19}" for _ in range(4)))
    rows = [("overall", summary["static"]["overall"], summary["live"]["overall"])]
    for name, static in summary["static"]["by_component"].items():
        rows.append((f"  {name}", static, summary["live"]["by_component"][name]))
    for label, static, live in rows:
        cells = "  ".join(f"{static[m]:>9.3f}{live[m]:>10.3f}" for m in scoring.METRICS)
        lines.append(f"{label:<22}{static['n']:>5}  {cells}")
    cc = summary["crosscheck"]
    lines.append("")
    lines.append(f"cross-check (static vs live exact): agree {cc['agree']}, "
                 f"false accept {cc['false_accept']}, false reject {cc['false_reject']}")
    for name, counts in cc["by_component"].items():
        if counts["false_accept"] or counts["false_reject"]:
            lines.append(f"  {name}: false accept {counts['false_accept']}, "
                         f"false reject {counts['false_reject']}")
    if summary["action_errors"]:
        lines.append(f"action errors: {summary['action_errors']}")
    return "\n".join(lines)


def format_metric_table(table: dict[str, Any]) -> str:
    """One metric set per row: overall, then by platform, family and type.

    `table` is `metric_table`'s shape (`score`'s summary, or `summarize(...)["static"]`).
    """
    names = ("SR@Loc", "SR@Int", "ES-SR@Loc", "ES-SR@Int")
    lines = [f"{'':<30}{'n':>6}  " + "".join(f"{name:>11}" for name in names) + f"{'missing':>9}"]

    def row(label: str, rates: dict[str, Any]) -> str:
        cells = "".join(f"{rates[m]:>11.3f}" for m in scoring.METRICS)
        return f"{label:<30}{rates['n']:>6}  {cells}{rates['missing']:>9}"

    lines.append(row("overall", table["overall"]))
    for group, title in (("by_platform", "platform"), ("by_family", "family"),
                         ("by_component", "type")):
        for name, rates in table[group].items():
            lines.append(row(f"  {title} {name}", rates))
    return "\n".join(lines)
