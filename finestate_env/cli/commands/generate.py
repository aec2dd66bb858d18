"""`finestate generate`: N instances rendered live, written as instances.jsonl and images/."""

from __future__ import annotations

import argparse
from pathlib import Path

from finestate_env.cli import inputs, options
from finestate_env.core.errors import UsageError

NAME = "generate"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help="render N instances live and write "
                                              "instances.jsonl and images/")
    parser.add_argument("--platform", choices=options.PLATFORMS, default="web")
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True, help="folder to write")
    parser.add_argument("--component", type=options.split, default=None,
                        help="comma-separated component types (default: all)")
    parser.add_argument("--family", type=options.split, default=None,
                        help="comma-separated families (default: all, paper shares)")
    parser.add_argument("--format", choices=options.LAYOUTS, default="finestate-env",
                        help="also write the instances in this layout beside instances.jsonl")
    parser.add_argument("--viewport", default=None, help="WIDTHxHEIGHT (default: the env's)")
    options.add_scene_option(parser)
    parser.add_argument("--workers", type=int, default=None,
                        help="with --ray: Ray actors, each with its own browser (without "
                             "--ray, generate uses one); the files are the same either way")
    options.add_ray_options(parser)
    parser.add_argument("--overwrite", action="store_true",
                        help="replace the dataset OUT holds (its instances file and the images "
                             "it names; nothing else), which is refused by default")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from finestate_env.runs.ray_jobs import ray_checked

    # Ray refuses actors that do not fit before anything is written, OUT included.
    with ray_checked(options.ray_spec(args)):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from finestate_env.datasets.generate import timed_generate

    ray = options.ray_spec(args)
    if ray is None and args.workers not in (None, 1):
        raise UsageError(f"--workers {args.workers}: generate runs in one browser here; "
                         "more workers are Ray actors (--ray)")
    # The env that renders the instances (here or on each actor) would refuse these later.
    inputs.check_env(options.env_id(args), component=args.component, family=args.family,
                     **options.env_options(args))
    path, speed = timed_generate(args.out, platform=args.platform, n=args.n, seed=args.seed,
                                 component=args.component, family=args.family, fmt=args.format,
                                 viewport=args.viewport, scene=args.scene, ray=ray,
                                 overwrite=args.overwrite)
    out = Path(args.out)
    extra = f" and {path.name}" if path.name != "instances.jsonl" else ""
    print(f"wrote {args.n} {args.platform} instances to {out / 'instances.jsonl'}{extra} "
          f"with screenshots in {out / 'images'} · {speed:.2f} instances/s")
    return 0
