"""`make soak`: oracle episodes by the thousand, each process's memory judged by its slope.

A long training run, or a reward server that runs for days, needs every process flat,
not only the whole tree: a creep of a few KB per episode in one process hides in the
renderer's swing (issue #36: the env's Python went 81 -> 107 MiB over 10,000 episodes
while the tree's PSS stayed inside a 50 MiB tolerance). So the soak samples each
process's memory every `--every` episodes and, after a warm-up of `--settle` episodes,
fits a least-squares slope (KiB per episode) to each kind of process: the env's Python
(or the reward server's), Chromium's browser, GPU, utility and zygote processes, the X
server and the Qt app on the desktop. A renderer is judged across its renewal cycle
(its page is replaced, and so the process, every 250 renders: backends/web.py
RENEW_EVERY; it grows within a cycle and starts afresh): by the mean reading of each
renderer process whose whole life the run sampled, a point per cycle, not sample by
sample. A kind fails
(`grows`) when its slope would carry it past its limit over HORIZON episodes (LIMITS)
and the run itself shows more than the limit's noise floor of that growth.

What is judged is each process's PSS in anonymous and shared memory (smaps_rollup's
Pss_Anon + Pss_Shmem: what it allocated): PSS also holds its share of the files it maps
(Chromium's binary, the libraries), which moves whenever another Chromium or Qt app on
the machine starts or ends (a desktop soak beside other Qt apps read 186-191 MiB of PSS,
then 249 once they had ended), and a leak is never there. Whole PSS, and its slope, is
recorded and printed beside it.

Paths (`--path`):
- `default`: one env as `gym.make(--env)` makes it (the web's app pages; the phone and
  the desktop with --env FineState-Mobile-v0 / FineState-Desktop-v0), the oracle's action;
- `rl`: an RL user's env: a lone slider, obs_type "screenshot" at 84x84, the flat
  action, terminal_obs "skip" (RL_OPTIONS);
- `vec4`: gym.make_vec(--env, num_envs=4), the ids' own vector env (its envs stepped at
  once from threads); each of its episodes counts (a vector step is 4);
- `server`: `finestate serve` (2 workers, a browser each, as `make bench` runs it) in a
  process of its own, a client sending GRPO groups of 8 completions of fresh instances
  (app pages and lone controls in turn), one completion a request from 8 connections
  as OpenRLHF does (benchmarks/reward_bench.py); an episode is a group, and the server's
  process tree is judged ("server" is its Python).

Every path also checks that no episode failed (the oracle reaches every goal; the
server's right answers get 1, its unreadable ones 0, none unjudged) and that no process
is left once the env (or server) is closed. Exits 1 when a check fails. `make bench` runs
a short one.

    python -m benchmarks.soak --episodes 10000                   # the web, app pages
    python -m benchmarks.soak --path rl --episodes 10000
    python -m benchmarks.soak --env FineState-Desktop-v0 --episodes 3000
    python -m benchmarks.soak --path server --episodes 3000
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import gymnasium as gym

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.agents.scripted import OracleAgent
from finestate_env.backends.heap import HEAP
from finestate_env.backends.processes import (
    alive,
    descendants,
    kinds_mib,
    start_time,
    tree_memory_by_process_kib,
)
from finestate_env.backends.web import RENEW_EVERY

PATHS = ("default", "rl", "vec4", "server")
RL_OPTIONS = {"component": "slider", "scene": "control", "obs_type": "screenshot",
              "obs_size": (84, 84), "action_type": "flat", "terminal_obs": "skip"}
VEC_ENVS = 4
# The warm-up before memory is judged. make_vec gives each of its envs a browser of its
# own (env/vector.py), and each browser warms up over its own episodes, a quarter of the
# run's: measured on the vec4 path, the four browsers together still rose 63 -> 66 MiB up
# to episode ~1,500 ("grows" judged from 500), then stayed flat over 12,000 from 2,000.
SETTLE = 500
VECTOR_SETTLE = 2000
SERVER_WORKERS = 2  # make bench's reward_bench headline: 2 workers, a browser each
SERVER_SCENES = ("page", "control")  # the groups' instances, in turn

# The bar (#36) is stated over 10,000 episodes after the warm-up: a slope is
# judged by the growth it gives over that many, whatever the run's own length.
HORIZON = 10_000


@dataclass(frozen=True)
class Limit:
    """How much a kind of process may grow. `per_horizon_mib`: the most its slope may add
    over HORIZON episodes. `noise_mib`: growth over the run itself (slope x episodes after
    the warm-up) at or below this is what sampling alone gives a flat process; a short
    run's slope, projected to HORIZON, fails only past it."""

    per_horizon_mib: float
    noise_mib: float


