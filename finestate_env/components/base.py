"""What every component type defines, in one place (docs/design.md §2).

A type is a small stateless object: it samples parameters and a (current, goal)
pair from a seeded RNG, says when two states are equal (exactly, on the type's
own grid), and words the instructions; its class declares the facts other parts
read from it (its other names, how pages seat it, what a drag must grab). How the
control looks and behaves live is in each backend's renderer for that type, found by
its name (`widgets/web/<name>.js`, `widgets/qt/renderers/<name>.py`, the Android app's
`<Name>Control.java`), which also measures the boxes from the rendered control.
docs/adding-a-type.md lists every part of a type.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

import numpy as np

from finestate_env.components.measures import measure
from finestate_env.components.params import Params
from finestate_env.core.schema import Family, Gesture, Instructions, Platform

# The free border stage.js keeps around a control (place(): `margin`): what a
# control may take of the viewport is the viewport less twice this (web/measures.js).
STAGE_MARGIN = measure("stage", "margin")


# The smallest side of a touch target, in CSS px: Material's 48 dp (Apple asks
# 44 pt). On a phone (`sample(..., touch=True)`) the targets a finger must hit
# are at least this large wherever the viewport leaves room.
TOUCH_TARGET = 48


def touch_size(size: int, touch: bool) -> int:
    """`size` raised to TOUCH_TARGET on a touch screen. Called after the size is
    drawn, so that the RNG's draws, and every pointer-sized control, stay as they were."""
    return max(size, TOUCH_TARGET) if touch else size


@dataclass(frozen=True)
class Slot:
    """How one platform's app page (scene "page", `components/scenes`) seats a type, in the
    page's px (CSS px; screen px on the desktop), the stage margin included.

    `target`: the slot's height when the type is the target, its tallest control on that
    platform's stage (a shorter column cuts it, and the sampler, given the slot as its
    viewport, draws a control that fits). `distractor`: the slot's height when it is a
    distractor, None where it never is one (no page template's `pool` may name it then).
    `min_width`: the narrowest slot it fits as a distractor (on a phone: the screen's
    360 CSS px, the one column). `narrow`: as the target, its widest control fits the
    narrow column (`scenes.Metrics.narrow_width`), which leaves room for a second side
    column. `pad`: (width, height) the sampler is told less than the slot, for a renderer
    that draws the type larger than the sampler's own allowance (a Qt seek bar's labels).
    `tests/components/test_scenes_live.py` renders every slot and stage.js checks the fit.
    """

    target: int
    distractor: int | None = None
    min_width: int | None = None
    narrow: bool = False
    pad: tuple[int, int] = (0, 0)


@dataclass(frozen=True)
class Grab:
    """What the press of a drag (p0) must land on for the drag to move the state: the
    measured box it lies in and its name in a sentence ("the slider's track or thumb").
    `replay/disagreements.py` explains a box proxy's false accept with it."""

    box: Literal["core", "now"]
    noun: str


@dataclass(frozen=True)
class Sample:
    """A sampled instance of a type: JSON-ready parameters and two states."""

    params: dict[str, Any]
    current_state: Any
    goal_state: Any


