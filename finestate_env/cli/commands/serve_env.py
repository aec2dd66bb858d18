"""`finestate serve-env`: live sessions as an OpenEnv server (agentic/openenv.py,
docs/openenv.md)."""

from __future__ import annotations

import argparse
import os
import socket
import sys

from finestate_env.cli import options
from finestate_env.cli.commands.serve import host_check
from finestate_env.core.errors import UsageError

NAME = "serve-env"
TOKEN_ENV = "FINESTATE_ENV_TOKEN"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help="serve live multi-turn sessions as an OpenEnv "
                                              "environment (WebSocket /ws, OpenEnv's "
                                              "clients)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default: loopback only; another address needs "
                             "a token)")
    parser.add_argument("--port", type=int, default=8000, help="port (0: any free one; the "
                                                               "one taken is printed)")
    parser.add_argument("--max-sessions", type=options.whole_number, default=None,
                        help="sessions open at once, refused past it with OpenEnv's "
                             "CAPACITY_REACHED (default: 32 a core, within half the memory "
                             "available at 40 MiB a session)")
    parser.add_argument("--idle-timeout", type=float, default=600.0,
                        help="seconds a session may wait for its client before it is closed "
                             "(default 600; 0: never)")
    parser.add_argument("--tasks", default=None, metavar="DIR",
                        help="an export-rl --out folder: its splits through OpenEnv's task "
                             "routes, reset(split=, index=) opens one")
    parser.add_argument("--browsers", type=options.whole_number, default=None,
                        help="browsers the sessions' pages are spread over (default: one "
                             "per 3 cores)")
    options.add_server_options(parser, TOKEN_ENV)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from finestate_env.core.extras import require

    require("openenv", "openenv", "finestate serve-env")
    require("uvicorn", "openenv", "finestate serve-env")
    import uvicorn

    from finestate_env.agentic.openenv import make_app

    token = os.environ.get(args.token_env) or None
    check_host = host_check(token, args.token_env)
    if args.idle_timeout < 0:
        raise UsageError(f"--idle-timeout: {args.idle_timeout:g} is below 0")
    on_ray = options.ray_serve_options(args)
    if on_ray is not None:
        from finestate_env.agentic.ray_serve import env_server, serve_on_ray

        spec = env_server(max_sessions=args.max_sessions,
                          idle_timeout_s=args.idle_timeout or None, token=token,
                          tasks=args.tasks, browsers=args.browsers, cpus=args.replica_cpus)
        return serve_on_ray(spec, on_ray, check_host)
    check_host(args.host)
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port: {args.port} is not a port (0 to 65535)")
    app = make_app(max_sessions=args.max_sessions, idle_timeout_s=args.idle_timeout or None,
                   token=token, tasks=args.tasks, browsers=args.browsers)
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as exc:
        sock.close()
        raise UsageError(f"--host {args.host} --port {args.port}: cannot listen there "
                         f"({exc.strerror or exc})") from None
    sock.listen(2048)  # listening before the address is printed: a client that reads it
    host, port = sock.getsockname()[:2]  # may connect at once (uvicorn accepts later)
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    idle = f"idle {args.idle_timeout:g} s" if args.idle_timeout else "no idle timeout"
    print(f"finestate serve-env: ws://{shown}:{port}/ws (http://{shown}:{port}) · "
          f"{app.state.finestate_max_sessions} sessions at most · {idle}"
          f"{' · token required' if token else ''}", file=sys.stderr, flush=True)
    config = uvicorn.Config(app, log_level=args.log_level, timeout_graceful_shutdown=10)
    uvicorn.Server(config).run(sockets=[sock])
    return 0
