"""`finestate curve`: live success against Gaussian pixel noise on the oracle's points."""

from __future__ import annotations

import argparse

from finestate_env.cli import inputs, options

NAME = "curve"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help="live success against Gaussian pixel noise on "
                                              "the oracle's points, per type (JSON + PNG)")
    parser.add_argument("--sigmas", type=options.floats, default=[0, 1, 2, 4, 8, 16],
                        help="comma-separated noise levels in pixels, increasing")
    parser.add_argument("--episodes-per-type", type=int, default=10,
                        help="episodes per type and sigma (the same seeds at every sigma)")
    parser.add_argument("--noise-on", choices=("p1", "p0"), default="p1")
    parser.add_argument("--seed", type=int, default=0)
    options.add_live_env_options(parser)
    parser.add_argument("--out", required=True, help="folder for curve.json and curve.png")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from finestate_env.replay.curve import precision_curve, write_curve

    def progress(name: str, row: dict) -> None:
        rates = " ".join(f"{rate:.2f}" for rate in row["live"])
        print(f"  {name:<16} live success {rates}", flush=True)

    print(f"noise on {args.noise_on}, sigmas {args.sigmas} px, {args.episodes_per_type} "
          f"episodes per type and sigma from seed {args.seed}", flush=True)
    env_id, env_options = options.env_id(args), options.env_options(args)
    inputs.check_env(env_id, component=args.component, **env_options)
    curve = precision_curve(args.sigmas, args.component, args.episodes_per_type, seed=args.seed,
                            noise_on=args.noise_on, env_id=env_id, **env_options,
                            on_type=progress)
    json_path, png_path = write_curve(curve, args.out)
    print(f"wrote {json_path} and {png_path} in {curve['elapsed_s']:.0f} s")
    return 0
