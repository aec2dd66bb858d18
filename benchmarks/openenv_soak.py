"""`finestate serve-env` soaked: sessions opened and closed in a row by OpenEnv's own
client, every process of the server judged flat in memory (#42).

The server runs as a user runs it (`finestate serve-env --port 0`, a process of its own,
`--max-sessions` small so that a session whose page was not freed soon blocks the next).
Each round is one client session, as a trainer's rollout is: a FineStateEnvClient
(OpenEnv's EnvClient) connects over the WebSocket, resets to a fresh seed (slider,
checkbox and switch pages in turn), makes one gesture and closes. Every other session
makes the right gesture (from the state's boxes) and must be paid exactly 1.0; the others
click a corner and must be paid 0.0. `--clients K` runs K such loops at once.

Memory is read and judged as benchmarks/soak.py does it (each process kind's slope in
KiB per session after a warm-up, on PSS in anonymous and shared memory, the renderer by
its renewal cycles), with the server's Python as the root ("server"). The run fails on a
kind that grows, a session that failed or was paid a wrong reward, or a process left
once the server is stopped.

    python -m benchmarks.openenv_soak --sessions 10000      # the issue's run (~1 h here)
    python -m benchmarks.openenv_soak --sessions 1000 --out openenv-soak.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.soak import judged_run, passed, sample_memory, table, write
from finestate_env.agentic.openenv import GestureAction
from finestate_env.agentic.openenv_client import FineStateEnvClient
from finestate_env.backends.processes import alive, descendants
from finestate_env.backends.web import RENEW_EVERY
from finestate_env.core.coords import box_center

COMPONENTS = ("slider", "checkbox", "switch")
SETTLE = 300
MISS = GestureAction(p0=[4, 4], p1=[4, 4])


class Server:
    """`finestate serve-env` in a process of its own, on a free loopback port."""

    def __init__(self, max_sessions: int) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "finestate_env.cli", "serve-env", "--port", "0",
             "--max-sessions", str(max_sessions), "--idle-timeout", "600"],
            stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        found = re.search(r"\(http://([^)]+)\)", line)
        if found is None:
            self.process.kill()
            raise SystemExit(f"finestate serve-env did not start: {line}")
        self.url = "http://" + found.group(1)
        # the rest of its stderr, drained so that it never blocks on a full pipe
        threading.Thread(target=self.process.stderr.read, daemon=True).start()

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(30)


def session(url: str, number: int) -> dict | None:
    """One client session; a failure's record, or None."""
    component = COMPONENTS[number % len(COMPONENTS)]
    right = number % 2 == 0
    try:
        with FineStateEnvClient(base_url=url, message_timeout_s=120).sync() as env:
            env.reset(seed=number, component=component, max_actions=1)
            state = env.state()
            if right and state.oracle_actions != 1:
                right = False  # a goal more than one gesture away: a miss is still exact
            action = MISS
            if right:
                boxes = state.boxes["current"]
                action = GestureAction(p0=list(box_center(boxes["now"])),
                                       p1=list(box_center(boxes["goal"])))
            result = env.step(action)
    except Exception as exc:  # noqa: BLE001 (recorded: the run fails on it)
        return {"session": number, "component": component,
                "error": f"{type(exc).__name__}: {exc}"}
    expected = 1.0 if right else 0.0
    if result.reward != expected or not result.done:
        return {"session": number, "component": component, "reward": result.reward,
                "expected": expected, "done": result.done}
    return None


def soak(sessions: int, every: int, settle: int, clients: int, max_sessions: int) -> dict:
    server = Server(max_sessions)
    root = server.process.pid
    failures: list[dict] = []
    store = tempfile.TemporaryFile("w+")
    started = time.perf_counter()
    lock = threading.Lock()
    counter = iter(range(sessions))
    done = 0
    started_pids: set[int] = set()

    def loop() -> None:
        nonlocal done, started_pids
        while True:
            with lock:
                number = next(counter, None)
            if number is None:
                return
            failure = session(server.url, number)
            with lock:
                if failure is not None:
                    failures.append(failure)
                before, done = done, done + 1
                if before == 0:
                    started_pids = descendants(root) | {root}
                if done // every > before // every or before < settle <= done or \
                        done >= sessions:
                    sample = sample_memory(done, time.perf_counter() - started, root,
                                           "server")
                    store.write(json.dumps(sample, separators=(",", ":")) + "\n")
                    if done // 100 > before // 100 or done >= sessions:
                        print(f"session {done:>6}: PSS {sample['pss_mib']:7.1f} MiB, server "
                              f"{sample['by_process_mib']['server']['pss_anon']:6.1f} MiB "
                              f"anon, {done / (time.perf_counter() - started):5.2f} "
                              f"sessions/s, load {sample['load_average']:.1f}, "
                              f"{len(failures)} failed", flush=True)

    try:
        threads = [threading.Thread(target=loop) for _ in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        server.stop()
    time.sleep(1.0)  # let the children's exits be reaped
    seconds = time.perf_counter() - started
    return {"server": "finestate serve-env", "sessions": done, "clients": clients,
            "max_sessions": max_sessions, "every": every,
            **judged_run(store, settle, RENEW_EVERY), "failures": failures,
            "processes_left": sorted(alive(started_pids)),
            "seconds": round(seconds, 1), "sessions_per_s": round(done / seconds, 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=10_000,
                        help="sessions opened and closed (default 10,000, the issue's)")
    parser.add_argument("--clients", type=int, default=1,
                        help="sessions at once (default 1: one after another)")
    parser.add_argument("--max-sessions", type=int, default=2,
                        help="the server's bound: small, so that a page not freed blocks")
    parser.add_argument("--every", type=int, default=25, help="sessions between samples")
    parser.add_argument("--settle", type=int, default=None,
                        help=f"the warm-up (default {SETTLE} sessions, at most the run)")
    parser.add_argument("--out", default="openenv-soak.json")
    args = parser.parse_args(argv)
    settle = min(SETTLE, args.sessions) if args.settle is None else args.settle
    if not 0 < settle <= args.sessions or args.clients < 1 or args.every < 1:
        parser.error("--sessions, --clients and --every must be at least 1, and --settle "
                     "within the run")
    if args.clients > args.max_sessions:
        parser.error("--clients above --max-sessions would be refused (CAPACITY_REACHED)")
    report = soak(args.sessions, args.every, settle, args.clients, args.max_sessions)
    write(report, Path(args.out))
    print(table(report).replace("KiB/ep", "KiB/se"))
    print(f"{report['sessions']} sessions in {report['seconds']} s "
          f"({report['sessions_per_s']} a second), {len(report['failures'])} failed, "
          f"{len(report['processes_left'])} processes left; {args.out}")
    ok = passed(report)
    if not ok:
        print("FAILED: " + json.dumps({"failures": report["failures"][:5],
                                       "processes_left": report["processes_left"]}),
              file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
