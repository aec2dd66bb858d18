"""`finestate eval`: a VLM (OpenAI-compatible endpoint) asked for the points of every
instance of a file."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from finestate_env.cli import inputs, options
from finestate_env.core.errors import UsageError
from finestate_env.core.files import write_text

NAME = "eval"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help="ask a VLM (OpenAI-compatible endpoint) for "
                                              "the points of every instance of a file")
    parser.add_argument("--agent", choices=("openai",), default="openai")
    parser.add_argument("--instances", required=True, help="instances file (JSON Lines)")
    parser.add_argument("--out", required=True, help="folder for predictions.jsonl, "
                                                     "usage.json, summary.json, cache/")
    options.add_model_options(parser)
    parser.add_argument("--workers", type=int, default=None,
                        help="with --ray: Ray actors asking at once (without --ray, one "
                             "question at a time)")
    options.add_ray_options(parser)
    parser.add_argument("--rate-limit", type=float, default=None, metavar="PER_SECOND",
                        help="with --ray: at most this many requests a second to each "
                             "endpoint, across all actors")
    options.add_trusted_paths_option(parser)
    parser.add_argument("--skip-invalid", action="store_true",
                        help="skip malformed instance lines (counted) instead of stopping")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from finestate_env.runs.ray_jobs import ray_checked

    # Ray refuses actors that do not fit before anything is written, OUT included.
    with ray_checked(options.ray_spec(args)):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from finestate_env.agents.vlm_eval import AgentRecipe, Arm, evaluate
    from finestate_env.datasets.formats import read_instances

    ray = options.ray_spec(args)
    if ray is None and args.workers not in (None, 1):
        raise UsageError(f"--workers {args.workers}: eval asks one question at a time here; "
                         "more workers are Ray actors (--ray)")
    if args.rate_limit is not None and ray is None:
        raise UsageError("--rate-limit: for Ray actors, given without --ray")
    if args.rate_limit is not None and not args.rate_limit > 0:
        raise UsageError(f"--rate-limit must be positive requests/s, got {args.rate_limit}")
    out = Path(args.out)
    with inputs.reading(args.instances):
        read = read_instances(args.instances, trusted_paths=args.trusted_paths,
                              skip_invalid=args.skip_invalid)
    inputs.say_skipped(args.instances, read.skipped)
    instances = read.items
    if not instances:
        raise UsageError(f"{args.instances}: no instances")
    if args.cache_dir is None:
        args.cache_dir = str(out / "cache")
    agent, baseline = options.vlm_agents(args, "pixel")
    agent_options = options.agent_options(args, "pixel")
    arms = [Arm(f"vda-{args.vda}" if args.vda != "none" else "no-vda", agent, out,
                AgentRecipe(agent_options))]
    if baseline is not None:
        arms.append(Arm("baseline", baseline, out / "baseline",
                        AgentRecipe(agent_options, True)))

    def progress(arm: str, index: int, prediction) -> None:
        if (index + 1) % 25 == 0 or index + 1 == len(instances):
            print(f"  {arm}: {index + 1}/{len(instances)} answered", flush=True)

    print(f"{args.model} on {len(instances)} instances from {args.instances} · VDA {args.vda}"
          f" · coords {agent.profile.coords} ({agent.profile.why})", flush=True)
    try:
        summary = evaluate(arms, instances, Path(args.instances).parent, progress, ray=ray,
                           rate_limit=args.rate_limit, trusted_paths=args.trusted_paths)
    except inputs.model_failure() as exc:
        print(f"finestate: {exc}\nfinestate: the predictions so far are in {out}; the responses "
              "are cached, so rerunning the same command resumes for free", file=sys.stderr)
        return 1
    write_text(out / "summary.json", json.dumps(summary, indent=2) + "\n")
    for name, arm in summary["arms"].items():
        usage, static = arm["usage"], arm["static"]
        scores = f"static ES-SR@Int {static['es_sr_int']:.3f}, SR@Loc {static['sr_loc']:.3f}"
        print(f"{name}: {scores} · unparsed {arm['unparsed']} · requests {usage['requests']}, "
              f"cached {usage['cached']}, retries {usage['retries']}, "
              f"tokens {usage['tokens']['total_tokens']}")
    if "delta_vis" in summary:
        print(f"Δ_vis static (ES-SR@Int with hints - without): "
              f"{summary['delta_vis']['static']:+.3f}")
    print(f"wrote {out / 'predictions.jsonl'}, {out / 'usage.json'} and {out / 'summary.json'}")
    return 0
