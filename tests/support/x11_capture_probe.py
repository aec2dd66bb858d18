"""A capture path the env does not take, measured (outside the suite): headful Chromium in Xvfb,
each observation read straight from Xvfb's framebuffer instead of CDP's captureScreenshot.

Why (docs/figures.md): a web episode's two CDP captures are ~45 ms of its CPU. Chromium's
GPU process redraws the whole frame for a copy request, hands the bitmap to the browser,
which encodes a PNG that the env decodes again. Drawn into an X window, a frame is only
its damaged part, and Xvfb keeps the screen in a file (`-fbdir`) that numpy maps.

What is missing before the env could take it: an exact frame sync. Chromium's presentation
callback (`chrome.gpuBenchmarking.addSwapCompletionEventListener`, behind
--enable-gpu-benchmarking) is no promise that the frame holding the page's last change is
on the screen (docs/figures.md: a few in a thousand observations were earlier frames). `--sync`
picks what the probe waits for before it reads the screen: `once` (one callback), `xsync`
(one callback, then an X round trip of ours), `twice` (two callbacks, then the round trip).

Per type it prints episodes/s and CPU per episode (the whole process tree, Xvfb included)
for both paths, and how many of the 2 x EPISODES observations (reset and step) are byte
for byte those of the CDP path.

    python tests/support/x11_capture_probe.py [--episodes N] [--sync twice] [--scene page] [TYPE]
"""

from __future__ import annotations

import argparse
import hashlib
import mmap
import os
import shutil
import subprocess
import sys
import tempfile
import time

import gymnasium as gym
import numpy as np

import finestate_env  # noqa: F401 (registers the ids)
from benchmarks.peer_worker import tree_cpu_ms
from finestate_env.agents.scripted import OracleAgent
from finestate_env.backends import chromium, web
from finestate_env.components import COMPONENTS

SCREEN = (1600, 1100)  # one 1280x720 page below Chromium's toolbar
SWAP = "new Promise(r => chrome.gpuBenchmarking.addSwapCompletionEventListener(() => r(1)))"
MARKER = (1, 2, 3)  # a colour no control uses: finds the page's origin on the screen


