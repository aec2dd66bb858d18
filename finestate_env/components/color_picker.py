"""Colour picker: a labelled colour button with its palette popup open below it.

One action: click the goal swatch. The palette is a grid of named swatches
(columns are hues, rows are shades of a Material-like palette), with gaps
between swatches in which a click does nothing; the popup stays open, so the
target configuration has the same layout. The state is the selected swatch's
colour as lowercase "#rrggbb".
"""

from __future__ import annotations

import re
from typing import Annotated, Any

import numpy as np
from pydantic import Field, model_validator

from finestate_env.components.base import (
    ComponentType,
    Sample,
    Slot,
    choose,
    distinct_pair,
    sample_anchor,
    touch_size,
)
from finestate_env.components.params import Anchor, Params, Pixels, Text, list_of
from finestate_env.core.schema import Instructions

_SHADES = ("50", "100", "200", "300", "400", "500", "600", "700", "800", "900")
# The Material Design (2014) palette: one hex per shade of _SHADES.
_PALETTE = {
    "Red": "ffebee ffcdd2 ef9a9a e57373 ef5350 f44336 e53935 d32f2f c62828 b71c1c",
    "Pink": "fce4ec f8bbd0 f48fb1 f06292 ec407a e91e63 d81b60 c2185b ad1457 880e4f",
    "Purple": "f3e5f5 e1bee7 ce93d8 ba68c8 ab47bc 9c27b0 8e24aa 7b1fa2 6a1b9a 4a148c",
    "Deep Purple": "ede7f6 d1c4e9 b39ddb 9575cd 7e57c2 673ab7 5e35b1 512da8 4527a0 311b92",
    "Indigo": "e8eaf6 c5cae9 9fa8da 7986cb 5c6bc0 3f51b5 3949ab 303f9f 283593 1a237e",
    "Blue": "e3f2fd bbdefb 90caf9 64b5f6 42a5f5 2196f3 1e88e5 1976d2 1565c0 0d47a1",
    "Light Blue": "e1f5fe b3e5fc 81d4fa 4fc3f7 29b6f6 03a9f4 039be5 0288d1 0277bd 01579b",
    "Cyan": "e0f7fa b2ebf2 80deea 4dd0e1 26c6da 00bcd4 00acc1 0097a7 00838f 006064",
    "Teal": "e0f2f1 b2dfdb 80cbc4 4db6ac 26a69a 009688 00897b 00796b 00695c 004d40",
    "Green": "e8f5e9 c8e6c9 a5d6a7 81c784 66bb6a 4caf50 43a047 388e3c 2e7d32 1b5e20",
    "Light Green": "f1f8e9 dcedc8 c5e1a5 aed581 9ccc65 8bc34a 7cb342 689f38 558b2f 33691e",
    "Lime": "f9fbe7 f0f4c3 e6ee9c dce775 d4e157 cddc39 c0ca33 afb42b 9e9d24 827717",
    "Yellow": "fffde7 fff9c4 fff59d fff176 ffee58 ffeb3b fdd835 fbc02d f9a825 f57f17",
    "Amber": "fff8e1 ffecb3 ffe082 ffd54f ffca28 ffc107 ffb300 ffa000 ff8f00 ff6f00",
    "Orange": "fff3e0 ffe0b2 ffcc80 ffb74d ffa726 ff9800 fb8c00 f57c00 ef6c00 e65100",
    "Deep Orange": "fbe9e7 ffccbc ffab91 ff8a65 ff7043 ff5722 f4511e e64a19 d84315 bf360c",
    "Brown": "efebe9 d7ccc8 bcaaa4 a1887f 8d6e63 795548 6d4c41 5d4037 4e342e 3e2723",
    "Grey": "fafafa f5f5f5 eeeeee e0e0e0 bdbdbd 9e9e9e 757575 616161 424242 212121",
    "Blue Grey": "eceff1 cfd8dc b0bec5 90a4ae 78909c 607d8b 546e7a 455a64 37474f 263238",
}
_HUES = tuple(_PALETTE)
_LABELS = ("Fill", "Stroke", "Text colour", "Highlight", "Border", "Background", "Accent",
           "Shadow", "Line colour", "Font colour")
_COLUMNS = (8, 10)
_ROWS = (5, 6)
_SWATCH_PX = (20, 28)
_GAP_PX = (4, 6)
_HEX = re.compile(r"#[0-9a-f]{6}")


def _hex(hue: str, shade: int) -> str:
    return "#" + _PALETTE[hue].split()[shade]


Hex = Annotated[str, Field(strict=True, pattern=r"^#[0-9a-f]{6}$")]
"""A colour as lowercase "#rrggbb"."""


