"""The fake backend: the env's contract at full speed, with no browser, no X, no device.

`gym.make("FineState-Web-v0", backend="fake")` (or `FineState-Mobile-v0`,
`FineState-Desktop-v0`; the fake takes the env's platform) gives an env whose every
part but the control is the real one: spaces, observations, info keys and types,
seeding, scenes and levels, goal vectors and `compute_reward`, vector envs (make_vec
steps its envs from threads, as it does the web's), terminal observations, and the
action errors of bad actions. It plays the part AndroidEnv's fake simulator plays
for AndroidEnv: tests of the env's contract run in milliseconds (`make test-fast`).

What it simulates, from the types' own definitions (finestate_env.components) and
simple deterministic geometry, never from the renderers:

- the instance is whatever the env samples (the type's params, current and goal
  states, the page around it), shown as given: rendering reads the current state
  back unchanged;
- the control's extent (`loc`, also its `core`): on a page, its slot; alone, the
  type's own `width` and `height` (2 x `radius` for a dial; else 240 x 120 CSS px)
  placed at its `anchor` as stage.js places it, in the frame scaled by the device
  scale factor (3 on a phone, as the mobile backend's, else 1);
- a state's spot: the extent is cut into a grid of cells (at most 8 x 4, at least
  16 px each), and a state is shown in the cell a digest of its JSON picks. `now`
  is the shown state's cell, `goal` the goal's (the two may coincide);
- a gesture: a `tap` whose p1 lies in the goal box (inclusive edges), or a `drag`
  from the `now` box to the goal box, takes one step of the route to the goal;
  any other gesture changes nothing. The route is as long as the type's own
  `oracle_actions` says (1 unless the env asks for far goals): `measure` reports
  the steps left (`reach`), and the state becomes the goal, exactly, at the last;
- a page's distractors: their states and slots, read back as given (no gesture
  changes them), so the env's collateral check runs and finds nothing;
- screenshots: a deterministic image of flat rectangles: the page's blocks, the
  distractors, the control's extent and its `now` cell, in colours from the
  type, the theme and the state; `screenshot_scaled` gives the full size;
- a crash: `crash()` makes the renderer die; the next gesture, read-back,
  screenshot or measurement raises BackendCrashed, the next render restarts it.

What it does not simulate: any control. Its boxes are not the control's, its states
change only to the exact goal, and nothing about it says whether a real control, its
geometry or its input works: the live truth comes from the real backends (web,
mobile, adb, desktop), which the rest of the suite runs. An agent trained on it
learns nothing about controls.

Options (`backend_options`): `device_scale_factor` (screenshot px per CSS px), the
`components` it renders (default: the platform's, as the real backend's: on the
desktop the Qt renderers' types) and `renders_pages` (default True).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Collection
from typing import Any

import numpy as np

from finestate_env.backends.base import Backend, BackendCrashed, Measured, Rendered
from finestate_env.components import COMPONENTS
from finestate_env.components.base import STAGE_MARGIN
from finestate_env.core.schema import Boxes, BoxSet, Gesture, LiveSpec

PLATFORMS = ("web", "mobile", "desktop")
# The mobile backend's phone: 360x800 CSS px at 3x (backends/mobile.py).
PHONE_SCALE = 3.0
# A lone control with no size of its own in its params (CSS px).
DEFAULT_SIZE = (240, 120)
# The grid of a state's spots: at most this many columns and rows, cells at least CELL px.
MAX_COLUMNS, MAX_ROWS, CELL = 8, 4, 16


def _digest(value: Any) -> int:
    """A number from `value`'s JSON, the same in every process (unlike `hash`)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return int.from_bytes(hashlib.sha1(text.encode()).digest()[:8], "big")


def _colour(value: Any, low: int = 0, high: int = 255) -> tuple[int, int, int]:
    n = _digest(value)
    return tuple(low + (n >> shift) % (high - low + 1) for shift in (0, 16, 32))


def _copy(state: Any) -> Any:
    """A state as a renderer reads it back: a fresh object, never the one it was given."""
    return json.loads(json.dumps(state))


def _fill(image: np.ndarray, box: tuple[int, int, int, int],
          colour: tuple[int, int, int]) -> None:
    """Paint `box` (inclusive edges, clipped to the image) in `colour`."""
    x1, y1, x2, y2 = (max(0, int(v)) for v in box)
    x2, y2 = min(x2, image.shape[1] - 1), min(y2, image.shape[0] - 1)
    if x2 < x1 or y2 < y1:
        return
    # One row of the colour, broadcast over the rows: numpy copies whole rows at once
    # (a bare (3,) colour is copied pixel by pixel, ~15x slower).
    image[y1:y2 + 1, x1:x2 + 1] = np.tile(np.asarray(colour, np.uint8), (x2 - x1 + 1, 1))


