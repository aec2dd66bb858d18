"""`make bench`'s reward figures (issue #33): live rewards per second for GRPO groups of 8.

Rows are web instances from env resets (seeds SEED, SEED+1, ...): app pages (the default
scene) and lone controls. Each row gets a group of 8 completions, a mix a model writes
early in training: 3 right (the oracle's points, in JSON, as an action call or labelled,
and in an <answer> block), 3 wrong (a point anywhere on the screen; both anywhere; a tap
on the state already shown) and 2 that score 0 without a gesture (no points; points off
the screen). Three ways to reward them, each timed on the same rows:

- `in_process`: RewardScorer.score on a batch of B groups x 8 completions, as TRL calls a
  reward function (one call per batch, every group on one render);
- `server`: `finestate serve` in a process of its own, 8 concurrent clients each sending
  one completion per request to POST /get_reward (as OpenRLHF's remote reward client
  does: a group of 8 arrives as 8 requests), each on a kept-alive connection;
- `box`: the static point-in-box reward of the same rows (mode "box": no browser).

Each timed run starts warm: its browsers started on other rows first (seeds from
WARM_SEEDS on), so no page shows a timed row before it is timed. Printed and written
(JSON): rewards per second, CPU milliseconds per reward of the whole
process tree (the browsers included; the server's tree for `server`, the clients' CPU
beside it), renders per group, and whether every live reward equals the in-process one.
The machine's CPUs and load are recorded at the start and the end: the figures are
CPU-bound, so a busy machine gives less.

    python -m benchmarks.reward_bench --groups 24 --passes 2 --out bench-rewards.json
    python -m benchmarks.reward_bench --workers 1,2,3 --browsers own,shared  # a sweep
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.peer_worker import tree_cpu_ms

GROUP = 8  # completions per prompt: a GRPO group
CLIENTS = 8  # the server's concurrent clients
SCENES = ("page", "control")
WARM_SEEDS = 100_000  # the warm-up's rows: seeds from here on, apart from the timed rows'
KINDS = ("right",) * 3 + ("wrong",) * 3 + ("malformed",) * 2  # completion i's kind
# Targets (issue #33) on a 2-core machine, groups of 8, both scenes together.
IN_PROCESS_TARGET = 300.0
SERVER_TARGET = 200.0


def machine() -> dict:
    return {"cpus": os.cpu_count(), "nproc": len(os.sched_getaffinity(0)),
            "load_average": os.getloadavg()}


# -- the rows and their completions ------------------------------------------------
def make_rows(scene: str, groups: int, seed: int = 0) -> list:
    """The ground truths of `groups` web instances in `scene`, from env resets of seeds
    seed, seed+1, ... (answers in screenshot pixels)."""
    import gymnasium as gym

    import finestate_env  # noqa: F401 (registers the ids)
    from finestate_env.rewards import ground_truth

    env = gym.make("FineState-Web-v0", scene=scene).unwrapped
    try:
        truths = []
        for index in range(groups):
            env.reset(seed=seed + index)
            truths.append(ground_truth(env.instance, "pixel"))
        return truths
    finally:
        env.close()


def _center(box: Sequence[float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _pt(point: Sequence[float]) -> str:
    return f"{point[0]:.1f}, {point[1]:.1f}"


def group_completions(truth, seed: int) -> list[str]:
    """The 8 completions of one row, in KINDS' order (deterministic from `seed`)."""
    rng = random.Random(seed)
    boxes = truth.instance.boxes.current
    width, height = truth.size
    p0, p1 = _center(boxes.now), _center(boxes.goal)
    anywhere = [(rng.uniform(0, width - 1), rng.uniform(0, height - 1)) for _ in range(3)]
    call = (f"drag({_pt(p0)}, {_pt(p1)})" if truth.instance.gesture == "drag"
            else f"p0: ({_pt(p0)}) p1: ({_pt(p1)})")
    return [
        json.dumps({"p0": [round(p0[0], 1), round(p0[1], 1)],
                    "p1": [round(p1[0], 1), round(p1[1], 1)]}),
        call,
        f"<think>The control is at ({_pt(p0)}).</think><answer>"
        f'{{"p0": [{_pt(p0)}], "p1": [{_pt(p1)}]}}</answer>',
        f'{{"p0": [{_pt(p0)}], "p1": [{_pt(anywhere[0])}]}}',
        f'{{"p0": [{_pt(anywhere[1])}], "p1": [{_pt(anywhere[2])}]}}',
        f'{{"p0": [{_pt(p0)}], "p1": [{_pt(p0)}]}}',
        "I cannot tell where the control is.",
        f'{{"p0": [-40, 12], "p1": [{width + 50}, {height + 30}]}}',
    ]


