"""The one small interface every backend implements (docs/design.md §6, §7).

`Backend` declares everything the env (env/environment.py, env/episode.py), the vector
env (env/vector.py) and the replay tools (replay/) use of a backend, and nothing else is
read from one: no `getattr` or `isinstance` on a backend outside backends/. What a
backend is (its platform, the types it renders, whether it shows pages, whether its
envs may step from threads) is declared here with the default most backends have, and
a backend that differs says so in its class.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from finestate_env.core.schema import Boxes, BoxSet, Gesture, LiveSpec

Point = tuple[float, float]  # screenshot pixels


class BackendCrashed(RuntimeError):
    """The renderer (browser, app, device) died; the backend restarts it on the next render."""


@dataclass(frozen=True)
class Rendered:
    """What rendering an instance gives back: its boxes and the state it shows."""

    boxes: BoxSet  # screenshot pixels, inclusive edges
    state: Any  # read back from the control right after rendering
    # A page scene's distractors, in the scene's order: each one's state read back whole
    # as shown, and its visible extent (screenshot pixels). Empty for a lone control.
    distractor_states: tuple[Any, ...] = ()
    distractor_locs: tuple[tuple[float, float, float, float], ...] = ()

    @classmethod
    def from_report(cls, report: dict) -> Rendered:
        """From a stage's render report, as the web stage (stage.js `prepare`) and the Qt
        app answer it: `current`, `target`, `state`, and on a page `distractors`."""
        boxes = BoxSet(current=Boxes(**report["current"]), target=Boxes(**report["target"]))
        scene = report.get("distractors") or {"states": [], "locs": []}
        return cls(boxes=boxes, state=report["state"],
                   distractor_states=tuple(scene["states"]),
                   distractor_locs=tuple(tuple(box) for box in scene["locs"]))


@dataclass(frozen=True)
class Measured:
    """The boxes of the screen as it is mid-episode, after a gesture, and how many
    gestures the shortest route to the goal still takes from it."""

    boxes: Boxes  # the current configuration, screenshot pixels, inclusive edges
    # 0 at the goal, 1 when the goal box reaches it, more for a goal further away; None
    # from a type whose every goal is one gesture away (the caller knows it from the state).
    reach: int | None


class Backend(ABC):
    """Start, render an instance, screenshot, perform a gesture, read state, measure boxes,
    close.

    All coordinates are screenshot pixels: a backend whose input frame differs
    (a device scale factor above 1) maps them itself.

    Every member the env, the vector env and replay use is declared here: the abstract
    ones each backend writes, the others with a default that a backend overrides where
    it can do better or differs.
    """

    viewport: tuple[int, int]  # (width, height) of the screenshot in pixels
    # The component types this backend renders (names of finestate_env.components), or
    # None for all of them. The env offers only these (the desktop's Qt renderers cover
    # some types: DesktopBackend.components).
    components: Collection[str] | None = None
    # False for a backend that shows one control alone and never an app page (the
    # Android app's native views): the env then refuses scene="page".
    renders_pages: bool = True
    # True when envs of one process, each with a backend of its own, may render, perform
    # and screenshot from threads at the same time (env/vector.py steps them so); the
    # vector env steps the envs of any other backend one after the other.
    concurrent_steps: ClassVar[bool] = False
    # True when the backend's browser asks for its pages' frames one at a time (the web's
    # begin-frame capture, backends/web.py): the vector env gives each env a browser of its
    # own (its `browser_group`, set before the backend starts).
    begin_frames: bool = False

    @property
    @abstractmethod
    def platform(self) -> str:
        """The platform whose controls this backend shows: "web", "mobile" or "desktop".

        The env samples for it (a "mobile" control's targets are sized for a finger).
        Backends declare it as a class attribute (`platform = "web"`)."""

    @property
    def layout_viewport(self) -> tuple[int, int]:
        """(width, height) in the renderer's own units (CSS px) that controls are sampled for.

        The screenshot size, unless a device scale factor makes them differ.
        """
        return self.viewport

    @abstractmethod
    def start(self) -> None:
        """Launch whatever renders the controls; called once, before the first render
        (a second call while running does nothing)."""

    def ensure_alive(self) -> None:
        """Start the backend, or restart it when its renderer died since the last call.

        The vector env calls it on the thread that made it before stepping envs from
        threads, so that nothing (re)starts in a worker thread. This default starts
        (`start` does nothing when running); backends that can tell a dead renderer
        override it."""
        self.start()

    @abstractmethod
    def render(self, spec: LiveSpec) -> Rendered:
        """Show the control of `spec` in its current state, settled, and measure its boxes."""

    def render_current(self, spec: LiveSpec) -> tuple[Boxes, Any]:
        """Show `spec`'s current state and measure its current boxes only.

        What replaying a prediction needs (the target configuration is not
        looked at); backends override it when skipping the target is cheaper.
        """
        rendered = self.render(spec)
        return rendered.boxes.current, rendered.state

    @abstractmethod
    def screenshot(self) -> np.ndarray:
        """The screen as uint8 RGB, shape (height, width, 3)."""

    def screenshot_scaled(self, scale: float) -> np.ndarray:
        """The screen drawn at about `scale` (in (0, 1]) of the screenshot's size, for a small
        observation (env/observation.py, capture_scale), uint8 RGB. The observation takes a
        screenshot of any size; this default is the full screenshot, and a backend that can
        capture smaller for less (the web's) overrides it."""
        return self.screenshot()

    @abstractmethod
    def perform(self, gesture: Gesture, p0: tuple[float, float], p1: tuple[float, float]) -> None:
        """Real input: `tap` hovers p0 then clicks p1; `drag` presses p0, moves, releases at p1."""

    @abstractmethod
    def read_state(self) -> Any:
        """The control's actual state, read back from the control itself."""

    @abstractmethod
    def measure(self, goal: Any) -> Measured:
        """Measure the control as it is shown now, for `goal`: in an episode of several
        gestures, the boxes of the screen the next gesture acts on. It sets nothing."""

    def read_distractors(self) -> list[Any]:
        """A page scene's distractors, each one's state read back whole, in the scene's
        order ([] for a lone control). Backends that render pages override it."""
        return []

    def read_state_and_distractors(self) -> tuple[Any, list[Any]]:
        """read_state() and read_distractors() at once: a backend whose control answers
        both in one round trip overrides it."""
        return self.read_state(), self.read_distractors()

    def probe(self, spec: LiveSpec, gesture: Gesture,
              pairs: Sequence[tuple[Point, Point]]) -> list[Any]:
        """The state each gesture p0 -> p1 of `pairs` produces from `spec`'s current state.

        Every gesture starts from the same screen: `spec` rendered in its current state,
        as an episode's first gesture does. For the box audit (one p0, many p1) and for
        scoring a group of completions of one prompt (rewards/). This default renders
        afresh before every gesture; a backend overrides it with something faster that
        gives the same states. It leaves `spec` shown in its current state.
        """
        states = []
        for p0, p1 in pairs:
            self.render(spec)
            self.perform(gesture, p0, p1)
            states.append(self.read_state())
        self.render(spec)
        return states

    @abstractmethod
    def close(self) -> None:
        """Stop everything started; safe to call twice and after a crash."""

    def __enter__(self) -> Backend:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
