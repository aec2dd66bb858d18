"""Native Android views through adb: the project's app (org.finestate.views) on a device.

`FineState-Mobile-v0` with `backend="adb"` and `backend_options={"views": "native"}`.
The app (android/, built by `make android`) shows one control as native Views
and reports its exact state and boxes itself: uiautomator dumps carry no
progress or rating values. Its protocol, which both sides implement:

- render: `am start -W -n org.finestate.views/.MainActivity -a org.finestate.views.RENDER
  --ei seq N --es spec B64`, B64 the standard base64 (with padding) of the UTF-8
  JSON of the instance's LiveSpec; N grows with every render;
- report: `am broadcast -a org.finestate.views.REPORT -p org.finestate.views`,
  which prints `Broadcast completed: result=-1, data="<JSON>"` (not escaped):
  {"seq", "ready", "component", "state", "boxes": {"current", "target"} of
  {"loc", "core", "goal", "now"} in screen pixels with inclusive edges, "error"}.

The backend installs the APK when the device lacks it, checks with a
`uiautomator dump` after every render that the app's window is the one in
front, performs p0/p1 with `input tap` / `input swipe` and captures with
`screencap -p`: the screenshot is the whole screen, and the app measures its
boxes in the same screen pixels, so points pass through unchanged. Lone controls
only: a page scene is a ValueError.

Every adb call is bounded (timeout_s, retries); a device that goes away, an app
that does not answer or answers for another render is an AdbBackendError (a
BackendCrashed: a step reports it in `action_error`).
"""

from __future__ import annotations

import base64
import json
import os
import shlex
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from finestate_env import components
from finestate_env.backends.adb_device import AdbBackendError, AdbDevice
from finestate_env.backends.base import Backend, Measured, Point, Rendered
from finestate_env.core.schema import Boxes, BoxSet, Gesture, LiveSpec

PACKAGE = "org.finestate.views"
ACTIVITY = f"{PACKAGE}/.MainActivity"
RENDER_ACTION = f"{PACKAGE}.RENDER"
REPORT_ACTION = f"{PACKAGE}.REPORT"
APK_ENV = "FINESTATE_VIEWS_APK"
# Beside the repository: what `make android` writes.
DEFAULT_APK = Path(__file__).resolve().parents[2] / "build" / "android" / "finestate-views.apk"
DEVICE_APK = "/data/local/tmp/finestate-views.apk"
DUMP_FILE = "/sdcard/window_dump.xml"
RESULT_OK = -1  # Activity.RESULT_OK: the app's receiver answered
POLL_S = 0.05  # between reports while the app lays out and settles


def default_apk() -> Path:
    return Path(os.environ.get(APK_ENV) or DEFAULT_APK)


def parse_report(output: str) -> dict[str, Any]:
    """The app's JSON from what `am broadcast` printed (ActivityManagerShellCommand's
    IntentReceiver: `Broadcast completed: result=R, data="D"`, D not escaped)."""
    line = next((x for x in output.splitlines() if x.startswith("Broadcast completed:")), None)
    if line is None:
        raise AdbBackendError(f"`am broadcast` printed no result: {output.strip()!r}")
    result = line[len("Broadcast completed: result="):].split(",", 1)[0].strip()
    if result != str(RESULT_OK):
        raise AdbBackendError(
            f"{PACKAGE} did not answer its report (result={result}, expected {RESULT_OK}): "
            f"is the app installed and running? ({line.strip()!r})")
    start = line.find(', data="')
    end = line.rfind('"')
    if start < 0 or end <= start + len(', data="') - 1:
        raise AdbBackendError(f"{PACKAGE}'s report has no data: {line.strip()!r}")
    text = line[start + len(', data="'):end]
    try:
        report = json.loads(text)
    except json.JSONDecodeError as exc:
        raise AdbBackendError(f"{PACKAGE}'s report is not JSON ({exc}): {text[:200]!r}") from exc
    missing = {"seq", "ready", "component", "state", "boxes", "error"} - set(report)
    if missing:
        raise AdbBackendError(f"{PACKAGE}'s report lacks {sorted(missing)}: {text[:200]!r}")
    reach = report.get("reach")
    if reach is not None and (type(reach) is not int or reach < 0):
        raise AdbBackendError(f"{PACKAGE}'s report has reach {reach!r}, expected a whole "
                              f"number of gestures >= 0 or null: {text[:200]!r}")
    return report


def front_package(dump_xml: str) -> str:
    """The package of the window in front, from a uiautomator dump (its first node)."""
    try:
        root = ET.fromstring(dump_xml)
    except ET.ParseError as exc:
        raise AdbBackendError(f"the uiautomator dump is not XML ({exc}): "
                              f"{dump_xml[:200]!r}") from exc
    node = root.find("node")
    if root.tag != "hierarchy" or node is None:
        raise AdbBackendError(f"the uiautomator dump has no window: {dump_xml[:200]!r}")
    return node.get("package", "")


