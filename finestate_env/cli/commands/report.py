"""`finestate report`: FOLDER/report.html from a replay's (or a run's) folder."""

from __future__ import annotations

import argparse
from pathlib import Path

from finestate_env.core.errors import UsageError

NAME = "report"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help="write FOLDER/report.html from a replay "
                                              "(and audit) folder")
    parser.add_argument("folder")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from finestate_env.replay.report import write_report

    folder = Path(args.folder)
    if not (folder / "results.jsonl").exists():
        raise UsageError(f"{folder} has no results.jsonl: run `finestate replay --out {folder}` "
                         "first")
    print(f"wrote {write_report(folder)}")
    return 0