class ComponentType(ABC):
    """One of the 23 FineState component types.

    Subclasses document, in their docstring, what "one action" means for them. Each
    declares its facts below in its own class body (docs/adding-a-type.md walks through
    them; tests/components/test_type_completeness.py checks that none is missing).
    """

    name: ClassVar[str]
    # What the type's params may hold (components/params.py): checked, with the states,
    # wherever an instance enters (components/domain.py, check_live).
    params_model: ClassVar[type[Params]]
    family: ClassVar[Family]
    gesture: ClassVar[Gesture]
    # Other names of the type in imported records ("Steeper", "Spin box"), any case and
    # spacing (datasets/formats/imported.py folds them); the type's own name, spaced or
    # not ("Seek Bar"), needs no entry. () where there is none.
    aliases: ClassVar[tuple[str, ...]]
    # How each platform's app page seats the type (Slot): "web", "mobile" and "desktop".
    slots: ClassVar[dict[Platform, Slot]]
    # True when every interact instruction names the control's label: then siblings of its
    # own type may share its section on a page (the label tells them apart).
    siblings: ClassVar[bool] = False
    # A drag's press target (Grab), or None for a tap and for a `relative_drag`.
    grab: ClassVar[Grab | None] = None
    # True when the drag moves the state by p1 - p0 (a map's pan), not to where p1 is.
    relative_drag: ClassVar[bool] = False
    # True when the goal box covers the type's whole goal region inside `core`,
    # so that points just outside the goal box (inside core) must not yield the
    # goal. False where the region is not a rectangle (a knob's ring sector).
    goal_box_is_region: ClassVar[bool] = True
    # Where goal_box_is_region is False: the region's shape, as the disagreement
    # explanations name it ("ring sector"); the goal box is the largest rectangle inside.
    goal_region: ClassVar[str | None] = None
    # What a finger gets on a phone (sample(touch=True)); tests/test_mobile.py checks it.
    # "target": the goal is a discrete target, TOUCH_TARGET or more on both sides.
    # "band": the goal is fine along the axis that sets the value (a slider's x)
    #   and TOUCH_TARGET or more across it (the goal box's longer side).
    # "grab": the goal is fine along both axes (a pan to a spot): the element the
    #   drag starts on (the `now` box) is TOUCH_TARGET or more on both sides.
    touch_goal: ClassVar[Literal["target", "band", "grab"]] = "target"
    # The most numbers `code` gives for a state of this type (the env pads to the widest).
    code_size: ClassVar[int] = 1
    # The params resample_states may change: those that only name the part the goal
    # concerns (the folder to toggle, the item to move) where the new states need another,
    # and those that follow the states; it keeps every other param.
    goal_params: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        """Draw parameters and a goal reachable from the current state in one gesture.

        Every random number comes from `rng`; `viewport` is (width, height) in CSS px
        and bounds the control's size. `touch` (a phone) makes every target a
        finger must hit at least TOUCH_TARGET CSS px across where the viewport
        leaves room (`touch_size`); a fine-grained goal stays fine along the
        axis that sets the value, and gets the finger's size across it. Without
        `touch` a seed gives the parameters it always gave.
        """

    @abstractmethod
    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        """The control of `sample` with a new current state and a new goal reachable in one
        gesture, drawn from `rng` as `sample` draws them (curriculum level 0, env `level=0`:
        one control, fixed in place, size and content, many goals).

        Every parameter that sets where the control is, how large it is and what it shows
        is kept; a parameter that only names the part the goal concerns (the folder to
        toggle, the item to move) may be drawn again (`goal_params` lists them). The states
        obey everything `sample`'s do (the goal differs from the current state, fits the
        control as sized). `sample`'s params are never changed in place.
        """

    def far_goal(self, rng: np.random.Generator, sample: Sample, reach: int) -> Sample:
        """`sample` with its goal moved to one the oracle reaches in n gestures, n drawn
        uniformly from 1..reach (an episode of `reach` gestures, env `max_actions`), as far
        as the type allows; n = 1 keeps the sample. Here: the type's goals are all one
        gesture away (its docstring says why), and the sample is kept. Types with goals
        further away override it, and their renderers' boxes then show the next gesture of
        the shortest route (a goal box toward the goal) and its length (`reach(goal)`).
        """
        return sample

    def oracle_actions(self, params: dict[str, Any], current: Any, goal: Any) -> int:
        """Gestures the oracle takes from `current` (as first shown) to `goal`: each at the
        centre of the goal box the screen then shows. 1 here, where every goal is one
        gesture away."""
        return 1

    @abstractmethod
    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        """Exact equality on the type's own grid; never a loose tolerance."""

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """How far `state` is from `goal`, in [0, 1]: 0 exactly when states_equal says they
        are equal, 1 at the farthest and for a state the control cannot hold.

        The shaped reward (env `reward="shaped"`) is its decrease. Here, for options with
        no order between them (a switch, a radio group, tabs, an accordion, a swatch):
        0 or 1. Types with an order override it, each documenting its formula.
        """
        return 0.0 if self.states_equal(state, goal, params) else 1.0

    def state_code(self, state: Any, params: dict[str, Any]) -> tuple[float, ...] | None:
        """The state as at most `code_size` numbers in [0, 1] (the env's goal vectors,
        `goal_obs`), or None for a state the control cannot hold.

        Two states the control can hold have the same code exactly when `states_equal` says
        they are equal, so comparing codes with `==` is the exact success test (HER's
        `compute_reward`); valid means equal to itself, as `states_equal` decides it.
        """
        if not self.states_equal(state, state, params):
            return None
        numbers = self.code(state, params)
        if numbers is None:
            return None
        code = tuple(float(v) for v in numbers)
        if len(code) > self.code_size:
            raise ValueError(f"{self.name}: a code of {len(code)} numbers, more than its "
                             f"code_size {self.code_size}")
        return code

    @abstractmethod
    def code(self, state: Any, params: dict[str, Any]) -> list[float] | None:
        """A valid state as numbers in [0, 1] (state_code checks it is valid first), or None
        where the type holds states that its control cannot show (a colour of no swatch).
        Its docstring's "Goal vector" line says what each number is."""

    @abstractmethod
    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        """Locate and interact instructions, the goal stated exactly."""

    @abstractmethod
    def label(self, params: dict[str, Any]) -> str:
        """The control's name on a page, as its instructions give it (the slider's label,
        the named switch's): what no other control of the page may show."""

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        """A short human reading of a state, for logs and reports."""
        return str(state)


