"""`make bench`: how fast and how big the live env is, per component type.

Prints a table and writes JSON. Figures: median reset and step (ms), episodes
per second (reset + step, each with its screenshot at the env's viewport), CPU
per episode of the process tree (the browser's processes included), box audit
probes per second (each a real gesture plus read-back; over five audits in a
row, after a first one timed apart), and the memory of the
env's process plus its browser.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path

import gymnasium as gym

from benchmarks.peer_worker import tree_cpu_ms
from finestate_env import components
from finestate_env.agents.scripted import OracleAgent
from finestate_env.backends.processes import descendants, memory_kib
from finestate_env.components import scenes
from finestate_env.replay.audit import DENSITY, audit_instance

# Instances audited per type for the probes/s figure (after one untimed audit).
AUDIT_INSTANCES = 5


def audit_rates(env, density: int, first_seed: int,
                instances: int = AUDIT_INSTANCES) -> tuple[float, float]:
    """Probes/s of a page's first audit, and of the `instances` audits after it.

    A dataset audit is made of the ones after the first: a page's first audit
    runs slower (slider, 80 probes: 227/s first, then 400/s twice), and one
    audit of some 80 probes is too short to time alone.
    """
    rates, probes, seconds = [], 0, 0.0
    for seed in range(first_seed, first_seed + instances + 1):
        env.reset(seed=seed)
        report = audit_instance(env.backend, env.instance, density=density)
        rates.append(report.probes_per_second)
        if seed > first_seed:
            probes += report.goal_probes + report.core_probes
            seconds += report.seconds
    return rates[0], probes / seconds


def bench_component(component: str, episodes: int, viewport: str,
                    env_id: str = "FineState-Web-v0", audit_density: int = DENSITY,
                    backend: dict | None = None, scene: str | None = None) -> dict:
    env = gym.make(env_id, component=component, viewport=viewport, timings=True,
                   **_scene_option(scene), **(backend or {})).unwrapped
    agent = OracleAgent()
    resets, steps, phases = [], [], {}
    try:
        obs, info = env.reset(seed=10_000)  # warm-up: browser start, first page load
        env.step(agent.act(obs, info))
        started, cpu = time.perf_counter(), tree_cpu_ms(os.getpid())
        successes = 0
        for seed in range(episodes):
            t0 = time.perf_counter()
            obs, info = env.reset(seed=seed)
            t1 = time.perf_counter()
            _, reward, _, _, step_info = env.step(agent.act(obs, info))
            t2 = time.perf_counter()
            resets.append((t1 - t0) * 1000)
            steps.append((t2 - t1) * 1000)
            successes += reward == 1.0
            for phase, ms in [*(("reset." + k, v) for k, v in info["timings"].items()),
                              *(("step." + k, v) for k, v in step_info["timings"].items())]:
                phases.setdefault(phase, []).append(ms)
        elapsed = time.perf_counter() - started
        cpu = tree_cpu_ms(os.getpid()) - cpu
        memory = memory_kib({os.getpid(), *descendants(os.getpid())})
        first_audit, probes_per_s = (audit_rates(env, audit_density, first_seed=episodes)
                                     if audit_density else (None, None))
    finally:
        env.close()
    return {
        "component": component, "episodes": episodes, "success_rate": successes / episodes,
        "reset_ms_median": round(statistics.median(resets), 2),
        "step_ms_median": round(statistics.median(steps), 2),
        "episodes_per_s": round(episodes / elapsed, 2),
        # CPU of this process and everything it started (browser, renderer, GPU process,
        # driver; the display and app on the desktop) per episode.
        "cpu_ms_per_episode": round(cpu / episodes, 1),
        "phases_ms_median": {k: round(statistics.median(v), 2) for k, v in sorted(phases.items())},
        "memory_mib": {k: round(v / 1024, 1) for k, v in memory.items()},
        "audit_probes_per_s": round(probes_per_s, 1) if probes_per_s else None,
        "first_audit_probes_per_s": round(first_audit, 1) if first_audit else None,
    }


def bench_replay(instances: int, viewport: str, workers: int,
                 env_id: str = "FineState-Web-v0", scene: str | None = None) -> dict:
    """Replay of oracle predictions on instances made by `env_id`: instances per
    second, with one worker in this process and with `workers` processes."""
    import tempfile

    from finestate_env.core.schema import Prediction
    from finestate_env.replay.live_replay import ReplayJob, ReplayWorker, replay

    env = gym.make(env_id, viewport=viewport, **_scene_option(scene)).unwrapped
    try:
        dataset = []
        for seed in range(instances):
            env.reset(seed=seed)
            dataset.append(env.instance)
    finally:
        env.close()
    agent = OracleAgent()
    jobs = []
    for instance in dataset:
        info = {"boxes": {"current": instance.boxes.current.model_dump()}}
        action = agent.act(None, info)
        jobs.append(ReplayJob(instance, Prediction(id=instance.id, p0=tuple(action["p0"]),
                                                   p1=tuple(action["p1"]))))
    worker = ReplayWorker()
    try:
        worker.replay(jobs[0].instance, jobs[0].prediction)  # warm-up: browser start
        started = time.perf_counter()
        records = [worker.replay(job.instance, job.prediction) for job in jobs]
        one = len(jobs) / (time.perf_counter() - started)
    finally:
        worker.close()
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()  # includes starting the processes and their browsers
        replay(jobs, Path(folder), workers=workers, progress=False)
        many = len(jobs) / (time.perf_counter() - started)
    return {"instances": len(jobs), "one_worker_per_s": round(one, 2),
            "workers": workers, f"{workers}_workers_per_s": round(many, 2),
            "live_exact": sum(bool(r.live_exact) for r in records)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--episodes", type=int, default=60)
    parser.add_argument("--viewport", default=None,
                        help="WxH screenshot pixels (default: the env's own, e.g. 1280x720 on "
                             "the web, 1080x2400 on mobile)")
    parser.add_argument("--component", default=None, help="comma-separated (default: all)")
    parser.add_argument("--replay-instances", type=int, default=100,
                        help="instances for the replay figure (0: no replay figure)")
    parser.add_argument("--workers", type=int, default=2, help="processes for the replay figure")
    parser.add_argument("--env", default="FineState-Web-v0", help="the env id to measure")
    parser.add_argument("--backend", default=None, help="a non-default backend, e.g. adb")
    parser.add_argument("--backend-options", type=json.loads, default=None,
                        help='JSON passed to the backend, e.g. \'{"serial": "emulator-5554"}\'')
    parser.add_argument("--audit-density", type=int, default=DENSITY,
                        help="audit probes per side of the goal box, three times as many "
                             "over the core box, as `finestate audit` (0: no audit figure)")
    parser.add_argument("--scene", default=None, choices=scenes.SCENES,
                        help="the scene to measure (default: the env's own)")
    parser.add_argument("--out", default="bench.json")
    args = parser.parse_args(argv)
    if args.viewport is None:
        width, height = gym.make(args.env).unwrapped.viewport  # starts nothing yet
        args.viewport = f"{width}x{height}"
    backend = {k: v for k, v in (("backend", args.backend),
                                 ("backend_options", args.backend_options)) if v is not None}
    if backend and args.replay_instances:
        parser.error("the replay figure uses each platform's default backend: "
                     "give --replay-instances 0 with --backend")
    names = components.resolve(args.component.split(",") if args.component else None)
    probe_env = gym.make(args.env, viewport=args.viewport).unwrapped  # starts nothing yet
    offered = probe_env.components  # a backend may render only some types
    probe_env.close()
    names = [n for n in names if n in offered]
    rows = []
    print(f"{'component':<16}{'reset ms':>10}{'step ms':>10}{'episodes/s':>12}"
          f"{'CPU ms/ep':>11}{'probes/s':>10}{'peak RSS MiB':>14}{'PSS MiB':>10}")
    for name in names:
        row = bench_component(name, args.episodes, args.viewport, args.env,
                              args.audit_density, backend, args.scene)
        rows.append(row)
        print(f"{name:<16}{row['reset_ms_median']:>10.1f}{row['step_ms_median']:>10.1f}"
              f"{row['episodes_per_s']:>12.1f}{row['cpu_ms_per_episode']:>11.0f}"
              f"{_figure(row['audit_probes_per_s']):>10}"
              f"{row['memory_mib']['peak_rss']:>14.0f}"
              f"{row['memory_mib']['pss']:>10.0f}")
    overall = statistics.median(r["episodes_per_s"] for r in rows)
    cpu = statistics.median(r["cpu_ms_per_episode"] for r in rows)
    audited = [r["audit_probes_per_s"] for r in rows if r["audit_probes_per_s"] is not None]
    probes = statistics.median(audited) if audited else None
    firsts = [r["first_audit_probes_per_s"] for r in rows
              if r["first_audit_probes_per_s"] is not None]
    print(f"median over types: {overall:.1f} episodes/s at {args.viewport}, "
          f"{cpu:.0f} ms CPU per episode, {_figure(probes)} audit probes/s")
    replayed = None
    if args.replay_instances > 0:
        replayed = bench_replay(args.replay_instances, args.viewport, args.workers, args.env,
                                args.scene)
        print(f"replay of {replayed['instances']} oracle predictions: "
              f"{replayed['one_worker_per_s']:.1f} instances/s on one worker, "
              f"{replayed[f'{args.workers}_workers_per_s']:.1f} with {args.workers} processes "
              f"(process and browser start included); {replayed['live_exact']} reached the goal")
    report = {"machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                          "platform": platform.platform(), "load_average": os.getloadavg()},
              "env": args.env, "scene": args.scene, "viewport": args.viewport,
              "episodes_per_type": args.episodes,
              "median_episodes_per_s": overall, "median_cpu_ms_per_episode": cpu,
              "median_audit_probes_per_s": probes,
              "median_first_audit_probes_per_s": statistics.median(firsts) if firsts else None,
              "components": rows, "replay": replayed}
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


def _scene_option(scene: str | None) -> dict:
    return {} if scene is None else {"scene": scene}


def _figure(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}"


if __name__ == "__main__":
    raise SystemExit(main())
