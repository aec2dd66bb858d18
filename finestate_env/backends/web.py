"""The web backend: real HTML controls in headless Chromium, driven by Playwright.

Every backend of a process that asks for the same launch shares one browser
(`chromium.SharedBrowser`), each with a page, and so a renderer process, of its
own; `shared_browser=False` gives a backend a browser of its own. Every render
happens inside the backend's page (`FineState.render`), which resolves once the
control is laid out and its fonts are loaded: no fixed sleeps. The page is served
from the project's own files under a host that cannot resolve, and every other
request is aborted (and recorded in `blocked_requests`).
"""

from __future__ import annotations

import base64
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pyspng
from playwright.sync_api import Error as PlaywrightError

from finestate_env import components
from finestate_env.backends.base import Backend, BackendCrashed, Measured, Rendered
from finestate_env.backends.cdp import CdpChannel, CdpConnectionLost, CdpError
from finestate_env.backends.chromium import (
    BROWSERS,
    DRIVER,
    LAUNCH_ARGS,
    SharedBrowser,
    find_chromium,
)
from finestate_env.core.schema import Boxes, Gesture, LiveSpec

WEB_ROOT = Path(components.__file__).parent / "web"
ORIGIN = "http://finestate.invalid"  # .invalid never resolves: nothing can leak to a real host
_CONTENT_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css",
                  ".woff2": "font/woff2", ".ttf": "font/ttf", ".png": "image/png"}
# Intermediate pointer moves of a drag: the controls only need to see motion.
DRAG_STEPS = 4
# Renders on one page before a fresh one replaces it (WebBackend._renew_page): bounds the
# renderer's memory; a new page costs ~0.1 s, so 250 renders of ~0.1 s make it ~0.4%.
RENEW_EVERY = 250


def stage_html() -> str:
    """The stage page plus each component's own stylesheet and script found in WEB_ROOT."""
    page = (WEB_ROOT / "stage.html").read_text()
    styles = "".join(f'<link rel="stylesheet" href="{p.name}">\n'
                     for p in sorted(WEB_ROOT.glob("*.css")) if p.name != "stage.css")
    scripts = "".join(f'<script src="{p.name}"></script>\n'
                      for p in sorted(WEB_ROOT.glob("*.js")) if p.name != "stage.js")
    return page.replace("</head>", styles + "</head>").replace("</body>", scripts + "</body>")


