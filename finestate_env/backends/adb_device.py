"""One Android device through an adb server (adbutils), for both adb backends.

The browser backend (adb.py) and the native-views backend (adb_native.py) talk
to a device the same way: connect with bounded retries, check that its screen
is the env's viewport and upright, turn animations off, run shell commands with
a timeout, inject `input tap` / `input swipe`, capture `screencap -p`, push
files over the sync service. Every failure is an AdbBackendError that names
the call and the device: no hang on an offline device.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspng

from finestate_env.backends.base import BackendCrashed
from finestate_env.core.extras import require

# How a swipe is timed: long enough for every move to be seen, short enough
# not to become a long press before it moves.
SWIPE_MS = 300
ANIMATION_SETTINGS = ("window_animation_scale", "transition_animation_scale",
                      "animator_duration_scale")


class AdbBackendError(BackendCrashed):
    """The device, the adb server or what renders on it failed; the message says which and how.

    A BackendCrashed, so that the env reports it in a step's `action_error` and
    replay retries once, as for a browser that died: the next render reconnects.
    """


class AdbDevice:
    """A connected device: shell, input, screen capture and file push, each bounded."""

    def __init__(self, serial: str | None = None, adb_host: str = "127.0.0.1",
                 adb_port: int = 5037, timeout_s: float = 20.0, retries: int = 2) -> None:
        self.serial = serial
        self.adb_host, self.adb_port = adb_host, int(adb_port)
        self.timeout_s = float(timeout_s)
        self.retries = int(retries)
        self.device: Any = None  # adbutils.AdbDevice once connected

    # -- connection --------------------------------------------------------
    def connect(self) -> None:
        adbutils = require("adbutils", "android", "the adb backend")

        client = adbutils.AdbClient(host=self.adb_host, port=self.adb_port,
                                    socket_timeout=self.timeout_s)
        where = f"adb server {self.adb_host}:{self.adb_port}"
        last = "no device"
        for attempt in range(self.retries + 1):
            try:
                devices = client.device_list()
            except Exception as exc:  # noqa: BLE001
                last = f"cannot reach the {where}: {exc}"
            else:
                serials = [d.serial for d in devices]
                if self.serial is None and len(serials) == 1:
                    self.serial = serials[0]
                if self.serial in serials:
                    device = client.device(self.serial)
                    state = self.call("get-state", device.get_state)
                    if state == "device":
                        self.device = device
                        return
                    last = f"device {self.serial!r} is {state!r}, not 'device' (online)"
                elif self.serial is None:
                    last = (f"{len(serials)} devices on the {where} ({serials}): "
                            "pass backend_options={'serial': ...}")
                else:
                    last = f"device {self.serial!r} is not on the {where} (has {serials})"
            if attempt < self.retries:
                time.sleep(0.5 * (attempt + 1))
        raise AdbBackendError(f"{last} (after {self.retries + 1} attempts)")

    @property
    def connected(self) -> bool:
        return self.device is not None

    def disconnect(self) -> None:
        self.device = None

    def check_screen(self, viewport: tuple[int, int]) -> None:
        """The screen must be `viewport` pixels and upright; animations go off."""
        size = self.shell("wm size")
        physical = override = None
        for line in size.splitlines():
            if ":" in line:
                name, value = line.split(":", 1)
                width, _, height = value.strip().partition("x")
                if width.isdigit() and height.isdigit():
                    if "Override" in name:
                        override = (int(width), int(height))
                    else:
                        physical = (int(width), int(height))
        screen = override or physical
        if screen is None:
            raise AdbBackendError(f"device {self.serial!r}: cannot read `wm size`: {size!r}")
        found = re.search(r"orientation=(\d+)", self.shell("dumpsys display"))
        orientation = int(found.group(1)) if found else None
        if orientation not in (0, 2):
            raise AdbBackendError(f"device {self.serial!r} is in orientation {orientation}, "
                                  "not portrait: turn auto-rotate off and hold it upright")
        if screen != tuple(viewport):
            raise AdbBackendError(
                f"device {self.serial!r} has a {screen[0]}x{screen[1]} screen; make the env "
                f"with viewport='{screen[0]}x{screen[1]}' (it is {viewport[0]}x{viewport[1]})")
        for name in ANIMATION_SETTINGS:  # a screenshot must show the settled state
            self.shell(f"settings put global {name} 0")

    def density(self) -> int:
        """The screen's density in dpi (`wm density`; an override wins), 160 = 1 px per dp."""
        out = self.shell("wm density")
        values = dict(re.findall(r"(Physical|Override) density: (\d+)", out))
        value = values.get("Override") or values.get("Physical")
        if value is None:
            raise AdbBackendError(f"device {self.serial!r}: cannot read `wm density`: {out!r}")
        return int(value)

    def has_package(self, package: str) -> bool:
        return self.shell(f"pm path {package}").strip().startswith("package:")

    # -- calls -------------------------------------------------------------
    def call(self, what: str, fn):
        """An adb call with bounded retries; the error names the call and the device."""
        last: Exception | None = None
        for attempt in range(self.retries + 1):
            try:
                return fn()
            except Exception as exc:  # noqa: BLE001 (adbutils raises several kinds)
                last = exc
                if attempt < self.retries:
                    time.sleep(0.2 * (attempt + 1))
        raise AdbBackendError(f"`{what}` failed on device {self.serial!r} after "
                              f"{self.retries + 1} attempts: {last}") from last

    def shell(self, command: str, binary: bool = False):
        if self.device is None:
            raise AdbBackendError(f"device {self.serial!r} is not connected")
        return self.call(command, lambda: self.device.shell(
            command, timeout=self.timeout_s, encoding=None if binary else "utf-8"))

    def push(self, local: Path, remote: str) -> None:
        """Copy a file to the device over the sync service, checking the size it got."""
        self.call(f"push {local} {remote}",
                  lambda: self.device.sync.push(Path(local), remote, mode=0o644, check=True))

    # -- input and screen --------------------------------------------------
    def tap(self, point: tuple[float, float]) -> None:
        self.shell(f"input tap {point[0]:.2f} {point[1]:.2f}")

    def swipe(self, start: tuple[float, float], end: tuple[float, float],
              ms: int = SWIPE_MS) -> None:
        self.shell(f"input swipe {start[0]:.2f} {start[1]:.2f} {end[0]:.2f} {end[1]:.2f} {ms}")

    def screencap(self, viewport: tuple[int, int]) -> np.ndarray:
        """The whole screen as uint8 RGB, checked to be `viewport` pixels."""
        png = self.shell("screencap -p", binary=True)
        if not png.startswith(b"\x89PNG"):
            raise AdbBackendError(f"`screencap -p` on device {self.serial!r} gave no PNG "
                                  f"({len(png)} bytes starting {png[:16]!r})")
        image = pyspng.load(png)
        if image.shape[:2] != (viewport[1], viewport[0]):
            raise AdbBackendError(f"the screenshot is {image.shape[1]}x{image.shape[0]}, the "
                                  f"screen {viewport[0]}x{viewport[1]}: did it rotate?")
        return np.ascontiguousarray(image[:, :, :3])
