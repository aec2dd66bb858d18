"""`finestate export`: instances written in another layout."""

from __future__ import annotations

import argparse

from finestate_env.cli import inputs, options

NAME = "export"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help="write instances in another layout")
    parser.add_argument("instances")
    parser.add_argument("--format", choices=options.LAYOUTS, required=True)
    parser.add_argument("--out", required=True, help="file to write")
    parser.add_argument("--skip-invalid", action="store_true")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from finestate_env.datasets.formats import export, read_instances

    with inputs.reading(args.instances):
        read = read_instances(args.instances, skip_invalid=args.skip_invalid)
    inputs.say_skipped(args.instances, read.skipped)
    export(read.items, args.out, args.format)
    print(f"wrote {len(read.items)} instances to {args.out} ({args.format})")
    return 0
