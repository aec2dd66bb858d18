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
    """The instances stream (any number of lines) into OUT.partial, which becomes OUT once
    every line was read: a bad line anywhere leaves OUT as it was."""
    from finestate_env.datasets.formats import InstanceReader, export

    out = Path(args.out)
    if out.exists() and out.resolve() == Path(args.instances).resolve():
        raise UsageError(f"--out {args.out} is the instances file it reads; write the export "
                         "to another file")
    reader = InstanceReader(args.instances, skip_invalid=args.skip_invalid,
                            trusted_paths=args.trusted_paths)
    export(inputs.read_through(reader, args.instances), args.out, args.format)
    inputs.say_skipped(args.instances, reader.skipped)
    print(f"wrote {reader.count} instances to {args.out} ({args.format})")
    return 0
