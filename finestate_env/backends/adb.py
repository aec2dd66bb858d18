"""The adb backend: the HTML controls in a real Android device's browser, operated by `input`.

For a device or emulator reachable through an adb server (adbutils). The
backend serves the stage page from a small local HTTP server, makes it reachable
on the device with `adb reverse`, and opens it in the device's browser
(`am start -a android.intent.action.VIEW`). There is no debugging protocol to
the page, so the page itself asks the backend for work over that same HTTP
connection and posts the results back (widgets/web/adb/driver.js): the boxes
it measured and the state the control reports.

Frames: the screenshot is the device's whole screen (`screencap -p`), status
and address bars included. Once per start the page paints itself a solid
colour, the backend finds that rectangle in a screenshot, and the page is told
its offset and scale on the screen (FineState.setFrame): from then on it
measures every box in screen pixels, and `input tap X Y` / `input swipe` take
the agent's points unchanged.

Every adb call and every page command has a timeout and bounded retries, and
fails with an AdbBackendError that says what was wrong: no hang on an offline
device, a missing browser or a page that stopped answering.
"""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np

from finestate_env.backends.adb_device import AdbBackendError, AdbDevice
from finestate_env.backends.base import Backend, Measured, Point, Rendered
from finestate_env.backends.web import CONTENT_TYPES, STAGE_CSP, WEB_ROOT, stage_html
from finestate_env.core.schema import Boxes, Gesture, LiveSpec

BROWSER = "com.android.chrome"
CALIBRATION_RGB = (255, 0, 255)