def rows_and_completions(scene: str, groups: int, seed: int = 0) -> tuple[list, list[list[str]]]:
    truths = make_rows(scene, groups, seed)
    return truths, [group_completions(truth, seed * 1000 + index)
                    for index, truth in enumerate(truths)]


def prompt_of(truth) -> str:
    """A chat-templated prompt, as OpenRLHF's query starts (the response follows it)."""
    return (f"<|im_start|>user\n{truth.instance.instructions.interact} Answer with the two "
            "points as JSON.<|im_end|>\n<|im_start|>assistant\n")


def _by_kind(rewards: Sequence[float | None]) -> dict[str, float]:
    sums: dict[str, list[float]] = {kind: [] for kind in dict.fromkeys(KINDS)}
    for index, reward in enumerate(rewards):
        if reward is not None:
            sums[KINDS[index % GROUP]].append(reward)
    return {kind: round(sum(v) / len(v), 3) if v else None for kind, v in sums.items()}


# -- the three ways -----------------------------------------------------------------
def bench_in_process(truths: list, completions: list[list[str]], *, workers: int,
                     shared_browser: bool, batch_groups: int, passes: int,
                     mode: str = "exact", warm: tuple[list, list] | None = None) -> dict:
    """RewardScorer.score on batches of `batch_groups` groups (TRL's reward call).
    `warm`: rows of other instances (truths, completions) scored first, untimed, so that
    every worker has started its browser, and no page shows a timed row yet."""
    from finestate_env.rewards import RewardScorer

    texts = [truth.text() for truth in truths]
    batches = []
    for start in range(0, len(truths), batch_groups):
        rows = range(start, min(start + batch_groups, len(truths)))
        batches.append(([texts[i] for i in rows for _ in range(GROUP)],
                        [c for i in rows for c in completions[i]]))
    live = mode != "box"
    with RewardScorer(mode, workers=workers,
                      backend_options={"shared_browser": shared_browser}) as scorer:
        if live and warm is not None:
            scorer.score([truth for truth in warm[0] for _ in range(GROUP)],
                         [c for group in warm[1] for c in group])
        counts = dict(scorer.counts)
        cpu, wall = tree_cpu_ms(os.getpid()), time.perf_counter()
        rewards: list[float | None] = []
        for pass_ in range(passes):
            for batch_truths, batch_completions in batches:
                scores = scorer.score(batch_truths, batch_completions)
                if pass_ == 0:
                    rewards += [score.reward for score in scores]
        elapsed = time.perf_counter() - wall
        cpu = tree_cpu_ms(os.getpid()) - cpu
        renders = scorer.counts["renders"] - counts["renders"]
        unjudged = scorer.counts["unjudged"] - counts["unjudged"]
    total = passes * len(truths) * GROUP
    return {"path": "box" if not live else "in_process", "mode": mode, "workers": workers,
            "shared_browser": shared_browser if live else None, "batch": batch_groups * GROUP,
            "rewards_total": total, "seconds": round(elapsed, 3),
            "rewards_per_s": round(total / elapsed, 1),
            "cpu_ms_per_reward": round(cpu / total, 3),
            "renders_per_group": round(renders / (passes * len(truths)), 3) if live else None,
            "unjudged": unjudged, "mean_reward_by_kind": _by_kind(rewards), "rewards": rewards}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve_command(port: int, workers: int, shared_browser: bool,
                  extra: Sequence[str] = ()) -> list[str]:
    """`finestate serve` as a user starts it (the venv's console script)."""
    script = Path(sys.executable).with_name("finestate")
    base = [str(script)] if script.exists() else [sys.executable, "-m", "finestate_env.cli"]
    return [*base, "serve", "--port", str(port), "--workers", str(workers),
            *(["--shared-browser"] if shared_browser else []), *extra]


