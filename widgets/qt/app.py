"""The Qt app of the desktop backend: one stage window, one control at a time.

Run as `python -m finestate_env.components.qt.app SOCKET WIDTHxHEIGHT` inside an X display
(QT_QPA_PLATFORM=xcb). It listens on the Unix socket SOCKET and answers one
JSON object per line:

- `{"op": "render", "spec": {component, params, state, goal, theme}}` builds the
  control showing `goal`, measures its boxes (the target configuration), then
  shows `state` and measures again; answers `{"current", "target", "state"}`.
- `{"op": "state", "markers": n}` waits until the n-th marker key press has been
  handled, then answers `{"state"}` read from the widgets.
- `{"op": "probe", "spec": {...}}` shows the current state and records, at every
  marker key press from then on, the state the gesture before it produced, and
  shows the current state again; `{"op": "take", "markers": n}` answers the
  states recorded up to marker n and stops recording.

Nothing else can reach a control: its state changes only through real X input.

Why a marker key: X input reaches the app on its own connection, so a request
on the socket may overtake the pointer events sent before it. The backend
presses a key nobody uses (`MARKER_KEYCODE`) after every gesture; the key is
queued behind the gesture's pointer events, so once the app has seen it, the
gesture has been handled. The key itself never reaches a control.
"""

from __future__ import annotations

import ctypes
import json
import sys
import time
import traceback
from typing import Any

from PySide6.QtCore import QEvent, QEventLoop, QObject, Qt, QTimer
from PySide6.QtGui import QCursor
from PySide6.QtNetwork import QLocalServer, QLocalSocket
from PySide6.QtWidgets import QApplication, QWidget

from finestate_env.components.qt import kit
from finestate_env.components.qt.renderers import RENDERERS

# X keycode of F12 in Xvfb's default keymap; the backend presses the same one.
MARKER_KEYCODE = 96
MARKER_TIMEOUT_S = 10.0


class Stage(QWidget):
    """The one top-level window: the whole screen, no frame, no window manager."""

    def __init__(self, width: int, height: int) -> None:
        super().__init__(None, Qt.FramelessWindowHint | Qt.X11BypassWindowManagerHint)
        self.setGeometry(0, 0, width, height)
        self.setAutoFillBackground(True)
        self.control = None
        self.theme = None

    def show_spec(self, spec: dict[str, Any], state: Any):
        """Replace whatever is shown by spec's control in `state`, laid out and painted."""
        renderer = RENDERERS.get(spec["component"])
        if renderer is None:
            raise ValueError(f"no Qt renderer for component {spec['component']!r}")
        if self.control is not None:
            self.control.card.hide()
            self.control.card.deleteLater()
            self.control = None
        theme = spec.get("theme") or "classic-light"
        if theme != self.theme:
            QApplication.setPalette(kit.palette(theme))
            QApplication.setFont(kit.font(theme))
            self.setPalette(kit.palette(theme))
            self.setFont(kit.font(theme))
            self.theme = theme
        self.control = renderer(self, spec["params"], state)
        kit.place(self.control.card, self, spec["params"].get("anchor", [0.5, 0.5]))
        self.control.settle()
        return self.control


