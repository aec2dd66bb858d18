"""`make bench`'s multi-turn session figures (#41): turns per second, CPU per turn, turn
latency and memory per open session at 1, 8 and 32 concurrent sessions, beside the
Gymnasium env's step on the same instances.

A turn is what an agentic trainer pays per gesture: the gesture as real input, the
state read back (with a page's other controls), and the new screen captured (1280x720 on
the web). N sessions are open at once in one SessionPool (pages spread over its
browsers); N threads drive one each, as a trainer's rollout workers do, alternating the
right gesture and a miss so that every turn changes the screen. CPU is the whole process
tree's (this process and every browser process), per turn. Memory is the tree's PSS with
N sessions open, and what each session beyond the first adds.

The Gymnasium row is one env stepping the same kind of instances, one gesture per step
(max_actions large enough that episodes do not end), for the same per-step work.

    python -m benchmarks.session_bench --sessions 1,8,32 --seconds 10
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import threading
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import finestate_env  # noqa: F401 (registers the ids)
from benchmarks.peer_worker import tree_cpu_ms
from finestate_env.backends.processes import tree_memory_mib
from finestate_env.core.coords import box_center
from finestate_env.sessions import SessionPool, SessionTask

COMPONENT = "slider"  # a drag on a page: a turn changes the screen whichever way it goes
MAX_ACTIONS = 100
MISS = ([6.0, 6.0], [6.0, 6.0])


def gestures(session) -> list[tuple[list[float], list[float]]]:
    """The right gesture (pixels, a seeded task's convention) and a drag back off it."""
    boxes = session.instance.boxes.current
    p0, p1 = list(box_center(boxes.now)), list(box_center(boxes.goal))
    return [(p0, p1), (p1, [p0[0], p0[1]])]


def bench_sessions(n: int, seconds: float) -> dict:
    with SessionPool(max_sessions=n, idle_timeout_s=None) as pool:
        sessions = [pool.open(SessionTask(seed=i, component=COMPONENT,
                                          max_actions=MAX_ACTIONS)) for i in range(n)]
        memory = tree_memory_mib()["pss"]
        latencies: list[list[float]] = [[] for _ in range(n)]
        stop = threading.Event()
        errors: list[str] = []

        def drive(index: int) -> None:
            session = sessions[index]
            moves, k = gestures(session), 0
            while not stop.is_set():
                if session.done:
                    session.reset()
                started = time.perf_counter()
                turn = session.act(*moves[k % 2])
                latencies[index].append((time.perf_counter() - started) * 1000)
                if turn.unjudged or turn.action_error:
                    errors.append(turn.unjudged or turn.action_error)
                k += 1

        threads = [threading.Thread(target=drive, args=(i,)) for i in range(n)]
        cpu0, wall0 = tree_cpu_ms(os.getpid()), time.perf_counter()
        for thread in threads:
            thread.start()
        time.sleep(seconds)
        stop.set()
        for thread in threads:
            thread.join()
        cpu, wall = tree_cpu_ms(os.getpid()) - cpu0, time.perf_counter() - wall0
        for session in sessions:
            session.close()
    turns = [ms for per in latencies for ms in per]
    return {"sessions": n, "turns": len(turns), "turns_per_s": round(len(turns) / wall, 1),
            "cpu_ms_per_turn": round(cpu / max(len(turns), 1), 2),
            "latency_p50_ms": round(statistics.median(turns), 1),
            "latency_p99_ms": round(float(np.percentile(turns, 99)), 1),
            "pss_mib": round(memory, 1), "errors": len(errors)}


def bench_gym_step(seconds: float) -> dict:
    """One env, the same instances, one gesture a step: the Gymnasium baseline."""
    env = gym.make("FineState-Web-v0", component=COMPONENT, max_actions=MAX_ACTIONS,
                   stop_at_goal=False).unwrapped
    try:
        _, info = env.reset(seed=0)
        boxes = info["boxes"]["current"]
        p0, p1 = box_center(boxes["now"]), box_center(boxes["goal"])
        moves = [{"p0": np.array(p0, np.float32), "p1": np.array(p1, np.float32)},
                 {"p0": np.array(p1, np.float32), "p1": np.array(p0, np.float32)}]
        latencies, k = [], 0
        cpu0, wall0 = tree_cpu_ms(os.getpid()), time.perf_counter()
        while time.perf_counter() - wall0 < seconds:
            started = time.perf_counter()
            _, _, terminated, truncated, _ = env.step(moves[k % 2])
            latencies.append((time.perf_counter() - started) * 1000)
            k += 1
            if terminated or truncated:
                env.reset(seed=0)
        cpu, wall = tree_cpu_ms(os.getpid()) - cpu0, time.perf_counter() - wall0
    finally:
        env.close()
    return {"steps_per_s": round(len(latencies) / wall, 1),
            "cpu_ms_per_step": round(cpu / len(latencies), 2),
            "latency_p50_ms": round(statistics.median(latencies), 1),
            "latency_p99_ms": round(float(np.percentile(latencies, 99)), 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sessions", default="1,8,32", help="comma-separated session counts")
    parser.add_argument("--seconds", type=float, default=10.0, help="driving time per count")
    parser.add_argument("--out", default="bench-sessions.json")
    args = parser.parse_args(argv)
    gym_row = bench_gym_step(args.seconds)
    print(f"Gymnasium env step (one env, {COMPONENT} pages): {gym_row['steps_per_s']} steps/s, "
          f"{gym_row['cpu_ms_per_step']} ms CPU a step, p50 {gym_row['latency_p50_ms']} ms, "
          f"p99 {gym_row['latency_p99_ms']} ms", flush=True)
    print(f"{'sessions':>9}{'turns/s':>9}{'CPU ms/turn':>13}{'p50 ms':>8}{'p99 ms':>8}"
          f"{'PSS MiB':>9}{'MiB/extra':>10}{'errors':>7}", flush=True)
    rows = []
    for n in (int(v) for v in args.sessions.split(",")):
        row = bench_sessions(n, args.seconds)
        if rows:
            row["pss_per_extra_session_mib"] = round(
                (row["pss_mib"] - rows[0]["pss_mib"]) / (n - rows[0]["sessions"]), 1)
        rows.append(row)
        extra = row.get("pss_per_extra_session_mib")
        print(f"{n:>9}{row['turns_per_s']:>9.1f}{row['cpu_ms_per_turn']:>13.1f}"
              f"{row['latency_p50_ms']:>8.1f}{row['latency_p99_ms']:>8.1f}{row['pss_mib']:>9.0f}"
              f"{'' if extra is None else f'{extra:.1f}':>10}{row['errors']:>7}", flush=True)
    Path(args.out).write_text(json.dumps({
        "component": COMPONENT, "seconds": args.seconds, "gym_step": gym_row, "rows": rows,
        "targets": {"sessions_open": 32, "turns_per_s": 60, "cpu_ms_per_turn": 30,
                    "pss_per_extra_session_mib": 15},
        "machine": {"cpus": os.cpu_count(), "load_average": os.getloadavg()}},
        indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