class ColorPickerParams(Params):
    label: Text  # the colour button's label
    columns: Annotated[int, Field(strict=True, ge=1, le=_COLUMNS[1])]  # hues: the grid's columns
    swatch: Pixels  # a swatch's size
    gap: Pixels  # between swatches
    # The palette row by row: [name, colour] of each swatch, `columns` to a row.
    swatches: list_of(tuple[Text, Hex], 2, _COLUMNS[1] * _ROWS[1])
    anchor: Anchor

    @model_validator(mode="after")
    def _a_full_grid(self) -> ColorPickerParams:
        if len(self.swatches) % self.columns:
            raise ValueError(f"swatches must fill whole rows of columns = {self.columns}, got "
                             f"{len(self.swatches)} swatches")
        colours = [colour for _, colour in self.swatches]
        if len(set(colours)) != len(colours):
            raise ValueError("the colours of swatches must be distinct")
        return self


class ColorPicker(ComponentType):
    name = "color_picker"
    params_model = ColorPickerParams
    family = "specific_data"
    gesture = "tap"
    code_size = 2
    aliases = ("Colour picker", "Color palette", "Colour palette")
    # Qt's colour grid is 386 px wide whatever the sampler draws: a wider and
    # taller desktop slot, not the narrow column. A phone's palette of
    # finger-sized cells does not shrink: it keeps its own height, which fits.
    slots = {
        "web": Slot(target=296, distractor=296, min_width=368, narrow=True),
        "mobile": Slot(target=416),
        "desktop": Slot(target=316, distractor=316, min_width=404),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The control's label."""
        return params["label"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        columns = int(rng.integers(_COLUMNS[0], _COLUMNS[1] + 1))
        rows = int(rng.integers(_ROWS[0], _ROWS[1] + 1))
        drawn_hues = rng.choice(len(_HUES), columns, replace=False)
        shades = sorted(int(i) for i in rng.choice(len(_SHADES), rows, replace=False))
        gap = int(rng.integers(_GAP_PX[0], _GAP_PX[1] + 1))
        # The popup adds 18 px of padding and border, the page margin 16 px.
        room = viewport[0] - 34 + gap
        swatch = max(12, min(room // columns - gap,
                             int(rng.integers(_SWATCH_PX[0], _SWATCH_PX[1] + 1))))
        if touch:  # finger-sized swatches: fewer hues where the page has no room for them
            swatch = touch_size(swatch, touch)
            columns = min(columns, room // (swatch + gap))
        hues = sorted(int(i) for i in drawn_hues[:columns])
        swatches = [[f"{_HUES[h]} {_SHADES[s]}", _hex(_HUES[h], s)] for s in shades for h in hues]
        current, goal = distinct_pair(rng, 0, len(swatches))  # any swatch but the current one
        params = {
            "label": choose(rng, _LABELS), "columns": columns, "swatch": swatch, "gap": gap,
            "swatches": swatches, "anchor": sample_anchor(rng),
        }
        return Sample(params, swatches[current][1], swatches[goal][1])

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        swatches = sample.params["swatches"]
        current, goal = distinct_pair(rng, 0, len(swatches))
        return Sample(sample.params, swatches[current][1], swatches[goal][1])

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        return isinstance(a, str) and isinstance(b, str) and bool(_HEX.fullmatch(a)) and a == b

    def code(self, state: Any, params: dict[str, Any]) -> list[float] | None:
        """Goal vector: [column / (columns - 1), row / (rows - 1)] of the swatch in the
        palette's grid; a colour that is no swatch's has no code (None from state_code)."""
        hexes = [hex_ for _, hex_ in params["swatches"]]
        if state not in hexes:
            return None
        columns = params["columns"]
        rows = len(hexes) // columns
        row, column = divmod(hexes.index(state), columns)
        return [column / (columns - 1) if columns > 1 else 0.0,
                row / (rows - 1) if rows > 1 else 0.0]

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        label = sample.params["label"]
        goal = sample.goal_state
        name = self.describe(goal, sample.params)
        locate = choose(rng, (f"Locate the {label} picker.", f"Find the {label} button.",
                              f"Where is the palette for {label}?"))
        interact = choose(rng, (f"Set {label} to {name} ({goal}).", f"Pick the colour {goal}.",
                                f"Choose {name} ({goal}) in the {label} palette.",
                                f"Change {label} to the swatch {goal}."))
        return Instructions(locate=locate, interact=interact)

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        names = {hex_: name for name, hex_ in params["swatches"]}
        return names.get(state, str(state))