def _inside(point: tuple[float, float], box: tuple[float, float, float, float]) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


class FakeBackend(Backend):
    """A backend that simulates, in Python, just enough for the env's contract (the module
    docstring says what, and what not)."""

    # Pure Python, one state per backend: envs may step from threads (env/vector.py).
    concurrent_steps = True

    def __init__(self, viewport: tuple[int, int] = (1280, 720), platform: str = "web",
                 device_scale_factor: float | None = None,
                 components: Collection[str] | None = None,
                 renders_pages: bool = True) -> None:
        if platform not in PLATFORMS:
            raise ValueError(f"platform must be one of {list(PLATFORMS)}, got {platform!r}")
        self._platform = platform
        self.viewport = (int(viewport[0]), int(viewport[1]))
        scale = float(device_scale_factor if device_scale_factor is not None
                      else PHONE_SCALE if platform == "mobile" else 1.0)
        css = (self.viewport[0] / scale, self.viewport[1] / scale)
        if scale <= 0 or not all(float(side).is_integer() for side in css):
            raise ValueError(f"viewport {self.viewport[0]}x{self.viewport[1]} divided by "
                             f"device_scale_factor {scale:g} must be whole CSS px")
        self.device_scale_factor = scale
        self._layout = (int(css[0]), int(css[1]))
        if components is None and platform == "desktop":
            from finestate_env.components.qt import DESKTOP_TYPES

            components = DESKTOP_TYPES
        if components is not None:
            unknown = [c for c in components if c not in COMPONENTS]
            if unknown:
                raise ValueError(f"unknown component {unknown}")
            components = tuple(components)
        self.components = components
        self.renders_pages = bool(renders_pages)
        self.started = False
        self.starts = 0  # how many times it (re)started: a crash's restart counts
        self._crashed = False
        self._spec: LiveSpec | None = None
        self._state: Any = None
        self._goal: Any = None
        self._steps_left = 0
        self._loc: tuple[int, int, int, int] = (0, 0, 0, 0)
        self._grid = (1, 1)
        self._distractors: list[Any] = []
        self._distractor_locs: list[tuple[int, int, int, int]] = []
        self._page: np.ndarray | None = None

    @property
    def platform(self) -> str:
        return self._platform

    @property
    def layout_viewport(self) -> tuple[int, int]:
        return self._layout

    # -- lifecycle ---------------------------------------------------------
    def start(self) -> None:
        if not self.started:
            self.started, self._crashed = True, False
            self.starts += 1

    def ensure_alive(self) -> None:
        if self._crashed:
            self.close()
        self.start()

    def close(self) -> None:
        self.started = False
        self._spec, self._page = None, None

    def crash(self) -> None:
        """The renderer dies, as a browser tab can: every call but render raises
        BackendCrashed until the next render, which restarts it."""
        self._crashed = True

    def _check(self, what: str) -> None:
        if self._crashed:
            raise BackendCrashed(f"the fake renderer crashed before {what}")
        if self._spec is None:
            raise BackendCrashed(f"nothing is shown during {what}: call render first")

    # -- the interface -----------------------------------------------------
    def render(self, spec: LiveSpec) -> Rendered:
        self.ensure_alive()
        if spec.component not in COMPONENTS or (
                self.components is not None and spec.component not in self.components):
            raise ValueError(f"{self!r} renders no {spec.component!r}")
        if spec.scene is not None and not self.renders_pages:
            raise ValueError(f"{self!r} renders lone controls only")
        self._spec = spec
        self._state, self._goal = _copy(spec.current_state), _copy(spec.goal_state)
        self._steps_left = max(1, COMPONENTS[spec.component].oracle_actions(
            spec.params, spec.current_state, spec.goal_state))
        self._loc = self._extent(spec)
        width, height = self._loc[2] - self._loc[0] + 1, self._loc[3] - self._loc[1] + 1
        self._grid = (max(1, min(MAX_COLUMNS, width // CELL)),
                      max(1, min(MAX_ROWS, height // CELL)))
        scene = spec.scene
        self._distractors = [] if scene is None else [_copy(d.state) for d in scene.distractors]
        self._distractor_locs = [] if scene is None else [self._box(d.rect)
                                                          for d in scene.distractors]
        self._page = None
        current = self._boxes(self._state, self._goal)
        target = self._boxes(self._goal, self._goal)
        return Rendered(boxes=BoxSet(current=current, target=target), state=_copy(self._state),
                        distractor_states=tuple(_copy(s) for s in self._distractors),
                        distractor_locs=tuple(self._distractor_locs))

    def screenshot(self) -> np.ndarray:
        self._check("a screenshot")
        if self._page is None:
            self._page = self._draw_page()
        image = self._page.copy()
        _fill(image, self._spot(self._state), _colour(self._state, 0, 90))
        return image

    def perform(self, gesture: Gesture, p0: tuple[float, float], p1: tuple[float, float]) -> None:
        self._check(f"a {gesture}")
        if gesture not in ("tap", "drag"):
            raise ValueError(f"unknown gesture {gesture!r}")
        if self._at_goal():
            return
        goal_box = self._spot(self._goal)
        grabbed = gesture == "tap" or _inside(p0, self._spot(self._state))
        if grabbed and _inside(p1, goal_box):
            self._steps_left -= 1
            if self._steps_left == 0:
                self._state = _copy(self._goal)

    def read_state(self) -> Any:
        self._check("a read-back")
        return _copy(self._state)

    def read_distractors(self) -> list[Any]:
        self._check("a read-back")
        return [_copy(s) for s in self._distractors]

    def measure(self, goal: Any) -> Measured:
        self._check("a measurement")
        return Measured(boxes=self._boxes(self._state, goal),
                        reach=0 if self._at_goal() else self._steps_left)

    # -- geometry ----------------------------------------------------------
    def _at_goal(self) -> bool:
        spec = self._spec
        return COMPONENTS[spec.component].states_equal(self._state, self._goal, spec.params)

    def _extent(self, spec: LiveSpec) -> tuple[int, int, int, int]:
        """The control's visible extent, screenshot pixels, inclusive edges."""
        if spec.scene is not None:
            return self._box(spec.scene.rect)
        params = spec.params
        width, height = DEFAULT_SIZE
        if isinstance(params.get("radius"), int | float):
            width = height = 2 * params["radius"]
        if isinstance(params.get("width"), int | float):
            width = params["width"]
        if isinstance(params.get("height"), int | float):
            height = params["height"]
        room = (self._layout[0] - 2 * STAGE_MARGIN, self._layout[1] - 2 * STAGE_MARGIN)
        width, height = max(1, min(int(width), room[0])), max(1, min(int(height), room[1]))
        anchor = params.get("anchor") or (0.5, 0.5)
        x = STAGE_MARGIN + round(float(anchor[0]) * (room[0] - width))
        y = STAGE_MARGIN + round(float(anchor[1]) * (room[1] - height))
        return self._box((x, y, width, height))

    def _box(self, rect: tuple[int, int, int, int] | list[int]) -> tuple[int, int, int, int]:
        """(x, y, width, height) in CSS px -> [x1, y1, x2, y2] in pixels, inclusive edges."""
        s = self.device_scale_factor
        x, y, width, height = rect
        x1, y1 = round(x * s), round(y * s)
        return (x1, y1, max(x1, round((x + width) * s) - 1), max(y1, round((y + height) * s) - 1))

    def _spot(self, state: Any) -> tuple[int, int, int, int]:
        """The grid cell `state` is shown in."""
        columns, rows = self._grid
        x1, y1, x2, y2 = self._loc
        cell_w, cell_h = (x2 - x1 + 1) // columns, (y2 - y1 + 1) // rows
        index = _digest(state) % (columns * rows)
        column, row = index % columns, index // columns
        left, top = x1 + column * cell_w, y1 + row * cell_h
        return (left, top, left + cell_w - 1, top + cell_h - 1)

    def _boxes(self, shown: Any, goal: Any) -> Boxes:
        return Boxes(loc=self._loc, core=self._loc, goal=self._spot(goal), now=self._spot(shown))

    def _draw_page(self) -> np.ndarray:
        """Everything the screen shows but the state: drawn once per render."""
        spec = self._spec
        image = np.empty((self.viewport[1], self.viewport[0], 3), dtype=np.uint8)
        _fill(image, (0, 0, self.viewport[0] - 1, self.viewport[1] - 1),
              _colour(("page", spec.theme), 220, 255))
        if spec.scene is not None:
            for block in spec.scene.blocks:
                rect = block.get("rect")
                if isinstance(rect, list | tuple) and len(rect) == 4:
                    _fill(image, self._box(rect), _colour(block.get("kind"), 170, 235))
            for distractor, loc in zip(spec.scene.distractors, self._distractor_locs,
                                       strict=True):
                _fill(image, loc, _colour(distractor.component, 120, 200))
        _fill(image, self._loc, _colour((spec.component, spec.theme), 60, 200))
        return image

    def __repr__(self) -> str:
        return f"FakeBackend({self._platform}, {self.viewport[0]}x{self.viewport[1]})"
