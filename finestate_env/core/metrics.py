"""The FineState metrics over many results (docs/design.md §5).

`summarize` gives the replay summary shape: the four metrics twice (static,
live) overall, by platform, family and type, plus the cross-check counts.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from typing import Any

from finestate_env.core import scoring
from finestate_env.core.schema import StepResult


def _lacks_a_point(result: Any, which: str) -> bool:
    """A result counted in `missing` (docs/design.md §5, "a missing or null point is a miss,
    counted apart"): no verdict at all, or a prediction with a point absent, null or
    unparseable (its `problems`), even when the other point was scored."""
    return getattr(result, which) is None or bool(getattr(result, "problems", None))


_GROUPS = (("by_platform", "platform"), ("by_family", "family"), ("by_component", "component"))


class MetricTally:
    """`metric_table` counted one result at a time (`add`), for results that are never all
    held: a few counts per platform, family and type."""

    def __init__(self, which: str) -> None:
        self.which = which
        self._overall = scoring.MetricCounts()
        self._groups: dict[str, dict[str, scoring.MetricCounts]] = {
            group: {} for group, _ in _GROUPS}

    def add(self, result: Any) -> None:
        verdict = getattr(result, self.which)
        lacks = _lacks_a_point(result, self.which)
        self._overall.add(verdict, lacks)
        for group, attribute in _GROUPS:
            groups = self._groups[group]
            name = getattr(result, attribute)
            counts = groups.get(name)
            if counts is None:
                counts = groups[name] = scoring.MetricCounts()
            counts.add(verdict, lacks)

    def table(self) -> dict[str, Any]:
        return {"overall": self._overall.rates(),
                **{group: {name: counts.rates() for name, counts
                           in sorted(self._groups[group].items())}
                   for group, _ in _GROUPS}}


def metric_table(results: Iterable[Any], which: str) -> dict[str, Any]:
    """`{"overall", "by_platform", "by_family", "by_component"}` for `static` or `live`."""
    tally = MetricTally(which)
    for result in results:
        tally.add(result)
    return tally.table()


class CrossCheckTally:
    """`crosscheck_table` counted one result at a time."""

    def __init__(self) -> None:
        self._counts = scoring.crosscheck_counts([])
        self._by_component: dict[str, dict[str, int]] = {}

    def add(self, result: Any) -> None:
        if result.crosscheck is None:
            return
        self._counts[result.crosscheck] += 1
        by_component = self._by_component.setdefault(result.component,
                                                      scoring.crosscheck_counts([]))
        by_component[result.crosscheck] += 1

    def table(self) -> dict[str, Any]:
        table: dict[str, Any] = dict(self._counts)
        table["by_component"] = {name: dict(counts)
                                 for name, counts in sorted(self._by_component.items())}
        return table


def crosscheck_table(results: Iterable[Any]) -> dict[str, Any]:
    """`{"agree", "false_accept", "false_reject", "by_component"}` over the results
    that have a cross-check (a miss or a static-only record has none)."""
    tally = CrossCheckTally()
    for result in results:
        tally.add(result)
    return tally.table()


class CollateralTally:
    """`collateral_table` counted one result at a time."""

    def __init__(self) -> None:
        self.episodes = self.with_success = 0
        self._by_component: dict[str, int] = {}

    def add(self, result: Any) -> None:
        if not result.collateral_changed:
            return
        self.episodes += 1
        self.with_success += bool(result.live_exact)
        self._by_component[result.component] = self._by_component.get(result.component, 0) + 1

    def table(self) -> dict[str, Any]:
        return {"episodes": self.episodes, "with_success": self.with_success,
                "by_component": dict(sorted(self._by_component.items()))}


def collateral_table(results: Iterable[Any]) -> dict[str, Any]:
    """How many performed steps changed a control other than the target (a page scene's
    distractor, read back live), overall and by type, and how many of those still reached
    the goal: a success a box cannot see the cost of."""
    tally = CollateralTally()
    for result in results:
        tally.add(result)
    return tally.table()


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
