"""The `finestate` command line: the parser built from the command modules (cli/commands),
and the dispatch.

Exit status: what the command returns (0 done, 1 a model endpoint that kept failing, 130
interrupted); 2 for bad input, a UsageError (finestate_env.core.errors) or argparse's own
refusal, said on one line without a traceback. Any other exception is a bug: it propagates
with its traceback (exit 1).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from finestate_env import __version__
from finestate_env.cli.commands import COMMANDS
from finestate_env.core.errors import UsageError
from finestate_env.core.files import TerminalText, for_terminal


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="finestate", description=(
        "FineState-Bench made live: real controls, real input, exact goal states."))
    parser.add_argument("--version", action="version", version=f"finestate-env {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add_parser(subparsers)
    return parser


# Commands whose --out is a folder; the others' (export, gallery) is a file.
FOLDER_OUTS = frozenset({"run", "curve", "replay", "audit", "score", "eval", "generate",
                         "import", "export-rl"})


def check_out(command: str, out: str | None) -> None:
    """Refuse, before any work, an --out that cannot be written: a file where a folder
    goes, or a file among the folders above it."""
    if out is None:
        return
    path = Path(out)
    for above in reversed(path.parents):
        if above.exists() and not above.is_dir():
            raise UsageError(f"--out {out}: {above} is a file, not a folder")
    if command in FOLDER_OUTS and path.exists() and not path.is_dir():
        raise UsageError(f"--out {out} is a file; {command} writes a folder there")
    if command not in FOLDER_OUTS and path.is_dir():
        raise UsageError(f"--out {out} is a folder; {command} writes a file there")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    # What a command prints holds ids and names from files: printed as text, never as
    # terminal control (an id with an escape sequence could fake a line or a title).
    stdout, sys.stdout = sys.stdout, TerminalText(sys.stdout)
    try:
        check_out(args.command, getattr(args, "out", None))
        return args.run(args)
    except UsageError as exc:  # bad input: say what was wrong, no traceback
        print(f"finestate: {for_terminal(str(exc), keep_lines=True)}", file=sys.stderr)
        return 2
    finally:
        sys.stdout.flush()
        sys.stdout = stdout


if __name__ == "__main__":
    sys.exit(main())
