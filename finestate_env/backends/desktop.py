"""The desktop backend: native Qt controls in a real X display, driven by pyautogui.

Per backend: an Xvfb display (a free number chosen by Xvfb itself through
`-displayfd`, `-nolisten tcp`, access by a cookie in the backend's own
Xauthority file), and the Qt app `python -m finestate_env.components.qt.app` in it, which
renders a spec as native widgets and answers on a Unix socket (protocol in
widgets/qt/app.py). Input is real X pointer input sent by pyautogui through its
X11 platform module (XTest); screenshots are `PIL.ImageGrab.grab(xdisplay=...)`.

A page scene (widgets/scenes) is rendered whole by the app: the render answers the
distractors' states and loc boxes too, and `read_distractors()` reads them back
after a gesture (behind the same marker key as the target's state).

Both are started once and reused: a reset re-renders inside the running app.
A dead app surfaces as BackendCrashed and is restarted on the next render;
`close()` removes the app, the display, the socket and the Xauthority file,
also after a crash.
"""

from __future__ import annotations

import importlib
import json
import os
import secrets
import shutil
import signal
import socket
import struct
import subprocess
import sys
import time
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
from PIL import ImageGrab

from finestate_env.backends.base import Backend, BackendCrashed, Measured, Point, Rendered
from finestate_env.backends.parent_death import die_with_parent
from finestate_env.backends.scratch import make_scratch_dir
from finestate_env.components.qt import DESKTOP_TYPES
from finestate_env.core.extras import require_installed
from finestate_env.core.schema import Boxes, Gesture, LiveSpec

# Intermediate pointer moves of a drag: the controls only need to see motion.
DRAG_STEPS = 4
# The key the app counts as "every input before me has been handled"
# (widgets/qt/app.py MARKER_KEYCODE: F12 in Xvfb's default keymap).
MARKER_KEYCODE = 96
# Where the pointer waits between episodes: the stage margin, on no control.
PARK = (1, 1)
START_TIMEOUT_S = 15.0
REPLY_TIMEOUT_S = 30.0
PROJECT_ROOT = Path(__file__).resolve().parents[2]


def _xauth_entry(cookie: bytes) -> bytes:
    """One Xauthority record: FamilyLocal on this host, any display number."""
    def field(b: bytes) -> bytes:
        return struct.pack(">H", len(b)) + b
    return (struct.pack(">H", 256) + field(socket.gethostname().encode()) + field(b"")
            + field(b"MIT-MAGIC-COOKIE-1") + field(cookie))


@contextmanager
def _x_environment(display: str, xauthority: str) -> Iterator[None]:
    """DISPLAY and XAUTHORITY of this backend while X clients connect (libXau and
    python-xlib read them from the environment), restored afterwards."""
    saved = {k: os.environ.get(k) for k in ("DISPLAY", "XAUTHORITY")}
    os.environ["DISPLAY"], os.environ["XAUTHORITY"] = display, xauthority
    try:
        yield
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def _reap(pids: list[int], workdir: str) -> None:
    """What close() does, for an env garbage-collected or left open at exit."""
    for pid in pids:
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    shutil.rmtree(workdir, ignore_errors=True)


def _pyautogui(display: str, xauthority: str):
    """pyautogui, imported once per process (it opens a connection to $DISPLAY on import).

    Each backend then points pyautogui's X11 platform module at its own display
    connection before sending input, so several displays can live in one process.
    """
    if "pyautogui" not in sys.modules:
        with _x_environment(display, xauthority):
            module = importlib.import_module("pyautogui")
        module.platformModule._display.close()  # the import's own connection is never used
    module = sys.modules["pyautogui"]
    module.PAUSE = 0  # it sleeps 0.1 s after every call by default
    module.FAILSAFE = False  # the corner is a legal point here, not an emergency stop
    return module