# The env's Python, or the server's: the bar, < 5 MiB over 10,000 episodes. Its
# readings move by ~0.2 MiB between samples (a collection, a freed screenshot), so 1 MiB
# of growth over a run is beyond noise; the old creep (~2.7-13 KB per episode, 26-127
# MiB per 10,000) shows 1 MiB within 80-400 episodes after the warm-up.
PYTHON_LIMIT = Limit(per_horizon_mib=5.0, noise_mib=1.0)
# Chromium's browser, GPU, utility and zygote processes, the X server, the Qt app: the
# same few MiB; their readings move more (the GPU process's tile memory, the X server's
# pixmaps, with what is on screen), so 2 MiB of growth before a short run can fail.
PROCESS_LIMIT = Limit(per_horizon_mib=5.0, noise_mib=2.0)
# The renderer, judged by each process's mean over its life (a point per renewal cycle):
# where its V8 heap is in its collections moves that mean from cycle to cycle (lone
# slider, 10,000 episodes: 33.5-43.8 MiB, sd 2.8; the cycles' peaks moved twice as much),
# so over 37 cycles the slope gives +-1.6 MiB over the run by chance alone, and over the
# 3-4 cycles of a short run +-6: 10 MiB over HORIZON, and 8 shown by the run itself.
RENDERER_LIMIT = Limit(per_horizon_mib=10.0, noise_mib=8.0)
LIMITS = {"env": PYTHON_LIMIT, "server": PYTHON_LIMIT, "renderer": RENDERER_LIMIT}
# Judged by their processes' means over whole lives: the kinds whose processes are renewed.
CYCLED = ("renderer",)
MIN_POINTS = 3  # fewer readings (or renderer cycles) than this: not judged
# The names of process kinds in reports (processes.process_kind's; "python" under the
# env is the desktop's Qt app, under the server a scorer's would be Chromium's).
NAMES = {"env": "env's Python", "server": "server's Python", "python": "Qt app",
         "gpu-process": "GPU process"}


# -- the judgment ---------------------------------------------------------------------
def least_squares(points: list[tuple[float, float]]) -> float:
    """The slope of the least-squares line through `points` (x, y)."""
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    sxx = sum((x - mean_x) ** 2 for x, _ in points)
    return sum((x - mean_x) * (y - mean_y) for x, y in points) / sxx if sxx else 0.0


def renewed(samples: list[dict], kind: str) -> bool:
    """Whether a `kind` process ended within `samples` (its page was renewed)."""
    last = set(samples[-1]["cycled_mib"].get(kind, {}))
    return any(set(s["cycled_mib"].get(kind, {})) - last for s in samples)


def cycle_means(samples: list[dict], kind: str, measure: str) -> list[tuple[float, float]]:
    """(episode, MiB): each `kind` process's mean episode and mean reading over its
    samples, for the processes whose whole life lies within `samples` (neither in the
    first nor in the last: those cycles were not seen whole)."""
    edges = set(samples[0]["cycled_mib"].get(kind, {})) | set(
        samples[-1]["cycled_mib"].get(kind, {}))
    lives: dict[str, list[tuple[int, float]]] = {}
    for sample in samples:
        for process, reading in sample["cycled_mib"].get(kind, {}).items():
            if process not in edges:
                lives.setdefault(process, []).append((sample["episode"], reading[measure]))
    return sorted((sum(e for e, _ in life) / len(life), sum(v for _, v in life) / len(life))
                  for life in lives.values())


