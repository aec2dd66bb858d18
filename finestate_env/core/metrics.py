"""The FineState metrics over many results (docs/design.md §5).

`summarize` gives the replay summary shape: the four metrics twice (static,
live) overall, by platform, family and type, plus the cross-check counts.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable
from typing import Any

from finestate_env.core import scoring
from finestate_env.core.schema import StepResult


def _lacks_a_point(result: Any, which: str) -> bool:
    """A result counted in `missing` (docs/design.md §5, "a missing or null point is a miss,
    counted apart"): no verdict at all, or a prediction with a point absent, null or
    unparseable (its `problems`), even when the other point was scored."""
    return getattr(result, which) is None or bool(getattr(result, "problems", None))


def _metric_set(results: list[Any], which: str) -> dict[str, float | int]:
    rates = scoring.metric_set(getattr(r, which) for r in results)
    rates["missing"] = sum(_lacks_a_point(r, which) for r in results)
    return rates


def _grouped(results: list[StepResult], which: str, key: Callable[[StepResult], str]):
    groups: dict[str, list[StepResult]] = {}
    for result in results:
        groups.setdefault(key(result), []).append(result)
    return {name: _metric_set(group, which) for name, group in sorted(groups.items())}


def metric_table(results: list[StepResult], which: str) -> dict[str, Any]:
    """`{"overall", "by_platform", "by_family", "by_component"}` for `static` or `live`."""
    return {
        "overall": _metric_set(results, which),
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


def collateral_table(results: Iterable[Any]) -> dict[str, Any]:
    """How many performed steps changed a control other than the target (a page scene's
    distractor, read back live), overall and by type, and how many of those still reached
    the goal: a success a box cannot see the cost of."""
    changed = [r for r in results if r.collateral_changed]
    by_component: dict[str, int] = {}
    for result in changed:
        by_component[result.component] = by_component.get(result.component, 0) + 1
    return {"episodes": len(changed),
            "with_success": sum(bool(r.live_exact) for r in changed),
            "by_component": dict(sorted(by_component.items()))}


def summarize(results: Iterable[StepResult]) -> dict[str, Any]:
    """The summary of judged results; results that could not be judged (a crash past
    recovery) count in no metric, and `unjudged` counts them (present when there are any)."""
    everything = list(results)
    results = [r for r in everything if r.unjudged is None]
    summary = {"static": metric_table(results, "static"), "live": metric_table(results, "live"),
               "crosscheck": crosscheck_table(results),
               "collateral": collateral_table(results),
               "action_errors": sum(r.action_error is not None for r in results)}
    if len(results) < len(everything):
        summary["unjudged"] = len(everything) - len(results)
    episodes = [r for r in results if r.gestures is not None]
    if episodes:  # several gestures per episode: what the episodes did beyond the first
        gestures = [r.gestures for r in episodes]
        summary["episodes"] = {
            "n": len(episodes),
            "episode_success": sum(bool(r.episode_success) for r in episodes) / len(episodes),
            "gestures_mean": sum(gestures) / len(gestures),
            "gestures_median": statistics.median(gestures),
            "oracle_gestures_median": statistics.median(r.oracle_gestures or 1
                                                        for r in episodes),
            "collateral": sum(bool(r.episode_collateral_changed) for r in episodes)}
    return summary