class WebBackend(Backend):
    platform = "web"
    # Envs stepped from threads (env/vector.py): each backend talks to its own page over a
    # DevTools connection of its own, and hands its Playwright calls to the owner thread.
    concurrent_steps = True

    def __init__(self, viewport: tuple[int, int] = (1280, 720), headless: bool = True,
                 timeout_ms: float = 10_000, chromium: str | None = None,
                 shared_browser: bool = True, renew_every: int = RENEW_EVERY) -> None:
        if isinstance(renew_every, bool) or not isinstance(renew_every, int) or renew_every < 0:
            raise ValueError(f"renew_every must be a whole number of renders (0: never), "
                             f"got {renew_every!r}")
        self.renew_every = renew_every
        self._renders = 0
        self.viewport = (int(viewport[0]), int(viewport[1]))
        self.headless = headless
        self.timeout_ms = timeout_ms
        self.chromium = chromium
        self.shared_browser = bool(shared_browser)
        self.blocked_requests: list[str] = []
        self._browser: SharedBrowser | None = None
        self._page = None
        self._cdp: CdpChannel | None = None
        self._crashed: str | None = None
        self._pointer_moved = False

    # -- lifecycle ---------------------------------------------------------
    def start(self) -> None:
        if self._page is None:
            DRIVER.call(self._start)  # Playwright's, so its owner thread's (chromium._Driver)

    def _start(self) -> None:
        self._crashed = None
        launch = {"executable_path": self.chromium or find_chromium(self.headless),
                  "headless": self.headless, "args": self._launch_args(),
                  "service_workers": "block", **self._context_options()}
        self._browser = BROWSERS.acquire(launch, private=not self.shared_browser)
        try:
            self._open_page()
        except BaseException:
            self.close()
            raise

    def _open_page(self) -> None:
        self._page = self._browser.new_page()
        self._page.route("**/*", self._serve)
        self._page.set_default_timeout(self.timeout_ms)
        self._page.on("crash", lambda _: self._mark_crashed("page crashed"))
        self._page.goto(f"{ORIGIN}/stage.html", wait_until="load")
        self._cdp = self._open_cdp_channel()
        self._page_ready()
        self._renders = 0

    def _renew_page(self) -> None:
        """A fresh page, so a fresh renderer process, in place of this one.

        A renderer's heap grows over thousands of renders (measured: 187 MiB of PSS
        after 250 page episodes, 260 after 1,500) and is not given back; a new page
        starts from a new process. The browser and the other envs' pages stay.
        """
        old_page, old_cdp = self._page, self._cdp
        self._open_page()  # first: a context never drops to no page at all
        old_cdp.close()
        try:
            old_page.close()
        except PlaywrightError:  # already gone: the new page is what counts
            pass

    def _launch_args(self) -> list[str]:
        # Port 0: Chromium picks a free loopback port and writes it to the
        # profile's DevToolsActivePort file (read by _open_cdp_channel).
        return [*LAUNCH_ARGS, "--remote-debugging-port=0", "--remote-debugging-address=127.0.0.1"]

    def _open_cdp_channel(self) -> CdpChannel:
        """Our own DevTools connection to the page (cdp.py says why)."""
        port = self._browser.devtools_port(self.timeout_ms / 1000)
        session = self._page.context.new_cdp_session(self._page)
        try:
            target = session.send("Target.getTargetInfo")["targetInfo"]["targetId"]
        finally:
            session.detach()
        return CdpChannel(f"ws://127.0.0.1:{port}/devtools/page/{target}",
                          timeout=self.timeout_ms / 1000)

    def _context_options(self) -> dict[str, Any]:
        """Playwright's new_context options: what kind of screen the page is on."""
        return {"viewport": {"width": self.viewport[0], "height": self.viewport[1]},
                "device_scale_factor": 1}

    def _page_ready(self) -> None:
        """Called once the stage page has loaded, before the first render."""

    def close(self) -> None:
        DRIVER.call(self._close)

    def _close(self) -> None:
        if self._cdp is not None:
            self._cdp.close()
        if self._page is not None and not self._dead():
            try:
                self._page.close()
            except PlaywrightError:  # already dead: closing must still finish
                pass
        if self._browser is not None:
            BROWSERS.release(self._browser)  # the last user closes the browser
        self._browser = self._page = self._cdp = None

    def _mark_crashed(self, why: str) -> None:
        self._crashed = why

    def _dead(self) -> str | None:
        """Why this backend's page or its browser is dead, or None."""
        return self._crashed or (self._browser.crashed if self._browser is not None else None)

    def _serve(self, route) -> None:
        url = route.request.url
        if url.startswith(ORIGIN + "/"):
            name = url[len(ORIGIN) + 1:].split("?")[0]
            path = (WEB_ROOT / name).resolve()
            if path.parent == WEB_ROOT.resolve() and path.is_file():
                body = stage_html().encode() if name == "stage.html" else path.read_bytes()
                content_type = _CONTENT_TYPES.get(path.suffix, "application/octet-stream")
                route.fulfill(status=200, body=body, content_type=content_type)
                return
        self.blocked_requests.append(url)
        route.abort("blockedbyclient")

    def _call(self, what: str, fn):
        """Run a call to the browser (Playwright or our DevTools connection),
        turning a dead browser or page into BackendCrashed."""
        if self._page is None:
            self.start()
        try:
            return fn()
        except (CdpConnectionLost, CdpError, PlaywrightError) as exc:
            why = self._death_in(exc)
            if why is None:
                raise
            self.close()
            raise BackendCrashed(f"Chromium died during {what}: {why}") from exc

    def _death_in(self, exc: Exception) -> str | None:
        """Why the browser or the page is dead, if `exc` comes from that; else None.

        Playwright's crash and close events may not have been dispatched yet
        when a call fails, so the error itself counts too.
        """
        if self._dead():
            return self._dead()
        if isinstance(exc, CdpConnectionLost):
            return str(exc)
        if isinstance(exc, CdpError):
            # A page whose renderer died answers our connection with a bare "Internal error".
            return None if self._page_alive() else "page crashed"
        message = str(exc)
        if (self._browser is None or "Target crashed" in message
                or "has been closed" in message):
            return message.splitlines()[0]
        return None

    def _page_alive(self) -> bool:
        try:
            DRIVER.call(lambda: self._page.evaluate("1"))
            return True
        except PlaywrightError:
            return False

    def ensure_alive(self) -> None:
        """Restart the browser if it died since the last call."""
        if self._page is not None and self._dead():
            self.close()
        self.start()

    @staticmethod
    def serve_until(futures: Sequence[Future]) -> None:
        """Wait for envs stepped from threads, running the Playwright calls they hand to
        this thread meanwhile (Playwright's sync API is its owner thread's)."""
        DRIVER.serve_until(futures)

    # -- the interface -----------------------------------------------------
    def _before_render(self) -> None:
        self.ensure_alive()
        self._renders += 1
        if self.renew_every and self._renders > self.renew_every:
            self._call("page renewal", lambda: DRIVER.call(self._renew_page))
            self._renders = 1

    def render(self, spec: LiveSpec) -> Rendered:
        # Over our own connection (cdp.py): the stage page loaded every asset at start, so
        # a render needs no request, and none waits for Playwright's route handler (run
        # only while the owner thread is inside a Playwright call).
        self._before_render()
        self._park_pointer()
        result = self._call("render", lambda: self._cdp.call(
            "spec => FineState.prepare(spec)", spec.renderer_spec()))
        return Rendered.from_report(result)

    def render_current(self, spec: LiveSpec) -> tuple[Boxes, Any]:
        self._before_render()
        self._park_pointer()
        result = self._call("render", lambda: self._cdp.call(
            "spec => FineState.prepareCurrent(spec)", spec.renderer_spec()))
        return Boxes(**result["current"]), result["state"]

    def measure(self, goal: Any) -> Measured:
        result = self._call("measure", lambda: self._cdp.call(
            "goal => FineState.measure(goal)", goal))
        return Measured(boxes=Boxes(**result["boxes"]), reach=result["reach"])

    def probe(self, spec: LiveSpec, gesture: Gesture, p0: tuple[float, float],
              p1_points: Sequence[tuple[float, float]]) -> list[Any]:
        # Many gestures in one pipeline; the page records each one's state and
        # restores the current state itself on a marker key (stage.js,
        # "Probing"), so a probe costs no round trip of its own.
        self._park_pointer()
        states: list[Any] = []
        with self._probing(spec):
            for start in range(0, len(p1_points), PROBE_BATCH):
                commands = []
                for p1 in p1_points[start:start + PROBE_BATCH]:
                    commands += self._gesture_events(gesture, p0, p1) + [PROBE_KEY_DOWN]
                commands.append(PROBE_KEY_UP)  # one release for the batch: keys do not repeat
                self._pointer_moved = True
                self._call("probes", lambda batch=commands: self._cdp.send_pipelined(batch))
                states += self._call("probe read-back", lambda: self._cdp.evaluate(
                    "FineState.takeProbes()"))
        self._park_pointer()  # as after a render: no hover left on the restored control
        if len(states) != len(p1_points):
            raise RuntimeError(f"probing recorded {len(states)} states for "
                               f"{len(p1_points)} gestures; the marker key was lost")
        return states

    @contextmanager
    def _probing(self, spec: LiveSpec) -> Iterator[None]:
        """The page records probes of `spec` (shown in its current state) meanwhile."""
        self._call("probe set-up", lambda: self._cdp.call(
            "spec => FineState.startProbing(spec)", spec.renderer_spec()))
        try:
            yield
        finally:
            if self._page is not None:
                self._call("probe clean-up", lambda: self._cdp.evaluate("FineState.stopProbing()"))

    def screenshot(self) -> np.ndarray:
        return self._capture({})

    def screenshot_scaled(self, scale: float) -> np.ndarray:
        """The screen drawn at `scale` (in (0, 1]) of the screenshot's size, for a small
        observation: Chromium lays the page out as ever but rasterises and encodes it at
        that scale (captureScreenshot's clip.scale), which costs the browser ~10 ms of CPU
        less than a full screenshot of a freshly rendered page (measured at 1280x720 to
        299x168). Not the full screenshot's pixels downsampled, but as deterministic: the
        same page gives the same pixels."""
        # The clip is in CSS px; Chromium multiplies its scale by the device scale factor.
        width, height = self.layout_viewport
        return self._capture({"clip": {"x": 0, "y": 0, "width": width, "height": height,
                                       "scale": scale}})

    def _capture(self, params: dict) -> np.ndarray:
        # CDP's captureScreenshot with optimizeForSpeed is ~2x faster than
        # page.screenshot(); pyspng decodes ~10x faster than Pillow, same pixels.
        shot = self._call("screenshot", lambda: self._cdp.send(
            "Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True, **params}))
        image = pyspng.load(base64.b64decode(shot["data"]))
        return np.ascontiguousarray(image[:, :, :3])

    def perform(self, gesture: Gesture, p0: tuple[float, float], p1: tuple[float, float]) -> None:
        events = self._gesture_events(gesture, p0, p1)
        self._pointer_moved = True
        self._call(f"a {gesture}", lambda: self._cdp.send_pipelined(events))

    @staticmethod
    def _gesture_events(gesture: Gesture, p0: tuple[float, float],
                        p1: tuple[float, float]) -> list[tuple[str, dict]]:
        """The trusted mouse events of one gesture, as CDP commands.

        They are sent back to back (send_pipelined), as fast real input arrives:
        the page may coalesce consecutive moves into one pointermove per frame
        (the intermediate positions stay in getCoalescedEvents), and presses
        and releases are handled in order after the moves before them.
        """
        if gesture == "tap":
            return [_mouse("mouseMoved", p0), _mouse("mouseMoved", p1),
                    _mouse("mousePressed", p1, buttons=1, clicks=1),
                    _mouse("mouseReleased", p1, buttons=0, clicks=1)]
        if gesture == "drag":
            moves = [_mouse("mouseMoved", (p0[0] + (p1[0] - p0[0]) * i / DRAG_STEPS,
                                           p0[1] + (p1[1] - p0[1]) * i / DRAG_STEPS), buttons=1)
                     for i in range(1, DRAG_STEPS + 1)]
            return ([_mouse("mouseMoved", p0), _mouse("mousePressed", p0, buttons=1, clicks=1)]
                    + moves + [_mouse("mouseReleased", p1, buttons=0, clicks=1)])
        raise ValueError(f"unknown gesture {gesture!r}; expected 'tap' or 'drag'")

    def _park_pointer(self) -> None:
        # The pointer left over from the last action would hover over the next
        # control; park it in the page corner so the same seed gives the same pixels.
        if self._pointer_moved:
            self._call("pointer reset", lambda: self._cdp.send(*_mouse("mouseMoved", (0.0, 0.0))))
            self._pointer_moved = False

    def read_state(self) -> Any:
        return self._call("state read-back", lambda: self._cdp.evaluate("FineState.state()"))

    def read_distractors(self) -> list[Any]:
        return self._call("distractor read-back",
                          lambda: self._cdp.evaluate("FineState.distractorStates()"))

    def read_state_and_distractors(self) -> tuple[Any, list[Any]]:
        state, distractors = self._call("read-back", lambda: self._cdp.evaluate(
            "[FineState.state(), FineState.distractorStates()]"))
        return state, distractors

    def evaluate(self, script: str, arg: Any = None) -> Any:
        """Run page script (for tests and tools; the env never uses it to set state)."""
        return self._call("evaluate", lambda: DRIVER.call(lambda: self._page.evaluate(script, arg)))

    def __repr__(self) -> str:
        return f"WebBackend(viewport={self.viewport!r}, running={self._page is not None})"


def _mouse(kind: str, point: tuple[float, float], buttons: int = 0,
           clicks: int = 0) -> tuple[str, dict]:
    # The same trusted input events Playwright's page.mouse sends, on our own
    # CDP session: no round trip through the driver's own logic.
    return ("Input.dispatchMouseEvent", {
        "type": kind, "x": float(point[0]), "y": float(point[1]),
        "button": "left" if buttons or kind == "mouseReleased" else "none",
        "buttons": buttons, "clickCount": clicks})


# After each probe gesture: a press of the key the page's probe recorder listens
# for (stage.js). Each CDP command costs ~0.5 ms through the driver, so the key is
# released once per batch, not after every press.
PROBE_KEY_DOWN, PROBE_KEY_UP = (("Input.dispatchKeyEvent", {
    "type": kind, "key": "F24", "code": "F24", "windowsVirtualKeyCode": 135})
    for kind in ("rawKeyDown", "keyUp"))
# Probes per pipeline: bounds what one failure can take with it.
PROBE_BATCH = 200
