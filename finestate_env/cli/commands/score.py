"""`finestate score`: predictions scored against instances' boxes (static, no browser)."""

from __future__ import annotations

import argparse
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
    from finestate_env.cli.tables import format_metric_table
    from finestate_env.core.static_scoring import score
    from finestate_env.datasets.formats import read_predictions

    with inputs.reading():
        read = inputs.read_static(args, args.instances)
        predictions = read_predictions(args.predictions, skip_invalid=args.skip_invalid)
    inputs.say_skipped(args.predictions, predictions.skipped)
    if not read.items:
        raise UsageError(f"{args.instances} holds no instances")
    inputs.check_pixel_sizes(read.items, predictions, args.predictions)
    records, summary = score(read.items, predictions.items, args.mode)
    counts = summary["counts"]
    summary["counts"]["skipped_lines"] = {"instances": len(read.skipped),
                                          "predictions": len(predictions.skipped)}
    print(f"{args.instances} ({read.layout}) · {len(predictions.items)} predictions · "
          f"mode {args.mode}")
    print(format_metric_table(summary))
    print(f"no prediction {counts['no_prediction']}, wrong format {counts['wrong_format']}, "
          f"missing point {counts['missing_point']}")
    for key, what in (("unknown_ids", "name no instance"), ("duplicate_ids", "repeat an id")):
        if counts[key]:
            print(f"{len(counts[key])} prediction ids {what} (ignored; first: "
                  f"{counts[key][0]!r})", file=sys.stderr)
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        with open(out / "results.jsonl", "w", encoding="utf-8") as f:
            for record in records:
                f.write(json.dumps(record.to_json()) + "\n")
        write_text(out / "summary.json", json.dumps(summary, indent=2) + "\n")
        print(f"wrote {out / 'results.jsonl'} and {out / 'summary.json'}")
    return 0