def judge_kind(samples: list[dict], kind: str, measure: str = "pss_anon",
               cycle: int = RENEW_EVERY) -> dict:
    """`kind`'s memory after the warm-up (`samples`: those from the settle point on):
    its slope, the growth it gives, and whether that passes its limit (LIMITS). A CYCLED
    kind is judged by its processes' means over their lives (cycle_means); where none of
    its processes ended, by its samples if they span at least a renewal cycle (`cycle`
    episodes: the renewal is off, or it failed, and the process must stay flat on its
    own), else not at all (a run shorter than a cycle sees only a cycle's own growth)."""
    limit = LIMITS.get(kind, PROCESS_LIMIT)
    span = samples[-1]["episode"] - samples[0]["episode"]
    points = [(s["episode"], s["by_process_mib"][kind][measure]) for s in samples
              if kind in s["by_process_mib"]]
    method = "samples"
    if kind in CYCLED:
        if renewed(samples, kind):
            points, method = cycle_means(samples, kind, measure), "cycle means"
        elif span < cycle:
            points, method = [], "cycle means"
    verdict = {"method": method, "points": len(points), "limit_mib": limit.per_horizon_mib,
               "noise_mib": limit.noise_mib}
    if len(points) < MIN_POINTS or span <= 0:
        return {**verdict, "verdict": "unjudged"}
    slope = least_squares(points)  # MiB per episode
    growth, per_horizon = slope * span, slope * HORIZON
    grows = per_horizon > limit.per_horizon_mib and growth > limit.noise_mib
    return {**verdict, "start_mib": round(points[0][1], 1), "end_mib": round(points[-1][1], 1),
            "slope_kib_per_episode": round(slope * 1024, 3), "growth_mib": round(growth, 2),
            "per_horizon_mib": round(per_horizon, 1),
            "verdict": "grows" if grows else "flat"}


def default_settle(path: str, episodes: int) -> int:
    """The warm-up a run of `episodes` on `path` is judged after, unless told."""
    return min(VECTOR_SETTLE if path == "vec4" else SETTLE, episodes)


def judge(samples: list[dict], settle: int, cycle: int = RENEW_EVERY) -> dict[str, dict]:
    """Every kind of process judged over the samples from `settle` on (judge_kind, on
    PSS in anonymous and shared memory), with whole PSS's figures beside it. `cycle`:
    the episodes in which every page is renewed at least once."""
    after = [s for s in samples if s["episode"] >= settle]
    if not after:
        return {}
    # A kernel without Pss_Anon (before 5.13) reads 0 there: judge whole PSS.
    measure = "pss_anon" if any(m["pss_anon"] for m in after[-1]["by_process_mib"].values()) \
        else "pss"
    kinds = sorted({kind for s in after for kind in s["by_process_mib"]})
    found = {}
    for kind in kinds:
        verdict = judge_kind(after, kind, measure, cycle)
        pss = judge_kind(after, kind, "pss", cycle)
        found[kind] = {"measure": measure, **verdict,
                       **{f"pss_{key}": pss[key] for key in
                          ("start_mib", "end_mib", "slope_kib_per_episode") if key in pss}}
    return found


# -- the samples ----------------------------------------------------------------------
def sample_memory(episode: int, seconds: float, root: int, root_kind: str) -> dict:
    """One reading of `root` and every process it started: by kind, and the processes of
    the CYCLED kinds one by one (keyed pid:start time, a pid reused later is another)."""
    readings = tree_memory_by_process_kib(root)
    if root in readings:
        readings[root] = (root_kind, readings[root][1])
    kinds = kinds_mib(readings)
    total = kinds.pop("total")
    counts: dict[str, int] = {}
    cycled: dict[str, dict[str, dict[str, float]]] = {}
    for pid, (kind, reading) in readings.items():
        counts[kind] = counts.get(kind, 0) + 1
        if kind in CYCLED:
            cycled.setdefault(kind, {})[f"{pid}:{start_time(pid)}"] = {
                field: round(reading[field] / 1024, 2) for field in ("pss", "pss_anon")}
    return {"episode": episode, "seconds": round(seconds, 1),
            "load_average": round(os.getloadavg()[0], 2),
            "pss_mib": round(total["pss"], 1), "uss_mib": round(total["uss"], 1),
            "pss_anon_mib": round(total["pss_anon"], 1),
            "pss_by_process_mib": {kind: round(m["pss"], 1) for kind, m in sorted(kinds.items())},
            "by_process_mib": {kind: {field: round(m[field], 2)
                                      for field in ("pss", "uss", "pss_anon")}
                               for kind, m in sorted(kinds.items())},
            "processes": dict(sorted(counts.items())), "cycled_mib": cycled}


# -- the paths ------------------------------------------------------------------------
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


class FlatOracle:
    """The oracle's points as the flat action takes them, (p0x, p0y, p1x, p1y) in [-1, 1]."""

    def __init__(self, viewport: tuple[int, int]) -> None:
        self.viewport = viewport

    def act(self, obs, info):
        from benchmarks.peer_worker import oracle_action

        return oracle_action(info["boxes"]["current"], self.viewport, flat=True)