class NativeViewsBackend(Backend):
    platform = "mobile"
    renders_pages = False  # the app shows one control; the env refuses scene="page"

    def __init__(self, viewport: tuple[int, int], serial: str | None = None,
                 adb_host: str = "127.0.0.1", adb_port: int = 5037, timeout_s: float = 20.0,
                 retries: int = 2, apk: str | os.PathLike | None = None,
                 install: str = "missing", check_front: bool = True) -> None:
        if install not in ("missing", "always"):
            raise ValueError(f"install must be 'missing' or 'always', got {install!r}")
        self.viewport = (int(viewport[0]), int(viewport[1]))
        self._device = AdbDevice(serial, adb_host, adb_port, timeout_s, retries)
        self.timeout_s = float(timeout_s)
        self.apk = Path(apk) if apk is not None else default_apk()
        self.install = install
        self.check_front = bool(check_front)
        self.installed_now = False  # whether start() installed the APK
        self._seq = 0
        self._goal: Any = None  # the goal of the last render, which the app measures for
        self._layout: tuple[int, int] | None = None

    @property
    def serial(self) -> str | None:
        return self._device.serial

    # -- lifecycle ---------------------------------------------------------
    def start(self) -> None:
        if self._device.connected:
            return
        try:
            self._device.connect()
            self._device.check_screen(self.viewport)
            dpi = self._device.density()
            # The app lays controls out in dp; they are sampled for the screen in dp.
            self._layout = (round(self.viewport[0] * 160 / dpi),
                            round(self.viewport[1] * 160 / dpi))
            if self.install == "always" or not self._device.has_package(PACKAGE):
                self._install()
        except BaseException:
            self._device.disconnect()
            raise

    def close(self) -> None:
        self._device.disconnect()

    @property
    def layout_viewport(self) -> tuple[int, int]:
        """The screen in dp (`wm size` x 160 / `wm density`), for sampling (starts the backend)."""
        self.start()
        return self._layout

    def _install(self) -> None:
        if not self.apk.is_file():
            raise FileNotFoundError(
                f"the app's APK {str(self.apk)!r} does not exist: `make android` builds it "
                f"(or pass backend_options={{'apk': PATH}} or set {APK_ENV})")
        self._device.push(self.apk, DEVICE_APK)
        out = self._device.shell(f"pm install -r -t {DEVICE_APK}")
        self._device.shell(f"rm -f {DEVICE_APK}")
        if "Success" not in out:
            raise AdbBackendError(f"`pm install` of {self.apk} on device {self.serial!r} "
                                  f"failed: {out.strip()!r}")
        if not self._device.has_package(PACKAGE):
            raise AdbBackendError(f"`pm install` said Success but device {self.serial!r} "
                                  f"has no {PACKAGE}")
        self.installed_now = True

    def _lost(self, exc: AdbBackendError) -> AdbBackendError:
        # Reconnect on the next render: the device may be back by then.
        self._device.disconnect()
        return exc

    # -- the app's protocol ------------------------------------------------
    def _show(self, spec: LiveSpec, check_front: bool = True) -> dict[str, Any]:
        """Render `spec` in the app and wait for its settled report."""
        if spec.scene is not None:
            raise ValueError(f"native views render lone controls only (scene 'control'); "
                             f"this {spec.component!r} instance has a page scene")
        route = components.COMPONENTS[spec.component].oracle_actions(
            spec.params, spec.current_state, spec.goal_state) \
            if spec.component in components.COMPONENTS else 1
        self.start()
        self._seq += 1
        payload = base64.b64encode(spec.model_dump_json().encode("utf-8")).decode("ascii")
        try:
            out = self._device.shell(
                f"am start -W -n {ACTIVITY} -a {RENDER_ACTION} --ei seq {self._seq} "
                f"--es spec {shlex.quote(payload)}")
            if "Status: ok" not in out or "Error" in out:
                raise AdbBackendError(f"`am start` of {ACTIVITY} on device {self.serial!r} "
                                      f"failed: {out.strip()!r}")
            report = self._report(settle=True)
            if self.check_front and check_front:
                self._check_front()
        except AdbBackendError as exc:
            raise self._lost(exc) from exc
        if report["component"] != spec.component:
            raise AdbBackendError(f"{PACKAGE} shows {report['component']!r}, "
                                  f"not {spec.component!r}")
        if route > 1 and report.get("reach") is None:
            # Mid-route, the screen's distance to the goal (Measured.reach) comes from the app;
            # judged by the state alone, a miss on the way would count as exact.
            raise ValueError(f"native views cannot show a goal {route} gestures away "
                             f"({spec.component!r}): the app on device {self.serial!r} reports "
                             "no reach (a build from before its report carried it): rebuild it "
                             "with `make android` and install it with backend_options "
                             "{'install': 'always'}, or make the env with max_actions=1")
        self._goal = spec.goal_state
        return report

    def _report(self, settle: bool) -> dict[str, Any]:
        """The app's report for the last render, polled until it is ready (bounded).

        `settle`: right after `am start`, whose -W may return before the app took the
        new intent (delivered to the running activity), a report of an earlier render
        (its state, its error) means "not yet", not a failure.
        """
        deadline = time.monotonic() + self.timeout_s
        while True:
            report = parse_report(self._device.shell(
                f"am broadcast -a {REPORT_ACTION} -p {PACKAGE}"))
            seq = report["seq"]
            early = settle and isinstance(seq, int) and seq < self._seq
            if not early:
                if seq != self._seq:
                    raise AdbBackendError(f"{PACKAGE} reports render {seq!r}, not the last one "
                                          f"({self._seq}): another client drove the app?")
                if report["error"] is not None:
                    raise AdbBackendError(f"{PACKAGE} failed render {seq}: {report['error']}")
                if report["ready"] is True:
                    return report
            if time.monotonic() > deadline:
                why = (f"still reports render {seq} (stale)" if early
                       else "never reported ready")
                raise AdbBackendError(f"{PACKAGE} on device {self.serial!r} {why} within "
                                      f"{self.timeout_s:g} s of render {self._seq}")
            time.sleep(POLL_S)

    def _check_front(self) -> None:
        out = self._device.shell(f"uiautomator dump {DUMP_FILE}")
        if "UI hierchary dumped to:" not in out:  # AOSP's DumpCommand, typo included
            raise AdbBackendError(f"`uiautomator dump` on device {self.serial!r} failed: "
                                  f"{out.strip()!r}")
        front = front_package(self._device.shell(f"cat {DUMP_FILE}"))
        if front != PACKAGE:
            raise AdbBackendError(
                f"the window in front on device {self.serial!r} is {front!r}, not {PACKAGE}: "
                "unlock the screen and close what covers the app")

    # -- the interface -----------------------------------------------------
    def render(self, spec: LiveSpec) -> Rendered:
        report = self._show(spec)
        boxes = report["boxes"]
        return Rendered(boxes=BoxSet(current=Boxes(**boxes["current"]),
                                     target=Boxes(**boxes["target"])),
                        state=report["state"])

    def screenshot(self) -> np.ndarray:
        self.start()
        try:
            return self._device.screencap(self.viewport)
        except AdbBackendError as exc:
            raise self._lost(exc) from exc

    def perform(self, gesture: Gesture, p0: tuple[float, float], p1: tuple[float, float]) -> None:
        # A finger has no hover: a tap touches p1 only (as MobileBackend).
        if gesture not in ("tap", "drag"):
            raise ValueError(f"unknown gesture {gesture!r}; expected 'tap' or 'drag'")
        self.start()
        try:
            if gesture == "tap":
                self._device.tap(p1)
            else:
                self._device.swipe(p0, p1)
        except AdbBackendError as exc:
            raise self._lost(exc) from exc

    def read_state(self) -> Any:
        self.start()
        try:
            return self._report(settle=False)["state"]
        except AdbBackendError as exc:
            raise self._lost(exc) from exc

    def measure(self, goal: Any) -> Measured:
        # The app measures its boxes and the goal's reach from the views at every report,
        # for the rendered goal (reach null for a type whose every goal is one gesture away).
        if goal != self._goal:
            raise ValueError(f"the app measures for the goal it was rendered with "
                             f"({self._goal!r}), not {goal!r}")
        self.start()
        try:
            report = self._report(settle=False)
        except AdbBackendError as exc:
            raise self._lost(exc) from exc
        return Measured(boxes=Boxes(**report["boxes"]["current"]), reach=report.get("reach"))

    def probe(self, spec: LiveSpec, gesture: Gesture,
              pairs: Sequence[tuple[Point, Point]]) -> list[Any]:
        # As Backend.probe (a fresh render before each gesture), but the window in front is
        # checked once: a `uiautomator dump` takes a second or more on a device.
        states = []
        for index, (p0, p1) in enumerate(pairs):
            self._show(spec, check_front=index == 0)
            self.perform(gesture, p0, p1)
            states.append(self.read_state())
        self._show(spec, check_front=False)
        return states

    def __repr__(self) -> str:
        return (f"NativeViewsBackend(serial={self.serial!r}, viewport={self.viewport!r}, "
                f"apk={str(self.apk)!r})")