class Server(QObject):
    def __init__(self, app: QApplication, stage: Stage, path: str) -> None:
        super().__init__()
        self.app = app
        self.stage = stage
        self.markers = 0
        self.probing: dict[str, Any] | None = None
        self.recorded: list[Any] = []
        self.server = QLocalServer(self)
        QLocalServer.removeServer(path)
        if not self.server.listen(path):
            raise RuntimeError(f"cannot listen on {path}: {self.server.errorString()}")
        self.server.newConnection.connect(self._accept)
        self.client: QLocalSocket | None = None
        self.buffer = b""
        app.installEventFilter(self)

    # -- the marker key ----------------------------------------------------
    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's name)
        kind = event.type()
        # The first receiver is the window; the filter swallows the key there,
        # so each press is counted once and no widget ever sees it.
        if kind in (QEvent.KeyPress, QEvent.KeyRelease) and \
                event.nativeScanCode() == MARKER_KEYCODE:
            if kind == QEvent.KeyPress and not event.isAutoRepeat():
                self.markers += 1
                if self.probing is not None:
                    self.recorded.append(self.stage.control.state())
                    self.stage.show_spec(self.probing, self.probing["state"])
            return True
        return False

    def _wait_markers(self, n: int) -> None:
        deadline = time.monotonic() + MARKER_TIMEOUT_S
        wake = QTimer()  # WaitForMoreEvents sleeps until an event: wake up to check the time
        wake.start(100)
        try:
            while self.markers < n:
                if time.monotonic() > deadline:
                    raise TimeoutError(f"input marker {n} never arrived (saw {self.markers})")
                self.app.processEvents(QEventLoop.AllEvents | QEventLoop.WaitForMoreEvents)
        finally:
            wake.stop()

    # -- the socket --------------------------------------------------------
    def _accept(self) -> None:
        client = self.server.nextPendingConnection()
        if self.client is not None:  # one backend per app
            client.disconnectFromServer()
            return
        self.client = client
        client.readyRead.connect(self._read)
        client.disconnected.connect(self.app.quit)

    def _read(self) -> None:
        self.buffer += bytes(self.client.readAll())
        while b"\n" in self.buffer:
            line, self.buffer = self.buffer.split(b"\n", 1)
            try:
                reply = {"ok": True, **self.handle(json.loads(line))}
            except Exception as exc:  # answered, not fatal: the backend raises it
                reply = {"ok": False, "error": f"{type(exc).__name__}: {exc}",
                         "trace": traceback.format_exc(limit=4)}
            self.client.write(json.dumps(reply).encode() + b"\n")
            self.client.flush()

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request.get("op")
        if op == "render":
            spec = request["spec"]
            self.probing = None
            control = self.stage.show_spec(spec, spec["goal"])
            target = control.boxes(spec["goal"])
            control = self.stage.show_spec(spec, spec["state"])
            current = control.boxes(spec["goal"])
            self._flush_pixels()
            return {"current": current, "target": target, "state": control.state()}
        if op == "state":
            self._wait_markers(int(request["markers"]))
            self._flush_pixels()
            return {"state": self.stage.control.state()}
        if op == "probe":
            spec = request["spec"]
            self.stage.show_spec(spec, spec["state"])
            self.probing = spec
            self.recorded = []
            return {"markers": self.markers}
        if op == "take":
            self._wait_markers(int(request["markers"]))
            states, self.recorded, self.probing = self.recorded, [], None
            return {"states": states}
        raise ValueError(f"unknown op {op!r}; expected render, state, probe or take")

    def _flush_pixels(self) -> None:
        """Paint now and make sure the X server has the pixels before we answer."""
        # Every widget whole: after a drag Qt has repainted only the parts that moved,
        # and a scroll bar's antialiased thumb then differs by a level at its corners
        # with the drag's pace; a full repaint gives the same pixels every time.
        for widget in self.stage.findChildren(QWidget):
            widget.update()
        self.stage.repaint()
        self.app.processEvents()
        # A round trip on the app's own X connection: the server has handled
        # every request (image puts included) sent before it.
        QCursor.pos()


def _keep_none_alive() -> None:
    """Make None immortal in this process, as CPython 3.12 does everywhere.

    PySide6 6.12.0 drops one reference to None on every call of a method that
    returns nothing (measured on Python 3.11: QLabel.setText 100 times lowers
    sys.getrefcount(None) by 100; 6.11.3 does not), so a long-running app that
    builds many widgets reaches None's deallocation, a fatal error ("none_dealloc").
    On 3.11 ob_refcnt is the first field of every object: raising None's far
    out of reach is what immortality means, and harmless otherwise.
    """
    if sys.version_info < (3, 12):
        ctypes.c_ssize_t.from_address(id(None)).value += 1 << 40


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m finestate_env.components.qt.app SOCKET WIDTHxHEIGHT",
              file=sys.stderr)
        return 2
    path, size = argv
    _keep_none_alive()
    width, height = (int(v) for v in size.lower().split("x"))
    app = QApplication([sys.argv[0], "-style", "Fusion"])
    # Episodes follow each other faster than a double click: each gesture is
    # one single click, never the second half of a double click.
    app.styleHints().setMouseDoubleClickInterval(0)
    app.setEffectEnabled(Qt.UI_AnimateCombo, False)
    app.setEffectEnabled(Qt.UI_AnimateMenu, False)
    app.setEffectEnabled(Qt.UI_AnimateToolBox, False)
    app.setEffectEnabled(Qt.UI_AnimateTooltip, False)
    app.setEffectEnabled(Qt.UI_FadeMenu, False)
    app.setEffectEnabled(Qt.UI_FadeTooltip, False)
    app.setPalette(kit.palette("classic-light"))
    app.setFont(kit.font("classic-light"))
    stage = Stage(width, height)
    stage.show()
    server = Server(app, stage, path)
    print("ready", flush=True)
    code = app.exec()
    server.server.close()
    return code


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
