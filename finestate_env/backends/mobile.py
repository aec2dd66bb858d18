"""The mobile backend: the same HTML controls in Chromium emulating a phone, operated by touch.

The page is laid out on a phone's CSS viewport (360x800 by default) and drawn
at a device scale factor above 1 (3 by default), so the screenshot is the
phone's native resolution (1080x2400). That screenshot's pixels are the only
frame anyone outside this module sees: `viewport` is the screenshot size, the
env's spaces and boxes are in its pixels, and the page measures every box on
that pixel grid itself (stage.js, `setFrame`). Only here are points divided by
the scale factor into the CSS px that touch input takes.

Input is touch, not a mouse (CDP `Input.dispatchTouchEvent`, trusted events
that reach the controls as pointer events with pointerType "touch", and as a
click after a tap):

- `tap`: a finger touches down at p1 and lifts. A touch screen has no hover,
  so p0 performs nothing; it is still scored (SR@Loc) as the locate point.
- `drag`: a finger touches down at p0, moves to p1 in DRAG_STEPS moves, lifts.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from finestate_env.backends.base import Point
from finestate_env.backends.web import DRAG_STEPS, RENEW_EVERY, WebBackend
from finestate_env.core.schema import Gesture, LiveSpec

# A finger's timing, stamped on the events (seconds): a tap is down this long,
# a drag moves once a frame and rests before it lifts (Chromium's velocity
# tracker takes a finger still for 40 ms as stopped: no fling).
TAP_SECONDS = 0.05
MOVE_SECONDS = 0.016
HOLD_SECONDS = 0.1
GESTURE_SECONDS = TAP_SECONDS + DRAG_STEPS * MOVE_SECONDS + HOLD_SECONDS
# A common Android phone: 360x800 CSS px at 3x, a 1080x2400 screen.
DEFAULT_SCREEN = (1080, 2400)
DEFAULT_SCALE = 3.0


class MobileBackend(WebBackend):
    platform = "mobile"

    def __init__(self, viewport: tuple[int, int] = DEFAULT_SCREEN,
                 device_scale_factor: float = DEFAULT_SCALE, headless: bool = True,
                 timeout_s: float = 10.0, chromium: str | None = None,
                 shared_browser: bool = True, renew_every: int = RENEW_EVERY,
                 browser_group: int | str | None = None) -> None:
        super().__init__(viewport=viewport, headless=headless, timeout_s=timeout_s,
                         chromium=chromium, shared_browser=shared_browser,
                         renew_every=renew_every, browser_group=browser_group,
                         # Touch input under begin-frame control is untried: drawn as ever.
                         capture="screenshot")
        scale = float(device_scale_factor)
        if not (1.0 <= scale <= 5.0):
            raise ValueError(
                f"device_scale_factor must be within 1..5, got {device_scale_factor!r}")
        css = (self.viewport[0] / scale, self.viewport[1] / scale)
        if not all(float(side).is_integer() for side in css):
            raise ValueError(
                f"viewport {self.viewport[0]}x{self.viewport[1]} (screenshot pixels) divided by "
                f"device_scale_factor {scale:g} is {css[0]:g}x{css[1]:g} CSS px; both must be "
                "whole, e.g. 1080x2400 at 3 or 1080x2400 at 2.5")
        self.device_scale_factor = scale
        self._layout = (int(css[0]), int(css[1]))

    @property
    def layout_viewport(self) -> tuple[int, int]:
        """The phone's CSS viewport, which control parameters are sampled for."""
        return self._layout

    # -- the phone ---------------------------------------------------------
    def _launch_args(self) -> list[str]:
        # Without it, CDP screenshots come at CSS resolution whatever the
        # emulated scale; with it the page renders and captures at device pixels.
        return [*super()._launch_args(),
                f"--force-device-scale-factor={self.device_scale_factor:g}"]

    def _context_options(self) -> dict[str, Any]:
        return {"viewport": {"width": self._layout[0], "height": self._layout[1]},
                "device_scale_factor": self.device_scale_factor,
                "is_mobile": True, "has_touch": True}

    def _page_ready(self) -> None:
        self._cdp.call("scale => FineState.setFrame(scale)", self.device_scale_factor)

    def screenshot(self) -> np.ndarray:
        image = super().screenshot()
        if image.shape[:2] != (self.viewport[1], self.viewport[0]):
            raise RuntimeError(
                f"Chromium captured {image.shape[1]}x{image.shape[0]} pixels, expected the "
                f"{self.viewport[0]}x{self.viewport[1]} screen: device scale factor not applied")
        return image

    # -- touch input -------------------------------------------------------
    def _gesture_events(self, gesture: Gesture, p0: tuple[float, float],
                        p1: tuple[float, float]) -> list[tuple[str, dict]]:
        """The trusted touch events of one gesture (points in screenshot pixels), for CDP."""
        start, end = self._to_css(p0), self._to_css(p1)
        # Events are sent at once but stamped as a finger would make them (a
        # move every frame, a pause before lifting). Stamped all at one
        # instant, a drag would look infinitely fast: Chromium turns it into a
        # fling, and a fling swallows the click of the next tap (a tap that
        # stops a fling is not a click).
        t0 = time.time() - GESTURE_SECONDS
        if gesture == "tap":
            return [_touch("touchStart", t0, end), _touch("touchEnd", t0 + TAP_SECONDS)]
        if gesture == "drag":
            moves = [_touch("touchMove", t0 + i * MOVE_SECONDS,
                            (start[0] + (end[0] - start[0]) * i / DRAG_STEPS,
                             start[1] + (end[1] - start[1]) * i / DRAG_STEPS))
                     for i in range(1, DRAG_STEPS + 1)]
            lift = t0 + DRAG_STEPS * MOVE_SECONDS + HOLD_SECONDS
            return [_touch("touchStart", t0, start), *moves, _touch("touchEnd", lift)]
        raise ValueError(f"unknown gesture {gesture!r}; expected 'tap' or 'drag'")

    def probe(self, spec: LiveSpec, gesture: Gesture,
              pairs: Sequence[tuple[Point, Point]]) -> list[Any]:
        # The web backend pipelines every probe behind a marker key; touch
        # input is queued apart from keys, so here each gesture's events go
        # back to back, and one call records its state and shows the current
        # state again (stage.js, nextProbe): two round trips a probe.
        states: list[Any] = []
        with self._probing(spec):
            for p0, p1 in pairs:
                events = self._gesture_events(gesture, p0, p1)
                self._call("a probe", lambda batch=events: self._cdp.send_pipelined(batch))
                states.append(self._call("probe read-back", lambda: self._cdp.evaluate(
                    "FineState.nextProbe()")))
        return states

    def _to_css(self, point: tuple[float, float]) -> tuple[float, float]:
        return point[0] / self.device_scale_factor, point[1] / self.device_scale_factor

    def _park_pointer(self) -> None:
        # A finger leaves nothing behind to hover: there is no pointer to park.
        self._pointer_moved = False

    def __repr__(self) -> str:
        return (f"MobileBackend(viewport={self.viewport!r}, css={self._layout!r}, "
                f"scale={self.device_scale_factor:g}, running={self._cdp is not None})")


def _touch(kind: str, timestamp: float,
           point: tuple[float, float] | None = None) -> tuple[str, dict]:
    # A touchEnd lists the fingers still down: none.
    points = [] if point is None else [{"x": float(point[0]), "y": float(point[1]), "id": 0}]
    return ("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points,
                                         "timestamp": timestamp})
