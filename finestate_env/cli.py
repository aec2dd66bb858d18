"""The `finestate` command line."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from finestate_env import __version__


def _run(args: argparse.Namespace) -> int:
    import gymnasium as gym

    from finestate_env.agents import make_agent
    from finestate_env.evaluation import format_summary, run_episodes, summarize

    env = gym.make(args.env, component=args.component, family=args.family,
                   viewport=args.viewport).unwrapped
    try:
        agent = make_agent(args.agent, env, seed=args.seed)
        started = time.perf_counter()
        results = run_episodes(env, agent, args.episodes, seed=args.seed)
        elapsed = time.perf_counter() - started
    finally:
        env.close()
    summary = summarize(results)
    print(f"{args.env} · agent {args.agent} · {args.episodes} episodes from seed {args.seed} "
          f"· {args.episodes / elapsed:.1f} episodes/s")
    print(format_summary(summary))
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        with open(out / "results.jsonl", "w") as f:
            for result in results:
                f.write(result.model_dump_json() + "\n")
        (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
        print(f"wrote {out / 'results.jsonl'} and {out / 'summary.json'}")
    return 0


def _gallery(args: argparse.Namespace) -> int:
    from replay.gallery import make_gallery

    out = make_gallery(args.out, args.component, seed=args.seed)
    print(f"wrote {out}")
    return 0


def _split(value: str | None) -> list[str] | None:
    return [v for v in value.split(",") if v] if value else None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="finestate", description=(
        "FineState-Bench made live: real controls, real input, exact goal states."))
    parser.add_argument("--version", action="version", version=f"finestate-env {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="run an agent live and print the metrics, "
                                          "static (boxes) beside live (read-back)")
    run.add_argument("--agent", choices=("oracle", "random"), default="oracle")
    run.add_argument("--episodes", type=int, default=50)
    run.add_argument("--seed", type=int, default=0, help="episode i uses seed SEED + i")
    run.add_argument("--component", type=_split, default=None,
                     help="comma-separated component types (default: all)")
    run.add_argument("--family", type=_split, default=None,
                     help="comma-separated families (default: all)")
    run.add_argument("--env", default="FineState-Web-v0")
    run.add_argument("--viewport", default="1280x720", help="WIDTHxHEIGHT")
    run.add_argument("--out", default=None, help="folder for results.jsonl and summary.json")
    run.set_defaults(handler=_run)

    gallery = commands.add_parser("gallery", help="every type in every theme, boxes drawn on, "
                                                  "as one PNG")
    gallery.add_argument("--out", default="gallery.png")
    gallery.add_argument("--component", type=_split, default=None)
    gallery.add_argument("--seed", type=int, default=3)
    gallery.set_defaults(handler=_gallery)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "episodes", 1) < 1:
        print("finestate: --episodes must be at least 1", file=sys.stderr)
        return 2
    try:
        return args.handler(args)
    except ValueError as exc:  # bad option values: say what was wrong, no traceback
        print(f"finestate: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
