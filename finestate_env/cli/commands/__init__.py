"""The `finestate` commands, one module each: `NAME`, `add_parser(subparsers)` (its options,
with `run` as the parser's default) and `run(args) -> int` (the exit status).

COMMANDS is the order `finestate --help` lists them in.
"""

from finestate_env.cli.commands import (
    audit,
    curve,
    eval_,
    export,
    export_rl,
    gallery,
    generate,
    import_,
    replay,
    report,
    run,
    score,
    serve,
    serve_env,
)

COMMANDS = (run, gallery, eval_, curve, replay, audit, report, generate, import_, export, score,
            export_rl, serve, serve_env)
