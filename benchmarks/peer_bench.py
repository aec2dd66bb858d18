"""`make bench`'s side-by-side run: FineState-Web-v0 against MiniWoB++ in the same run.

Both do the same kind of episode, a reset and one pointer action with a screenshot
observation (MiniWoB++ 1.1's use-slider, 160x210, a coordinate click; ours, the slider
at 1280x720, the oracle's drag), each in a process of its own, alternately (A B C A B
C), so that a slow minute of the machine falls on all: MiniWoB++'s single env (it
cannot run two in parallel since 1.0), ours alone, and ours as make_vec's vector env
of 4 envs sharing one browser. Printed: each side's episodes/s and
CPU ms per episode (process tree, browsers included) per round, and the median of the
per-round ratios; the JSON adds the machine's CPUs and load at the start and the end.

MiniWoB++ is installed the first time into a venv of its own (default
~/.cache/finestate-env/miniwob), from PyPI; it drives Debian's chromium through
Selenium and Debian's chromium-driver (make bench installs the package).

The RL path (issue #28) runs in the same rounds: the sides "rl-capture" and "rl" are
ours with an RL user's options (the screenshot alone at 84x84, the flat action), the
terminal screenshot captured or skipped (terminal_obs), and "rl-vector-capture" and
"rl-vector" the same as make_vec's vector env. Against today's default path (the
"finestate" side: full-size dict observations, every screenshot captured) the RL path
should give at least twice the episodes/s. `--sides` runs some sides only (ratios whose
sides did not run are left out). Frames are captured under Chromium's begin-frame control
(the web backend's default capture "begin_frame", issue #34); "finestate-screenshot" and
"rl-screenshot" are "finestate" and "rl" captured the way before it (capture "screenshot":
a page that draws on its own, Page.captureScreenshot), for the A/B in one run. Issue #34's
targets: the RL path >= 6x MiniWoB++, the default path <= 60 ms of CPU per episode.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass, field
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


def run_worker(python: Path, peer: str, episodes: int, envs: int = VECTOR_ENVS,
               options: dict | None = None) -> dict:
    # Selenium must not look for a driver or a browser on the network (none is reachable).
    env = {**os.environ, "SE_OFFLINE": "true", "SE_AVOID_STATS": "true"}
    command = [str(python), str(WORKER), "--peer", peer, "--episodes", str(episodes),
               "--envs", str(envs)]
    if options:
        command += ["--options", json.dumps(options)]
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    if result.returncode != 0:
        raise SystemExit(f"the {peer} run failed:\n{result.stderr[-3000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


# The RL path of issue #28: what an RL user makes (SB3's or RLlib's CNN input, one Box
# action), with or without the terminal screenshot, which one-gesture episodes never learn from.
RL_OPTIONS = {"obs_type": "screenshot", "obs_size": "84x84", "action_type": "flat"}
SCREENSHOT = {"capture": "screenshot"}  # the web backend's capture before #34 (backends/web.py)


@dataclass(frozen=True)
class Side:
    peer: str  # the worker's --peer
    task: str
    screenshot: str
    options: dict = field(default_factory=dict)  # our env's make-time options


SIDES = {
    "miniwob": Side("miniwob", "use-slider", "160x210"),
    "finestate": Side("finestate", "slider, one env", "1280x720"),
    "finestate-vector": Side("finestate-vector", "slider, make_vec of {envs}", "1280x720"),
    "rl-capture": Side("finestate", "slider, one env, RL options",
                       "84x84, terminal captured", {**RL_OPTIONS, "terminal_obs": "capture"}),
    "rl": Side("finestate", "slider, one env, RL options", "84x84, terminal skipped",
               {**RL_OPTIONS, "terminal_obs": "skip"}),
    "rl-vector-capture": Side("finestate-vector", "slider, make_vec of {envs}, RL options",
                              "84x84, terminal captured",
                              {**RL_OPTIONS, "terminal_obs": "capture"}),
    "rl-vector": Side("finestate-vector", "slider, make_vec of {envs}, RL options",
                      "84x84, terminal skipped", {**RL_OPTIONS, "terminal_obs": "skip"}),
    # The same as "finestate" and "rl", captured as before begin-frame control (#34).
    "finestate-screenshot": Side("finestate", "slider, one env, captureScreenshot", "1280x720",
                                 {"backend_options": SCREENSHOT}),
    "rl-screenshot": Side("finestate", "slider, one env, RL options, captureScreenshot",
                          "84x84, terminal skipped",
                          {**RL_OPTIONS, "terminal_obs": "skip", "backend_options": SCREENSHOT}),
}
# Ratios of episodes/s, each the median of the per-round ratios: (name, side, over side).
RATIOS = (("median_ratio", "finestate", "miniwob"),
          ("vector_median_ratio", "finestate-vector", "miniwob"),
          ("rl_over_default", "rl", "finestate"),  # the RL path's target: >= 2x
          ("rl_skip_over_capture", "rl", "rl-capture"),
          ("rl_vector_skip_over_capture", "rl-vector", "rl-vector-capture"),
          ("rl_vector_over_default", "rl-vector", "finestate"),
          ("rl_over_miniwob", "rl", "miniwob"),
          ("rl_vector_over_miniwob", "rl-vector", "miniwob"),
          ("default_over_screenshot", "finestate", "finestate-screenshot"),
          ("rl_over_rl_screenshot", "rl", "rl-screenshot"),
          ("rl_screenshot_over_miniwob", "rl-screenshot", "miniwob"))


def machine() -> dict:
    return {"cpus": os.cpu_count(), "nproc": len(os.sched_getaffinity(0)),
            "load_average": os.getloadavg()}


def compare(rounds: int, episodes: int, venv: Path, sides: list[str] | None = None,
            envs: int = VECTOR_ENVS) -> dict:
    sides = list(SIDES) if sides is None else sides
    peer = miniwob_python(venv) if "miniwob" in sides else None
    report: dict = {"machine_at_start": machine(), "sides": sides, "vector_envs": envs}
    runs: list[dict[str, dict]] = []
    for round_ in range(rounds):
        run = {}
        for side in sides:
            spec = SIDES[side]
            python = peer if spec.peer == "miniwob" else Path(sys.executable)
            run[side] = run_worker(python, spec.peer, episodes, envs, spec.options)
        runs.append(run)
        print(f"round {round_ + 1}: " + ", ".join(
            f"{side} {run[side]['episodes_per_s']:.1f} episodes/s "
            f"({run[side]['cpu_ms_per_episode']:.0f} ms CPU each)" for side in sides),
            flush=True)

    def median(side: str, key: str) -> float:
        return statistics.median(run[side][key] for run in runs)

    report["rounds"] = runs
    for side in sides:
        spec = SIDES[side]
        report[side] = {"episodes_per_s": median(side, "episodes_per_s"),
                        "cpu_ms_per_episode": median(side, "cpu_ms_per_episode"),
                        "task": spec.task.format(envs=envs), "screenshot": spec.screenshot}
        if spec.options:
            report[side]["options"] = spec.options
        if spec.peer != "miniwob":
            report[side]["python_cpu_ms_per_episode"] = median(side, "python_cpu_ms_per_episode")
            report[side]["success_rate"] = min(run[side]["success_rate"] for run in runs)
    for name, side, over in RATIOS:
        if side in sides and over in sides:
            report[name] = statistics.median(
                run[side]["episodes_per_s"] / run[over]["episodes_per_s"] for run in runs)
    return report


def summary(report: dict) -> list[str]:
    """The printed lines: each side's medians, then the ratios."""
    lines = [f"{side:<18} {report[side]['episodes_per_s']:6.1f} episodes/s "
             f"{report[side]['cpu_ms_per_episode']:6.1f} ms CPU/episode  "
             f"({report[side]['task']}, {report[side]['screenshot']})"
             for side in report["sides"]]
    lines += [f"{name:<28} {report[name]:5.2f}x  ({side} / {over})"
              for name, side, over in RATIOS if name in report]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=4, help="rounds of every side")
    parser.add_argument("--episodes", type=int, default=40, help="timed episodes per run")
    parser.add_argument("--envs", type=int, default=VECTOR_ENVS, help="the vector sides' envs")
    parser.add_argument("--sides", default=",".join(SIDES),
                        help=f"comma-separated, run in this order each round: {', '.join(SIDES)}")
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV, help="MiniWoB++'s venv")
    parser.add_argument("--out", default="bench-miniwob.json")
    args = parser.parse_args(argv)
    sides = args.sides.split(",")
    unknown = [side for side in sides if side not in SIDES]
    if unknown:
        parser.error(f"unknown sides {unknown}; known: {list(SIDES)}")
    report = compare(args.rounds, args.episodes, args.venv, sides, args.envs)
    report["machine"] = machine()  # at the end
    start, end = report["machine_at_start"], report["machine"]
    print(f"median over {args.rounds} rounds, {end['nproc']} CPUs, load average "
          f"{start['load_average'][0]:.1f} at the start, {end['load_average'][0]:.1f} at the end:")
    for line in summary(report):
        print("  " + line)
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
