"""Where a web episode's CPU goes, and a capture path the env does not take, measured
(outside the suite): DevTools' screencast, synced exactly by a marker row below the
observation.

Three ways to take the same episodes' observations, alternated in blocks per type:
- `cdp`: `Page.captureScreenshot`, what the env does. Chromium redraws the whole frame
  for it, hands the bitmap to the browser, which encodes a PNG that the env decodes.
- `none`: no capture at all (each observation is a kept array). What is left is the
  render, the gesture and the read-back: the floor that any capture path adds to.
- `screencast`: `Page.startScreencast` sends a PNG of frames Chromium draws anyway.
  Which frame holds the page's last change is what a frame sync must know. Here the
  viewport is one CSS px taller than the observation, and the page paints a counter
  into that extra row in the same task as the change; a frame whose row reads the
  counter holds every change made before it (a frame is one commit of the page's main
  thread), and that row is cut off. `--check` also takes a CDP capture after every
  screencast observation and counts the ones that differ (its CPU and wall figures then
  include those captures).

Every path runs on the taller viewport, so all three lay out the same page; the env's
own pages are laid out for 1280x720, so pixels are not compared with the env's.

    python tests/support/screencast_capture_probe.py [--episodes 10] [--rounds 3] [--check]
        [--scene page] [--out FILE] [TYPE ...]
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import statistics
import time

import gymnasium as gym
import numpy as np
import pyspng
from websockets.sync.client import connect

import finestate_env  # noqa: F401 (registers the ids)
from benchmarks.peer_worker import tree_cpu_ms
from finestate_env.agents.scripted import OracleAgent
from finestate_env.components import COMPONENTS

WIDTH, HEIGHT = 1280, 720
MARKER_WIDTH = 64
MARKER_BLUE = 77  # the counter's row: (n % 256, n // 256 % 256, MARKER_BLUE), 64 px wide
PAINT_COUNTER = f"""n => {{
  let row = document.getElementById('fs-probe-counter');
  if (!row) {{
    row = document.createElement('div');
    row.id = 'fs-probe-counter';
    row.style.cssText = 'position:fixed;left:0;top:{HEIGHT}px;width:{MARKER_WIDTH}px;'
      + 'height:1px;z-index:2147483647;pointer-events:none';
    document.documentElement.appendChild(row);
  }}
  row.style.background = `rgb(${{n & 255}},${{(n >> 8) & 255}},{MARKER_BLUE})`;
}}"""
FRAME_WAIT_S = 0.25  # no frame with the counter by then: paint it again (a new frame)


class Screencast:
    """One page's PNG screencast on a DevTools connection of its own."""

    def __init__(self, backend) -> None:
        self.backend = backend
        self._stack = contextlib.ExitStack()
        self.socket = self._stack.enter_context(connect(
            backend._cdp.url, proxy=None, compression=None, ping_interval=None, max_size=None,
            max_queue=None))
        self.counter = 0
        self.frames = 0
        self.repaints = 0
        self._next_id = 0

    def _send(self, method: str, params: dict) -> None:
        self._next_id += 1
        self.socket.send(json.dumps({"id": self._next_id, "method": method, "params": params}))

    def start(self) -> None:
        self._send("Page.startScreencast", {"format": "png", "everyNthFrame": 1})

    def stop(self) -> None:
        self._send("Page.stopScreencast", {})
        while True:  # drain what was sent before the stop
            try:
                self.socket.recv(timeout=0.2)
            except TimeoutError:
                return

    def observation(self) -> np.ndarray:
        self.counter += 1
        self.backend._cdp.call(PAINT_COUNTER, self.counter)
        deadline = time.monotonic() + FRAME_WAIT_S
        while True:
            try:
                wait = max(0.001, deadline - time.monotonic())
                message = json.loads(self.socket.recv(timeout=wait))
            except TimeoutError:
                self.repaints += 1
                self.counter += 1
                self.backend._cdp.call(PAINT_COUNTER, self.counter)
                deadline = time.monotonic() + FRAME_WAIT_S
                continue
            if message.get("method") != "Page.screencastFrame":
                continue
            frame = message["params"]
            self._send("Page.screencastFrameAck", {"sessionId": frame["sessionId"]})
            image = pyspng.load(base64.b64decode(frame["data"]))
            self.frames += 1
            row = image[HEIGHT, :MARKER_WIDTH, :3].astype(int)
            red, green, blue = row[0]
            if blue == MARKER_BLUE and (row == row[0]).all() and red + 256 * green >= self.counter:
                return np.ascontiguousarray(image[:HEIGHT, :, :3])

    def close(self) -> None:
        self._stack.close()