class Server:
    """`finestate serve` in a process of its own, stopped (SIGINT, as Ctrl-C) on exit."""

    def __init__(self, command: list[str], port: int, env: dict | None = None,
                 ready_s: float = 60.0) -> None:
        self.port = port
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True,
                                        env={**os.environ, **(env or {})})
        self._lines: list[str] = []
        threading.Thread(target=self._drain, daemon=True).start()
        deadline = time.monotonic() + ready_s
        while True:
            try:
                if request(port, "GET", "/health")[0] == 200:
                    return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"finestate serve did not start:\n{self.output()}")
            time.sleep(0.1)

    def _drain(self) -> None:
        for line in self.process.stdout:
            self._lines.append(line)

    def output(self) -> str:
        return "".join(self._lines)[-4000:]

    def health(self) -> dict:
        status, body, _ = request(self.port, "GET", "/health")
        assert status == 200, (status, body)
        return body

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def request(port: int, method: str, path: str, body: object = None,
            headers: dict | None = None, connection: http.client.HTTPConnection | None = None,
            timeout: float = 120.0) -> tuple[int, object, dict]:
    """(status, JSON body or text, headers) of one request to the server at `port`."""
    conn = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    try:
        conn.request(method, path, body=data,
                     headers={"content-type": "application/json", **(headers or {})})
        reply = conn.getresponse()
        raw = reply.read()
    finally:
        if connection is None:
            conn.close()
    try:
        parsed: object = json.loads(raw)
    except ValueError:
        parsed = raw.decode(errors="replace")
    return reply.status, parsed, {k.lower(): v for k, v in reply.getheaders()}


def get_reward_body(truth_text: str, prompt: str, completion: str) -> dict:
    """OpenRLHF's remote reward request for one sample."""
    return {"query": [prompt + completion], "prompts": [prompt], "labels": [truth_text]}


def send_concurrently(port: int, samples: Sequence[dict], clients: int = CLIENTS,
                      retry_s: float = 1.0, tries: int = 6) -> tuple[list, int]:
    """POST each /get_reward body of `samples` from `clients` threads, each taking the next
    sample as it is free (OpenRLHF's client: one sample a request, a 503 sent again after
    Retry-After); ([reward or None per sample], 503s seen)."""
    todo: queue.Queue = queue.Queue()
    for index, sample in enumerate(samples):
        todo.put((index, sample))
    rewards: list = [None] * len(samples)
    refused = [0]
    lock = threading.Lock()

    def client() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        try:
            while True:
                try:
                    index, sample = todo.get_nowait()
                except queue.Empty:
                    return
                for _ in range(tries):
                    status, body, headers = request(port, "POST", "/get_reward", sample,
                                                    connection=conn)
                    if status == 200:
                        rewards[index] = body["rewards"][0]
                        break
                    if status != 503:
                        raise RuntimeError(f"/get_reward answered {status}: {body}")
                    with lock:
                        refused[0] += 1
                    time.sleep(float(headers.get("retry-after", retry_s)))
        finally:
            conn.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return rewards, refused[0]


