"""`finestate export`: instances written in another layout."""

from __future__ import annotations

import argparse
from pathlib import Path

from finestate_env.cli import inputs, options
from finestate_env.core.errors import UsageError

NAME = "export"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help="write instances in another layout")
    parser.add_argument("instances")
    parser.add_argument("--format", choices=options.LAYOUTS, required=True)
    parser.add_argument("--out", required=True, help="file to write")
    parser.add_argument("--skip-invalid", action="store_true")
    options.add_trusted_paths_option(parser)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from finestate_env.datasets.formats import export, read_instances

    out = Path(args.out)
    if out.exists() and out.resolve() == Path(args.instances).resolve():
        raise UsageError(f"--out {args.out} is the instances file it reads; write the export "
                         "to another file")
    with inputs.reading(args.instances):
        read = read_instances(args.instances, skip_invalid=args.skip_invalid,
                              trusted_paths=args.trusted_paths)
    inputs.say_skipped(args.instances, read.skipped)
    export(read.items, args.out, args.format)
    print(f"wrote {len(read.items)} instances to {args.out} ({args.format})")
    return 0
