"""`make soak`: one env over many oracle episodes, its memory sampled as it goes.

Prints PSS (proportional set size: the env's process plus everything it started,
shared pages split) every `--every` episodes, and checks what a long training run
relies on: no failed episode (the oracle reaches every goal, no action_error), PSS at
the end within `--tolerance-mib` of PSS after `--settle` episodes, and no process left
once the env is closed. Exits 1 when a check fails. `make bench` runs a short one.

Run it alone. PSS splits a shared page among every process that maps it, so another
Chromium or Qt app on the machine lowers the env's PSS while it runs (a desktop soak
beside other Qt apps read 186-191 MiB, then 249 once they had ended). USS, the pages
only the env's own processes map, does not move with them: it is sampled beside PSS,
and so is PSS by process (the env's Python, Playwright's driver, each kind of Chromium
process, the X server and the Qt app), to tell which one moved.

    python -m benchmarks.soak --episodes 10000                 # the web
    python -m benchmarks.soak --env FineState-Desktop-v0 --episodes 3000
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import gymnasium as gym

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.agents.scripted import OracleAgent
from finestate_env.backends.processes import (
    alive,
    descendants,
    tree_memory_by_kind_mib,
)


def _episode_failure(env, agent, seed: int) -> dict | None:
    """What went wrong in the oracle's episode of `seed` (None: it reached the goal),
    with what it takes to look again: a reset or step that raises is recorded, and the
    soak goes on with the next seed rather than losing every figure before it."""
    try:
        obs, info = env.reset(seed=seed)
        _, reward, _, _, step_info = env.step(agent.act(obs, info))
    except Exception as exc:  # noqa: BLE001 (any error is the soak's finding)
        return {"episode": seed, "seed": seed, "error": f"{type(exc).__name__}: {exc}"}
    if reward == 1.0 and step_info["action_error"] is None:
        return None
    return {"episode": seed, "seed": seed, "component": step_info["component"],
            "action_error": step_info["action_error"], "state": step_info["state"],
            "goal_state": info["goal_state"]}


def soak(env_id: str, episodes: int, every: int, settle: int) -> dict:
    env = gym.make(env_id)
    agent = OracleAgent()
    samples, failures, started_pids = [], [], set()
    started = time.perf_counter()
    try:
        for episode in range(1, episodes + 1):
            failure = _episode_failure(env, agent, episode)
            if failure:
                failures.append(failure)
            if episode == 1:
                started_pids = descendants(os.getpid())
            if episode % every == 0 or episode in (settle, episodes):
                memory = tree_memory_by_kind_mib()
                total = memory.pop("total")
                samples.append({"episode": episode, "pss_mib": round(total["pss"], 1),
                                "uss_mib": round(total["uss"], 1),
                                "pss_by_process_mib": {kind: round(m["pss"], 1)
                                                       for kind, m in sorted(memory.items())},
                                "seconds": round(time.perf_counter() - started, 1)})
                print(f"episode {episode:>6}: PSS {samples[-1]['pss_mib']:7.1f} MiB, "
                      f"USS {samples[-1]['uss_mib']:7.1f} MiB, "
                      f"{episode / (time.perf_counter() - started):5.1f} episodes/s, "
                      f"{len(failures)} failed", flush=True)
    finally:
        env.close()
    time.sleep(0.5)  # let the children's exits be reaped
    settled, end = next(s for s in samples if s["episode"] == settle), samples[-1]
    return {"env": env_id, "episodes": episodes, "samples": samples, "failures": failures,
            "pss_after_settle_mib": settled["pss_mib"], "pss_end_mib": end["pss_mib"],
            "growth_mib": round(end["pss_mib"] - settled["pss_mib"], 1),
            "uss_growth_mib": round(end["uss_mib"] - settled["uss_mib"], 1),
            "processes_left": sorted(alive(started_pids)),
            "episodes_per_s": episodes / (time.perf_counter() - started)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--env", default="FineState-Web-v0")
    parser.add_argument("--episodes", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=500, help="episodes between samples")
    parser.add_argument("--settle", type=int, default=500,
                        help="the episode whose PSS the end is compared with")
    parser.add_argument("--tolerance-mib", type=float, default=50.0)
    parser.add_argument("--out", default="soak.json")
    args = parser.parse_args(argv)
    if not 0 < args.settle <= args.episodes:
        parser.error("--settle must lie in 1..--episodes")
    report = soak(args.env, args.episodes, args.every, args.settle)
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
    flat = abs(report["growth_mib"]) <= args.tolerance_mib
    print(f"{args.env}: PSS {report['pss_after_settle_mib']:.0f} MiB after {args.settle} "
          f"episodes, {report['pss_end_mib']:.0f} MiB after {args.episodes} "
          f"({report['growth_mib']:+.0f} MiB; {'within' if flat else 'beyond'} "
          f"{args.tolerance_mib:.0f}; USS {report['uss_growth_mib']:+.0f}); "
          f"{len(report['failures'])} failed episodes; "
          f"{len(report['processes_left'])} processes left; wrote {args.out}")
    return 0 if flat and not report["failures"] and not report["processes_left"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