class RangeType(ComponentType):
    """A numeric value on the grid min + k * step, k in [0, (max - min) / step].

    Shared by the types whose params hold `min`, `max`, `step` and `unit`
    (slider, knob): exact equality on that grid, and the value written with
    the step's decimals and the unit.
    """

    @staticmethod
    def grid_pair(rng: np.random.Generator, lo: float, step: float,
                  steps: int) -> tuple[float, float, float]:
        """(max, current, goal): two different values of the grid lo + k * step, k <= steps,
        written with the step's decimals so that they read back exactly."""
        decimals = step_decimals(step)
        current_k, goal_k = distinct_pair(rng, 0, steps + 1)
        return (round(lo + steps * step, decimals), round(lo + current_k * step, decimals),
                round(lo + goal_k * step, decimals))

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        params = sample.params
        steps = round((params["max"] - params["min"]) / params["step"])
        _, current, goal = self.grid_pair(rng, params["min"], params["step"], steps)
        return Sample(params, current, goal)

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        last = round((params["max"] - params["min"]) / params["step"])
        return same_grid_point(a, b, params["min"], params["step"], last)

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """|steps between the two values| / steps of the whole range."""
        last = round((params["max"] - params["min"]) / params["step"])
        return grid_distance(state, goal, params["min"], params["step"], last)

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [k / last], the value's step on the grid over the grid's last."""
        last = round((params["max"] - params["min"]) / params["step"])
        return grid_code(state, params["min"], params["step"], last)

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        decimals = step_decimals(params["step"])
        return f"{state:.{decimals}f}{params['unit']}"


def direction_with_room(rng: np.random.Generator, n: int, back: int,
                        ahead: int) -> tuple[int, int]:
    """(direction, steps) for a goal n steps away along an axis with `back` steps of room
    behind and `ahead` in front: either way, drawn, where both have room for n; else the
    way with more room, and only as many steps as it has (0 when neither has any)."""
    if min(back, ahead) >= n:
        return int(choose(rng, (-1, 1))), n
    direction = 1 if ahead >= back else -1
    return direction, min(n, ahead if direction > 0 else back)


def size_within(rng: np.random.Generator, bounds: tuple[int, int], room: int) -> int:
    """A size drawn uniformly from `bounds` (inclusive), cut to the `room` there is."""
    return int(min(rng.integers(bounds[0], bounds[1] + 1), room))


def choose(rng: np.random.Generator, options: list | tuple) -> Any:
    """One element of `options`, drawn from `rng` (keeps element types intact)."""
    return options[int(rng.integers(len(options)))]


def sample_anchor(rng: np.random.Generator) -> list[float]:
    """Where the control sits in the free space of the page, as fractions.

    The renderer places the control's top-left at anchor * (viewport - size),
    rounded to whole pixels so that box edges fall on pixel boundaries.
    """
    return [round(float(rng.uniform(0.0, 1.0)), 4), round(float(rng.uniform(0.0, 1.0)), 4)]


def distinct_pair(rng: np.random.Generator, low: int, high: int) -> tuple[int, int]:
    """Two different integers in [low, high): a current index and a goal index.

    The goal is drawn from the high - low - 1 values left once the current one
    is taken, so every other value is equally likely.
    """
    current = int(rng.integers(low, high))
    goal = int(rng.integers(low, high - 1))
    return current, goal + (goal >= current)


def inner_pair(rng: np.random.Generator, count: int) -> tuple[int, int]:
    """(current, goal) among `count` positions: the current any, the goal an inner one (not
    the first or the last, where a clamp widens its region) other than the current."""
    current = int(rng.integers(count))
    return current, choose(rng, [k for k in range(1, count - 1) if k != current])


def same_grid_point(a: Any, b: Any, start: float, step: float, last: int) -> bool:
    """Exact equality of two values on the grid start + k * step, k in [0, last].

    False when either value is off the grid or outside the control's range.
    """
    ka = on_grid_index(a, start, step)
    return ka is not None and 0 <= ka <= last and ka == on_grid_index(b, start, step)


def grid_distance(a: Any, b: Any, start: float, step: float, last: int) -> float:
    """|ka - kb| / last for a = start + ka * step and b = start + kb * step, k in [0, last]:
    the share of the control's range between two values; 1 when either is off the grid
    or outside the range (and 0 for a one-value range, where both can only be equal)."""
    ka, kb = on_grid_index(a, start, step), on_grid_index(b, start, step)
    if ka is None or kb is None or not (0 <= ka <= last and 0 <= kb <= last):
        return 1.0
    return abs(ka - kb) / last if last > 0 else 0.0


def index_distance(a: Any, b: Any, options: list) -> float:
    """|position of a - position of b| / (len(options) - 1) in an ordered list of options;
    1 when either is not one of them."""
    if a not in options or b not in options:
        return 1.0
    return grid_distance(options.index(a), options.index(b), 0, 1, len(options) - 1)


def set_distance(a: Any, b: Any, universe: list) -> float:
    """|a symmetric-difference b| / len(universe): the share of items that must flip;
    1 when either is not a list of distinct items of the universe."""
    def valid(value: Any) -> bool:
        return (isinstance(value, list) and all(isinstance(item, str) for item in value)
                and len(set(value)) == len(value) and all(item in universe for item in value))

    if not (valid(a) and valid(b)) or not universe:
        return 1.0
    return len(set(a) ^ set(b)) / len(universe)


def grid_code(value: Any, start: float, step: float, last: int) -> list[float]:
    """[k / last] for value = start + k * step on a valid grid point ([0.0] when last is 0)."""
    return [on_grid_index(value, start, step) / last if last > 0 else 0.0]


def index_code(value: Any, options: list | tuple) -> list[float]:
    """[i / (n - 1)] for the i-th of n options ([0.0] when there is one)."""
    return [options.index(value) / (len(options) - 1) if len(options) > 1 else 0.0]


def set_code(value: Any, universe: list | tuple) -> list[float]:
    """One number per item of `universe`, in its order: 1.0 when `value` holds the item."""
    held = set(value)
    return [1.0 if item in held else 0.0 for item in universe]


def on_grid_index(value: Any, start: float, step: float) -> int | None:
    """The integer k with value == start + k * step, or None if value is off the grid.

    The check allows only floating-point representation error (1e-6 of a step),
    which is what "compares on the step grid" means for decimal steps like 0.1.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not math.isfinite(value):  # a NaN or infinite read-back is on no grid
        return None
    k = (float(value) - start) / step
    nearest = round(k)
    if abs(k - nearest) > 1e-6:
        return None
    return int(nearest)


def step_decimals(step: float) -> int:
    """Decimal places needed to write multiples of `step` exactly (0.25 -> 2)."""
    text = f"{step:.10f}".rstrip("0")
    return len(text.split(".")[1]) if "." in text else 0
