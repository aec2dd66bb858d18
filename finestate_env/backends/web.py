"""The web backend: real HTML controls in headless Chromium, driven over DevTools.

Every backend of a process that asks for the same launch shares one browser
(`chromium.SharedBrowser`), each with a page, and so a renderer process, of its
own; `shared_browser=False` gives a backend a browser of its own. The browser is
driven over a DevTools pipe and listens on no port (cdp.py); each backend talks to
its page over a session of its own on that pipe, from whichever thread steps it.
Every render happens inside the backend's page (`FineState.render`), which resolves
once the control is laid out and its fonts are loaded: no fixed sleeps. The page is
served from the project's own files under a host that cannot resolve, and every other
request is aborted (and recorded in `blocked_requests`).

`frames=False` is for a backend that only probes (the reward scorer's, rewards/scorer.py):
its browser is launched under Chromium's begin-frame control and never asked for a frame,
so pages lay out, take real input and report their state as ever, but nothing is
painted, rastered or composited (measured: ~30% less CPU a gesture, the same states).
It has no screenshots to give.

`capture` says how a frame is captured. "begin_frame" (the default; the environment
variable FINESTATE_CAPTURE sets another): the page is made under Chromium's begin-frame
control (the headless shell's --enable-begin-frame-control and
--run-all-compositor-stages-before-draw, a target made with enableBeginFrameControl) and
draws only when asked, so a render or a gesture draws nothing until a capture. A full
capture is one `HeadlessExperimental.beginFrame` with a screenshot. Such a page handles
input only at a frame, so each gesture's events are followed by frames that draw nothing
(noDisplayUpdates) until Chromium has taken them all; a capture marks the page (a
requestAnimationFrame callback set up after everything shown so far: by the render or the
read-back just before it, in the same call, else by a call of its own) and takes frames
until one ran that callback, so that it shows everything done before it (the first frame
after a load or a render can come back without it). A scaled capture (`screenshot_scaled`) is
`Page.captureScreenshot` with a scaled clip, which resizes the view around a frame of its
own: frames are asked for while it waits, and it gives the same pixels as without
begin-frame control. Measured (issue #34, 2 cores, one run; docs/figures.md): the RL
path's episode 26.5 ms of CPU instead of 52.5, the default path's 75 instead of 107, the
same pixels and states.
"screenshot": `Page.captureScreenshot` on a page that draws on its own, unpaced, every
change (~45-64 ms wall, ~18-22 ms of Chromium's CPU a capture at 1280x720, and the frames
nobody captures besides). A browser that offers no begin-frame control (a headed one, or
one whose DevTools lack HeadlessExperimental.beginFrame) is captured the "screenshot" way.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import time
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import numpy as np
import pyspng

from finestate_env import components
from finestate_env.backends.base import Backend, BackendCrashed, Measured, Point, Rendered
from finestate_env.backends.cdp import CdpChannel, CdpConnectionLost, CdpError, call_expression
from finestate_env.backends.chromium import (
    BROWSERS,
    LAUNCH_ARGS,
    BrowserDidNotStart,
    SharedBrowser,
    find_chromium,
)
from finestate_env.core.schema import Boxes, Gesture, LiveSpec

log = logging.getLogger("finestate.web")

WEB_ROOT = Path(components.__file__).parent / "web"
ORIGIN = "http://finestate.invalid"  # .invalid never resolves: nothing can leak to a real host
# The stage page's Content-Security-Policy: only the project's own files run (no inline
# script, no inline event handler, no eval, no plugin, no frame), so markup that got into
# a page from data (components/domain.py refuses it first) still cannot run. DevTools'
# own calls (Runtime.evaluate) are the backend's, and CSP does not apply to them.
STAGE_CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
             "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
             "form-action 'none'; frame-src 'none'")
# What stage.js's render answers on a page changed by script (checkIntact).
PAGE_TAMPERED = "FineState: the page was changed by script"
CONTENT_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css",
                  ".woff2": "font/woff2", ".ttf": "font/ttf", ".png": "image/png"}
# Intermediate pointer moves of a drag: the controls only need to see motion.
DRAG_STEPS = 4
# Renders on one page before a fresh one replaces it (WebBackend._renew_page): bounds the
# renderer's memory; a new page costs ~0.1 s, so 250 renders of ~0.1 s make it ~0.4%.
RENEW_EVERY = 250
# How frames are captured (WebBackend's `capture`; the module docstring).
CAPTURES = ("screenshot", "begin_frame")
CAPTURE_VARIABLE = "FINESTATE_CAPTURE"
# A page under begin-frame control draws only when asked: the headless shell's switches.
BEGIN_FRAME_ARGS = ("--enable-begin-frame-control", "--run-all-compositor-stages-before-draw")
# Under begin-frame control, an unlimited frame rate sets the browser's frame source spinning
# (measured: a renderer and the GPU process at ~40% of a core between calls): frames come
# when asked, so the limit costs nothing.
UNPACED = "--disable-frame-rate-limit"
# The marker a capture waits for (begin-frame control): a frame callback set up after
# everything shown so far; the frame that runs it draws all of that.
_MARK = ("(() => { const n = (window.__fineStateMark = (window.__fineStateMark || 0) + 1); "
         "requestAnimationFrame(() => { window.__fineStateDrawn = n; }); return n; })()")
_DRAWN = "window.__fineStateDrawn"
_FRAME = ("HeadlessExperimental.beginFrame",
          {"screenshot": {"format": "png", "optimizeForSpeed": True}})
_INPUT_FRAME = ("HeadlessExperimental.beginFrame", {"noDisplayUpdates": True})
_DRAWING_FRAME = ("HeadlessExperimental.beginFrame", {})
# How long input gets to answer after each frame fed to it (WebBackend._send_input): a
# gesture's events taken at a frame answer about when the frame does, and often just after.
# Frames fed back to back outran the answers on a busy machine (measured at load 6: a
# drag's 7 events took 2.8 frames on average and up to 46, with 1 ms to settle 1.2 and 4).
INPUT_SETTLE_S = 0.001


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
    # DevTools session of its own, from any thread (cdp.py).
    concurrent_steps = True

    def __init__(self, viewport: tuple[int, int] = (1280, 720), headless: bool = True,
                 timeout_s: float = 10.0, chromium: str | None = None,
                 shared_browser: bool = True, renew_every: int = RENEW_EVERY,
                 frames: bool = True, browser_group: int | str | None = None,
                 timeout_ms: float | None = None, capture: str | None = None) -> None:
        """`timeout_s`: how long a call to the page may take before the page counts as
        hung (BackendCrashed). `shared_browser`: the page shares a browser with the other
        backends of this process made alike (False: a browser of its own);
        `browser_group`: of those, only with the ones of the same group (make_vec spreads
        its envs over groups: env/vector.py). `timeout_ms` is the old name of timeout_s,
        in milliseconds. `capture`: "screenshot" or "begin_frame" (the module docstring;
        None: the environment variable FINESTATE_CAPTURE, else "begin_frame")."""
        if timeout_ms is not None:
            warnings.warn("WebBackend's timeout_ms is now timeout_s (seconds), as every "
                          "backend names it", DeprecationWarning, stacklevel=2)
            timeout_s = timeout_ms / 1000
        if isinstance(renew_every, bool) or not isinstance(renew_every, int) or renew_every < 0:
            raise ValueError(f"renew_every must be a whole number of renders (0: never), "
                             f"got {renew_every!r}")
        self.renew_every = renew_every
        self._renders = 0
        self.viewport = (int(viewport[0]), int(viewport[1]))
        self.headless = headless
        self.timeout_s = float(timeout_s)
        self.chromium = chromium
        self.shared_browser = bool(shared_browser)
        if browser_group is not None and not isinstance(browser_group, int | str):
            raise ValueError(f"browser_group must be a number or a name, got {browser_group!r}")
        self.browser_group = browser_group
        if not isinstance(frames, bool):
            raise ValueError(f"frames must be True or False, got {frames!r}")
        self.frames = frames
        if capture is None:
            capture = os.environ.get(CAPTURE_VARIABLE) or "begin_frame"
        if capture not in CAPTURES:
            raise ValueError(f"capture must be one of {CAPTURES}, got {capture!r}")
        self.capture = capture
        # Frames drawn only when asked (begin_frame), where the browser offers it: headless.
        self._begin_frames = frames and headless and capture == "begin_frame"
        self.blocked_requests: list[str] = []
        self._browser: SharedBrowser | None = None
        self._cdp: CdpChannel | None = None  # the page's DevTools session
        self._pointer_moved = False
        # (page, marker) set up by the last render or read-back (_marking), for the next
        # full capture, until a frame is asked for (_frame)
        self._mark: tuple[CdpChannel, int] | None = None
        self._calls = 0  # calls to the page so far (_call): what was done since
        # (spec's JSON, _calls) when the page was left probing that spec, restored (probe)
        self._probe_left: tuple[str, int] | None = None
        self.probe_renders = 0  # probes that had to show their spec (the others went on)
        self.tampered_pages = 0  # pages replaced because script changed them (_showing)

    # -- lifecycle ---------------------------------------------------------
    def start(self) -> None:
        if self._cdp is not None:
            return
        launch = {"executable": self.chromium or find_chromium(self.headless),
                  "headless": self.headless, "args": self._launch_args(),
                  "page": self._context_options()}
        if self.browser_group is not None:  # a browser of its own per group
            launch["group"] = self.browser_group
        if self._begin_frames:
            launch["begin_frames"] = True
        try:
            self._browser = BROWSERS.acquire(launch, private=not self.shared_browser,
                                             timeout_s=self.timeout_s)
            self._open_page()
            if self._begin_frames and not self._frames_offered():
                # This browser has no begin-frame control: captured the other way, in a
                # browser started without the switches.
                warnings.warn(f"{launch['executable']} offers no begin-frame control "
                              "(HeadlessExperimental.beginFrame): frames are captured with "
                              "Page.captureScreenshot", RuntimeWarning, stacklevel=2)
                self.close()
                self._begin_frames = False
                self.start()
                return
        except (CdpConnectionLost, CdpError) as exc:
            # The browser died as it started or opened its page (killed again as it
            # restarted): a crash like any other, which the caller may retry, not a bug.
            crashed = self._browser.crashed if self._browser is not None else None
            why = crashed or (str(exc) if isinstance(exc, CdpConnectionLost) else None)
            self.close()
            if why is None:
                raise
            raise BackendCrashed(f"Chromium died as it started: {why}") from exc
        except BrowserDidNotStart as exc:
            self.close()
            raise BackendCrashed(str(exc)) from exc
        except BaseException:
            self.close()
            raise

    def _open_page(self) -> None:
        page = self._browser.new_page()
        try:
            page.on("Fetch.requestPaused", lambda event: self._serve(page, event))
            page.send("Fetch.enable", {"patterns": [{"urlPattern": "*",
                                                     "requestStage": "Request"}]})
            page.navigate(f"{ORIGIN}/stage.html")
        except BaseException:
            self._browser.close_page(page)
            raise
        self._cdp = page
        self._probe_left = None
        self._page_ready()
        self._renders = 0

    def _frames_offered(self) -> bool:
        """Whether the page answers a begin-frame request (a browser lacking the domain
        or the switches says it does not know the command, or refuses it)."""
        try:
            self._frame(_INPUT_FRAME)
            return True
        except CdpError:
            return False

    @property
    def begin_frames(self) -> bool:
        """Whether frames are captured under begin-frame control (capture "begin_frame" in
        a browser that offers it)."""
        return self._begin_frames

    def _renew_page(self) -> None:
        """A fresh page, so a fresh renderer process, in place of this one.

        A renderer's heap grows over thousands of renders (measured: 187 MiB of PSS
        after 250 page episodes, 260 after 1,500) and is not given back; a new page
        starts from a new process. The browser and the other envs' pages stay.
        """
        old = self._cdp
        self._open_page()  # first: the browser never drops to no page at all
        self._browser.close_page(old)

    def _launch_args(self) -> list[str]:
        # No --remote-debugging-port: the browser is driven over a pipe (chromium.py).
        # Without frames: the display draws only when asked through DevTools
        # (HeadlessExperimental.beginFrame), which nothing here does.
        if self._begin_frames:  # drawn only when a capture asks (the module docstring)
            return [*(arg for arg in LAUNCH_ARGS if arg != UNPACED), *BEGIN_FRAME_ARGS]
        return [*LAUNCH_ARGS, *(() if self.frames else ("--enable-begin-frame-control",))]

    def _context_options(self) -> dict[str, Any]:
        """What kind of screen the page is on (chromium.SharedBrowser's `page`, named as
        Playwright's context options)."""
        return {"viewport": {"width": self.viewport[0], "height": self.viewport[1]},
                "device_scale_factor": 1}

    def _page_ready(self) -> None:
        """Called once the stage page has loaded, before the first render."""

    def close(self) -> None:
        if self._cdp is not None and self._browser is not None:
            self._browser.close_page(self._cdp)
        if self._browser is not None:
            BROWSERS.release(self._browser)  # the last user closes the browser
        self._browser = self._cdp = None
        self._probe_left = None

    def _dead(self) -> str | None:
        """Why this backend's page or its browser is dead, or None."""
        if self._browser is not None and self._browser.crashed:
            return self._browser.crashed
        return self._cdp.lost if self._cdp is not None else None

    def _serve(self, page: CdpChannel, event: dict) -> None:
        """Answer a request of `page` (on the pipe's events thread: no waiting for replies)."""
        request_id, url = event["params"]["requestId"], event["params"]["request"]["url"]
        with suppress(CdpConnectionLost):  # a page closed meanwhile needs no answer
            if url.startswith(ORIGIN + "/"):
                name = url[len(ORIGIN) + 1:].split("?")[0]
                path = (WEB_ROOT / name).resolve()
                if path.parent == WEB_ROOT.resolve() and path.is_file():
                    body = stage_html().encode() if name == "stage.html" else path.read_bytes()
                    content_type = CONTENT_TYPES.get(path.suffix, "application/octet-stream")
                    headers = [{"name": "content-type", "value": content_type},
                               {"name": "content-length", "value": str(len(body))}]
                    if name == "stage.html":
                        headers.append({"name": "content-security-policy", "value": STAGE_CSP})
                    page.notify("Fetch.fulfillRequest", {
                        "requestId": request_id, "responseCode": 200, "responsePhrase": "OK",
                        "responseHeaders": headers,
                        "body": base64.b64encode(body).decode()})
                    return
            self.blocked_requests.append(url)
            page.notify("Fetch.failRequest", {"requestId": request_id,
                                              "errorReason": "BlockedByClient"})

    def _call(self, what: str, fn):
        """Run a call to the page over its DevTools session, turning a dead browser or
        page into BackendCrashed."""
        if self._cdp is None:
            self.start()
        self._calls += 1
        try:
            return fn()
        except (CdpConnectionLost, CdpError) as exc:
            why = self._death_in(exc)
            if why is None:
                raise
            self.close()
            raise BackendCrashed(f"Chromium died during {what}: {why}") from exc

    def _death_in(self, exc: Exception) -> str | None:
        """Why the browser or the page is dead, if `exc` comes from that; else None."""
        if self._dead():
            return self._dead()
        if isinstance(exc, CdpConnectionLost):
            return str(exc)
        # A page whose renderer died may answer with a bare "Internal error" before
        # Chromium's crash event arrives.
        return None if self._page_alive() else "page crashed"

    def _page_alive(self) -> bool:
        try:
            self._cdp.evaluate("1")
            return True
        except (CdpConnectionLost, CdpError):
            return False

    def ensure_alive(self) -> None:
        """Restart the browser if it died since the last call."""
        if self._cdp is not None and self._dead():
            self.close()
        self.start()

    # -- the interface -----------------------------------------------------
    def _before_render(self) -> None:
        self.ensure_alive()
        self._renders += 1
        if self.renew_every and self._renders > self.renew_every:
            self._call("page renewal", self._renew_page)
            self._renders = 1

    def render(self, spec: LiveSpec) -> Rendered:
        # The stage page loaded every asset at start: a render needs no request.
        self._before_render()
        self._park_pointer()
        result = self._showing("render", lambda: self._marking(
            call_expression("FineState.prepare", spec.renderer_spec())))
        return Rendered.from_report(result)

    def render_current(self, spec: LiveSpec) -> tuple[Boxes, Any]:
        self._before_render()
        self._park_pointer()
        result = self._showing("render", lambda: self._marking(
            call_expression("FineState.prepareCurrent", spec.renderer_spec())))
        return Boxes(**result["current"]), result["state"]

    def _showing(self, what: str, fn):
        """A call that shows an instance (stage.js `render`). A page that was changed by
        script its CSP blocked, or that gained a global none of the project's scripts
        defines, refuses to show anything more (stage.js, checkIntact): it is replaced by a
        fresh page (a fresh renderer process, nothing of the old one kept) and the call is
        made there; `tampered_pages` counts them."""
        try:
            return self._call(what, fn)
        except CdpError as exc:
            if PAGE_TAMPERED not in str(exc):
                raise
            message = str(exc)
            log.warning("%s: the next instance is shown on a fresh page",
                        message[message.index(PAGE_TAMPERED):].split("\n", 1)[0])
            self.tampered_pages += 1
            self._call("page renewal", self._renew_page)
            self._renders = 1
            return self._call(what, fn)

    def measure(self, goal: Any) -> Measured:
        result = self._call("measure", lambda: self._cdp.call(
            "goal => FineState.measure(goal)", goal))
        return Measured(boxes=Boxes(**result["boxes"]), reach=result["reach"])

    def probe(self, spec: LiveSpec, gesture: Gesture,
              pairs: Sequence[tuple[Point, Point]]) -> list[Any]:
        # Many gestures in one pipeline; the page records each one's state and
        # restores the current state itself on a marker key (stage.js,
        # "Probing"), so a probe costs no round trip of its own. Each gesture starts
        # with the pointer parked in the corner, as an episode's gesture does after
        # its render (_park_pointer): the control is hovered from the same place.
        #
        # The page is left probing `spec`, restored and with the pointer parked, as it is
        # between two gestures of one pipeline: a next probe of the same spec with no
        # other call to the page in between (a reward server's next completions of one
        # instance) goes on from there without rendering it again.
        shown = json.dumps(spec.renderer_spec(), sort_keys=True, allow_nan=False)
        self._before_render()  # counts toward the page's renewal, which shows nothing
        left, self._probe_left = self._probe_left, None
        if left != (shown, self._calls):
            self._showing("probe set-up", lambda: self._cdp.call(
                "spec => FineState.startProbing(spec)", spec.renderer_spec()))
            self.probe_renders += 1
        states: list[Any] = []
        for start in range(0, len(pairs), PROBE_BATCH):
            commands = []
            for p0, p1 in pairs[start:start + PROBE_BATCH]:
                commands += ([PARK] + self._gesture_events(gesture, p0, p1)
                             + [PROBE_KEY_DOWN])
            # One release for the batch (keys do not repeat), then the pointer parked as
            # after a render: no hover left on the restored control.
            commands += [PROBE_KEY_UP, PARK]
            self._pointer_moved = True  # until the batch is known to have gone through
            # Frames fed to a long batch each take some of it: none is left to settle.
            self._call("probes", lambda batch=commands: self._send_input(batch, settle_s=0.0))
            states += self._call("probe read-back", lambda: self._cdp.evaluate(
                "FineState.takeProbes()"))
        self._pointer_moved = False
        if len(states) != len(pairs):
            raise RuntimeError(f"probing recorded {len(states)} states for "
                               f"{len(pairs)} gestures; the marker key was lost")
        self._probe_left = (shown, self._calls)
        return states

    @contextmanager
    def _probing(self, spec: LiveSpec) -> Iterator[None]:
        """The page records probes of `spec` (shown in its current state) meanwhile."""
        # Showing `spec` is a render: it counts toward the page's renewal, so that a run of
        # probes alone (a reward server) keeps the renderer's memory bounded too.
        self._before_render()
        self._call("probe set-up", lambda: self._cdp.call(
            "spec => FineState.startProbing(spec)", spec.renderer_spec()))
        try:
            yield
        finally:
            if self._cdp is not None:
                self._call("probe clean-up", lambda: self._cdp.evaluate("FineState.stopProbing()"))

    def screenshot(self) -> np.ndarray:
        return self._capture({})

    def screenshot_scaled(self, scale: float) -> np.ndarray:
        """The screen drawn at `scale` (in (0, 1]) of the screenshot's size, for a small
        observation: Chromium lays the page out as ever but rasterises and encodes it at
        that scale (captureScreenshot's clip.scale), which costs the browser ~10 ms of CPU
        less than a full screenshot of a freshly rendered page (measured at 1280x720 to
        299x168). Not the full screenshot's pixels downsampled. A lone control gives the
        same pixels every time; an app page does not always (a few grey levels around its
        icons), so the env asks for lone controls only."""
        # The clip is in CSS px; Chromium multiplies its scale by the device scale factor.
        width, height = self.layout_viewport
        return self._capture({"clip": {"x": 0, "y": 0, "width": width, "height": height,
                                       "scale": scale}})

    def _capture(self, params: dict) -> np.ndarray:
        if not self.frames:
            raise RuntimeError("this web backend draws no frames (frames=False, for probing "
                               "alone): it has no screenshot to give")
        if self._begin_frames and not params:
            data = self._call("screenshot", self._begin_frame)
        else:
            # CDP's captureScreenshot with optimizeForSpeed is ~2x faster than
            # page.screenshot(); pyspng decodes ~10x faster than Pillow, same pixels. Under
            # begin-frame control (a scaled clip) its frame is drawn only when asked for.
            feed = (lambda: self._frame(_DRAWING_FRAME)) if self._begin_frames else None
            data = self._call("screenshot", lambda: self._cdp.send_pipelined(
                [("Page.captureScreenshot",
                  {"format": "png", "optimizeForSpeed": True, **params})], feed))[0]["data"]
        image = pyspng.load(base64.b64decode(data))
        return np.ascontiguousarray(image[:, :, :3])

    def _begin_frame(self) -> str:
        """One frame drawn under begin-frame control and captured (base64 PNG): frames are
        asked for until one has run the marker set up first, so that the frame shows
        everything done before this call. (Marker, frame and check sent in one pipeline
        missed the marker in about half the captures, each miss a full frame more.)"""
        pending, self._mark = self._mark, None
        mark = pending[1] if pending and pending[0] is self._cdp else self._cdp.evaluate(_MARK)
        deadline = time.monotonic() + self.timeout_s
        while True:
            shot = self._frame(_FRAME)
            if "screenshotData" in shot and self._cdp.evaluate(_DRAWN) == mark:
                return shot["screenshotData"]
            if time.monotonic() > deadline:
                raise CdpConnectionLost(f"no frame showed the page within {self.timeout_s:g} s")

    def _send_input(self, events: Sequence[tuple[str, dict]],
                    settle_s: float = INPUT_SETTLE_S) -> list[Any]:
        """Send input `events` back to back, until Chromium has taken each: under
        begin-frame control a page handles input at a frame only, so frames that draw
        nothing are asked for meanwhile, each followed by up to `settle_s` for the answers."""
        if not self._begin_frames:
            return self._cdp.send_pipelined(events)
        return self._cdp.send_pipelined(events, lambda: self._frame(_INPUT_FRAME),
                                        settle_s=settle_s)

    def _frame(self, request: tuple[str, dict]) -> dict:
        """One begin-frame request, alone in its browser (chromium.SharedBrowser.frame_lock)."""
        self._mark = None  # this frame may run the marker's callback, and draw or not
        with self._browser.frame_lock:
            return self._cdp.send(*request)

    def perform(self, gesture: Gesture, p0: tuple[float, float], p1: tuple[float, float]) -> None:
        events = self._gesture_events(gesture, p0, p1)
        self._pointer_moved = True
        self._call(f"a {gesture}", lambda: self._send_input(events))

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
            self._call("pointer reset", lambda: self._send_input([PARK]))
            self._pointer_moved = False

    def _marking(self, expression: str) -> Any:
        """The value of page `expression` (a promise: awaited). Under
        begin-frame control the capture's marker is set up in the same round trip, after
        the call: a render or a gesture's read-back comes just before a capture (the env's
        reset and step), whose frame then needs no call of its own to mark the page."""
        if not self._begin_frames:
            return self._cdp.evaluate(expression)
        value, mark = self._cdp.evaluate(
            f"Promise.resolve({expression}).then(value => [value, {_MARK}])")
        self._mark = (self._cdp, mark)
        return value

    def read_state(self) -> Any:
        return self._call("state read-back", lambda: self._marking("FineState.state()"))

    def read_distractors(self) -> list[Any]:
        return self._call("distractor read-back",
                          lambda: self._cdp.evaluate("FineState.distractorStates()"))

    def read_state_and_distractors(self) -> tuple[Any, list[Any]]:
        state, distractors = self._call("read-back", lambda: self._marking(
            "[FineState.state(), FineState.distractorStates()]"))
        return state, distractors

    def evaluate(self, script: str, arg: Any = None) -> Any:
        """Run page script (for tests and tools; the env never uses it to set state).

        As Playwright's page.evaluate: `script` is an expression, whose value is returned,
        or a function, called with `arg` (JSON values); a promise is awaited."""
        return self._call("evaluate", lambda: self._cdp.evaluate(_EVALUATE.format(
            source=json.dumps(script), arg=json.dumps(arg))))

    def __repr__(self) -> str:
        return f"WebBackend(viewport={self.viewport!r}, running={self._cdp is not None})"


# WebBackend.evaluate's page script: a source that parses in parentheses is an
# expression (a function among them), else statements (Playwright's rule).
_EVALUATE = """(async () => {{
  const source = {source};
  let wrapped = true;
  try {{ new Function("(" + source + ")"); }} catch (e) {{ wrapped = false; }}
  const value = (0, eval)(wrapped ? "(" + source + ")" : source);
  return typeof value === "function" ? await value({arg}) : await value;
}})()"""


def _mouse(kind: str, point: tuple[float, float], buttons: int = 0,
           clicks: int = 0) -> tuple[str, dict]:
    # The same trusted input events Playwright's page.mouse sends, on our own
    # CDP session: no round trip through the driver's own logic.
    return ("Input.dispatchMouseEvent", {
        "type": kind, "x": float(point[0]), "y": float(point[1]),
        "button": "left" if buttons or kind == "mouseReleased" else "none",
        "buttons": buttons, "clickCount": clicks})


# Where the pointer waits between gestures: the page's corner, on no control.
PARK = _mouse("mouseMoved", (0.0, 0.0))
# After each probe gesture: a press of the key the page's probe recorder listens
# for (stage.js). Each CDP command costs ~0.5 ms through the driver, so the key is
# released once per batch, not after every press.
PROBE_KEY_DOWN, PROBE_KEY_UP = (("Input.dispatchKeyEvent", {
    "type": kind, "key": "F24", "code": "F24", "windowsVirtualKeyCode": 135})
    for kind in ("rawKeyDown", "keyUp"))
# Probes per pipeline: bounds what one failure can take with it.
PROBE_BATCH = 200
