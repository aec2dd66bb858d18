"""One timed run of N concurrent OpenEnv sessions against a running server (openenv_bench.py
runs it), with OpenEnv's own `GenericEnvClient` over WebSocket, the same for every server.

Run as a script by an interpreter that has `openenv` (the bench picks one), so that it
imports only the standard library and openenv: the servers under test live in venvs of
their own. It prints one JSON line.

    python openenv_bench_client.py --url http://127.0.0.1:8000 --server-pid PID \
        --sessions 4 --seconds 10 --jobs jobs.json

`--jobs`: a JSON list, one entry per session (cycled when shorter than --sessions):
`{"reset": {...}, "actions": [{...}, ...]}`; the session resets with `reset` as keyword
arguments, then steps through `actions` in a loop (resetting again whenever an
observation says done). An action `{"click_first": "checkbox"}` is BrowserGym's: it becomes
`click('<bid>')` on the first checkbox of the reset observation's accessibility tree; an
action `{"oracle": "click"}` or `{"oracle": "drag"}` is finestate's: the session's state
(OpenEnv's WS `state`) gives the target's boxes; "click" clicks the centre of its "goal"
box at every step (a checkbox toggles to the goal and back), "drag" alternates the drag
from the "now" box to the "goal" box and the drag back: every step changes the screen.

Measured: the N resets (latency, wall), the server's memory (PSS of its process tree,
browsers included) idle and with the N sessions open, then for --seconds all N sessions
stepping at once (steps in flight at the end finish and count): steps, wall, the
server tree's CPU (user + system, browsers included), this client's CPU, each step's
latency, and each observation's size: the JSON text the client decodes (`payload`) and
the bytes its socket received for it (`wire`: after permessage-deflate, which both
OpenEnv's client and uvicorn's server negotiate by default).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import re
import statistics
import sys
import time
from pathlib import Path

from openenv.core.generic_client import GenericEnvClient

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from peer_worker import tree_cpu_ms  # noqa: E402 (standard library only)


def _processes():
    """finestate_env/backends/processes.py by file (it imports only `os`): the PSS reader,
    without the package, which this interpreter need not have."""
    path = HERE.parent / "finestate_env" / "backends" / "processes.py"
    spec = importlib.util.spec_from_file_location("_finestate_processes", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


tree_memory_mib = _processes().tree_memory_mib


class CountingClient(GenericEnvClient):
    """GenericEnvClient that counts the bytes its socket receives, and the JSON text."""

    wire_bytes = 0
    payload_bytes = 0

    async def _connect_async(self):
        await super()._connect_async()
        ws = self._ws
        if not getattr(ws, "_bench_counted", False):
            protocol, client = ws.protocol, self
            receive_data, recv = protocol.receive_data, ws.recv

            def counted_data(data: bytes):
                client.wire_bytes += len(data)
                return receive_data(data)

            async def counted_recv(*args, **kwargs):
                raw = await recv(*args, **kwargs)
                client.payload_bytes += len(raw.encode() if isinstance(raw, str) else raw)
                return raw

            protocol.receive_data, ws.recv = counted_data, counted_recv
            ws._bench_counted = True
            client.compression = [type(e).__name__ for e in protocol.extensions]
        return self


CHECKBOX = re.compile(r"\[([^\]]+)\] checkbox ")


def center(box: list[float]) -> list[float]:
    return [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2]


async def concrete(actions: list[dict], observation: dict, client) -> list[dict]:
    """`actions` with BrowserGym's `click_first` resolved against `observation`, and
    finestate's `oracle` against the session's state."""
    out = []
    for action in actions:
        if "click_first" in action:
            match = CHECKBOX.search(observation.get("axtree_txt") or observation.get("text", ""))
            if match is None:
                raise SystemExit(f"no {action['click_first']} in the observation's tree")
            out.append({"action_str": f"click('{match.group(1)}')"})
        elif "oracle" in action:
            boxes = (await client.state())["boxes"]["current"]
            p0, p1 = center(boxes["now"]), center(boxes["goal"])
            if action["oracle"] == "click":  # the goal's spot, clicked again and again
                out.append({"p0": p1, "p1": p1})
            else:
                out += [{"p0": p0, "p1": p1}, {"p0": p1, "p1": p0}]
        else:
            out.append(action)
    return out


def observation_error(result) -> str:
    """What the server's observation says went wrong with the action ('' if nothing)."""
    obs = result.observation
    return str(obs.get("error") or obs.get("last_action_error") or obs.get("action_error")
               or "")


