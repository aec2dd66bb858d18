"""The Qt app of the desktop backend: one stage window, one control at a time.

Run as `python -m finestate_env.components.qt.app SOCKET WIDTHxHEIGHT` inside an X display
(QT_QPA_PLATFORM=xcb). It listens on the Unix socket SOCKET and answers one
JSON object per line:

- `{"op": "render", "spec": {component, params, state, goal, theme[, scene]}}` builds
  the control showing `goal`, measures its boxes (the target configuration), then
  shows `state` and measures again; answers `{"current", "target", "state"}`, and for
  a page scene (`scene`: widgets/scenes) `"distractors": {"states", "locs"}`, each
  distractor read back whole and its card's box, in the scene's order.
- `{"op": "state", "markers": n}` waits until the n-th marker key press has been
  handled, then answers `{"state"}` read from the widgets; with `"distractors": true`
  also `"distractors"`, as the next op answers `"states"` (one round trip for both).
- `{"op": "distractors", "markers": n}` the same for a page's distractors, each read
  back whole: `{"states"}` ([] for a lone control).
- `{"op": "measure", "index": i, "goal": g}` answers `{"boxes"}` of distractor i as
  shown, measured for goal g (for tests and tools: it reads, it sets nothing); with no
  index, `{"boxes", "reach"}` of the target as shown (mid-episode, after a gesture).
- `{"op": "objects"}` answers `{"objects"}`, how many objects Python's collector tracks
  in the app after a collection (for tests and tools: a count that grows with episodes
  is a leak).
- `{"op": "probe", "spec": {...}}` shows the current state and records, at every
  marker key press from then on, the state the gesture before it produced, and
  shows the current state again; `{"op": "take", "markers": n}` answers the
  states recorded up to marker n and stops recording.

Nothing else can reach a control: its state changes only through real X input.

A page (`Stage.show_page`): a `page.Canvas` under everything paints the blocks, then
the target and each distractor are built by their type's own renderer and seated at
their slot's top-left inside the 8 px margin; a card that overflows its slot is an
error, never a clip. Between probes the target is rebuilt, and so is every
distractor that the gesture changed; after the last probe the whole page is shown
afresh, so its pixels are the render's.

Why a marker key: X input reaches the app on its own connection, so a request
on the socket may overtake the pointer events sent before it. The backend
presses a key nobody uses (`MARKER_KEYCODE`) after every gesture; the key is
queued behind the gesture's pointer events, so once the app has seen it, the
gesture has been handled. The key itself never reaches a control.
"""

from __future__ import annotations

import ctypes
import gc
import json
import sys
import time
import traceback
from typing import Any

from PySide6.QtCore import QEvent, QEventLoop, QObject, Qt, QTimer
from PySide6.QtGui import QCursor, QPixmapCache
from PySide6.QtNetwork import QLocalServer, QLocalSocket
from PySide6.QtWidgets import QApplication, QWidget

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control
from finestate_env.components.qt.page import Canvas
from finestate_env.components.qt.renderers import RENDERERS

# X keycode of F12 in Xvfb's default keymap; the backend presses the same one.
MARKER_KEYCODE = 96
MARKER_TIMEOUT_S = 10.0
PIXMAP_CACHE_KIB = 256  # QPixmapCache's limit (main)


