"""`make bench`'s scaling table: episodes/s, busy cores and memory against the number of envs.

For each path and env count, the vector envs a user can make of FineState-Web-v0, side by
side (issue #34):

- `make_vec`: the ids' own vector env as make_vec gives it (env/vector.py: its envs
  spread over one browser per CORES_PER_BROWSER cores);
- `one browser`: the same with `browsers=1` (every page in one browser: make_vec's default
  before issue #34);
- `own browsers`: the same with `backend_options={"shared_browser": False}`;
- `async`: Gymnasium's AsyncVectorEnv, one process (and browser) per env.

Paths: `rl` (a lone slider, an 84x84 `screenshot`, flat actions, `terminal_obs="skip"`)
and `default` (an app page, the 1280x720 screenshot captured every step). Random actions,
autoreset SAME_STEP, `--seconds` per point after a warm-up. Busy cores are read from
/proc/stat over the point (the whole machine: run it alone); memory is the PSS of this
process's tree (the async workers included) once every env has shown a page.

    python -m benchmarks.scale_bench --envs 1,2,4 --seconds 10 --out bench-scale.json
    python -m benchmarks.scale_bench --envs 1,2,4,8,16,32 --seconds 12   # a big machine
"""

from __future__ import annotations

import argparse
import json
import os
import time
import traceback
from pathlib import Path

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.backends.processes import tree_memory_mib

PATHS = {
    "rl": {"component": "slider", "scene": "control", "obs_type": "screenshot",
           "obs_size": (84, 84), "action_type": "flat", "terminal_obs": "skip"},
    "default": {"component": "slider"},
}
MODES = ("make_vec", "one browser", "own browsers", "async")


def _cpu_ticks() -> tuple[int, int]:
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:]]
    return sum(values), values[3] + values[4]  # all, idle + iowait


def make(mode: str, num_envs: int, options: dict):
    if mode == "async":
        return gym.make_vec("FineState-Web-v0", num_envs=num_envs, vectorization_mode="async",
                            vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP,
                                           "shared_memory": False}, **options)
    extra = {"make_vec": {}, "one browser": {"browsers": 1},
             "own browsers": {"backend_options": {"shared_browser": False}}}[mode]
    return gym.make_vec("FineState-Web-v0", num_envs=num_envs,
                        autoreset_mode=AutoresetMode.SAME_STEP, **extra, **options)


def point(mode: str, num_envs: int, path: str, seconds: float) -> dict:
    started = time.perf_counter()
    envs = make(mode, num_envs, PATHS[path])
    try:
        envs.reset(seed=0)
        for _ in range(3):
            envs.step(envs.action_space.sample())
        memory = tree_memory_mib()["pss"]
        start_s = time.perf_counter() - started
        total0, idle0 = _cpu_ticks()
        began, episodes, steps = time.perf_counter(), 0, 0
        while time.perf_counter() - began < seconds:
            _, _, terminated, truncated, _ = envs.step(envs.action_space.sample())
            episodes += int(np.sum(terminated | truncated))
            steps += 1
        elapsed = time.perf_counter() - began
        total1, idle1 = _cpu_ticks()
        busy = (total1 - total0 - (idle1 - idle0)) / max(1, total1 - total0) * os.cpu_count()
        browsers = getattr(envs, "browsers", None)
    finally:
        envs.close()
    return {"mode": mode, "path": path, "envs": num_envs, "browsers": browsers,
            "episodes_per_s": round(episodes / elapsed, 2), "steps": steps,
            "cores_busy": round(busy, 2), "pss_mib": round(memory, 1),
            "pss_per_env_mib": round(memory / num_envs, 1), "start_s": round(start_s, 1)}


def table(rows: list[dict]) -> str:
    lines = [f"{'path':<8} {'envs':>4}  " + "  ".join(f"{m:>22}" for m in MODES)]
    keys = sorted({(r["path"], r["envs"]) for r in rows}, key=lambda k: (k[0] != "rl", k[1]))
    for path, envs in keys:
        cells = []
        for mode in MODES:
            row = next((r for r in rows if (r["path"], r["envs"], r["mode"]) ==
                        (path, envs, mode)), None)
            cells.append("-" if row is None else "error" if "error" in row else
                         f"{row['episodes_per_s']:.1f}/s {row['cores_busy']:.1f}c "
                         f"{row['pss_per_env_mib']:.0f}M")
        lines.append(f"{path:<8} {envs:>4}  " + "  ".join(f"{c:>22}" for c in cells))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--envs", default="1,2,4", help="comma-separated env counts")
    parser.add_argument("--paths", default="rl,default")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--out", default="bench-scale.json")
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.envs.split(",")]
    rows: list[dict] = []
    load = [round(v, 2) for v in os.getloadavg()]
    for path in args.paths.split(","):
        for num_envs in counts:
            for mode in args.modes.split(","):
                if mode in ("own browsers", "async") and num_envs == 1:
                    continue  # one env: the same as make_vec's
                try:
                    row = point(mode, num_envs, path, args.seconds)
                except Exception as exc:  # noqa: BLE001 (a point that fails is reported)
                    traceback.print_exc()
                    row = {"mode": mode, "path": path, "envs": num_envs,
                           "error": f"{type(exc).__name__}: {exc}"[:300]}
                rows.append(row)
                print(json.dumps(row), flush=True)
    result = {"cores": os.cpu_count(), "load_before": load,
              "load_after": [round(v, 2) for v in os.getloadavg()], "rows": rows}
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(f"\n{os.cpu_count()} cores, load {load} -> {result['load_after']} "
          "(episodes/s, busy cores of the machine, PSS per env)")
    print(table(rows))
    return 1 if any("error" in row for row in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())
