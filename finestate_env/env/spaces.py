"""The env's spaces (docs/design.md §4b), built in one place."""

from __future__ import annotations

import string

import numpy as np
from gymnasium import spaces

from finestate_env.core.schema import CoordConvention

# Every character an instruction may contain: printable ASCII plus the few
# typographic and accented characters the templates and labels use.
INSTRUCTION_CHARSET = frozenset(string.printable) | frozenset("°·–—‘’“”×éèêàâçöüäñ")
INSTRUCTION_MAX_LENGTH = 512


def observation_space(viewport: tuple[int, int]) -> spaces.Dict:
    width, height = viewport
    return spaces.Dict({
        "screenshot": spaces.Box(0, 255, shape=(height, width, 3), dtype=np.uint8),
        "instruction": spaces.Text(max_length=INSTRUCTION_MAX_LENGTH, min_length=1,
                                   charset=INSTRUCTION_CHARSET),
    })


def action_space(viewport: tuple[int, int], coord_mode: CoordConvention) -> spaces.Dict:
    """p0 and p1 as (x, y): pixels in [0, width) x [0, height), or [0, 1) when normalized."""
    if coord_mode == "pixel":
        high = np.array(viewport, dtype=np.float32)
    elif coord_mode == "normalized":
        high = np.ones(2, dtype=np.float32)
    else:
        raise ValueError(f"coord_mode must be 'pixel' or 'normalized', got {coord_mode!r}")
    point = spaces.Box(low=np.zeros(2, dtype=np.float32), high=high, dtype=np.float32)
    return spaces.Dict({"p0": point, "p1": point})