class XvfbScreen:
    """An Xvfb whose screen is a file, mapped as a numpy array (rows, columns, BGRX)."""

    def __init__(self) -> None:
        from Xlib.display import Display
        self.dir = tempfile.mkdtemp(prefix="finestate-x11-probe-")
        read_fd, write_fd = os.pipe()
        self.process = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24",
             "-fbdir", self.dir, "-nocursor", "-nolisten", "tcp"],
            pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write_fd)
        number = b""
        while not number.endswith(b"\n"):  # the server is ready once the line ends
            chunk = os.read(read_fd, 16)
            if not chunk:
                raise RuntimeError("Xvfb exited before naming its display")
            number += chunk
        os.close(read_fd)
        self.display = f":{int(number)}"
        with open(os.path.join(self.dir, "Xvfb_screen0"), "rb") as f:
            self._map = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        header = np.frombuffer(self._map, dtype=">u4", count=25)  # XWD: big-endian words
        offset = int(header[0]) + int(header[19]) * 12  # header, then the colour map
        row_bytes = int(header[12])
        self.pixels = np.frombuffer(self._map, dtype=np.uint8, count=row_bytes * SCREEN[1],
                                    offset=offset).reshape(SCREEN[1], row_bytes // 4, 4)
        self.x = Display(self.display)

    def rgb(self, left: int, top: int, width: int, height: int) -> np.ndarray:
        return np.ascontiguousarray(self.pixels[top:top + height, left:left + width, 2::-1])

    def close(self) -> None:
        self.x.close()
        self.process.terminate()
        self.process.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def run(component: str, episodes: int, scene: str, screen: XvfbScreen | None,
        sync: str, without: list[str]) -> tuple[float, float, list[str]]:
    """Episodes/s, CPU ms per episode and the observations' hashes of one type on one path."""
    web.LAUNCH_ARGS = chromium.LAUNCH_ARGS if screen is None else (
        *(flag for flag in chromium.LAUNCH_ARGS if flag not in without),
        "--enable-gpu-benchmarking", "--test-type",  # no infobar
        "--window-position=0,0", f"--window-size={SCREEN[0]},{SCREEN[1]}")
    env = gym.make("FineState-Web-v0", component=component, scene=scene).unwrapped
    backend, agent = env.backend, OracleAgent()
    if screen is not None:
        backend.headless, backend.chromium = False, chromium.DEBIAN_BINARY
        origin: list[int] = []

        def read_screen() -> np.ndarray:
            if not origin:
                origin.extend(find_page(backend, screen))
            for _ in range(2 if sync == "twice" else 1):
                backend._cdp.evaluate(SWAP)
            if sync != "once":
                screen.x.sync()
            return screen.rgb(origin[0], origin[1], *backend.viewport)

        backend.screenshot = read_screen
    try:
        obs, info = env.reset(seed=10_000)  # start-up outside the timing
        env.step(agent.act(obs, info))
        hashes, started, cpu = [], time.perf_counter(), tree_cpu_ms(os.getpid())
        for seed in range(episodes):
            obs, info = env.reset(seed=seed)
            hashes.append(hashlib.sha256(obs["screenshot"].tobytes()).hexdigest())
            obs, *_ = env.step(agent.act(obs, info))
            hashes.append(hashlib.sha256(obs["screenshot"].tobytes()).hexdigest())
        elapsed, cpu = time.perf_counter() - started, tree_cpu_ms(os.getpid()) - cpu
    finally:
        env.close()
    return episodes / elapsed, cpu / episodes, hashes


def find_page(backend, screen: XvfbScreen) -> tuple[int, int]:
    """Where the page's top-left pixel is on the screen: under a marker overlay, once."""
    backend._cdp.evaluate(
        "(() => { const d = document.createElement('div'); d.id = 'x11-probe-marker';"
        f" d.style.cssText = 'position:fixed;inset:0;z-index:2147483647;background:rgb{MARKER}';"
        " document.body.append(d); })()")
    backend._cdp.evaluate(SWAP)
    backend._cdp.evaluate(SWAP)
    screen.x.sync()
    hits = np.argwhere((screen.pixels[:, :, 2::-1] == MARKER).all(axis=2))
    backend._cdp.evaluate("document.getElementById('x11-probe-marker').remove()")
    if not len(hits):
        raise RuntimeError("the page's marker is nowhere on the X screen")
    top, left = hits.min(axis=0)
    return int(left), int(top)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("types", nargs="*", default=list(COMPONENTS))
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--sync", choices=["once", "xsync", "twice"], default="twice")
    parser.add_argument("--scene", choices=["control", "page"], default="control")
    parser.add_argument("--without", action="append", default=[], metavar="FLAG",
                        help="leave this one of the env's Chromium flags out of the X11 path")
    args = parser.parse_args()
    screen = XvfbScreen()
    os.environ["DISPLAY"] = screen.display  # the headful Chromium's; the CDP path ignores it
    print(f"{'type':16} {'CDP eps/s':>10} {'CPU ms':>7} {'X11 eps/s':>10} {'CPU ms':>7} "
          f"{'same pixels':>12}", flush=True)
    same_total = 0
    try:
        for component in args.types:
            cdp = run(component, args.episodes, args.scene, None, args.sync, args.without)
            x11 = run(component, args.episodes, args.scene, screen, args.sync, args.without)
            same = sum(a == b for a, b in zip(cdp[2], x11[2], strict=True))
            same_total += same
            print(f"{component:16} {cdp[0]:10.1f} {cdp[1]:7.1f} {x11[0]:10.1f} {x11[1]:7.1f} "
                  f"{same:>5}/{len(cdp[2])}", flush=True)
    finally:
        screen.close()
    total = 2 * args.episodes * len(args.types)
    print(f"same pixels: {same_total}/{total} (sync {args.sync}, scene {args.scene})")
    return 0 if same_total == total else 1


if __name__ == "__main__":
    sys.exit(main())