class EnvPath:
    """The default and RL paths: one env, an oracle episode per round."""

    envs = 1
    cycle = RENEW_EVERY  # an episode is a render

    def __init__(self, env_id: str, options: dict) -> None:
        self.env = gym.make(env_id, **options)
        self.agent = (FlatOracle(self.env.unwrapped.viewport)
                      if options.get("action_type") == "flat" else OracleAgent())
        self.root, self.root_kind = os.getpid(), "env"

    def round(self, first: int) -> list[dict]:
        failure = _episode_failure(self.env, self.agent, first)
        return [failure] if failure else []

    def close(self) -> None:
        self.env.close()


class VectorPath:
    """make_vec of VEC_ENVS envs: a round resets them all (env i: seed first + i) and
    steps them with the oracle's actions, VEC_ENVS episodes."""

    envs = VEC_ENVS
    cycle = RENEW_EVERY * VEC_ENVS  # a page's render is a round of VEC_ENVS episodes

    def __init__(self, env_id: str) -> None:
        self.env = gym.make_vec(env_id, num_envs=VEC_ENVS)
        self.root, self.root_kind = os.getpid(), "env"

    def round(self, first: int) -> list[dict]:
        from benchmarks.peer_worker import oracle_action

        seeds = list(range(first, first + VEC_ENVS))
        try:
            _, info = self.env.reset(seed=seeds)
            _, rewards, _, _, step_info = self.env.step(
                oracle_action(info["boxes"]["current"], None, flat=False))
        except Exception as exc:  # noqa: BLE001 (as _episode_failure)
            return [{"episode": first, "seeds": seeds, "error": f"{type(exc).__name__}: {exc}"}]
        return [{"episode": seed, "seed": seed, "env": i, "reward": float(rewards[i]),
                 "component": step_info["component"][i],
                 "action_error": step_info["action_error"][i]}
                for i, seed in enumerate(seeds)
                if rewards[i] != 1.0 or step_info["action_error"][i] is not None]

    def close(self) -> None:
        self.env.close()


class ServerPath:
    """`finestate serve` under steady load: a round is one GRPO group of 8 completions
    (reward_bench's: 3 right, 3 wrong, 2 unreadable) of a fresh instance, sent one a
    request from 8 connections at once. The instances are made here (an env reset each,
    on a thread of their own, a few ahead), so the server never waits for them."""

    envs = 1
    AHEAD = 4  # instances made ahead of the requests
    # A group is at least one render, on one of the workers' pages: each page is renewed
    # within RENEW_EVERY renders of its own.
    cycle = RENEW_EVERY * SERVER_WORKERS

    def __init__(self) -> None:
        from benchmarks import reward_bench

        self.bench = reward_bench
        port = reward_bench.free_port()
        self.server = reward_bench.Server(
            reward_bench.serve_command(port, SERVER_WORKERS, shared_browser=False), port)
        self.port, self.root, self.root_kind = port, self.server.process.pid, "server"
        self.rows: queue.Queue = queue.Queue(self.AHEAD)
        self.stopping = threading.Event()
        self.maker = threading.Thread(target=self._make_rows, daemon=True)
        self.next_seed = 1
        self.maker.start()

    def _make_rows(self) -> None:
        from finestate_env.rewards import ground_truth

        envs = {scene: gym.make("FineState-Web-v0", scene=scene).unwrapped
                for scene in SERVER_SCENES}
        try:
            seed = 1
            while not self.stopping.is_set():
                scene = SERVER_SCENES[seed % len(SERVER_SCENES)]
                try:
                    envs[scene].reset(seed=seed)
                    row = (seed, scene, ground_truth(envs[scene].instance, "pixel"))
                except Exception as exc:  # noqa: BLE001 (the round records it)
                    row = (seed, scene, exc)
                while not self.stopping.is_set():
                    try:
                        self.rows.put(row, timeout=0.5)
                        break
                    except queue.Full:
                        continue
                seed += 1
        finally:
            for env in envs.values():
                env.close()

    def round(self, first: int) -> list[dict]:
        seed, scene, truth = self.rows.get(timeout=600)
        if isinstance(truth, Exception):
            return [{"episode": first, "seed": seed, "scene": scene,
                     "error": f"{type(truth).__name__}: {truth}"}]
        prompt, text = self.bench.prompt_of(truth), truth.text()
        completions = self.bench.group_completions(truth, seed)
        try:
            rewards, _ = self.bench.send_concurrently(
                self.port, [self.bench.get_reward_body(text, prompt, c) for c in completions])
        except Exception as exc:  # noqa: BLE001 (as _episode_failure)
            return [{"episode": first, "seed": seed, "scene": scene,
                     "error": f"{type(exc).__name__}: {exc}"}]
        kinds = self.bench.KINDS
        wrong = [i for i, reward in enumerate(rewards)
                 if reward is None or (kinds[i] == "right" and reward != 1.0)
                 or (kinds[i] == "malformed" and reward != 0.0)]
        return [{"episode": first, "seed": seed, "scene": scene, "rewards": rewards,
                 "wrong": wrong}] if wrong else []

    def close(self) -> None:
        self.stopping.set()
        self.server.stop()
        self.maker.join(60)