class AdbBackend(Backend):
    platform = "mobile"

    def __init__(self, viewport: tuple[int, int], serial: str | None = None,
                 adb_host: str = "127.0.0.1", adb_port: int = 5037, browser: str = BROWSER,
                 timeout_s: float = 20.0, retries: int = 2, page_port: int = 0) -> None:
        self.viewport = (int(viewport[0]), int(viewport[1]))
        self._device = AdbDevice(serial, adb_host, adb_port, timeout_s, retries)
        self.browser = browser
        self.timeout_s = float(timeout_s)
        self.page_port = int(page_port)
        self.device = None
        self._server: ThreadingHTTPServer | None = None
        self._commands: queue.Queue = queue.Queue()
        self._results: dict[int, dict] = {}
        self._result_ready = threading.Condition()
        self._next_id = 0
        self._layout: tuple[int, int] | None = None
        self.frame: tuple[float, int, int] | None = None  # scale, offset x, offset y

    # -- lifecycle ---------------------------------------------------------
    def start(self) -> None:
        if self.frame is not None:
            return
        try:
            self._device.connect()
            self.device = self._device.device
            self._check_device()
            self._start_server()
            port = self._server.server_address[1]
            self._device.call(f"adb reverse tcp:{port}", lambda: self.device.reverse(
                f"tcp:{port}", f"tcp:{port}"))
            url = f"http://127.0.0.1:{port}/stage.html"
            self._shell(f"am start -a android.intent.action.VIEW -d {url} -p {self.browser}")
            hello = self._command({"op": "hello"})
            self._layout = (int(hello["width"]), int(hello["height"]))
            self.frame = self._calibrate(float(hello["scale"]))
            scale, offset_x, offset_y = self.frame
            self._command({"op": "frame", "scale": scale, "offsetX": offset_x,
                           "offsetY": offset_y})
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self.device is not None and self._server is not None:
            port = self._server.server_address[1]
            try:
                self.device.reverse_remove(f"tcp:{port}")
            except Exception:  # noqa: BLE001 (closing must finish on a dead device too)
                pass
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        self._server = None
        self.device = None
        self._device.disconnect()
        self.frame = None

    @property
    def serial(self) -> str | None:
        return self._device.serial

    @property
    def layout_viewport(self) -> tuple[int, int]:
        """The page's CSS viewport on the device, measured there (starts the backend)."""
        self.start()
        return self._layout

    # -- the device --------------------------------------------------------
    def _check_device(self) -> None:
        self._device.check_screen(self.viewport)
        if not self._device.has_package(self.browser):
            raise AdbBackendError(f"device {self.serial!r} has no browser {self.browser!r}; "
                                  "install it or pass backend_options={'browser': ...}")

    def _shell(self, command: str, binary: bool = False):
        return self._device.shell(command, binary)

    # -- the page ----------------------------------------------------------
    def _start_server(self) -> None:
        backend = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet: errors surface as commands
                pass

            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                path = self.path.split("?")[0]
                if path == "/next":
                    try:
                        command = backend._commands.get(timeout=5)
                    except queue.Empty:
                        self._send(204, b"", "text/plain")
                        return
                    self._send(200, json.dumps(command).encode(), "application/json")
                    return
                if path == "/stage.html":
                    page = stage_html().replace(
                        "</body>", '<script src="adb/driver.js"></script>\n</body>')
                    self._send(200, page.encode(), "text/html",
                               {"content-security-policy": STAGE_CSP})
                    return
                target = (WEB_ROOT / path.lstrip("/")).resolve()
                if target.is_file() and WEB_ROOT.resolve() in target.parents:
                    self._send(200, target.read_bytes(),
                               CONTENT_TYPES.get(target.suffix, "application/octet-stream"))
                    return
                self._send(404, b"not found", "text/plain")

            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                if self.path == "/result":
                    reply = json.loads(body)
                    with backend._result_ready:
                        backend._results[reply["id"]] = reply
                        backend._result_ready.notify_all()
                self._send(204, b"", "text/plain")

            def _send(self, status: int, body: bytes, content_type: str,
                      headers: dict[str, str] | None = None) -> None:
                self.send_response(status)
                self.send_header("content-type", content_type)
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(body)))
                self.send_header("cache-control", "no-store")
                self.end_headers()
                self.wfile.write(body)

        self._server = ThreadingHTTPServer(("127.0.0.1", self.page_port), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def _command(self, command: dict) -> Any:
        """Hand the page a command and wait, at most timeout_s, for its reply."""
        self._next_id += 1
        command = {**command, "id": self._next_id}
        self._commands.put(command)
        deadline = time.monotonic() + self.timeout_s
        with self._result_ready:
            while command["id"] not in self._results:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AdbBackendError(
                        f"the page on device {self.serial!r} did not answer {command['op']!r} "
                        f"within {self.timeout_s:g} s: is {self.browser!r} showing it?")
                self._result_ready.wait(left)
            reply = self._results.pop(command["id"])
        if not reply["ok"]:
            raise AdbBackendError(f"the page failed {command['op']!r}: {reply['error']}")
        return reply["value"]

    def _calibrate(self, scale: float) -> tuple[float, int, int]:
        self._command({"op": "calibrate"})
        shot = self.screenshot()
        self._command({"op": "uncalibrate"})
        mark = np.all(shot == np.array(CALIBRATION_RGB, np.uint8), axis=2)
        ys, xs = np.nonzero(mark)
        if len(xs) == 0:
            raise AdbBackendError("the page's calibration mark is not on the screen: is the "
                                  f"browser {self.browser!r} in front, the screen on and unlocked?")
        width = xs.max() - xs.min() + 1
        expected = round(self._layout[0] * scale)
        if abs(width - expected) > 1:
            raise AdbBackendError(f"the page is {width} pixels wide on the screen, expected "
                                  f"{expected} ({self._layout[0]} CSS px at {scale:g}): "
                                  "is the page zoomed?")
        return scale, int(xs.min()), int(ys.min())

    # -- the interface -----------------------------------------------------
    def render(self, spec: LiveSpec) -> Rendered:
        self.start()
        return Rendered.from_report(self._command({"op": "prepare",
                                                   "spec": spec.renderer_spec()}))

    def screenshot(self) -> np.ndarray:
        return self._device.screencap(self.viewport)

    def perform(self, gesture: Gesture, p0: tuple[float, float], p1: tuple[float, float]) -> None:
        # A finger has no hover: a tap touches p1 only (as MobileBackend).
        if gesture == "tap":
            self._device.tap(p1)
        elif gesture == "drag":
            self._device.swipe(p0, p1)
        else:
            raise ValueError(f"unknown gesture {gesture!r}; expected 'tap' or 'drag'")

    def read_state(self) -> Any:
        return self._command({"op": "state"})

    def read_distractors(self) -> list[Any]:
        return self._command({"op": "distractors"})

    def read_state_and_distractors(self) -> tuple[Any, list[Any]]:
        answer = self._command({"op": "state", "distractors": True})
        return answer["state"], answer["distractors"]

    def measure(self, goal: Any) -> Measured:
        result = self._command({"op": "measure", "goal": goal})
        return Measured(boxes=Boxes(**result["boxes"]), reach=result["reach"])

    def probe(self, spec: LiveSpec, gesture: Gesture,
              pairs: Sequence[tuple[Point, Point]]) -> list[Any]:
        # The page shows `spec` once and restores it in place after each
        # gesture (driver.js "nextProbe"): a probe is one `input` and one page
        # command, not a full render with its box measurement.
        self.start()
        self._command({"op": "startProbing", "spec": spec.renderer_spec()})
        try:
            states = []
            for p0, p1 in pairs:
                self.perform(gesture, p0, p1)
                states.append(self._command({"op": "nextProbe"}))
            return states
        finally:
            self._command({"op": "stopProbing"})

    def __repr__(self) -> str:
        return f"AdbBackend(serial={self.serial!r}, viewport={self.viewport!r})"
