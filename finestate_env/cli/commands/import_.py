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
    """The records stream (any number of lines) into OUT/instances.jsonl.partial; the
    images are brought and the file put in place once every line was read, so that a bad
    line anywhere leaves OUT as it was."""
    from finestate_env.datasets.formats.project import ImageMove, staged

    reader = inputs.static_reader(args, args.file)
    out = Path(args.out)
    move = ImageMove(Path(args.file).parent, out, args.images, args.trusted_paths)
    sizeless = 0
    with staged(out / "instances.jsonl") as sink:
        for instance in inputs.read_through(reader, args.file):
            instance = move(instance)
            sizeless += instance.size is None
            sink.write(instance.model_dump_json() + "\n")
        inputs.say_read(args.file, reader)
        move.bring()
    written = out / "instances.jsonl"
    print(f"{args.file}: layout {reader.layout or 'none (empty file)'}, read {reader.count} "
          f"instances, skipped {len(reader.skipped)} invalid lines")
    if sizeless:
        print(f"{sizeless} instances have no image size (no image found, no width/height): "
              "they score against normalized and 1000 predictions; pixel predictions need "
              "--images DIR or --image-size WxH")
    print(f"wrote {written} (static: no live block, so score them, do not replay them)")
    return 0
