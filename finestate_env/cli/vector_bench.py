"""`make bench`'s vector figures: memory and throughput at 1, 2, 4 and 8 envs.

The envs are those of `gym.make_vec(ENV, num_envs=n, vectorization_mode="sync")`, one
process: they share one browser (backends/chromium.py, SharedBrowser), each with a
page and a renderer of its own. For each n: PSS of the process tree once every env
has shown a page, what each env beyond the first costs, and vector steps of the
oracle per second (each step is one episode per env: with autoreset SAME_STEP a step
finishes the episode and starts the next).

    python -m finestate_env.cli.vector_bench --env FineState-Web-v0 --steps 40
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
from finestate_env.backends.processes import descendants, memory_kib
from finestate_env.core.coords import box_center


def pss_mib() -> float:
    me = os.getpid()
    return memory_kib(descendants(me) | {me})["pss"] / 1024


def oracle_actions(infos: dict) -> dict[str, np.ndarray]:
    """The oracle's points for every env of a vector env, from its batched reset info."""
    now, goal = infos["boxes"]["current"]["now"], infos["boxes"]["current"]["goal"]
    return {"p0": np.array([box_center(b) for b in now], np.float32),
            "p1": np.array([box_center(b) for b in goal], np.float32)}


def bench_envs(env_id: str, num_envs: int, steps: int, scene: str | None = None) -> dict:
    options = {} if scene is None else {"scene": scene}
    envs = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="sync",
                        vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP}, **options)
    try:
        _, infos = envs.reset(seed=0)
        memory = pss_mib()
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
    return {"envs": num_envs, "pss_mib": round(memory, 1),
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
    parser.add_argument("--out", default="bench-vector.json")
    args = parser.parse_args(argv)
    print(f"{'envs':>5}{'PSS MiB':>10}{'per extra env':>15}{'episodes/s':>12}{'oracle SR':>11}")
    rows = []
    for n in (int(v) for v in args.envs.split(",")):
        row = bench_envs(args.env, n, args.steps, args.scene)
        if rows:
            first = rows[0]
            row["pss_per_extra_env_mib"] = round(
                (row["pss_mib"] - first["pss_mib"]) / (n - first["envs"]), 1)
        rows.append(row)
        extra = row.get("pss_per_extra_env_mib")
        print(f"{n:>5}{row['pss_mib']:>10.0f}{'' if extra is None else f'{extra:.0f}':>15}"
              f"{row['episodes_per_s']:>12.1f}{row['success_rate']:>11.3f}", flush=True)
    Path(args.out).write_text(json.dumps({"env": args.env, "scene": args.scene,
                                          "steps": args.steps, "rows": rows}, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