def probe_type(component: str, episodes: int, rounds: int, check: bool, scene: str) -> dict:
    env = gym.make("FineState-Web-v0", component=component, scene=scene,
                   viewport=f"{WIDTH}x{HEIGHT + 1}").unwrapped
    agent = OracleAgent()
    backend = env.backend
    try:
        obs, info = env.reset(seed=99_999)  # warm-up: browser start, first page load
        env.step(agent.act(obs, info))
        cdp_capture = backend.screenshot
        kept = cdp_capture()[:HEIGHT].copy()
        screencast = Screencast(backend)
        captures = {"cdp": lambda: cdp_capture()[:HEIGHT], "none": lambda: kept,
                    "screencast": screencast.observation}
        cpu = {mode: [] for mode in captures}
        wall = {mode: [] for mode in captures}
        seed, stale, compared, frames = 0, 0, 0, 0
        for _ in range(rounds):
            for mode, capture in captures.items():
                backend.screenshot = capture
                if mode == "screencast":
                    screencast.start()
                    frames_before = screencast.frames
                started, cpu_before = time.perf_counter(), tree_cpu_ms(os.getpid())
                checking = check and mode == "screencast"
                for _ in range(episodes):
                    obs, info = env.reset(seed=seed)
                    seed += 1
                    if checking:  # the CDP capture of the same moment
                        compared += 1
                        stale += not np.array_equal(obs["screenshot"], cdp_capture()[:HEIGHT])
                    obs, reward, _, _, _ = env.step(agent.act(obs, info))
                    if checking:
                        compared += 1
                        stale += not np.array_equal(obs["screenshot"], cdp_capture()[:HEIGHT])
                    if reward != 1.0:
                        raise RuntimeError(f"{component} seed {seed - 1}: the oracle failed")
                cpu[mode].append((tree_cpu_ms(os.getpid()) - cpu_before) / episodes)
                wall[mode].append((time.perf_counter() - started) * 1000 / episodes)
                if mode == "screencast":
                    frames += screencast.frames - frames_before
                    screencast.stop()
        screencast.close()
    finally:
        env.close()
    row = {"component": component,
           **{f"{mode}_cpu_ms": round(statistics.median(cpu[mode]), 1) for mode in captures},
           **{f"{mode}_wall_ms": round(statistics.median(wall[mode]), 1) for mode in captures},
           "screencast_frames_per_episode": round(frames / (episodes * rounds), 2),
           "repaints": screencast.repaints}
    if check:
        row["stale"] = f"{stale}/{compared}"
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("types", nargs="*", default=list(COMPONENTS))
    parser.add_argument("--episodes", type=int, default=10, help="per block")
    parser.add_argument("--rounds", type=int, default=3, help="blocks of each path, alternated")
    parser.add_argument("--check", action="store_true",
                        help="compare each screencast observation with a CDP capture")
    parser.add_argument("--scene", default="control", choices=["control", "page"])
    parser.add_argument("--out", help="write the rows as JSON")
    args = parser.parse_args()
    rows = []
    print(f"{'type':16} {'CPU ms: cdp':>12} {'none':>6} {'screencast':>10}   "
          f"{'wall ms: cdp':>12} {'none':>6} {'screencast':>10}  frames/ep")
    for component in args.types:
        row = probe_type(component, args.episodes, args.rounds, args.check, args.scene)
        rows.append(row)
        print(f"{component:16} {row['cdp_cpu_ms']:12.1f} {row['none_cpu_ms']:6.1f} "
              f"{row['screencast_cpu_ms']:10.1f}   {row['cdp_wall_ms']:12.1f} "
              f"{row['none_wall_ms']:6.1f} {row['screencast_wall_ms']:10.1f}  "
              f"{row['screencast_frames_per_episode']:9.2f}  {row.get('stale', '')}", flush=True)
    medians = {key: statistics.median(r[key] for r in rows)
               for key in rows[0] if key.endswith("_ms")}
    print("median over types: " + ", ".join(f"{k} {v:.1f}" for k, v in medians.items()))
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"machine": {"cpus": os.cpu_count(), "load_average": os.getloadavg()},
                       "rows": rows, "medians": medians, "scene": args.scene,
                       "episodes": args.episodes, "rounds": args.rounds}, f, indent=1)


if __name__ == "__main__":
    main()
