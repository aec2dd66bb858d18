"""Memory of the file commands on a large input (#49, streams): the peak RSS of `finestate
import`, `score`, `export`, `replay` and `audit`, each in its own process, over files of
100,000 lines. The target: each stays under 300 MB, whatever the number of lines.

The instances are one generated page instance (`finestate generate --n 1 --seed 0`)
repeated with distinct ids; the predictions, one a line, point at each instance's boxes.
`export` writes them in the FineState-Bench layout, which `import` reads back (with the
image brought into its --out). Replaying or auditing 100,000 live instances would take
hours, so `replay` and `audit` read a file of as many lines of which only the first few
(--live) keep their live block: the others are static (`not_replayable`, no browser), so
the figure is that of reading, pairing, writing and summarising every line, with a short
live part.

The peak is the command's own process (getrusage RUSAGE_SELF when it exits, through a
wrapper that calls the CLI's main); the browsers `replay` and `audit` start are other
processes, in no figure here. `--code DIR` runs another checkout's finestate_env (say,
the one before streaming) with this same venv, for a before/after table.

    python -m benchmarks.stream_bench --lines 100000 --out bench-stream.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LIMIT_MB = 300.0  # #49: every command under this, for 100,000 lines
COMMANDS = ("export", "import", "score", "replay", "audit")

# The CLI's main in this process, and the process's own peak RSS written when it exits:
# VmHWM, the peak of this process's memory since its exec. Not getrusage's ru_maxrss,
# which Linux carries over exec from the forked copy of the parent (a pytest worker of
# 1.7 GB made every command read 1.7 GB).
_WRAPPER = """
import atexit, sys
def _peak(path=sys.argv[1]):
    with open("/proc/self/status") as status:
        kib = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(path, "w") as f:
        f.write(kib)
