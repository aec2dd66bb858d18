"""`finestate score`: predictions scored against instances' boxes (static, no browser)."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path

from finestate_env.cli import inputs, options
from finestate_env.core.errors import UsageError
from finestate_env.core.files import write_text

NAME = "score"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help="score predictions against instances' boxes "
                                              "(static, no browser)")
    parser.add_argument("--instances", required=True,
                        help="project, FineState-Bench (web or desktop) or ScreenSpot layout")
    parser.add_argument("--predictions", required=True)
    parser.add_argument("--mode", choices=("stagewise", "release"), default="stagewise")
    parser.add_argument("--out", default=None, help="folder for results.jsonl and summary.json")
    options.add_static_input_options(parser)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    """The instances stream (any number of lines): each is scored and its record written to
    OUT/results.jsonl.partial as it is read, the summary counted; the predictions are held.
    A bad line anywhere leaves nothing behind: the partial file goes, and the results
    become OUT/results.jsonl only once every line was read and judged."""
    from finestate_env.cli.tables import format_metric_table
    from finestate_env.core.static_scoring import Scorer, needs_size
    from finestate_env.datasets.formats import read_predictions
    from finestate_env.datasets.formats.project import staged

    reader = inputs.static_reader(args, args.instances)
    predictions, unreadable = None, None
    try:  # read first, to score as the instances go by; refused after the instances' errors
        with inputs.reading():
            predictions = read_predictions(args.predictions, skip_invalid=args.skip_invalid)
    except UsageError as exc:
        unreadable = exc
    scorer = Scorer(predictions.items if predictions else [], args.mode)
    out = Path(args.out) if args.out else None
    sizeless: set[str] = set()  # instances without an image size (for pixel predictions)
    with contextlib.ExitStack() as stack:
        sink = (stack.enter_context(staged(out / "results.jsonl"))
                if out is not None and predictions is not None else None)
        held = False  # an instance a pixel prediction needs the size of: refused below
        for instance in inputs.read_through(reader):
            if instance.size is None:
                sizeless.add(instance.id)
            if predictions is None or held:
                continue
            prediction = scorer.prediction(instance.id)
            if prediction is not None and needs_size(instance, prediction):
                held = True
                continue
            record = scorer(instance)
            if sink is not None:
                sink.write(json.dumps(record.to_json()) + "\n")
        inputs.say_read(args.instances, reader)
        if unreadable is not None:
            raise unreadable
        inputs.say_skipped(args.predictions, predictions.skipped)
        if not reader.count:
            raise UsageError(f"{args.instances} holds no instances")
        inputs.check_pixel_sizes(sizeless, predictions, args.predictions)
        assert not held, "check_pixel_sizes refuses what the pass held"
        summary = scorer.summary()
        counts = summary["counts"]
        counts["skipped_lines"] = {"instances": len(reader.skipped),
                                   "predictions": len(predictions.skipped)}
        print(f"{args.instances} ({reader.layout}) · {len(predictions.items)} predictions · "
              f"mode {args.mode}")
        print(format_metric_table(summary))
        print(f"no prediction {counts['no_prediction']}, wrong format {counts['wrong_format']}, "
              f"missing point {counts['missing_point']}")
        for key, what in (("unknown_ids", "name no instance"),
                          ("duplicate_ids", "repeat an id")):
            if counts[key]:
                print(f"{len(counts[key])} prediction ids {what} (ignored; first: "
                      f"{counts[key][0]!r})", file=sys.stderr)
    if out is not None:  # results.jsonl is in place: the block ended
        write_text(out / "summary.json", json.dumps(summary, indent=2) + "\n")
        print(f"wrote {out / 'results.jsonl'} and {out / 'summary.json'}")
    return 0
