"""`finestate gallery`: a PNG sheet with the measured boxes drawn on, either one page per page
template of a platform (the default) or every type in every theme (`--scene control`)."""

from __future__ import annotations

import argparse

from finestate_env.cli import inputs, options

NAME = "gallery"


def add_parser(subparsers) -> argparse.ArgumentParser:
    from finestate_env.components.scenes import DEFAULT_SCENE, SCENES

    parser = subparsers.add_parser(
        NAME, help="one PNG with the measured boxes drawn on: one page per page template "
                   "(default), or every type in every theme (--scene control)")
    parser.add_argument("--out", default="gallery.png", help="the PNG (default gallery.png)")
    parser.add_argument("--component", type=options.split, default=None,
                        help="comma-separated types (default: all); pages cycle through them")
    parser.add_argument("--seed", type=int, default=3, help="seed of the instances (default 3)")
    parser.add_argument("--platform", choices=options.PLATFORMS, default="web")
    # Its own help: here --scene picks the sheet, not only how each instance is shown.
    parser.add_argument("--scene", choices=SCENES, default=DEFAULT_SCENE,
                        help="page (default): one whole page per page template of the "
                             "platform, the target's boxes drawn and its distractors "
                             "outlined; control: every type in every theme of the platform, "
                             "each control alone, one row per type")
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