def make_path(path: str, env_id: str):
    if path == "server":
        return ServerPath()
    if path == "vec4":
        return VectorPath(env_id)
    return EnvPath(env_id, RL_OPTIONS if path == "rl" else {})


def soak(env_id: str, episodes: int, every: int, settle: int, path: str = "default") -> dict:
    runner = make_path(path, env_id)
    failures, started_pids = [], set()
    # The samples go to a file as they are taken: kept in this process, whose memory they
    # measure, a 10,000-episode soak's 400 (~4 KB of objects each) made the env's Python
    # look to grow ~0.15 KiB per episode.
    store = tempfile.TemporaryFile("w+")
    started = time.perf_counter()
    done = taken = 0
    try:
        while done < episodes:
            failures += runner.round(done + 1)
            if done == 0:  # after the first round: everything it started
                started_pids = descendants(os.getpid()) | descendants(runner.root)
                if runner.root != os.getpid():
                    started_pids.add(runner.root)
            before, done = done, done + runner.envs
            due = (done // every > before // every or before < settle <= done
                   or done >= episodes)
            if due:
                if runner.root == os.getpid():
                    # What the env's process holds, not the free pages of its current trim
                    # cycle, which it gives back every TRIM_EVERY_BYTES of captures
                    # (backends/heap.py): sampled between trims, its reading swings ~4 MiB.
                    HEAP.trim()
                sample = sample_memory(done, time.perf_counter() - started,
                                       runner.root, runner.root_kind)
                store.write(json.dumps(sample, separators=(",", ":")) + "\n")
                if not taken or done // 500 > before // 500 or done >= episodes:
                    _progress(sample, runner.root_kind, done, started, failures)
                taken += 1
    finally:
        runner.close()
    time.sleep(0.5)  # let the children's exits be reaped
    seconds = time.perf_counter() - started
    return {"env": env_id, "path": path, "episodes": done, "every": every,
            "malloc_tuning": os.environ.get("FINESTATE_MALLOC_TUNING", "1") != "0",
            **judged_run(store, settle, runner.cycle), "failures": failures,
            "processes_left": sorted(alive(started_pids)),
            "seconds": round(seconds, 1), "episodes_per_s": round(done / seconds, 2)}


def judged_run(store, settle: int, cycle: int) -> dict:
    """A run's samples (read back from `store`, which is closed), each process judged by its
    slope from the first sample at or past `settle`, and the tree's PSS from there to the end."""
    store.seek(0)
    samples = [json.loads(line) for line in store]
    store.close()
    settled = next(s for s in samples if s["episode"] >= settle)
    end = samples[-1]
    return {"settle": settled["episode"], "horizon": HORIZON, "cycle_episodes": cycle,
            "samples": samples, "judged": judge(samples, settled["episode"], cycle),
            "pss_after_settle_mib": settled["pss_mib"], "pss_end_mib": end["pss_mib"],
            "growth_mib": round(end["pss_mib"] - settled["pss_mib"], 1),
            "uss_growth_mib": round(end["uss_mib"] - settled["uss_mib"], 1),
            "load_average": {"settle": settled["load_average"], "end": end["load_average"],
                             "mean": round(sum(s["load_average"] for s in samples)
                                           / len(samples), 2)}}


