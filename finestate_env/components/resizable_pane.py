"""Resizable pane: an editor workspace split into panes by draggable dividers.

The named pane is a sidebar on the left or right (its state is its width) or a
panel along the bottom (its state is its height); a second sidebar with its own
working divider may sit on the other side as a distractor. Each size lives on
the pane's snap grid of S px (4, 8, 10, 16 or 20) within [min, max], measured
from the split container's edge on the pane's side to the divider line.

One action: press on the named pane's divider handle at p0 (the `now` box) and
release at p1. The size is ABSOLUTE in p1: size = clamp(round(d / S) * S, min,
max), where d is p1's distance from the container edge on the pane's side (p1.x
- left for a left sidebar, right - p1.x for a right one, bottom - p1.y for a
bottom panel). The goal region is therefore a band S px wide (or tall) across
the whole split container, wider only where the clamp holds at min or max.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import numpy as np
from pydantic import AfterValidator, Field, StrictBool, model_validator

from finestate_env.components.base import (
    STAGE_MARGIN,
    ComponentType,
    Grab,
    Sample,
    Slot,
    choose,
    grid_code,
    grid_distance,
    inner_pair,
    sample_anchor,
    size_within,
    touch_size,
)
from finestate_env.components.params import (
    Anchor,
    Index,
    Params,
    Pixels,
    Text,
    list_of,
)
from finestate_env.core.schema import Instructions

_STEPS = (4, 8, 10, 16, 20)
_HANDLE = (6, 10)
_WIDTH = (480, 760)
_HEIGHT = (220, 360)
# Card chrome around the split container: border 2 + horizontal padding 2 * 16;
# border 2 + vertical padding 2 * 12 + title row 20 + its margin 8.
_CHROME_W = 2 + 2 * 16
_CHROME_H = 2 + 2 * 12 + 20 + 8
_EDITOR_MIN = 100  # the editor keeps at least this much room in every layout
_PANES = {
    "left": ("Explorer", "Files", "Project", "Source control", "Search"),
    "right": ("Outline", "Properties", "Inspector", "Comments", "Timeline"),
    "bottom": ("Terminal", "Console", "Output", "Problems", "Debug console"),
}
_PROJECTS = ("acme-web", "billing-api", "data-pipeline", "mobile-app", "docs-site", "infra")
# A project tree: (depth, name, is_folder); a sampled prefix of it is shown.
_TREE = ((0, "src", True), (1, "components", True), (2, "Header.tsx", False),
         (2, "Sidebar.tsx", False), (2, "Chart.tsx", False), (1, "api", True),
         (2, "client.ts", False), (2, "routes.ts", False), (1, "index.ts", False),
         (1, "config.ts", False), (0, "tests", True), (1, "client.test.ts", False),
         (1, "routes.test.ts", False), (0, "package.json", False), (0, "README.md", False),
         (0, "tsconfig.json", False))
_CODE = ("import { createClient } from './api/client';", "import { routes } from './api/routes';",
         "", "const DEFAULT_TIMEOUT = 30_000;", "",
         "export async function loadDashboard(userId: string) {",
         "  const client = createClient({ timeout: DEFAULT_TIMEOUT });",
         "  const [profile, orders] = await Promise.all([",
         "    client.get(routes.profile(userId)),", "    client.get(routes.orders(userId)),",
         "  ]);", "  if (!profile.ok) {", "    throw new Error(`profile ${profile.status}`);",
         "  }", "  return { profile: profile.data, orders: orders.data ?? [] };", "}", "",
         "export function formatTotal(cents: number): string {",
         "  return (cents / 100).toFixed(2);", "}")
_FILES = ("index.ts", "client.ts", "routes.ts", "config.ts", "Header.tsx", "Chart.tsx")
_SYMBOLS = ("DEFAULT_TIMEOUT", "loadDashboard", "client", "profile", "orders", "formatTotal",
            "routes", "createClient", "Dashboard", "useOrders", "OrderRow", "render")
_OUTPUT = ("$ npm run build", "> {project}@2.4.1 build", "> tsc && vite build",
           "vite v5.2.8 building for production...", "transforming (214) src/index.ts",
           "dist/index.html            0.46 kB", "dist/assets/index.js    142.31 kB",
           "built in 3.84s", "$ npm test", "PASS  tests/client.test.ts (12 tests)",
           "PASS  tests/routes.test.ts (8 tests)", "Tests: 20 passed, 20 total", "$")


def _range(rng: np.random.Generator, step: int, low: int, high: int) -> tuple[int, int]:
    """A [min, max] on the step grid inside [low, high]: min near low, max near high."""
    jitter = max(0, min(40, (high - low) // 4))
    lo = -(-(low + int(rng.integers(0, jitter + 1))) // step) * step
    hi = (high - int(rng.integers(0, jitter + 1))) // step * step
    return lo, hi


def _a_step(value: int) -> int:
    if value not in _STEPS:
        raise ValueError(f"a snap step must be one of {list(_STEPS)}, got {value}")
    return value


_Step = Annotated[int, Field(strict=True), AfterValidator(_a_step)]
_Side = Literal["left", "right", "bottom"]


class ResizablePaneParams(Params):
    side: _Side  # where the named pane sits: a sidebar left or right, a panel at the bottom
    pane: Text  # the named pane's title
    project: Text  # the workspace's title
    width: Pixels  # the split container's size
    height: Pixels
    min: Pixels  # the named pane's sizes: min + k * step up to max
    max: Pixels
    step: _Step
    handle: Pixels  # a divider handle's thickness
    # the distractor sidebar: [side, size, min, max, step], or null
    other: tuple[Literal["left", "right"], Pixels, Pixels, Pixels, _Step] | None
    other_pane: Text | None  # its title (null without one)
    tree: list_of(tuple[Index, Text, StrictBool], 0, len(_TREE))  # [depth, name, is_folder]
    tabs: list_of(Text, 0, len(_FILES))  # the editor's open files
    code_start: Index  # the first line of `code` shown
    code: list_of(Text)  # the editor's source lines
    symbols: list_of(Text, 0, len(_SYMBOLS))  # the outline's entries
    output: list_of(Text)  # the bottom panel's lines
    anchor: Anchor

    @model_validator(mode="after")
    def _panes_on_their_grids(self) -> ResizablePaneParams:
        extent = self.height if self.side == "bottom" else self.width
        _grid("min, max and step", self.min, self.max, self.step, extent, fixed=False)
        if (self.other is None) != (self.other_pane is None):
            raise ValueError("other and other_pane must both be null or both be given")
        if self.other is not None:
            side, size, low, high, step = self.other
            if side == self.side:
                raise ValueError(f"other's side must differ from side ({self.side!r})")
            # the distractor's range may be one size (a sidebar the page cannot resize)
            _grid("other's min, max and step", low, high, step, self.width, fixed=True)
            if not (low <= size <= high and (size - low) % step == 0):
                raise ValueError(f"other's size must be min + k * step within [{low}, {high}] "
                                 f"(step {step}), got {size}")
        return self


def _grid(names: str, low: int, high: int, step: int, extent: int, fixed: bool) -> None:
    """ValueError unless [low, high] is a range of whole steps within the container (of
    one size only where `fixed`)."""
    if not (0 < low <= high <= extent if fixed else 0 < low < high <= extent) \
            or (high - low) % step:
        least = "min <= max" if fixed else "min < max"
        raise ValueError(f"{names} must give 0 < {least} <= {extent} px (the container) with "
                         f"max - min a whole number of steps, got min {low}, max {high}, "
                         f"step {step}")


class ResizablePane(ComponentType):
    name = "resizable_pane"
    params_model = ResizablePaneParams
    family = "view_manipulation"
    gesture = "drag"
    # The size is fine along the drag's axis (one snap step); the band spans the
    # container across it, and the handle a finger grabs is TOUCH_TARGET wide.
    touch_goal = "band"
    aliases = ("Splitter", "Split pane", "Resizable panel")
    grab = Grab("now", "the pane's divider handle")
    slots = {
        "web": Slot(target=424),
        "mobile": Slot(target=360),
        "desktop": Slot(target=424),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The name of the pane to resize."""
        return params["pane"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        width = size_within(rng, _WIDTH, viewport[0] - 2 * STAGE_MARGIN - _CHROME_W)
        height = size_within(rng, _HEIGHT, viewport[1] - 2 * STAGE_MARGIN - _CHROME_H)
        side = choose(rng, ("left", "left", "right", "bottom"))
        step = int(choose(rng, _STEPS))
        other = None  # the distractor sidebar: [side, size, min, max, step]
        if side == "bottom":
            # The panel spans the editor column; a fixed-range sidebar may sit on its left.
            if width >= 520 and rng.random() < 0.6:
                other_step = int(choose(rng, _STEPS))
                olo, ohi = _range(rng, other_step, 100, min(260, width - 300))
                other = ["left", int(rng.integers(olo // other_step, ohi // other_step + 1))
                         * other_step, olo, ohi, other_step]
            lo, hi = _range(rng, step, 40, height - 60)
        else:
            room = width - _EDITOR_MIN
            if width >= 520 and rng.random() < 0.5:
                other_step = int(choose(rng, _STEPS))
                olo, ohi = _range(rng, other_step, 100, min(220, room // 3))
                other = ["right" if side == "left" else "left",
                         int(rng.integers(olo // other_step, ohi // other_step + 1)) * other_step,
                         olo, ohi, other_step]
                room -= ohi
            lo, hi = _range(rng, step, min(140, room // 3), min(room, width * 2 // 3))
        if (hi - lo) // step < 4:  # too coarse for this small a container: a finer grid
            step = 4
            lo, hi = -(-lo // step) * step, hi // step * step
        # The goal is an inner size (not min or max, where the clamp widens the
        # region), any but the current one.
        current, goal = inner_pair(rng, (hi - lo) // step + 1)
        project = choose(rng, _PROJECTS)
        params = {
            "side": side, "pane": choose(rng, _PANES[side]), "project": project,
            "width": width, "height": height, "min": lo, "max": hi, "step": step,
            "handle": touch_size(int(rng.integers(_HANDLE[0], _HANDLE[1] + 1)), touch),
            "other": other,
            "other_pane": choose(rng, _PANES[other[0]]) if other else None,
            # What the panes show: part of a project tree, a window of code, ...
            "tree": [list(entry) for entry in _TREE[:int(rng.integers(9, len(_TREE) + 1))]],
            "tabs": [_FILES[int(i)]
                     for i in rng.permutation(len(_FILES))[:int(rng.integers(1, 4))]],
            "code_start": int(rng.integers(0, 6)), "code": list(_CODE),
            "symbols": [_SYMBOLS[int(i)] for i in rng.permutation(len(_SYMBOLS))[:8]],
            "output": [line.format(project=project) for line in _OUTPUT[int(rng.integers(0, 5)):]],
            "anchor": sample_anchor(rng),
        }
        return Sample(params, lo + current * step, lo + goal * step)

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        lo, step = sample.params["min"], sample.params["step"]
        current, goal = inner_pair(rng, (sample.params["max"] - lo) // step + 1)
        return Sample(sample.params, lo + current * step, lo + goal * step)

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        def on_grid(value: Any) -> bool:
            return (isinstance(value, int) and not isinstance(value, bool)
                    and params["min"] <= value <= params["max"]
                    and (value - params["min"]) % params["step"] == 0)

        return on_grid(a) and on_grid(b) and a == b

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [k / n], the size's step on the pane's grid over the last step."""
        last = (params["max"] - params["min"]) // params["step"]
        return grid_code(state, params["min"], params["step"], last)

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """|steps between the two sizes| / steps from the smallest to the largest size."""
        if not self.states_equal(state, state, params):  # not a size the pane can have
            return 1.0
        steps = (params["max"] - params["min"]) // params["step"]
        return grid_distance(state, goal, params["min"], params["step"], steps)

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        params, goal = sample.params, sample.goal_state
        pane, side = params["pane"], params["side"]
        kind = "panel" if side == "bottom" else "sidebar"
        extent = "tall" if side == "bottom" else "wide"
        dimension = "height" if side == "bottom" else "width"
        locate = choose(rng, (f"Locate the divider of the {pane} {kind}.",
                              f"Find the resize handle between the {pane} {kind} and the editor.",
                              f"Where is the {pane} {kind}'s resize handle?"))
        interact = choose(rng, (f"Make the {pane} {kind} {goal} px {extent}.",
                                f"Resize the {pane} {kind} to a {dimension} of {goal} px.",
                                f"Drag the divider so that the {pane} {kind} is exactly "
                                f"{goal} px {extent}.",
                                f"Set the {dimension} of the {pane} {kind} to {goal} px."))
        return Instructions(locate=locate, interact=interact)

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        return f"{state} px"