class DesktopBackend(Backend):
    platform = "desktop"
    components = DESKTOP_TYPES  # the types with a Qt renderer; the env offers these alone

    def __init__(self, viewport: tuple[int, int] = (1280, 720),
                 timeout_s: float = REPLY_TIMEOUT_S, python: str | None = None) -> None:
        require_installed(("PySide6", "pyautogui", "Xlib"), "desktop", "the desktop env")
        self.viewport = (int(viewport[0]), int(viewport[1]))
        self.timeout_s = timeout_s
        self.python = python or sys.executable
        self.workdir: str | None = None
        self.display: str | None = None
        self.xvfb: subprocess.Popen | None = None
        self.app: subprocess.Popen | None = None
        self._sock: socket.socket | None = None
        self._buffer = b""
        self._xlib = None  # this backend's python-xlib connection, for pyautogui
        self._gui = None
        self._markers = 0  # marker key presses sent to the app so far
        self._finalizer: weakref.finalize | None = None

    # -- lifecycle ---------------------------------------------------------
    @property
    def xauthority(self) -> str:
        return os.path.join(self.workdir, "Xauthority")

    @property
    def socket_path(self) -> str:
        return os.path.join(self.workdir, "app.sock")

    @property
    def app_log(self) -> str:
        return os.path.join(self.workdir, "app.log")

    def _log_tail(self) -> str:
        try:
            with open(self.app_log, "rb") as f:
                return f.read()[-1500:].decode(errors="replace").strip()
        except OSError:
            return ""

    def start(self) -> None:
        if self.app is not None:
            return
        try:
            if self.xvfb is None:
                self._start_display()
            self._start_app()
        except BaseException:
            self.close()
            raise

    def _start_display(self) -> None:
        self.workdir = make_scratch_dir("finestate-desktop-")
        with open(self.xauthority, "wb") as f:
            f.write(_xauth_entry(secrets.token_bytes(16)))
        xvfb = shutil.which("Xvfb")
        if xvfb is None:
            raise RuntimeError("Xvfb is not installed: apt-get install xvfb (make test does)")
        read_fd, write_fd = os.pipe()
        try:
            self.xvfb = subprocess.Popen(
                [xvfb, "-displayfd", str(write_fd), "-screen", "0",
                 f"{self.viewport[0]}x{self.viewport[1]}x24", "-nolisten", "tcp",
                 "-auth", self.xauthority, "-nocursor"],
                pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, start_new_session=True, preexec_fn=die_with_parent)
            os.close(write_fd)
            write_fd = -1
            number = self._read_display_number(read_fd)
        finally:
            os.close(read_fd)
            if write_fd >= 0:
                os.close(write_fd)
        self.display = f":{number}"
        self._finalizer = weakref.finalize(self, _reap, [self.xvfb.pid], self.workdir)
        with _x_environment(self.display, self.xauthority):
            from Xlib.display import Display
            self._xlib = Display(self.display)
        self._gui = _pyautogui(self.display, self.xauthority)

    def _read_display_number(self, fd: int) -> int:
        deadline = time.monotonic() + START_TIMEOUT_S
        text = b""
        while not text.endswith(b"\n"):
            if time.monotonic() > deadline or self.xvfb.poll() is not None:
                raise RuntimeError(f"Xvfb did not start (exit code {self.xvfb.poll()})")
            chunk = os.read(fd, 16)
            if not chunk:
                raise RuntimeError(f"Xvfb exited before naming its display "
                                   f"(exit code {self.xvfb.wait()})")
            text += chunk
        return int(text.strip())

    def _start_app(self) -> None:
        env = {**os.environ, "DISPLAY": self.display, "XAUTHORITY": self.xauthority,
               "QT_QPA_PLATFORM": "xcb", "QT_AUTO_SCREEN_SCALE_FACTOR": "0",
               "QT_SCALE_FACTOR": "1", "QT_ENABLE_HIGHDPI_SCALING": "0",
               "QT_ACCESSIBILITY": "0", "QT_LOGGING_RULES": "*.debug=false;qt.qpa.*=false",
               "PYTHONPATH": os.pathsep.join([str(PROJECT_ROOT), os.environ.get("PYTHONPATH",
                                                                                 "")])}
        # The app's messages go to a file (a pipe nobody reads would fill and block it);
        # its tail explains a crash.
        with open(self.app_log, "ab") as log:
            self.app = subprocess.Popen(
                [self.python, "-m", "finestate_env.components.qt.app", self.socket_path,
                 f"{self.viewport[0]}x{self.viewport[1]}"],
                env=env, cwd=str(PROJECT_ROOT), stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=log, start_new_session=True,
                preexec_fn=die_with_parent)
        ready = self.app.stdout.readline()  # the app prints "ready" once it listens
        if ready.strip() != b"ready":
            self.app.wait(timeout=5)
            raise RuntimeError(f"the Qt app did not start (exit code {self.app.poll()}): "
                               f"{self._log_tail()}")
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.settimeout(self.timeout_s)
        self._sock.connect(self.socket_path)
        self._buffer = b""
        self._markers = 0

    def close(self) -> None:
        if self._sock is not None:
            try:
                self._sock.close()
            except OSError:
                pass
            self._sock = None
        for proc in (self.app, self.xvfb):
            if proc is None:
                continue
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
                try:
                    proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()
        self.app = self.xvfb = None
        if self._xlib is not None:
            try:
                self._xlib.close()
            except Exception:  # noqa: BLE001 - the display may be gone already
                pass
            self._xlib = None
        if self.workdir is not None:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None
        self.display = None

    def _stop_app(self, why: str) -> None:
        """Forget a dead (or hung) app; the display stays for the next start."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if self.app is not None:
            if self.app.poll() is None:
                os.killpg(self.app.pid, signal.SIGKILL)
            self.app.wait()
            if self.app.stdout is not None:
                self.app.stdout.close()
            self.app = None
        if self.workdir is not None and os.path.exists(self.socket_path):
            os.unlink(self.socket_path)

    def ensure_alive(self) -> None:
        """Restart the app (and the display) if either died since the last call."""
        if self.xvfb is not None and self.xvfb.poll() is not None:
            self.close()
        elif self.app is not None and self.app.poll() is not None:
            self._stop_app("exited")
        self.start()

    # -- the socket --------------------------------------------------------
    def _request(self, what: str, message: dict[str, Any]) -> dict[str, Any]:
        if self._sock is None:
            raise BackendCrashed(f"the Qt app is not running during {what}: call render first")
        try:
            self._sock.sendall(json.dumps(message).encode() + b"\n")
            while b"\n" not in self._buffer:
                chunk = self._sock.recv(1 << 16)
                if not chunk:
                    raise ConnectionError("the app closed the socket")
                self._buffer += chunk
        except (OSError, ConnectionError) as exc:
            if self.app is not None:
                try:
                    self.app.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    pass
            code = self.app.poll() if self.app is not None else None
            tail = self._log_tail()
            self._stop_app(str(exc))
            raise BackendCrashed(f"the Qt app died during {what} (exit code {code}): {exc}"
                                 + (f"; its last words: {tail}" if tail else "")) from exc
        line, self._buffer = self._buffer.split(b"\n", 1)
        reply = json.loads(line)
        if not reply.pop("ok"):
            raise RuntimeError(f"the Qt app failed during {what}: {reply['error']}\n"
                               f"{reply.get('trace', '')}")
        return reply

    # -- the interface -----------------------------------------------------
    def render(self, spec: LiveSpec) -> Rendered:
        self.ensure_alive()
        self._park_pointer()
        result = self._request("render", {"op": "render", "spec": spec.renderer_spec()})
        return Rendered.from_report(result)

    def screenshot(self) -> np.ndarray:
        if self.display is None:
            raise BackendCrashed("the X display is not running during screenshot")
        try:
            with _x_environment(self.display, self.xauthority):
                image = ImageGrab.grab(xdisplay=self.display)
        except OSError as exc:
            raise self._display_died("screenshot", exc) from exc
        return np.asarray(image.convert("RGB"))

    def perform(self, gesture: Gesture, p0: tuple[float, float], p1: tuple[float, float]) -> None:
        if gesture not in ("tap", "drag"):
            raise ValueError(f"unknown gesture {gesture!r}; expected 'tap' or 'drag'")
        self._check_app(f"a {gesture}")
        self._send_gesture(gesture, p0, p1)
        self._send_marker()

    def _send_gesture(self, gesture: Gesture, p0: tuple[float, float],
                      p1: tuple[float, float]) -> None:
        """Real X pointer input through pyautogui; points are screenshot pixels, and
        pyautogui rounds them down to the pixel they fall in."""
        gui = self._pointer()
        try:
            if gesture == "tap":
                gui.moveTo(p0[0], p0[1])
                gui.moveTo(p1[0], p1[1])
                gui.mouseDown(p1[0], p1[1])
                gui.mouseUp(p1[0], p1[1])
            else:
                gui.moveTo(p0[0], p0[1])
                gui.mouseDown(p0[0], p0[1])
                for i in range(1, DRAG_STEPS + 1):
                    gui.moveTo(p0[0] + (p1[0] - p0[0]) * i / DRAG_STEPS,
                               p0[1] + (p1[1] - p0[1]) * i / DRAG_STEPS)
                gui.mouseUp(p1[0], p1[1])
        except Exception as exc:  # the X connection broke: the display died
            raise self._display_died(f"a {gesture}", exc) from exc

    def _display_died(self, what: str, exc: Exception) -> BackendCrashed:
        """The crash of a broken X connection. The display and the app are stopped whole
        (Xvfb may not have been reaped yet, so the next render could not tell it died):
        the next render starts both afresh."""
        self.close()
        return BackendCrashed(f"the X display died during {what}: {exc}")

    def _pointer(self):
        self._gui.platformModule._display = self._xlib
        return self._gui

    def _send_marker(self) -> None:
        from Xlib import X
        from Xlib.ext.xtest import fake_input

        fake_input(self._xlib, X.KeyPress, MARKER_KEYCODE)
        fake_input(self._xlib, X.KeyRelease, MARKER_KEYCODE)
        self._xlib.sync()
        self._markers += 1

    def _park_pointer(self) -> None:
        # The pointer left over from the last action would hover over the next
        # control; park it in the stage margin so the same seed gives the same pixels.
        try:
            self._pointer().moveTo(*PARK)
        except Exception as exc:  # the X connection broke: the display died
            raise self._display_died("a render", exc) from exc

    def _check_app(self, what: str) -> None:
        if self.app is None or self.app.poll() is not None:
            code = self.app.poll() if self.app is not None else None
            self._stop_app("exited")
            raise BackendCrashed(f"the Qt app died before {what} (exit code {code})")

    def read_state(self) -> Any:
        return self._request("state read-back",
                             {"op": "state", "markers": self._markers})["state"]

    def read_distractors(self) -> list[Any]:
        return self._request("distractor read-back",
                             {"op": "distractors", "markers": self._markers})["states"]

    def read_state_and_distractors(self) -> tuple[Any, list[Any]]:
        answer = self._request("read-back", {"op": "state", "markers": self._markers,
                                             "distractors": True})
        return answer["state"], answer["distractors"]

    def measure(self, goal: Any) -> Measured:
        result = self._request("measure", {"op": "measure", "goal": goal})
        return Measured(boxes=Boxes(**result["boxes"]), reach=result["reach"])

    def probe(self, spec: LiveSpec, gesture: Gesture,
              pairs: Sequence[tuple[Point, Point]]) -> list[Any]:
        # All gestures back to back, each followed by a marker: the app records
        # the state at each marker and shows the current state again before it
        # handles the next gesture's events (widgets/qt/app.py, "probe").
        self.ensure_alive()
        self._park_pointer()
        self._request("probe set-up", {"op": "probe", "spec": spec.renderer_spec()})
        for p0, p1 in pairs:
            self._check_app("probes")
            self._send_gesture(gesture, p0, p1)
            self._send_marker()
        self._park_pointer()
        states = self._request("probes", {"op": "take", "markers": self._markers})["states"]
        if len(states) != len(pairs):
            raise RuntimeError(f"probing recorded {len(states)} states for "
                               f"{len(pairs)} gestures")
        return states

    def __repr__(self) -> str:
        return (f"DesktopBackend(viewport={self.viewport!r}, display={self.display!r}, "
                f"running={self.app is not None})")