class Stage(QWidget):
    """The one top-level window: the whole screen, no frame, no window manager."""

    def __init__(self, width: int, height: int) -> None:
        super().__init__(None, Qt.FramelessWindowHint | Qt.X11BypassWindowManagerHint)
        self.setGeometry(0, 0, width, height)
        self.setAutoFillBackground(True)
        self.control = None
        self.theme = None
        self.canvas: Canvas | None = None
        self.distractors: list[Control] = []
        self.fresh: list[Any] = []  # the distractors' snapshots as rendered

    def show_spec(self, spec: dict[str, Any], state: Any):
        """Replace whatever is shown by spec's control in `state` (in its page, when it
        has one), laid out and painted."""
        renderer = RENDERERS.get(spec["component"])
        if renderer is None:
            raise ValueError(f"no Qt renderer for component {spec['component']!r}")
        self._drop_focus()
        for control in [self.control, *self.distractors]:
            if control is not None:
                _remove(control)
        self.control, self.distractors, self.fresh = None, [], []
        if self.canvas is not None:
            self.canvas.hide()
            self.canvas.deleteLater()
            self.canvas = None
        theme = spec.get("theme") or "classic-light"
        if theme != self.theme:
            QApplication.setPalette(kit.palette(theme))
            QApplication.setFont(kit.font(theme))
            self.setPalette(kit.palette(theme))
            self.setFont(kit.font(theme))
            self.theme = theme
        if spec.get("scene"):
            return self.show_page(spec, state)
        self.control = renderer(self, spec["params"], state)
        kit.place(self.control.card, self, spec["params"].get("anchor", [0.5, 0.5]))
        self.control.settle()
        return self.control

    def show_page(self, spec: dict[str, Any], state: Any):
        """The page's blocks, the target in its slot and every distractor in its own."""
        scene = spec["scene"]
        self.canvas = Canvas(self, scene["blocks"])
        self.canvas.show()
        self.control = self._seat(spec["component"], spec["params"], state, scene["rect"],
                                  f"target {spec['component']}", scene["template"])
        self.distractors = [
            self._seat(d["component"], d["params"], d["state"], d["rect"],
                       f"{d['component']} {d['label']!r}", scene["template"])
            for d in scene["distractors"]]
        self.fresh = self.distractor_states()
        return self.control

    def show_target(self, spec: dict[str, Any], state: Any):
        """The target of the spec shown, built again in `state`; on a page the template
        and the distractors stay (they are what a fresh show_spec would build), and the
        target's card goes back under them, where a fresh build stacks it."""
        if not spec.get("scene"):
            return self.show_spec(spec, state)
        self._drop_focus()
        scene = spec["scene"]
        _remove(self.control)
        self.control = self._seat(spec["component"], spec["params"], state, scene["rect"],
                                  f"target {spec['component']}", scene["template"])
        if self.distractors:
            self.control.card.stackUnder(self.distractors[0].card)
        return self.control

    def _seat(self, component: str, params: dict[str, Any], state: Any, rect: list[int],
              what: str, template: str) -> Control:
        control = RENDERERS[component](self, params, state)
        card, margin = control.card, kit.STAGE_MARGIN
        card.adjustSize()
        card.move(rect[0] + margin, rect[1] + margin)
        card.show()
        control.settle()
        if card.width() > rect[2] - 2 * margin or card.height() > rect[3] - 2 * margin:
            raise ValueError(f"scene {template}: the {what} ({card.width()}x{card.height()}) "
                             f"overflows its slot {rect}")
        return control

    def restore(self, spec: dict[str, Any]) -> None:
        """Back to `spec` in its current state after a probe: a lone control rebuilt; on a
        page the target and every distractor the gesture changed, in their slots."""
        if not spec.get("scene"):
            self.show_spec(spec, spec["state"])
            return
        self._drop_focus()
        scene = spec["scene"]
        _remove(self.control)
        self.control = self._seat(spec["component"], spec["params"], spec["state"],
                                  scene["rect"], "target", scene["template"])
        for i, d in enumerate(scene["distractors"]):
            if self.distractors[i].snapshot() != self.fresh[i]:
                _remove(self.distractors[i])
                self.distractors[i] = self._seat(d["component"], d["params"], d["state"],
                                                 d["rect"], d["label"], scene["template"])

    def _drop_focus(self) -> None:
        # A hidden focus widget passes focus on to the next one (a distractor's field
        # would show a focus frame): clear it first, as a fresh render has none.
        focused = QApplication.focusWidget()
        if focused is not None:
            focused.clearFocus()

    def shown_widgets(self) -> list[QWidget]:
        """The stage and every widget on it now, found from the canvas and each card.

        Not the stage's findChildren: PySide ties the wrapper of every object that
        findChildren returns to the object it was called on, for that object's life, so
        the stage would keep one per widget ever shown, scroll bars and viewports of
        deleted cards included (the app grew ~4 KiB an episode, issue #36); a card's go
        with the card."""
        cards = [control.card for control in (self.control, *self.distractors)
                 if control is not None]
        roots = [*([self.canvas] if self.canvas is not None else []), *cards]
        return [self, *roots, *(child for root in roots for child in root.findChildren(QWidget))]

    def distractor_states(self) -> list[Any]:
        """Each distractor read back whole, in the scene's order ([] for a lone control)."""
        return [d.snapshot() for d in self.distractors]

    def scene_report(self) -> dict[str, Any]:
        """A page's distractors as shown: their states and their cards' boxes."""
        if self.canvas is None:
            return {}
        return {"distractors": {"states": self.distractor_states(),
                                "locs": [kit.box_of(d.card) for d in self.distractors]}}


def _remove(control: Control) -> None:
    control.card.hide()
    control.card.deleteLater()


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
                    self.stage.restore(self.probing)
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
            control = self.stage.show_target(spec, spec["state"])
            current = control.boxes(spec["goal"])
            self._flush_pixels()
            return {"current": current, "target": target, "state": control.state(),
                    **self.stage.scene_report()}
        if op == "state":
            self._wait_markers(int(request["markers"]))
            self._flush_pixels()
            answer = {"state": self.stage.control.state()}
            if request.get("distractors"):
                answer["distractors"] = self.stage.distractor_states()
            return answer
        if op == "distractors":
            self._wait_markers(int(request["markers"]))
            return {"states": self.stage.distractor_states()}
        if op == "measure":  # a distractor's boxes, or without an index the target's
            if request.get("index") is None:
                control = self.stage.control
                return {"boxes": control.boxes(request["goal"]),
                        "reach": control.reach(request["goal"])}
            return {"boxes": self.stage.distractors[int(request["index"])].boxes(
                request["goal"])}
        if op == "probe":
            spec = request["spec"]
            self.stage.show_spec(spec, spec["state"])
            self.probing = spec
            self.recorded = []
            return {"markers": self.markers}
        if op == "take":
            self._wait_markers(int(request["markers"]))
            spec = self.probing
            states, self.recorded, self.probing = self.recorded, [], None
            if spec is not None and spec.get("scene"):  # the page as rendered, pixels too
                self.stage.show_spec(spec, spec["state"])
                self._flush_pixels()
            return {"states": states}
        if op == "objects":
            gc.collect()
            return {"objects": len(gc.get_objects())}
        raise ValueError(f"unknown op {op!r}; expected render, state, distractors, measure, "
                         "probe, take or objects")

    def _flush_pixels(self) -> None:
        """Paint now and make sure the X server has the pixels before we answer."""
        # Every widget whole: after a drag Qt has repainted only the parts that moved,
        # and a scroll bar's antialiased thumb then differs by a level at its corners
        # with the drag's pace; a full repaint gives the same pixels every time.
        for widget in self.stage.shown_widgets():
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
    # The style keeps drawn pieces (gradients, frames) in QPixmapCache, keyed by size and
    # state: every episode's new sizes filled its 10 MiB a little more (the app +0.55 KiB
    # an episode over 5,000, issue #36); 256 KiB holds what one screen reuses (the same
    # soak's readings after a trim: flat).
    QPixmapCache.setCacheLimit(PIXMAP_CACHE_KIB)
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
