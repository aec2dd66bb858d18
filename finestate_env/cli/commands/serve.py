"""`finestate serve`: the reward server (rewards/server.py) for trainers on other machines."""

from __future__ import annotations

import argparse
import ipaddress
import os
import sys

from finestate_env.cli import options
from finestate_env.core.errors import UsageError
from finestate_env.core.scoring import REWARD_MODES

NAME = "serve"
TOKEN_ENV = "FINESTATE_REWARD_TOKEN"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help="serve live rewards over HTTP (OpenRLHF's "
                                              "/get_reward, a JSON /score, /health)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default: loopback only; another address needs "
                             "a token)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--mode", choices=REWARD_MODES, default="exact",
                        help="the reward a request gets unless it names one (default: exact)")
    parser.add_argument("--crosscheck", action="store_true",
                        help="judge box rewards live too (their metrics say when the box lied)")
    parser.add_argument("--workers", type=options.whole_number, default=None,
                        help="scoring threads, each with a page of its own (default: one per "
                             "core)")
    parser.add_argument("--shared-browser", action="store_true",
                        help="all pages in one browser (default: a browser per worker, which "
                             "spreads the work over the cores)")
    parser.add_argument("--max-pending", type=options.whole_number, default=None,
                        help="completions that may wait before requests get 503 (default "
                             "4096)")
    options.add_server_options(parser, TOKEN_ENV)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from finestate_env.core.extras import require

    for module in ("fastapi", "uvicorn"):
        require(module, "rewards", "the reward server")
    from finestate_env.rewards.scorer import MAX_PENDING, RewardScorer
    from finestate_env.rewards.server import serve

    token = os.environ.get(args.token_env) or None
    check_host = host_check(token, args.token_env)
    on_ray = options.ray_serve_options(args)
    if on_ray is not None:
        from finestate_env.agentic.ray_serve import reward_server, serve_on_ray

        spec = reward_server(mode=args.mode, workers=args.workers, crosscheck=args.crosscheck,
                             shared_browser=args.shared_browser,
                             max_pending=args.max_pending or MAX_PENDING, token=token,
                             cpus=args.replica_cpus)
        return serve_on_ray(spec, on_ray, check_host)
    check_host(args.host)
    scorer = RewardScorer(args.mode, workers=args.workers, crosscheck=args.crosscheck,
                          backend_options={"shared_browser": args.shared_browser},
                          max_pending=args.max_pending or MAX_PENDING)
    print(f"finestate serve: http://{args.host}:{args.port} · {scorer.workers} workers · "
          f"mode {args.mode}{' · token required' if token else ''}", file=sys.stderr,
          flush=True)
    serve(scorer, args.host, args.port, token=token, log_level=args.log_level)
    return 0


def host_check(token: str | None, token_env: str):
    """A check that refuses to serve other machines (a host that is not loopback) without
    a token."""
    def check(host: str) -> None:
        if not _loopback(host) and token is None:
            raise UsageError(f"--host {host} serves other machines: set a token in "
                             f"${token_env} first (clients send 'Authorization: Bearer ...')")

    return check


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