atexit.register(_peak)
from finestate_env.cli.main import main
sys.exit(main(sys.argv[2:]))
"""


def _environment(code: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    if code is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(code), env.get("PYTHONPATH")]))
    return env


def finestate(args: list[str], code: Path | None, timeout: float, cwd: Path) -> dict:
    """Run one command in `cwd` (not the repository's root, whose finestate_env would come
    first on the path); its exit status, wall time and peak RSS (MB, its own process)."""
    with tempfile.NamedTemporaryFile("r", suffix=".peak") as peak:
        started = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", _WRAPPER, peak.name, *args],
                              capture_output=True, text=True, timeout=timeout,
                              env=_environment(code), cwd=cwd)
        seconds = time.perf_counter() - started
        text = Path(peak.name).read_text().strip()
    row = {"rc": done.returncode, "seconds": round(seconds, 1),
           "peak_rss_mb": round(int(text) / 1024, 1) if text else None}
    if done.returncode != 0:
        row["stderr"] = done.stderr[-2000:]
    return row


def make_files(folder: Path, lines: int, live: int, code: Path | None) -> dict:
    """instances.jsonl (`lines` copies of one generated instance), static.jsonl (the same,
    only the first `live` with their live block) and predictions.jsonl, in `folder`."""
    generated = folder / "generated"
    done = subprocess.run([sys.executable, "-m", "finestate_env.cli", "generate", "--n", "1",
                           "--seed", "0", "--out", str(generated)], capture_output=True,
                          text=True, env=_environment(code), cwd=folder)
    if done.returncode != 0:
        raise SystemExit(f"generate failed:\n{done.stderr}")
    record = json.loads((generated / "instances.jsonl").read_text().splitlines()[0])
    data = folder / "data"
    data.mkdir()
    _copy_images(generated / "images", data / "images")
    base = record["id"]
    boxes = record["boxes"]["current"]
    centre = lambda box: [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2]  # noqa: E731
    static = {key: value for key, value in record.items() if key != "live"}
    with open(data / "instances.jsonl", "w") as every, \
            open(data / "static.jsonl", "w") as few, \
            open(data / "predictions.jsonl", "w") as predictions:
        for index in range(lines):
            ident = f"{base}-{index:06d}"
            every.write(json.dumps({**record, "id": ident}) + "\n")
            few.write(json.dumps({**(record if index < live else static), "id": ident}) + "\n")
            predictions.write(json.dumps({"id": ident, "p0": centre(boxes["now"]),
                                          "p1": centre(boxes["goal"]),
                                          "coords": "pixel"}) + "\n")
    size = (data / "instances.jsonl").stat().st_size
    return {"instance_line_bytes": round(size / lines), "instances_mb": round(size / 2**20, 1)}


def _copy_images(source: Path, target: Path) -> None:
    target.mkdir()
    for image in source.iterdir():
        (target / image.name).write_bytes(image.read_bytes())


def command_lines(folder: Path) -> dict[str, list[str]]:
    data = folder / "data"
    return {
        "export": ["export", str(data / "instances.jsonl"), "--format", "finestate",
                   "--out", str(data / "finestate-bench.jsonl")],
        "import": ["import", str(data / "finestate-bench.jsonl"),
                   "--out", str(folder / "imported")],
        "score": ["score", "--instances", str(data / "instances.jsonl"),
                  "--predictions", str(data / "predictions.jsonl"),
                  "--out", str(folder / "scored")],
        "replay": ["replay", "--instances", str(data / "static.jsonl"),
                   "--predictions", str(data / "predictions.jsonl"),
                   "--out", str(folder / "replayed"), "--quiet"],
        # The two-point audit's settings small: the live part is not what is measured.
        "audit": ["audit", "--instances", str(data / "static.jsonl"),
                  "--out", str(folder / "audited"), "--quiet", "--density", "3",
                  "--gestures", "4", "--start-points", "4"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--live", type=int, default=2,
                        help="instances of replay's and audit's file that keep their live "
                             "block (the rest are static)")
    parser.add_argument("--commands", default=",".join(COMMANDS),
                        help="comma-separated, of " + ", ".join(COMMANDS))
    parser.add_argument("--code", type=Path, default=None,
                        help="a checkout's folder whose finestate_env to run (default: the "
                             "installed one)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="work in this folder (kept) instead of a temporary one")
    parser.add_argument("--timeout", type=float, default=3600.0, help="per command, seconds")
    parser.add_argument("--out", default="bench-stream.json")
    args = parser.parse_args(argv)
    code = args.code.resolve() if args.code else None
    names = [name for name in args.commands.split(",") if name]
    unknown = sorted(set(names) - set(COMMANDS))
    if unknown:
        parser.error(f"unknown commands {unknown}; expected some of {list(COMMANDS)}")
    if "import" in names and "export" not in names:
        names.insert(names.index("import"), "export")  # import reads what export wrote

    with tempfile.TemporaryDirectory() as scratch:
        folder = (args.keep or Path(scratch)).resolve()
        folder.mkdir(parents=True, exist_ok=True)
        files = make_files(folder, args.lines, args.live, code)
        lines = command_lines(folder)
        rows = {}
        for name in names:
            rows[name] = finestate(lines[name], code, args.timeout, folder)
            row = rows[name]
            print(f"{name:<8}{row['peak_rss_mb']!s:>10} MB{row['seconds']:>9.1f} s  rc "
                  f"{row['rc']}", flush=True)
            if row["rc"] != 0:
                print(row["stderr"], file=sys.stderr)
    peaks = [row["peak_rss_mb"] for row in rows.values() if row["peak_rss_mb"] is not None]
    report = {"lines": args.lines, "live": args.live, "limit_mb": LIMIT_MB, **files,
              "code": str(code) if code else None, "commands": rows,
              "max_peak_rss_mb": max(peaks) if peaks else None,
              "failed": [name for name, row in rows.items() if row["rc"] != 0]}
    print(f"{args.lines:,} lines ({files['instance_line_bytes']:,} bytes an instance): "
          f"peak RSS per command, limit {LIMIT_MB:g} MB")
    print(f"{'command':<10}{'peak RSS':>12}{'wall':>10}")
    for name, row in rows.items():
        peak = "n/a" if row["peak_rss_mb"] is None else f"{row['peak_rss_mb']:.0f} MB"
        verdict = "failed" if row["rc"] else ("" if row["peak_rss_mb"] is None else
                                              "ok" if row["peak_rss_mb"] <= LIMIT_MB
                                              else "OVER")
        print(f"{name:<10}{peak:>12}{row['seconds']:>9.0f} s  {verdict}")
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
    return 1 if report["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
