"""One timed run of a peer env or of ours, in its own interpreter (peer_bench.py runs it).

Run as a script by the interpreter of the env under test, so that it imports only the
standard library at the top: MiniWoB++ lives in a venv of its own, without this package.
It prints one JSON line: episodes per second and the CPU milliseconds per episode of the
whole process tree (the browser and its driver included), for the timed loop only.

    python peer_worker.py --peer miniwob --episodes 40
    python peer_worker.py --peer finestate --episodes 40
    python peer_worker.py --peer finestate-vector --episodes 40 --envs 4
    python peer_worker.py --peer finestate --episodes 40 \
        --options '{"obs_type": "screenshot", "obs_size": "84x84", "action_type": "flat"}'

`--options` are make-time options of our env (the RL path's, peer_bench.RL_PATH): with
action_type "flat" the oracle's points are given as the flat action. Our sides also
report the oracle's success rate (1.0, or the figures time something else) and the
CPU of the Python process alone beside the tree's.
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


def oracle_action(current: dict, viewport: tuple[int, int], flat: bool):
    """The oracle's action from info["boxes"]["current"]: the centre of the "now" box to
    the centre of the "goal" box; one env's boxes, or a vector env's batch of them. `flat`:
    as action_type "flat" takes it, (p0x, p0y, p1x, p1y) in [-1, 1]."""
    import numpy as np

    now, goal = np.asarray(current["now"]), np.asarray(current["goal"])
    p0 = np.stack([(now[..., 0] + now[..., 2]) / 2, (now[..., 1] + now[..., 3]) / 2], -1)
    p1 = np.stack([(goal[..., 0] + goal[..., 2]) / 2, (goal[..., 1] + goal[..., 3]) / 2], -1)
    if flat:
        size = np.array(viewport, dtype=np.float64)
        return (np.concatenate([p0 / size, p1 / size], -1) * 2 - 1).astype(np.float32)
    return {"p0": p0.astype(np.float32), "p1": p1.astype(np.float32)}


def finestate_episodes(options: dict, successes: list[int]):
    """FineState-Web-v0's slider: reset, then the oracle's drag; screenshot observations.

    The slider alone on its page (scene "control"), like MiniWoB++'s one-widget task;
    `make bench`'s scene_bench sets app pages, the default scene, beside it. `options`
    are the env's make-time options; each success is counted in `successes`."""
    import gymnasium

    import finestate_env  # noqa: F401 (registers the ids)

    env = gymnasium.make("FineState-Web-v0", component="slider", scene="control", **options)
    flat, viewport = options.get("action_type") == "flat", env.unwrapped.viewport

    def episode(seed: int) -> None:
        _, info = env.reset(seed=seed)
        reward = env.step(oracle_action(info["boxes"]["current"], viewport, flat))[1]
        successes.append(int(reward == 1.0))

    return env, episode


def finestate_vector_episodes(num_envs: int, options: dict, successes: list[int]):
    """make_vec("FineState-Web-v0") of `num_envs` sliders, the ids' own vector env (its
    envs step at the same time, sharing one browser): a vector step is one episode per
    env (autoreset SAME_STEP), so `episode` runs one vector step per `num_envs` calls."""
    import gymnasium

    import finestate_env  # noqa: F401 (registers the ids)

    envs = gymnasium.make_vec("FineState-Web-v0", num_envs=num_envs, component="slider",
                              scene="control",
                              autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP,
                              **options)
    flat, viewport = options.get("action_type") == "flat", envs.get_attr("viewport")[0]
    infos = envs.reset(seed=0)[1]

    def episode(seed: int) -> None:
        nonlocal infos
        if seed % num_envs == 0:
            _, rewards, _, _, infos = envs.step(
                oracle_action(infos["boxes"]["current"], viewport, flat))
            successes.extend(int(r == 1.0) for r in rewards)

    return envs, episode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--peer", choices=("miniwob", "finestate", "finestate-vector"),
                        required=True)
    parser.add_argument("--episodes", type=int, default=40)
    parser.add_argument("--envs", type=int, default=4, help="finestate-vector's envs; "
                        "--episodes should be a multiple of it")
    parser.add_argument("--options", default="{}",
                        help="our env's make-time options, as a JSON object")
    args = parser.parse_args()
    options = json.loads(args.options)
    successes: list[int] = []
    env, episode = (miniwob_episodes() if args.peer == "miniwob" else
                    finestate_episodes(options, successes) if args.peer == "finestate" else
                    finestate_vector_episodes(args.envs, options, successes))
    try:
        for seed in range(3):  # warm-up: browser start, first page load
            episode(10_000 + seed)
        successes.clear()
        cpu, started = tree_cpu_ms(os.getpid()), time.perf_counter()
        own = time.process_time()
        for seed in range(args.episodes):
            episode(seed)
        elapsed = time.perf_counter() - started
        cpu, own = tree_cpu_ms(os.getpid()) - cpu, time.process_time() - own
    finally:
        env.close()
    report = {"peer": args.peer, "episodes": args.episodes,
              "episodes_per_s": args.episodes / elapsed,
              "cpu_ms_per_episode": cpu / args.episodes,
              "python_cpu_ms_per_episode": own * 1000 / args.episodes}
    if args.peer != "miniwob":
        report.update(options=options, success_rate=sum(successes) / max(len(successes), 1))
    print(json.dumps(report))


if __name__ == "__main__":
    main()
