"""`finestate export-rl`: a training dataset for VLM trainers (TRL, verl, OpenRLHF) as
Parquet."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from finestate_env.cli import options
from finestate_env.core.errors import UsageError

NAME = "export-rl"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help="render N instances live and write them as a "
                                              "training dataset for TRL, verl and OpenRLHF "
                                              "(Parquet)")
    parser.add_argument("--platform", choices=options.PLATFORMS, default="web")
    parser.add_argument("--n", type=options.whole_number, required=True,
                        help="training rows")
    parser.add_argument("--test-n", type=int, default=0,
                        help="held-out rows, written as test.parquet (default: none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", required=True, help="folder to write")
    parser.add_argument("--model", default="qwen2.5-vl",
                        help="the model whose coordinate convention the prompt asks for "
                             "(a model profile: qwen2.5-vl pixels, ui-tars / qwen2-vl / "
                             "os-atlas 0-1000, showui [0, 1]; default: qwen2.5-vl); a name "
                             "no profile knows is refused unless --coords is given")
    parser.add_argument("--coords", choices=("pixel", "normalized", "1000"), default=None,
                        help="override the profile's convention")
    parser.add_argument("--max-pixels", type=options.whole_number, default=None,
                        help="Qwen2.5-VL: the processor's max_pixels when the trainer sets "
                             "one (its pixel answers are in the resized image's frame)")
    parser.add_argument("--trainer", type=options.split, default=None,
                        help="trl, verl, openrlhf (default: all three): the prompt's "
                             "layout, one folder each")
    parser.add_argument("--component", type=options.split, default=None,
                        help="comma-separated component types (default: all)")
    parser.add_argument("--family", type=options.split, default=None,
                        help="comma-separated families (default: all, paper shares)")
    parser.add_argument("--viewport", default=None, help="WIDTHxHEIGHT (default: the env's)")
    parser.add_argument("--max-actions", type=options.whole_number, default=1,
                        help="K above 1: rows for multi-turn sessions of K gestures, goals up "
                             "to K gestures away, each row's session task in `task` "
                             "(docs/agentic-training.md; default: 1, single-turn rows)")
    options.add_scene_option(parser)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from finestate_env.agents.vlm_prompt import known_models, known_profile
    from finestate_env.cli import inputs
    from finestate_env.rewards.export import TRAINERS, export_rl

    profile = known_profile(args.model)
    if profile is None and args.coords is None:
        raise UsageError(f"--model {args.model!r} matches no model profile; known: "
                         f"{known_models()}; for another model give --coords "
                         "pixel|normalized|1000")
    inputs.check_env(options.env_id(args), component=args.component, family=args.family,
                     **options.env_options(args))
    result = export_rl(args.out, platform=args.platform, n=args.n, seed=args.seed,
                       test_n=args.test_n, model=args.model, coords=args.coords,
                       max_pixels=args.max_pixels, trainers=args.trainer or TRAINERS,
                       component=args.component, family=args.family, viewport=args.viewport,
                       scene=args.scene, max_actions=args.max_actions)
    rows = ", ".join(f"{count} {split}" for split, count in result.rows.items())
    files = ", ".join(str(path) for path in result.files.values())
    print(f"wrote {rows} {args.platform} rows: {files} · "
          f"{result.instances_per_second:.2f} instances/s")
    manifest = json.loads((Path(args.out) / "export.json").read_text())
    frames = ", ".join(f"{w}x{h}" for w, h in manifest["frames"])
    # Said, so that a model name read as another's profile is seen.
    source = (f"profile {profile.names.split(', ')[0]}" if profile and args.coords is None
              else "--coords")
    print(f"model {args.model}: {source}, answers in {manifest['coords']} coordinates "
          f"of a {frames} frame")
    return 0
