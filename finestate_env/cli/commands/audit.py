"""`finestate audit`: every instance's boxes proved or disproved by probing the live control."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from finestate_env.cli import inputs, options

NAME = "audit"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help="prove or disprove every instance's boxes by "
                                              "probing the live control")
    parser.add_argument("--instances", required=True, help="instances file (JSON Lines)")
    parser.add_argument("--out", required=True,
                        help="folder for audit.jsonl, audit_summary.json and pictures of "
                             "unsound boxes; an existing one is continued")
    parser.add_argument("--density", type=options.whole_number, default=None,
                        help="probes per side inside the goal box, 3x that over core "
                             "(default: replay.audit.DENSITY, 5)")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes, each with its own browser (default 1); with --ray, "
                             "Ray actors")
    options.add_ray_options(parser)
    parser.add_argument("--skip-invalid", action="store_true")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from finestate_env.datasets.formats import read_instances
    from finestate_env.replay.audit import DENSITY
    from finestate_env.replay.dataset_audit import audit_file

    with inputs.reading(args.instances):
        instances = read_instances(args.instances, skip_invalid=args.skip_invalid)
    inputs.say_skipped(args.instances, instances.skipped)
    out = Path(args.out)
    density = DENSITY if args.density is None else args.density
    try:
        records, summary = audit_file(instances.items, out, density=density,
                                      workers=args.workers or 1, progress=not args.quiet,
                                      ray=options.ray_spec(args))
    except KeyboardInterrupt:
        print(f"\ninterrupted: audits so far are in {out / 'audit.jsonl'}; "
              "run the same command again to continue", file=sys.stderr)
        return 130
    status = summary["status"]
    print(f"{summary['instances']} instances: {status['sound']} sound, {status['unsound']} "
          f"unsound, {status['not_replayable']} not replayable, {status['error']} errors "
          f"({summary['probes']} probes)")
    print(f"{'type':<16}{'n':>5}{'unsound':>9}{'sound min':>11}{'tight med':>11}{'IoU med':>9}")
    for name, stats in summary["by_component"].items():
        fmt = lambda d, k: f"{d[k]:.3f}" if d else "n/a"  # noqa: E731
        print(f"{name:<16}{sum(stats['status'].values()):>5}{stats['status']['unsound']:>9}"
              f"{fmt(stats['soundness'], 'min'):>11}{fmt(stats['tightness'], 'median'):>11}"
              f"{fmt(stats['iou'], 'median'):>9}")
    for bad in summary["unsound"]:
        print(f"  unsound: {bad['id']} ({bad['component']}, soundness {bad['soundness']:.3f}) "
              f"-> {out / bad['picture']}")
    print(f"wrote {out / 'audit.jsonl'} and {out / 'audit_summary.json'}")
    return 0
