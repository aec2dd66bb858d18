"""One timed run of a peer env or of ours, in its own interpreter (peer_bench.py runs it).

Run as a script by the interpreter of the env under test, so that it imports only the
standard library at the top: MiniWoB++ lives in a venv of its own, without this package.
It prints one JSON line: episodes per second and the CPU milliseconds per episode of the
whole process tree (the browser and its driver included), for the timed loop only.

    python peer_worker.py --peer miniwob --episodes 40
    python peer_worker.py --peer finestate --episodes 40
    python peer_worker.py --peer finestate-vector --episodes 40 --envs 4
"""

from __future__ import annotations

import argparse
import json
import os
import time

TICKS = os.sysconf("SC_CLK_TCK")


def tree_cpu_ms(root: int) -> float:
    """CPU time (user + system) of `root` and every living process below it, in ms."""
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            stats[int(entry)] = (int(fields[1]), int(fields[11]) + int(fields[12]))
    total, todo, seen = 0, [root], set()
    while todo:
        pid = todo.pop()
        if pid in seen or pid not in stats:
            continue
        seen.add(pid)
        total += stats[pid][1]
        todo.extend(child for child, (parent, _) in stats.items() if parent == pid)
    return total * 1000 / TICKS


def miniwob_episodes():
    """MiniWoB++'s use-slider: reset, then one coordinate click; screenshot observations."""
    import gymnasium
    import miniwob
    from miniwob.action import ActionTypes

    gymnasium.register_envs(miniwob)
    env = gymnasium.make("miniwob/use-slider-v1")
    click = env.unwrapped.create_action(ActionTypes.CLICK_COORDS, coords=[80, 120])

    def episode(seed: int) -> None:
        obs, _ = env.reset(seed=seed)
        assert obs["screenshot"].ndim == 3
        env.step(click)

    return env, episode


def finestate_episodes():
    """FineState-Web-v0's slider: reset, then the oracle's drag; screenshot observations.

    The slider alone on its page (scene "control"), like MiniWoB++'s one-widget task;
    `make bench`'s scene_bench sets app pages, the default scene, beside it."""
    import gymnasium
    import numpy as np

    import finestate_env  # noqa: F401 (registers the ids)

    env = gymnasium.make("FineState-Web-v0", component="slider", scene="control")

    def centre(box):
        return np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2], dtype=np.float32)

    def episode(seed: int) -> None:
        _, info = env.reset(seed=seed)
        boxes = info["boxes"]["current"]
        env.step({"p0": centre(boxes["now"]), "p1": centre(boxes["goal"])})

    return env, episode


def finestate_vector_episodes(num_envs: int):
    """make_vec("FineState-Web-v0") of `num_envs` sliders, the ids' own vector env (its
    envs step at the same time, sharing one browser): a vector step is one episode per
    env (autoreset SAME_STEP), so `episode` runs one vector step per `num_envs` calls."""
    import gymnasium
    import numpy as np

    import finestate_env  # noqa: F401 (registers the ids)

    envs = gymnasium.make_vec("FineState-Web-v0", num_envs=num_envs, component="slider",
                              scene="control",
                              autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP)
    infos = envs.reset(seed=0)[1]

    def centres(boxes):
        return np.array([[(b[0] + b[2]) / 2, (b[1] + b[3]) / 2] for b in boxes], np.float32)

    def episode(seed: int) -> None:
        nonlocal infos
        if seed % num_envs == 0:
            current = infos["boxes"]["current"]
            infos = envs.step({"p0": centres(current["now"]), "p1": centres(current["goal"])})[4]

    return envs, episode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--peer", choices=("miniwob", "finestate", "finestate-vector"),
                        required=True)
    parser.add_argument("--episodes", type=int, default=40)
    parser.add_argument("--envs", type=int, default=4, help="finestate-vector's envs; "
                        "--episodes should be a multiple of it")
    args = parser.parse_args()
    env, episode = (miniwob_episodes() if args.peer == "miniwob" else finestate_episodes()
                    if args.peer == "finestate" else finestate_vector_episodes(args.envs))
    try:
        for seed in range(3):  # warm-up: browser start, first page load
            episode(10_000 + seed)
        cpu, started = tree_cpu_ms(os.getpid()), time.perf_counter()
        for seed in range(args.episodes):
            episode(seed)
        elapsed = time.perf_counter() - started
        cpu = tree_cpu_ms(os.getpid()) - cpu
    finally:
        env.close()
    print(json.dumps({"peer": args.peer, "episodes": args.episodes,
                      "episodes_per_s": args.episodes / elapsed,
                      "cpu_ms_per_episode": cpu / args.episodes}))


if __name__ == "__main__":
    main()