def bench_server(truths: list, completions: list[list[str]], *, workers: int,
                 shared_browser: bool, passes: int, clients: int = CLIENTS,
                 warm: tuple[list, list] | None = None) -> dict:
    """`finestate serve` under `clients` concurrent clients, one completion a request
    (`warm` as bench_in_process's)."""
    texts = [truth.text() for truth in truths]
    prompts = [prompt_of(truth) for truth in truths]
    samples = [get_reward_body(texts[g], prompts[g], completion)
               for g in range(len(truths)) for completion in completions[g]]
    port = free_port()
    with Server(serve_command(port, workers, shared_browser), port) as server:
        if warm is not None:
            send_concurrently(port, [get_reward_body(truth.text(), prompt_of(truth), c)
                                     for truth, group in zip(*warm, strict=True)
                                     for c in group], clients)
        before = server.health()
        server_cpu, wall = tree_cpu_ms(server.process.pid), time.perf_counter()
        client_cpu = time.process_time()
        rewards: list = []
        refused = 0
        for pass_ in range(passes):
            got, seen = send_concurrently(port, samples, clients)
            refused += seen
            if pass_ == 0:
                rewards = got
        elapsed = time.perf_counter() - wall
        client_cpu = (time.process_time() - client_cpu) * 1000
        server_cpu = tree_cpu_ms(server.process.pid) - server_cpu
        after = server.health()
    total = passes * len(samples)
    return {"path": "server", "mode": "exact", "workers": workers,
            "shared_browser": shared_browser, "clients": clients, "rewards_total": total,
            "seconds": round(elapsed, 3), "rewards_per_s": round(total / elapsed, 1),
            "cpu_ms_per_reward": round(server_cpu / total, 3),
            "client_cpu_ms_per_reward": round(client_cpu / total, 3),
            "renders_per_group": round((after["renders"] - before["renders"])
                                       / (passes * len(truths)), 3),
            "refused_503": refused,
            "unjudged": after["unjudged"] - before["unjudged"],
            "mean_reward_by_kind": _by_kind(rewards), "rewards": rewards}


# -- the run --------------------------------------------------------------------------
def run(*, scenes: Sequence[str], groups: int, passes: int, batch_groups: int,
        workers: Sequence[int], browsers: Sequence[str], paths: Sequence[str],
        clients: int = CLIENTS, seed: int = 0) -> dict:
    report: dict = {"machine_at_start": machine(),
                    "settings": {"scenes": list(scenes), "groups": groups, "group": GROUP,
                                 "passes": passes, "batch": batch_groups * GROUP,
                                 "clients": clients, "seed": seed, "kinds": list(KINDS)},
                    "rows": []}
    for scene in scenes:
        truths, completions = rows_and_completions(scene, groups, seed)
        # Other instances for the warm-up: two a worker.
        warm = rows_and_completions(scene, 2 * max(workers), seed + WARM_SEEDS)
        reference = None
        if "box" in paths:
            row = bench_in_process(truths, completions, workers=1, shared_browser=False,
                                   batch_groups=batch_groups, passes=passes, mode="box")
            _add(report, scene, row, None)
        for count in workers:
            for browser in browsers:
                shared = browser == "shared"
                for path in paths:
                    if path == "in_process":
                        row = bench_in_process(truths, completions, workers=count,
                                               shared_browser=shared,
                                               batch_groups=batch_groups, passes=passes,
                                               warm=warm)
                    elif path == "server":
                        row = bench_server(truths, completions, workers=count,
                                           shared_browser=shared, passes=passes,
                                           clients=clients, warm=warm)
                    else:
                        continue
                    reference = reference if reference is not None else row["rewards"]
                    _add(report, scene, row, reference)
    report["summary"] = summarize(report["rows"], workers[0], browsers[0] == "shared")
    report["machine"] = machine()  # at the end
    return report


def _add(report: dict, scene: str, row: dict, reference: list | None) -> None:
    row = {"scene": scene, **row, "load_average": os.getloadavg()[0]}
    if reference is not None:
        row["agrees_with_first"] = row["rewards"] == reference
    report["rows"].append(row)
    print(f"  {_line(row)}", flush=True)


