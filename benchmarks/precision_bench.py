"""The two-point audit's speed and figures (#47): `finestate audit` of N instances of each of
the 23 types (app pages), 4 static rules x G gestures each, the start region of every drag
and the goal box audit, on W local processes. Prints and writes the wall time, probed
gestures per second, and the precision of every rule per type.

    python -m benchmarks.precision_bench --per-type 20 --workers 2 --out bench-precision.json
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from finestate_env import components
from finestate_env.datasets.formats import read_instances
from finestate_env.datasets.generate import generate
from finestate_env.replay import precision
from finestate_env.replay.dataset_audit import AuditSettings, audit_file


def make_dataset(folder: Path, platform: str, per_type: int, seed: int) -> list:
    """`per_type` instances of every type, generated type by type (equal counts, where
    one generate call would follow the paper's family shares)."""
    instances = []
    for index, name in enumerate(components.COMPONENTS):
        path = generate(folder / name, platform=platform, n=per_type, seed=seed + index,
                        component=[name])
        instances += read_instances(path).items
    return instances


def probes_of(records: list[dict]) -> dict[str, int]:
    rules = sum(sum(r["gestures"] for r in record["precision"].values())
                for record in records if record.get("precision"))
    starts = sum(record["start"]["probes"] for record in records if record.get("start"))
    goal_box = sum(record.get("probes", 0) for record in records)
    return {"rule_gestures": rules, "start_probes": starts, "goal_box_probes": goal_box,
            "total": rules + starts + goal_box}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--platform", default="web", choices=("web", "mobile", "desktop"))
    parser.add_argument("--per-type", type=int, default=20)
    parser.add_argument("--gestures", type=int, default=precision.GESTURES)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", help="audit into this folder (kept) instead of a temporary one")
    parser.add_argument("--out", default="bench-precision.json")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        started = time.perf_counter()
        instances = make_dataset(Path(scratch) / "data", args.platform, args.per_type, args.seed)
        generated_s = time.perf_counter() - started
        folder = Path(args.keep) if args.keep else Path(scratch) / "audit"
        started = time.perf_counter()
        records, summary = audit_file(instances, folder, AuditSettings(gestures=args.gestures),
                                      workers=args.workers, progress=False)
        audit_s = time.perf_counter() - started
    probes = probes_of(records)
    result = {"platform": args.platform, "per_type": args.per_type, "gestures": args.gestures,
              "workers": args.workers, "instances": len(instances),
              "generate_s": round(generated_s, 1), "audit_s": round(audit_s, 1),
              "probes": probes, "probes_per_s": round(probes["total"] / audit_s, 1),
              "errors": summary["status"]["error"], "unsound": summary["status"]["unsound"],
              "precision": summary["precision"]}
    print(f"{args.platform}: {len(instances)} instances ({args.per_type} per type), "
          f"{args.gestures} gestures per rule, {args.workers} workers: audit in "
          f"{audit_s:.0f} s, {probes['total']} probes ({probes['rule_gestures']} rule "
          f"gestures, {probes['start_probes']} start, {probes['goal_box_probes']} goal box) "
          f"= {result['probes_per_s']:.0f} probed gestures/s; {result['errors']} errors")
    table = summary["precision"]
    print(f"{'type':<16}{'gesture':<8}" + "".join(f"{rule:>17}" for rule in table["rules"]))
    for name, row in table["by_component"].items():
        print(f"{name:<16}{row['gesture']:<8}"
              + "".join(f"{precision.percent(row[rule]):>17}" for rule in table["rules"]))
    print(precision.headline(table))
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