async def run(url: str, server_pid: int, sessions: int, seconds: float,
              jobs: list[dict]) -> dict:
    jobs = [jobs[i % len(jobs)] for i in range(sessions)]
    idle = tree_memory_mib(server_pid)
    clients = [CountingClient(base_url=url, message_timeout_s=600.0) for _ in jobs]
    for client in clients:
        await client.connect()

    reset_ms: list[float] = []

    async def reset(index: int):
        started = time.perf_counter()
        result = await clients[index].reset(**jobs[index]["reset"])
        reset_ms.append((time.perf_counter() - started) * 1000)
        return result

    cpu0, wall0 = tree_cpu_ms(server_pid), time.perf_counter()
    first = await asyncio.gather(*(reset(i) for i in range(sessions)))
    resets_cpu, resets_wall = tree_cpu_ms(server_pid) - cpu0, time.perf_counter() - wall0
    reset_payload = statistics.mean(c.payload_bytes for c in clients)
    actions = [await concrete(job["actions"], result.observation, client)
               for job, result, client in zip(jobs, first, clients, strict=True)]
    opened = tree_memory_mib(server_pid)
    for client in clients:
        client.wire_bytes = client.payload_bytes = 0

    stop = asyncio.Event()
    latencies: list[float] = []
    errors: list[str] = []
    counts = {"steps": 0, "resets": 0, "done": 0}

    async def drive(index: int) -> None:
        client, k = clients[index], 0
        while not stop.is_set():
            started = time.perf_counter()
            result = await client.step(actions[index][k % len(actions[index])])
            latencies.append((time.perf_counter() - started) * 1000)
            counts["steps"] += 1
            k += 1
            if error := observation_error(result):
                errors.append(error)
            if result.done:
                counts["done"] += 1
                wire, payload = client.wire_bytes, client.payload_bytes
                await client.reset(**jobs[index]["reset"])
                client.wire_bytes, client.payload_bytes = wire, payload  # steps only
                counts["resets"] += 1

    cpu0, client0 = tree_cpu_ms(server_pid), time.process_time()
    wall0 = time.perf_counter()
    tasks = [asyncio.create_task(drive(i)) for i in range(sessions)]
    await asyncio.sleep(seconds)
    stop.set()
    await asyncio.gather(*tasks)
    wall = time.perf_counter() - wall0
    cpu = tree_cpu_ms(server_pid) - cpu0
    client_cpu = (time.process_time() - client0) * 1000
    steps = counts["steps"]
    for client in clients:
        await client.close()
    return {
        "sessions": sessions, "seconds": seconds, "steps": steps, "wall_s": wall,
        "steps_per_s": steps / wall,
        "cpu_ms_per_step": cpu / steps,  # the server's process tree
        "server_cores": cpu / 1000 / wall,
        "client_cpu_ms_per_step": client_cpu / steps,
        "step_ms_p50": statistics.median(latencies),
        "step_ms_p99": statistics.quantiles(latencies, n=100)[98] if steps > 1 else latencies[0],
        "payload_bytes_per_obs": sum(c.payload_bytes for c in clients) / steps,
        "wire_bytes_per_obs": sum(c.wire_bytes for c in clients) / steps,
        "compression": clients[0].compression,
        "resets_in_window": counts["resets"], "done_in_window": counts["done"],
        "errors": len(errors), "first_error": errors[0] if errors else None,
        "reset_ms_p50": statistics.median(reset_ms), "resets_wall_s": resets_wall,
        "cpu_ms_per_reset": resets_cpu / sessions, "reset_payload_bytes": reset_payload,
        "pss_idle_mib": idle["pss"], "pss_open_mib": opened["pss"],
        "pss_per_session_mib": (opened["pss"] - idle["pss"]) / sessions,
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--server-pid", type=int, required=True)
    parser.add_argument("--sessions", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--jobs", type=Path, required=True)
    args = parser.parse_args(argv)
    jobs = json.loads(args.jobs.read_text())
    print(json.dumps(asyncio.run(run(args.url, args.server_pid, args.sessions, args.seconds,
                                     jobs))), flush=True)


if __name__ == "__main__":
    main()
