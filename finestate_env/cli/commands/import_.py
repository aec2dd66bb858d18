"""`finestate import`: released FineState-Bench or ScreenSpot records read into
DIR/instances.jsonl."""

from __future__ import annotations

import argparse
from pathlib import Path

from finestate_env.cli import inputs, options

NAME = "import"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help="read released FineState-Bench or ScreenSpot "
                                              "records into DIR/instances.jsonl")
    parser.add_argument("file")
    parser.add_argument("--out", required=True, help="folder for instances.jsonl")
    options.add_static_input_options(parser)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from finestate_env.datasets.formats import relocate_images, write_instances

    with inputs.reading(args.file):
        read = inputs.read_static(args, args.file)
    out = Path(args.out)
    instances = relocate_images(read.items, Path(args.file).parent, out, args.images,
                                args.trusted_paths)
    written = write_instances(instances, out / "instances.jsonl")
    print(f"{args.file}: layout {read.layout or 'none (empty file)'}, read {len(read.items)} "
          f"instances, skipped {len(read.skipped)} invalid lines")
    sizeless = sum(instance.size is None for instance in instances)
    if sizeless:
        print(f"{sizeless} instances have no image size (no image found, no width/height): "
              "they score against normalized and 1000 predictions; pixel predictions need "
              "--images DIR or --image-size WxH")
    print(f"wrote {written} (static: no live block, so score them, do not replay them)")
    return 0