def summarize(rows: list[dict], workers: int, shared: bool) -> dict:
    """The headline figures: each path at the first settings asked for, both scenes
    together (all rewards over all seconds) and each alone."""
    out: dict = {"workers": workers, "shared_browser": shared}
    for path in ("in_process", "server", "box"):
        chosen = [r for r in rows if r["path"] == path and
                  (path == "box" or (r["workers"] == workers and r["shared_browser"] == shared))]
        if not chosen:
            continue
        total = sum(r["rewards_total"] for r in chosen)
        seconds = sum(r["seconds"] for r in chosen)
        cpu = sum(r["cpu_ms_per_reward"] * r["rewards_total"] for r in chosen)
        out[path] = {"rewards_per_s": round(total / seconds, 1),
                     "cpu_ms_per_reward": round(cpu / total, 3),
                     "by_scene": {r["scene"]: r["rewards_per_s"] for r in chosen}}
    out["agree"] = all(r.get("agrees_with_first", True) for r in rows)
    out["unjudged"] = sum(r["unjudged"] for r in rows)
    return out


def _browsers(shared: bool) -> str:
    return "one shared browser" if shared else "a browser each"


def _line(row: dict) -> str:
    settings = ("box, no browser" if row["path"] == "box" else
                f"{row['workers']} workers, {_browsers(row['shared_browser'])}")
    extra = ""
    if row.get("renders_per_group") is not None:
        extra += f", {row['renders_per_group']:.2f} renders/group"
    if row.get("client_cpu_ms_per_reward") is not None:
        extra += f", clients {row['client_cpu_ms_per_reward']:.1f} ms CPU/reward"
    if "agrees_with_first" in row and not row["agrees_with_first"]:
        extra += ", REWARDS DIFFER"
    return (f"{row['scene']:<8}{row['path']:<11}{row['rewards_per_s']:8.1f} rewards/s "
            f"{row['cpu_ms_per_reward']:6.2f} ms CPU/reward  ({settings}{extra})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--groups", type=int, default=24, help="rows (groups of 8) per scene")
    parser.add_argument("--passes", type=int, default=2, help="timed passes over the rows")
    parser.add_argument("--batch", type=int, default=8,
                        help="groups per RewardScorer.score call (in process)")
    parser.add_argument("--scenes", default=",".join(SCENES))
    parser.add_argument("--workers", default="2",
                        help="comma-separated scoring threads to try; the first is the headline")
    parser.add_argument("--browsers", default="own",
                        help="comma-separated: own (a browser per worker), shared (one)")
    parser.add_argument("--paths", default="in_process,server,box")
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="bench-rewards.json")
    args = parser.parse_args(argv)
    scenes, paths = args.scenes.split(","), args.paths.split(",")
    browsers = args.browsers.split(",")
    for name, given, known in (("scenes", scenes, SCENES),
                               ("browsers", browsers, ("own", "shared")),
                               ("paths", paths, ("in_process", "server", "box"))):
        if set(given) - set(known):
            parser.error(f"unknown {name} {sorted(set(given) - set(known))}; known: {list(known)}")
    if args.groups < 1 or args.passes < 1 or args.batch < 1:
        parser.error("--groups, --passes and --batch must be at least 1")
    start = machine()
    print(f"rewards for groups of {GROUP} on {start['nproc']} CPUs (load average "
          f"{start['load_average'][0]:.1f}), {args.groups} rows per scene, {args.passes} passes:",
          flush=True)
    report = run(scenes=scenes, groups=args.groups, passes=args.passes,
                 batch_groups=args.batch, workers=[int(w) for w in args.workers.split(",")],
                 browsers=browsers, paths=paths, clients=args.clients, seed=args.seed)
    summary = report["summary"]
    print(f"both scenes, {summary['workers']} workers, {_browsers(summary['shared_browser'])} "
          f"(load average {report['machine']['load_average'][0]:.1f} at the end):")
    for path, target in (("in_process", IN_PROCESS_TARGET), ("server", SERVER_TARGET),
                         ("box", None)):
        if path in summary:
            figure = summary[path]
            goal = f"  (target >= {target:g})" if target else ""
            print(f"  {path:<11}{figure['rewards_per_s']:8.1f} rewards/s "
                  f"{figure['cpu_ms_per_reward']:6.2f} ms CPU/reward{goal}")
    print(f"  live rewards agree across paths and settings: {summary['agree']}; "
          f"unjudged: {summary['unjudged']}")
    Path(args.out).write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0 if summary["agree"] and summary["unjudged"] == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
