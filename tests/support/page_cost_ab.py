"""CPU per web episode on the default page beside the lone control, alternated per type
(outside the suite).

`make bench` takes the page/lone figure from two runs minutes apart (bench.json, then
bench-page.json), and this VM's speed drifts by up to 30% within half an hour: one run
read 1.45x where the two scenes taken in turn read 1.24x. Here each type has an env per
scene, and blocks of episodes alternate between them (A B A B), so both see the same
machine.

    python tests/support/page_cost_ab.py [--episodes 10] [--rounds 2] [TYPE ...]
"""

from __future__ import annotations

import argparse
import os
import statistics

import gymnasium as gym

import finestate_env  # noqa: F401 (registers the ids)
from benchmarks.peer_worker import tree_cpu_ms
from finestate_env.agents.scripted import OracleAgent
from finestate_env.components import COMPONENTS

SCENES = ("control", "page")


def cpu_per_episode(component: str, episodes: int, rounds: int) -> dict[str, float]:
    """Median over rounds of each scene's CPU per episode (ms, the whole process tree)."""
    agent = OracleAgent()
    envs = {scene: gym.make("FineState-Web-v0", component=component, scene=scene).unwrapped
            for scene in SCENES}
    try:
        for env in envs.values():  # warm-up: browser start, first page load
            obs, info = env.reset(seed=99_999)
            env.step(agent.act(obs, info))
        cpu: dict[str, list[float]] = {scene: [] for scene in SCENES}
        for round_ in range(rounds):
            for scene, env in envs.items():
                before = tree_cpu_ms(os.getpid())
                for seed in range(round_ * episodes, (round_ + 1) * episodes):
                    obs, info = env.reset(seed=seed)
                    _, reward, _, _, _ = env.step(agent.act(obs, info))
                    if reward != 1.0:
                        raise RuntimeError(f"{component} {scene} seed {seed}: the oracle failed")
                cpu[scene].append((tree_cpu_ms(os.getpid()) - before) / episodes)
    finally:
        for env in envs.values():
            env.close()
    return {scene: statistics.median(values) for scene, values in cpu.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("types", nargs="*", default=list(COMPONENTS))
    parser.add_argument("--episodes", type=int, default=10, help="per block")
    parser.add_argument("--rounds", type=int, default=2, help="blocks of each scene, alternated")
    args = parser.parse_args()
    lone, page = [], []
    for component in args.types:
        cpu = cpu_per_episode(component, args.episodes, args.rounds)
        lone.append(cpu["control"])
        page.append(cpu["page"])
        print(f"{component:16} lone {cpu['control']:6.1f} ms  page {cpu['page']:6.1f} ms  "
              f"{cpu['page'] / cpu['control']:.2f}x", flush=True)
    lone_ms, page_ms = statistics.median(lone), statistics.median(page)
    print(f"median over types: lone {lone_ms:.1f} ms, page {page_ms:.1f} ms, page / lone "
          f"{page_ms / lone_ms:.2f}x (load average "
          f"{', '.join(f'{v:.1f}' for v in os.getloadavg())})")


if __name__ == "__main__":
    main()
