"""`finestate gallery`: every type in every theme, boxes drawn on, as one PNG."""

from __future__ import annotations

import argparse

from finestate_env.cli import inputs, options

NAME = "gallery"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help="every type in every theme, boxes drawn on, "
                                              "as one PNG")
    parser.add_argument("--out", default="gallery.png")
    parser.add_argument("--component", type=options.split, default=None)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--platform", choices=options.PLATFORMS, default="web")
    options.add_scene_option(parser, "page: one whole page per template instead")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from finestate_env.replay.gallery import make_gallery, make_page_gallery

    inputs.check_components(args.component)
    if args.scene == "page":
        out = make_page_gallery(args.out, seed=args.seed, platform=args.platform,
                                component=args.component)
    else:
        out = make_gallery(args.out, args.component, seed=args.seed, platform=args.platform)
    print(f"wrote {out}")
    return 0
