"""`finestate replay`: predictions performed live on rebuilt instances, static verdicts
beside live ones."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from finestate_env.cli import inputs, options
from finestate_env.core.errors import UsageError
from finestate_env.core.files import sha256_of, write_text

NAME = "replay"


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(NAME, help="perform predictions live on rebuilt "
                                              "instances: static verdicts beside live ones")
    parser.add_argument("--instances", required=True, help="instances file (JSON Lines)")
    parser.add_argument("--predictions", required=True, help="predictions file (JSON Lines)")
    parser.add_argument("--out", required=True,
                        help="folder for results.jsonl and summary.json; an existing one is "
                             "continued where it stopped")
    parser.add_argument("--workers", type=int, default=None,
                        help="processes, each with its own browser (default 1); with --ray, "
                             "Ray actors")
    options.add_ray_options(parser)
    parser.add_argument("--report", action="store_true", help="also write report.html")
    parser.add_argument("--skip-invalid", action="store_true",
                        help="skip malformed lines (counted) instead of stopping")
    options.add_trusted_paths_option(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(run=run)
    return parser


def _check_same_inputs(out: Path, manifest: dict) -> None:
    """A folder with results is continued only from the same instances and predictions
    (their hashes in run.json): its results would otherwise be printed as the new ones."""
    from finestate_env.replay.report import read_manifest
    from finestate_env.runs.jobs import iter_records

    if next(iter_records(out / "results.jsonl"), None) is None:
        return
    earlier = read_manifest(out) or {}
    if earlier.get("sha256") != manifest["sha256"]:
        differ = [name for name in ("instances", "predictions")
                  if (earlier.get("sha256") or {}).get(name) != manifest["sha256"][name]]
        raise UsageError(
            f"{out} holds the results of a replay of other {' and '.join(differ)} "
            f"({', '.join(str(earlier.get(name)) for name in differ)}; now "
            f"{', '.join(manifest[name] for name in differ)}): replay into another --out, "
            "or remove it")


def run(args: argparse.Namespace) -> int:
    """The instances file is read twice, one line at a time: once to check every line and
    note where each instance is, then each instance again as its prediction is replayed
    (in the predictions' order). The predictions are held; the records are written as they
    come and summarised from the results file, one at a time."""
    from finestate_env.cli.tables import format_summary
    from finestate_env.datasets.formats import InstanceReader, read_predictions
    from finestate_env.replay.live_replay import PendingJob, first_predictions, replay_run
    from finestate_env.replay.report import MANIFEST, write_report
    from finestate_env.runs.ray_jobs import ray_checked

    reader = InstanceReader(args.instances, skip_invalid=args.skip_invalid,
                            trusted_paths=args.trusted_paths)
    where: dict[str, tuple[int, int]] = {}  # id -> (line, offset)
    sizeless: set[str] = set()  # instances without an image size (for pixel predictions)
    with inputs.reading():
        for line, offset, instance in reader.located():
            where[instance.id] = (line, offset)
            if instance.size is None:
                sizeless.add(instance.id)
        predictions = read_predictions(args.predictions, skip_invalid=args.skip_invalid)
    inputs.say_skipped(args.instances, reader.skipped)
    inputs.say_skipped(args.predictions, predictions.skipped)
    inputs.say_unknown_types(args.instances, reader.unknown_types)
    inputs.check_pixel_sizes(sizeless, predictions, args.predictions)
    pairs, unknown, duplicates = first_predictions(where, predictions.items)
    jobs = [PendingJob(prediction, found) for prediction, found in pairs]
    del pairs, where
    counts = {"predictions": len(predictions.items), "unknown_ids": unknown,
              "duplicate_ids": duplicates}
    ray = options.ray_spec(args)
    out = Path(args.out)
    started = time.perf_counter()
    try:
        with ray_checked(ray), reader:  # a run Ray refuses writes nothing, not even OUT
            manifest = {"instances": str(Path(args.instances).resolve()),
                        "predictions": str(Path(args.predictions).resolve()),
                        "sha256": {"instances": sha256_of(args.instances),
                                   "predictions": sha256_of(args.predictions)}}
            _check_same_inputs(out, manifest)
            out.mkdir(parents=True, exist_ok=True)
            write_text(out / MANIFEST, json.dumps(manifest, indent=2) + "\n")
            summary = replay_run(jobs, out, workers=args.workers or 1,
                                 progress=not args.quiet, ray=ray, counts=counts,
                                 load=lambda job: reader.load(*job.where, job.prediction.id))
    except KeyboardInterrupt:
        print(f"\ninterrupted: results so far are in {out / 'results.jsonl'}; "
              "run the same command again to continue", file=sys.stderr)
        return 130
    elapsed = time.perf_counter() - started
    print(format_summary(summary))
    # As `finestate score` says them: the first prediction of an id is the one replayed.
    for key, what in (("unknown_ids", "name no instance"), ("duplicate_ids", "repeat an id")):
        if counts[key]:
            print(f"{len(counts[key])} prediction ids {what} (ignored; first: "
                  f"{counts[key][0]!r})", file=sys.stderr)
    outcomes = ", ".join(f"{k} {v}" for k, v in summary["outcomes"].items() if v)
    print(f"{sum(summary['outcomes'].values())} predictions ({outcomes}) · this run "
          f"{elapsed:.1f} s")
    print(f"wrote {out / 'results.jsonl'} and {out / 'summary.json'}")
    if args.report:
        print(f"wrote {write_report(out, trusted_paths=args.trusted_paths)}")
    return 0
