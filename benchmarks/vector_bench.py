"""`make bench`'s vector figures: memory and throughput at 1, 2, 4 and 8 envs.

Two vector envs of one process, side by side: `gym.make_vec(ENV, num_envs=n)`, which for
the web and the phone is the ids' own (env/vector.py: the envs step at the same time,
one thread each), and `vectorization_mode="sync"` (one env after the other). In both
the envs share one browser (backends/chromium.py, SharedBrowser), each with a page and
a renderer of its own. For each n: PSS of the process tree once every env has shown a
page, what each env beyond the first costs, and episodes of the oracle per second (with
autoreset SAME_STEP, every vector step finishes an episode in each env and starts the
next).

    python -m benchmarks.vector_bench --env FineState-Web-v0 --steps 40
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
from gymnasium.vector import AutoresetMode

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.backends.processes import tree_memory_mib
from finestate_env.core.coords import box_center


def oracle_actions(infos: dict) -> dict[str, np.ndarray]:
    """The oracle's points for every env of a vector env, from its batched reset info."""
    now, goal = infos["boxes"]["current"]["now"], infos["boxes"]["current"]["goal"]
    return {"p0": np.array([box_center(b) for b in now], np.float32),
            "p1": np.array([box_center(b) for b in goal], np.float32)}


def make_envs(env_id: str, num_envs: int, mode: str, options: dict):
    """`mode` "default": what make_vec gives the id; "sync": gymnasium's SyncVectorEnv."""
    if mode == "sync":
        return gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="sync",
                            vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP}, **options)
    if gym.spec(env_id).vector_entry_point is None:  # the desktop: make_vec's default is sync
        return make_envs(env_id, num_envs, "sync", options)
    return gym.make_vec(env_id, num_envs=num_envs, autoreset_mode=AutoresetMode.SAME_STEP,
                        **options)


def bench_envs(env_id: str, num_envs: int, steps: int, scene: str | None = None,
               mode: str = "default") -> dict:
    options = {} if scene is None else {"scene": scene}
    envs = make_envs(env_id, num_envs, mode, options)
    try:
        _, infos = envs.reset(seed=0)
        memory = tree_memory_mib()["pss"]
        successes = 0
        started = time.perf_counter()
        for _ in range(steps):
            _, rewards, _, _, infos = envs.step(oracle_actions(infos))
            successes += int(np.sum(rewards == 1.0))
            # SAME_STEP: the step's info is the next episode's reset info, its final
            # step's info kept under "final_info".
        elapsed = time.perf_counter() - started
    finally:
        envs.close()
    return {"envs": num_envs, "mode": mode, "vector_env": type(envs).__name__,
            "pss_mib": round(memory, 1),
            "vector_steps_per_s": round(steps / elapsed, 2),
            "episodes_per_s": round(steps * num_envs / elapsed, 2),
            "success_rate": successes / (steps * num_envs)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", default="FineState-Web-v0")
    parser.add_argument("--envs", default="1,2,4,8", help="comma-separated env counts")
    parser.add_argument("--steps", type=int, default=40, help="vector steps per count")
    parser.add_argument("--scene", default=None, help="the scene (default: the env's own)")
    parser.add_argument("--modes", default="default,sync",
                        help="default (make_vec's own) and/or sync, comma-separated")
    parser.add_argument("--out", default="bench-vector.json")
    args = parser.parse_args(argv)
    modes = args.modes.split(",")
    print(f"{'envs':>5}" + "".join(f"{m + ' PSS MiB':>18}{'per extra env':>15}{'episodes/s':>12}"
                                 f"{'oracle SR':>11}" for m in modes))
    rows = []
    for n in (int(v) for v in args.envs.split(",")):
        line = f"{n:>5}"
        for mode in modes:
            row = bench_envs(args.env, n, args.steps, args.scene, mode)
            first = next((r for r in rows if r["mode"] == mode), None)
            if first is not None:
                row["pss_per_extra_env_mib"] = round(
                    (row["pss_mib"] - first["pss_mib"]) / (n - first["envs"]), 1)
            rows.append(row)
            extra = row.get("pss_per_extra_env_mib")
            line += (f"{row['pss_mib']:>18.0f}{'' if extra is None else f'{extra:.0f}':>15}"
                     f"{row['episodes_per_s']:>12.1f}{row['success_rate']:>11.3f}")
        print(line, flush=True)
    Path(args.out).write_text(json.dumps({"env": args.env, "scene": args.scene,
                                          "steps": args.steps, "rows": rows,
                                          "machine": {"cpus": os.cpu_count(),
                                                      "load_average": os.getloadavg()}},
                                         indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
