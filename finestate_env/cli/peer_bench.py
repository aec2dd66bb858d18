"""`make bench`'s side-by-side run: FineState-Web-v0 against MiniWoB++ in the same run.

Both do the same kind of episode, a reset and one pointer action with a screenshot
observation (MiniWoB++ 1.1's use-slider, 160x210, a coordinate click; ours, the slider
at 1280x720, the oracle's drag), each in a process of its own, alternately (A B C A B
C), so that a slow minute of the machine falls on all: MiniWoB++'s single env (it
cannot run two in parallel since 1.0), ours alone, and ours as make_vec's vector env
of 4 envs sharing one browser. Printed: each side's episodes/s and
CPU ms per episode (process tree, browsers included) per round, and the median of the
per-round ratios.

MiniWoB++ is installed the first time into a venv of its own (default
~/.cache/finestate-env/miniwob), from PyPI; it drives Debian's chromium through
Selenium and Debian's chromium-driver (make bench installs the package).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

MINIWOB = "miniwob==1.1.0"
WORKER = Path(__file__).with_name("peer_worker.py")
VECTOR_ENVS = 4  # the vector side's envs
DEFAULT_VENV = Path.home() / ".cache" / "finestate-env" / "miniwob"


def miniwob_python(venv: Path) -> Path:
    """The interpreter of a venv with MiniWoB++, made the first time."""
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    ready = subprocess.run([str(python), "-c", "import miniwob"], capture_output=True)
    if ready.returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "-q", MINIWOB], check=True)
    if shutil.which("chromedriver") is None:
        raise SystemExit("MiniWoB++ needs chromedriver: apt-get install chromium-driver "
                         "(make bench installs it)")
    return python


def run_worker(python: Path, peer: str, episodes: int) -> dict:
    # Selenium must not look for a driver or a browser on the network (none is reachable).
    env = {**os.environ, "SE_OFFLINE": "true", "SE_AVOID_STATS": "true"}
    result = subprocess.run([str(python), str(WORKER), "--peer", peer, "--episodes",
                             str(episodes), "--envs", str(VECTOR_ENVS)],
                            capture_output=True, text=True, env=env, timeout=600)
    if result.returncode != 0:
        raise SystemExit(f"the {peer} run failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


SIDES = ("miniwob", "finestate", "finestate-vector")


def compare(rounds: int, episodes: int, venv: Path) -> dict:
    peer = miniwob_python(venv)
    runs: list[dict[str, dict]] = []
    for round_ in range(rounds):
        run = {"miniwob": run_worker(peer, "miniwob", episodes)}
        for side in SIDES[1:]:
            run[side] = run_worker(Path(sys.executable), side, episodes)
        runs.append(run)
        print(f"round {round_ + 1}: " + ", ".join(
            f"{side} {run[side]['episodes_per_s']:.1f} episodes/s "
            f"({run[side]['cpu_ms_per_episode']:.0f} ms CPU each)" for side in SIDES))

    def median(side: str, key: str) -> float:
        return statistics.median(run[side][key] for run in runs)

    def ratio(side: str) -> float:
        return statistics.median(run[side]["episodes_per_s"] / run["miniwob"]["episodes_per_s"]
                                 for run in runs)

    report: dict = {"rounds": runs}
    for side, task, screenshot in (("miniwob", "use-slider", "160x210"),
                                   ("finestate", "slider, one env", "1280x720"),
                                   ("finestate-vector", f"slider, make_vec of {VECTOR_ENVS}",
                                    "1280x720")):
        report[side] = {"episodes_per_s": median(side, "episodes_per_s"),
                        "cpu_ms_per_episode": median(side, "cpu_ms_per_episode"),
                        "task": task, "screenshot": screenshot}
    report["median_ratio"] = ratio("finestate")
    report["vector_median_ratio"] = ratio("finestate-vector")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=4, help="A B pairs")
    parser.add_argument("--episodes", type=int, default=40, help="timed episodes per run")
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV, help="MiniWoB++'s venv")
    parser.add_argument("--out", default="bench-miniwob.json")
    args = parser.parse_args(argv)
    report = compare(args.rounds, args.episodes, args.venv)
    report["machine"] = {"cpus": os.cpu_count(), "load_average": os.getloadavg()}
    print(f"median over {args.rounds} rounds: MiniWoB++ "
          f"{report['miniwob']['episodes_per_s']:.1f} episodes/s "
          f"({report['miniwob']['cpu_ms_per_episode']:.0f} ms CPU each); FineState-Web-v0 "
          f"{report['finestate']['episodes_per_s']:.1f} ({report['median_ratio']:.2f}x, "
          f"{report['finestate']['cpu_ms_per_episode']:.0f} ms CPU), make_vec of {VECTOR_ENVS} "
          f"{report['finestate-vector']['episodes_per_s']:.1f} "
          f"({report['vector_median_ratio']:.2f}x, "
          f"{report['finestate-vector']['cpu_ms_per_episode']:.0f} ms CPU)")
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
