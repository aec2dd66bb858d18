"""`finestate audit`: every instance's boxes proved or disproved by probing the live control,
and the two-point audit of the static rules (replay.precision)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from finestate_env.cli import inputs, options

NAME = "audit"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help="prove or disprove every instance's boxes by "
                                              "probing the live control, and measure how "
                                              "often each static rule's paid gestures reach "
                                              "the goal")
    parser.add_argument("--instances", required=True, help="instances file (JSON Lines)")
    parser.add_argument("--out", required=True,
                        help="folder for audit.jsonl, audit_summary.json, pictures and "
                             "report.html; an existing one is continued (with the same "
                             "settings)")
    parser.add_argument("--density", type=options.whole_number, default=None,
                        help="probes per side inside the goal box, 3x that over core "
                             "(default: replay.audit.DENSITY, 5)")
    parser.add_argument("--gestures", type=options.whole_number, default=None,
                        help="two-point audit: gestures drawn per static rule and instance "
                             "where the rule pays in full, performed live (default 20; 0: "
                             "the goal box audit alone)")
    parser.add_argument("--start-points", type=options.whole_number, default=None,
                        help="two-point audit: start-region probes along the longer side of "
                             "a drag's loc box (default 20; 0: not measured)")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the two-point audit's gestures (default 0)")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes, each with its own browser (default 1); with --ray, "
                             "Ray actors")
    options.add_ray_options(parser)
    parser.add_argument("--brief", action="store_true",
                        help="print one line: each static rule's precision for drags and taps")
    parser.add_argument("--no-report", action="store_true",
                        help="do not write OUT/report.html")
    parser.add_argument("--skip-invalid", action="store_true")
    options.add_trusted_paths_option(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from finestate_env.runs.ray_jobs import ray_checked

    # Ray refuses actors that do not fit before anything is written, OUT included.
    with ray_checked(options.ray_spec(args)):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    """The instances file is read twice, one line at a time: once to check every line and
    note where each instance is (and the first replayable one of each type, which gets a
    picture), then each instance again as a worker is handed it. The records are written
    as they come and summarised from the file, one at a time."""
    from finestate_env.datasets.formats import InstanceReader
    from finestate_env.replay import precision
    from finestate_env.replay.dataset_audit import AuditSettings, PendingInstance, audit_run

    reader = InstanceReader(args.instances, skip_invalid=args.skip_invalid,
                            trusted_paths=args.trusted_paths)
    pending: list[PendingInstance] = []
    first: dict[str, str] = {}  # type -> the id of its first replayable instance
    with inputs.reading(args.instances):
        for line, offset, instance in reader.located():
            pending.append(PendingInstance(instance.id, line, offset))
            if instance.live is not None:
                first.setdefault(instance.component, instance.id)
    inputs.say_skipped(args.instances, reader.skipped)
    out = Path(args.out)
    defaults = AuditSettings()
    settings = AuditSettings(
        density=defaults.density if args.density is None else args.density,
        gestures=defaults.gestures if args.gestures is None else args.gestures,
        seed=args.seed,
        start_points=defaults.start_points if args.start_points is None else args.start_points)
    try:
        with reader:
            summary = audit_run(pending, out, settings, workers=args.workers or 1,
                                progress=not args.quiet, ray=options.ray_spec(args),
                                illustrate=frozenset(first.values()),
                                load=lambda at: reader.load(at.line, at.offset, at.id))
    except KeyboardInterrupt:
        print(f"\ninterrupted: audits so far are in {out / 'audit.jsonl'}; "
              "run the same command again to continue", file=sys.stderr)
        return 130
    written = [out / "audit.jsonl", out / "audit_summary.json"]
    if not args.no_report:
        from finestate_env.replay.report import write_report

        written.append(write_report(out))
    if args.brief:
        print(precision.headline(summary["precision"])
              + ("" if args.no_report else f" (pictures: {out / 'report.html'})"))
        return 0
    status = summary["status"]
    print(f"{summary['instances']} instances: {status['sound']} sound, {status['unsound']} "
          f"unsound, {status['not_replayable']} not replayable, {status['error']} errors "
          f"({summary['probes']} goal box probes)")
    print(f"{'type':<16}{'n':>5}{'unsound':>9}{'sound min':>11}{'tight med':>11}{'IoU med':>9}")
    for name, stats in summary["by_component"].items():
        fmt = lambda d, k: f"{d[k]:.3f}" if d else "n/a"  # noqa: E731
        print(f"{name:<16}{sum(stats['status'].values()):>5}{stats['status']['unsound']:>9}"
              f"{fmt(stats['soundness'], 'min'):>11}{fmt(stats['tightness'], 'median'):>11}"
              f"{fmt(stats['iou'], 'median'):>9}")
    for bad in summary["unsound"]:
        print(f"  unsound: {bad['id']} ({bad['component']}, soundness {bad['soundness']:.3f}) "
              f"-> {out / bad['picture']}")
    if summary["precision"]["instances"]:
        _print_precision(summary["precision"], precision)
    print("wrote " + ", ".join(map(str, written)))
    return 0


def _print_precision(summary: dict, precision) -> None:
    rules = list(summary["rules"])
    print("\nprecision: of the gestures each rule pays in full, the share that reach the "
          "goal (95% interval)")
    print(f"{'type':<16}{'gesture':<8}" + "".join(f"{name:>17}" for name in rules)
          + f"{'start IoU now':>15}")
    for name, row in summary["by_component"].items():
        start = summary["start"].get(name)
        iou = (f"{start['iou_now']:.2f}" if start and start["iou_now"] is not None
               else "n/a" if start else "")
        print(f"{name:<16}{row['gesture'] or '?':<8}"
              + "".join(f"{precision.percent(row[rule]):>17}" for rule in rules) + f"{iou:>15}")
    for rule in rules:
        print(f"  {rule}: {summary['rules'][rule]}")
    print(precision.headline(summary))
