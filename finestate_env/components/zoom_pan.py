"""Zoom/pan: a street map in a clipped viewport, panned by dragging, with labelled pins.

One action: press at p0, drag, release at p1; the map pans by (p1 - p0) snapped
to the map's pan grid of G px per axis (G is 8..16): pan += round((p1 - p0) / G)
cells, clamped to the map's extent (never reached by the sampled goals). The
press may land anywhere on the map; the instruction names one pin, and the goal
is the pan that puts that pin's centre exactly on the fixed crosshair marker.
The state is the pan offset [dx, dy] in whole cells.

Because the pan is relative, the region of p1 that yields the goal depends on
p0. The goal box is measured for p0 = the centre of the `now` box (the named
pin: exactly ((x1 + x2) / 2, (y1 + y2) / 2) of its integer box, the point the
oracle and the probing press); the pin is an odd number of pixels wide and tall,
so that centre is a whole pixel. For that p0 the goal region is one grid cell
(G x G px) around the crosshair; pressing elsewhere shifts it by the same amount.

No goal further away with episodes of several gestures: the named pin is always in the
viewport, so one drag from it to the crosshair reaches the goal. (A pin off screen,
found by panning first, would need a goal box for an exploring drag: not drawn yet.)
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import numpy as np
from pydantic import Field, model_validator

from finestate_env.components.base import (
    STAGE_MARGIN,
    TOUCH_TARGET,
    ComponentType,
    Sample,
    Slot,
    choose,
    sample_anchor,
    size_within,
)
from finestate_env.components.params import (
    MAX_ITEMS,
    Anchor,
    Coordinate,
    Int,
    Params,
    Pixels,
    Text,
    list_of,
)
from finestate_env.core.schema import Instructions

_PLACES = ("Museum", "Library", "City Hall", "Central Station", "Harbor", "Cathedral", "Market",
           "Stadium", "Old Town Square", "Botanic Garden", "Hospital", "University", "Zoo",
           "Opera House", "Aquarium", "Castle", "Lighthouse", "Post Office", "Cinema",
           "Fire Station", "Art Gallery", "Town Hall", "Bus Depot", "Ferry Terminal",
           "Science Center", "Bakery", "Bookshop", "Pharmacy")
_STREETS = ("Main St", "Oak Ave", "Elm St", "River Rd", "Park Ln", "King St", "Mill Rd",
            "Hill St", "Bay Ave", "Lake Dr", "Pine St", "Church St", "Bridge Rd", "High St")
_TITLES = ("City map", "Explore", "Nearby places", "Trip planner", "Store locator", "Downtown")
_WIDTH = (360, 600)
_HEIGHT = (240, 400)
_GRID = (8, 16)
_PAN = 4  # |goal pan| per axis, in cells
# Card chrome around the map: border 2 + horizontal padding 2 * 16; border 2 +
# vertical padding 2 * 12 + title row 20 + its margin 8.
_CHROME_W = 2 + 2 * 16
_CHROME_H = 2 + 2 * 12 + 20 + 8
_EDGE = 22  # the named pin's centre stays this far inside the viewport
# A phone's pin is a finger-sized hit box (odd, for its whole-pixel centre)
# around the same drawn marker; its centre stays far enough inside the viewport
# that the whole box is on the map.
_TOUCH_PIN = TOUCH_TARGET + 1
_LABEL_W = 130  # room a pin label may take beside its pin
_ATTEMPTS = 200  # resample_states' draws of a pin clear of the others


def _pans(rng: np.random.Generator, width: int, height: int, grid: int, cross: list[int],
          touch: bool) -> tuple[list[int], list[int]]:
    """(current, goal) pans, in cells: the goal within _PAN cells of the origin, and the
    named pin, as shown now, a whole number of cells away from the crosshair on each axis,
    inside the viewport, clearly apart from it."""
    edge = _TOUCH_PIN // 2 + 1 if touch else _EDGE
    lo = [-((c - edge) // grid) for c in cross]
    hi = [(size - edge - c) // grid for size, c in zip((width, height), cross, strict=True)]
    while True:
        delta = [int(rng.integers(lo[i], hi[i] + 1)) for i in range(2)]
        if np.hypot(*delta) * grid >= 40:
            break
    goal = [int(rng.integers(-_PAN, _PAN + 1)) for _ in range(2)]
    return [goal[i] + delta[i] for i in range(2)], goal


def _apart(at: list[int], others: list[list[int]]) -> bool:
    """Whether a pin shown at `at` keeps clear of pins shown at `others` (and their tags)."""
    return all(abs(at[1] - v) >= 30 or abs(at[0] - u) >= _LABEL_W for u, v in others)


_Axis = Annotated[int, Field(strict=True, ge=0, le=1)]  # 0: x (a vertical band), 1: y
_Cells = Annotated[Pixels, Field(ge=1)]  # a count of grid cells, at least 1


class ZoomPanParams(Params):
    title: Text  # the card's title
    width: Pixels  # the map viewport's size
    height: Pixels
    grid: Annotated[Pixels, Field(ge=1)]  # the pan grid's cell, in px per axis
    cross: tuple[Pixels, Pixels]  # the crosshair, in the viewport
    reach: tuple[_Cells, _Cells]  # the pan's range per axis, +-cells
    # [place, x, y]: each pin's centre on the map at pan [0, 0]; the first is the named one
    pins: list_of(tuple[Text, Coordinate, Coordinate], 1, len(_PLACES))
    label_sides: list_of(Literal["left", "right"], 1, len(_PLACES))  # per pin, its tag's side
    # [axis, position, width, name or ""] in map coordinates
    streets: list_of(tuple[_Axis, Coordinate, Pixels, Text], 0, MAX_ITEMS)
    parks: list_of(tuple[Coordinate, Coordinate, Pixels, Pixels])  # [x, y, w, h] on the map
    river: tuple[_Axis, Coordinate, Pixels]  # [axis, position, width] on the map
    zoom: Int  # the zoom level the map's badge shows
    anchor: Anchor
    pin: Pixels | None = None  # on a phone: the side of a pin's square hit box

    @model_validator(mode="after")
    def _pins_and_view(self) -> ZoomPanParams:
        if len(self.label_sides) != len(self.pins):
            raise ValueError(f"label_sides must give one side per pin ({len(self.pins)}), got "
                             f"{len(self.label_sides)}")
        names = [name for name, _, _ in self.pins]
        if len(set(names)) != len(names):
            raise ValueError(f"the pins' places must be distinct, got {names}")
        if not (self.cross[0] <= self.width and self.cross[1] <= self.height):
            raise ValueError(f"cross must lie in the {self.width}x{self.height} viewport, got "
                             f"{list(self.cross)}")
        return self


class ZoomPan(ComponentType):
    name = "zoom_pan"
    params_model = ZoomPanParams
    family = "view_manipulation"
    gesture = "drag"
    code_size = 2
    # The goal is one grid cell on both axes: what a finger gets is the pin it
    # presses to pan, TOUCH_TARGET or more on both sides on a phone.
    touch_goal = "grab"
    goal_params = ("pins", "label_sides")  # pins: only the named pin's place on the map
    aliases = ("Zoom and pan", "Pan zoom")
    relative_drag = True
    slots = {
        "web": Slot(target=463),
        "mobile": Slot(target=360),
        "desktop": Slot(target=463),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The card's title."""
        return params["title"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        width = size_within(rng, _WIDTH, viewport[0] - 2 * STAGE_MARGIN - _CHROME_W)
        height = size_within(rng, _HEIGHT, viewport[1] - 2 * STAGE_MARGIN - _CHROME_H)
        grid = int(rng.integers(_GRID[0], _GRID[1] + 1))
        if rng.random() < 0.5:  # the crosshair at the centre, or at a sampled spot
            cross = [width // 2, height // 2]
        else:
            cross = [int(rng.integers(48, width - 48)), int(rng.integers(48, height - 48))]
        current, goal = _pans(rng, width, height, grid, cross, touch)
        delta = [current[i] - goal[i] for i in range(2)]
        # Pan range: the map extends this many cells beyond the viewport per side,
        # more than any pan a sampled instance comes near.
        reach = [-(-width // grid) + _PAN + 6, -(-height // grid) + _PAN + 6]

        names = [_PLACES[int(i)] for i in rng.permutation(len(_PLACES))]
        target_name = names[0]
        # Pin positions in map coordinates: where the pin's centre shows at pan [0, 0].
        pins = [[target_name, cross[0] - goal[0] * grid, cross[1] - goal[1] * grid]]
        shown = [[cross[0] + delta[0] * grid, cross[1] + delta[1] * grid]]  # at the current pan
        # Other pins: 3-6 in view now, a few more off-screen that panning reveals.
        in_view, off_view = int(rng.integers(3, 7)), int(rng.integers(2, 5))
        for name in names[1:]:
            if len(pins) > in_view + off_view:
                break
            for _ in range(30):
                if len(pins) <= in_view:
                    u, v = int(rng.integers(12, width - 12)), int(rng.integers(12, height - 12))
                else:
                    u = int(rng.integers(-width, 2 * width))
                    v = int(rng.integers(-height, 2 * height))
                if _apart([u, v], shown):
                    shown.append([u, v])
                    pins.append([name, u - current[0] * grid, v - current[1] * grid])
                    break
        # Pin labels go to the right of the pin unless that runs out of the view.
        sides = ["left" if u > width - _LABEL_W else "right" for u, _ in shown]

        extent = [[-reach[0] * grid, width + reach[0] * grid],
                  [-reach[1] * grid, height + reach[1] * grid]]
        streets = []  # [axis, position, width, name or ""], in map coordinates
        for axis in (0, 1):
            position = extent[axis][0] + int(rng.integers(20, 80))
            while position < extent[axis][1]:
                street_width = int(choose(rng, (8, 10, 12, 18)))
                name = choose(rng, _STREETS) if street_width == 18 else ""
                streets.append([axis, position, street_width, name])
                position += street_width + int(rng.integers(60, 130))
        parks = []  # [x, y, w, h] in map coordinates
        for _ in range(int(rng.integers(6, 12))):
            x = int(rng.integers(extent[0][0], extent[0][1] - 120))
            y = int(rng.integers(extent[1][0], extent[1][1] - 90))
            parks.append([x, y, int(rng.integers(50, 120)), int(rng.integers(40, 90))])
        # A river across the whole map: [axis, position, width]; streets bridge it.
        river_axis = int(rng.integers(2))
        size = (width, height)[river_axis]  # placed near the view, often in it
        seen_at = int(rng.integers(-size // 2, size + size // 2))
        river = [river_axis, seen_at - current[river_axis] * grid, int(rng.integers(24, 44))]
        params = {
            "title": choose(rng, _TITLES), "width": width, "height": height, "grid": grid,
            "cross": cross, "reach": reach, "pins": pins, "label_sides": sides,
            "streets": streets, "parks": parks, "river": river, "zoom": int(rng.integers(13, 18)),
            "anchor": sample_anchor(rng),
        }
        if touch:
            params["pin"] = _TOUCH_PIN
        return Sample(params, current, goal)

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        """A new pan and a new place on the same map for the named pin (the part the goal
        concerns), drawn as `sample` draws them: the pin clear of the other pins as shown,
        the tags' sides set for the new view. Should no draw keep it clear (none failed in
        2,000 on each level 0 control), `sample`'s states stay."""
        params = sample.params
        grid, cross, others = params["grid"], params["cross"], params["pins"][1:]
        for _ in range(_ATTEMPTS):
            current, goal = _pans(rng, params["width"], params["height"], grid, cross,
                                  "pin" in params)
            shown = [[cross[i] + (current[i] - goal[i]) * grid for i in range(2)]]
            shown += [[u + current[0] * grid, v + current[1] * grid] for _, u, v in others]
            if _apart(shown[0], shown[1:]):
                name = params["pins"][0][0]
                pins = [[name, cross[0] - goal[0] * grid, cross[1] - goal[1] * grid], *others]
                sides = ["left" if u > params["width"] - _LABEL_W else "right" for u, _ in shown]
                return Sample({**params, "pins": pins, "label_sides": sides}, current, goal)
        return sample

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        def cells(value: Any) -> bool:  # a pan within the map's range (+-reach cells)
            return (isinstance(value, list | tuple) and len(value) == 2
                    and all(isinstance(v, int) and not isinstance(v, bool) and -r <= v <= r
                            for v, r in zip(value, params["reach"], strict=True)))

        return cells(a) and cells(b) and list(a) == list(b)

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [(dx + rx) / 2rx, (dy + ry) / 2ry], the pan in cells over the map's
        pan range of +-reach cells per axis (every renderer clamps the pan to it)."""
        return [(cells + reach) / (2 * reach)
                for cells, reach in zip(state, params["reach"], strict=True)]

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """The pan's distance from the goal in cells, each axis a share of the map's pan
        range (2 x reach), as a length over the range's diagonal: hypot(dx / 2rx,
        dy / 2ry) / sqrt(2), at most 1."""
        if not (self.states_equal(state, state, params) and self.states_equal(goal, goal, params)):
            return 1.0
        shares = [abs(a - b) / (2 * reach)
                  for a, b, reach in zip(state, goal, params["reach"], strict=True)]
        return min(1.0, float(np.hypot(*shares)) / float(np.sqrt(2)))

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        title, name = sample.params["title"], sample.params["pins"][0][0]
        locate = choose(rng, (f"Locate the '{name}' pin on the {title} map.",
                              f"Find the '{name}' marker on the map.",
                              f"Where is the '{name}' pin?"))
        interact = choose(rng, (
            f"Pan the map so that the '{name}' pin sits on the crosshair.",
            f"Drag the map until the '{name}' marker is centred on the crosshair.",
            f"Move the map so that the '{name}' pin lies exactly under the crosshair.",
            f"Bring the '{name}' pin onto the crosshair by dragging the map."))
        return Instructions(locate=locate, interact=interact)

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        return f"pan ({state[0]}, {state[1]}) cells of {params['grid']} px"
