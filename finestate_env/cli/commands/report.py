"""`finestate report`: FOLDER/report.html from a replay's (or a run's) folder."""

from __future__ import annotations

import argparse
from pathlib import Path

from finestate_env.cli import inputs, options
from finestate_env.core.errors import UsageError

NAME = "report"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help="write FOLDER/report.html from a replay, "
                                              "run or audit folder")
    parser.add_argument("folder")
    options.add_trusted_paths_option(parser)
    parser.add_argument("--skip-invalid", action="store_true",
                        help="skip malformed lines of the instances file that FOLDER/run.json "
                             "names instead of stopping")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from finestate_env.replay.report import write_report

    folder = Path(args.folder)
    if not any((folder / name).exists() for name in ("results.jsonl", "audit_summary.json")):
        raise UsageError(f"{folder} has neither results.jsonl nor audit_summary.json: run "
                         f"`finestate replay --out {folder}` or `finestate audit --out "
                         f"{folder}` first")
    with inputs.reading():
        report = write_report(folder, trusted_paths=args.trusted_paths,
                              skip_invalid=args.skip_invalid)
    print(f"wrote {report}")
    return 0
