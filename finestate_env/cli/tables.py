"""Plain-text tables of the metrics, as the command line prints them."""

from __future__ import annotations

from typing import Any

from finestate_env.core import scoring


def format_summary(summary: dict[str, Any], crosscheck_by_type: bool = True) -> str:
    """A plain-text table: each metric static beside live, overall and per type; with
    `crosscheck_by_type` also the disagreement counts of each type that has any."""
    lines = []
    header = f"{'':<22}{'n':>5}  " + "  ".join(
        f"{name:>19}" for name in ("SR@Loc", "SR@Int", "ES-SR@Loc", "ES-SR@Int"))
    lines.append(header)
    lines.append(f"{'':<22}{'':>5}  " + "  ".join(f"{'static   live':>19}" for _ in range(4)))
    rows = [("overall", summary["static"]["overall"], summary["live"]["overall"])]
    for name, static in summary["static"]["by_component"].items():
        # A type seen only on instances without a live block has no live row.
        rows.append((f"  {name}", static, summary["live"]["by_component"].get(name)))
    for label, static, live in rows:
        cells = "  ".join(f"{static[m]:>9.3f}"
                          + (f"{live[m]:>10.3f}" if live and live["n"] else f"{'n/a':>10}")
                          for m in scoring.METRICS)
        lines.append(f"{label:<22}{static['n']:>5}  {cells}")
    not_replayable = summary.get("outcomes", {}).get("not_replayable", 0)
    if not_replayable:
        lines.append(f"not replayable (no live block: static only, in no live rate): "
                     f"{not_replayable}")
    cc = summary["crosscheck"]
    lines.append("")
    lines.append(f"cross-check (static vs live exact): agree {cc['agree']}, "
                 f"false accept {cc['false_accept']}, false reject {cc['false_reject']}")
    for name, counts in cc["by_component"].items() if crosscheck_by_type else ():
        if counts["false_accept"] or counts["false_reject"]:
            lines.append(f"  {name}: false accept {counts['false_accept']}, "
                         f"false reject {counts['false_reject']}")
    collateral = summary["collateral"]
    if collateral["episodes"]:
        lines.append(f"collateral: {collateral['episodes']} steps changed another control "
                     f"({collateral['with_success']} of them still reached the goal)")
    if summary["action_errors"]:
        lines.append(f"action errors: {summary['action_errors']}")
    if summary.get("unjudged"):
        lines.append(f"unjudged (the backend crashed past recovery; in no metric): "
                     f"{summary['unjudged']}")
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


def format_disagreements(table: dict[str, Any]) -> str:
    """Where the box proxy and the control disagree, by type, each kind explained
    (`replay.disagreements.explain`'s table)."""
    lines = ["Where the box proxy and the control disagree, by type. False accept: p1 in the "
             "goal box, the control not at the goal. False reject: p1 outside the goal box, "
             "the control at the goal.",
             f"{'type':<18}{'gesture':<9}{'false accept':>13}{'false reject':>14}"]
    for name, row in table.items():
        lines.append(f"{name:<18}{row['gesture'] or '':<9}{row['false_accept']:>13}"
                     f"{row['false_reject']:>14}")
        for kind, count, text in row["lines"]:
            lines.append(f"    {kind.replace('_', ' ')} {count}: {text}")
    return "\n".join(lines)