def _progress(sample: dict, root_kind: str, done: int, started: float, failures: list) -> None:
    root = sample["by_process_mib"].get(root_kind, {}).get("pss_anon", 0.0)
    print(f"episode {done:>6}: PSS {sample['pss_mib']:7.1f} MiB, {NAMES[root_kind]} "
          f"{root:6.1f} MiB anon, {done / (time.perf_counter() - started):5.1f} episodes/s, "
          f"load {sample['load_average']:.1f}, {len(failures)} failed", flush=True)


# -- the report -----------------------------------------------------------------------
def table(report: dict) -> str:
    """Each kind's line: start, end, slope, growth over the run and over HORIZON, verdict."""
    lines = [f"{'process':<16}{'start':>8}{'end':>8}{'KiB/ep':>9}{'run':>8}"
             f"{'/' + format(HORIZON, ','):>9}{'limit':>7}  verdict (MiB; PSS KiB/ep)"]
    for kind, v in report["judged"].items():
        if v["verdict"] == "unjudged":
            lines.append(f"{NAMES.get(kind, kind):<16}{'':>56}  unjudged ({v['points']} "
                         f"{'cycles' if v['method'] == 'cycle means' else 'samples'})")
            continue
        how = f", {v['points']} cycle means" if v["method"] == "cycle means" else ""
        lines.append(f"{NAMES.get(kind, kind):<16}{v['start_mib']:8.1f}{v['end_mib']:8.1f}"
                     f"{v['slope_kib_per_episode']:9.2f}{v['growth_mib']:+8.1f}"
                     f"{v['per_horizon_mib']:+9.1f}{v['limit_mib']:7.0f}  {v['verdict']}"
                     f" ({v['pss_slope_kib_per_episode']:.2f}{how})")
    return "\n".join(lines)


def growing(report: dict) -> list[str]:
    return [kind for kind, v in report["judged"].items() if v["verdict"] == "grows"]


def passed(report: dict) -> bool:
    return not growing(report) and not report["failures"] and not report["processes_left"]


def write(report: dict, out: Path) -> None:
    """The report as JSON, a sample a line (a 10,000-episode soak has hundreds)."""
    head = {k: v for k, v in report.items() if k != "samples"}
    text = json.dumps(head, indent=2)[:-2]  # reopen the object for the samples
    samples = ",\n    ".join(json.dumps(s, separators=(",", ":")) for s in report["samples"])
    out.write_text(f'{text},\n  "samples": [\n    {samples}\n  ]\n}}\n')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--path", choices=PATHS, default="default")
    parser.add_argument("--env", default="FineState-Web-v0",
                        help="the id (default and vec4 paths; rl and server are the web's)")
    parser.add_argument("--episodes", type=int, default=10_000,
                        help="episodes (server: groups of 8 completions)")
    parser.add_argument("--every", type=int, default=25, help="episodes between samples")
    parser.add_argument("--settle", type=int, default=None,
                        help="the warm-up: memory is judged from this episode on (default "
                             f"{SETTLE} episodes, {VECTOR_SETTLE} on the vec4 path)")
    parser.add_argument("--out", default="soak.json")
    args = parser.parse_args(argv)
    if args.settle is None:
        args.settle = default_settle(args.path, args.episodes)
    if not 0 < args.settle <= args.episodes:
        parser.error("--settle must lie in 1..--episodes")
    if args.every < 1:
        parser.error("--every must be at least 1")
    env_id = args.env if args.path in ("default", "vec4") else "FineState-Web-v0"
    report = soak(env_id, args.episodes, args.every, args.settle, args.path)
    write(report, Path(args.out))
    unit = "groups" if args.path == "server" else "episodes"
    print(f"{env_id}, {args.path} path: {report['episodes']} {unit} at "
          f"{report['episodes_per_s']:.1f}/s, load average {report['load_average']['mean']:.1f}; "
          f"judged from {unit[:-1]} {report['settle']} (PSS {report['pss_after_settle_mib']:.0f}"
          f" -> {report['pss_end_mib']:.0f} MiB, USS {report['uss_growth_mib']:+.0f}), "
          f"PSS in anonymous and shared memory by process:")
    print(table(report))
    grows = growing(report)
    print(f"{', '.join(NAMES.get(k, k) for k in grows) or 'no process'} grows; "
          f"{len(report['failures'])} failed {unit}; "
          f"{len(report['processes_left'])} processes left; wrote {args.out}")
    return 0 if passed(report) else 1


if __name__ == "__main__":
    raise SystemExit(main())
