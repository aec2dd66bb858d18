"""The one small interface every backend implements (docs/design.md §6)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from finestate_env.core.schema import Boxes, BoxSet, Gesture, LiveSpec


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
    """Start, render an instance, screenshot, perform a gesture, read state, close.

    All coordinates are screenshot pixels: a backend whose input frame differs
    (a device scale factor above 1) maps them itself.
    """

    viewport: tuple[int, int]  # (width, height) of the screenshot in pixels

    @property
    def layout_viewport(self) -> tuple[int, int]:
        """(width, height) in the renderer's own units (CSS px) that controls are sampled for.

        The screenshot size, unless a device scale factor makes them differ.
        """
        return self.viewport

    @abstractmethod
    def start(self) -> None:
        """Launch whatever renders the controls; called once, before the first render."""

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

    def probe(self, spec: LiveSpec, gesture: Gesture, p0: tuple[float, float],
              p1_points: Sequence[tuple[float, float]]) -> list[Any]:
        """The state each gesture p0 -> p1 produces from `spec`'s current state.

        For the box audit. This default renders afresh before every gesture;
        a backend overrides it with something faster that gives the same states.
        It leaves `spec` shown in its current state.
        """
        states = []
        for p1 in p1_points:
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
