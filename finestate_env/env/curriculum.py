"""The curriculum: levels of one env that a learner can raise (env option `level`).

- level 0, a lone control: per type one fixed control (its place, centred; its size,
  content and theme), drawn once from FIXED_SEED; only the current and goal states are
  drawn per episode (each type's `resample_states`);
- level 1, a lone control: everything of the type is drawn, place, size, content, theme
  and states (`scene="control"`);
- level 2, an app page: level 1 inside a page among distractors (`scene="page"`, the
  default scene);
- level 3, an app page with goals up to `max_actions` gestures away (FAR_ACTIONS unless
  max_actions is given), each type's `far_goal`.

Below level 3, an env of max_actions > 1 draws goals one gesture away, and the gestures
beyond the first are retries.

Each level is seeded as the env is: the same seed at the same level gives the same instance.
Level 0's fixed control depends only on the type, the platform's layout viewport and
FIXED_SEED, never on the episode's seed, so every episode of a type shows the same control.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from finestate_env.components import COMPONENTS, TYPE_NAMES, Sample

FIXED_SEED = 20261203  # level 0's controls: type i is drawn with FIXED_SEED + i
FAR_ACTIONS = 4  # level 3's gestures per episode unless max_actions says otherwise
CENTRE = [0.5, 0.5]  # level 0's anchor: the control's free space split evenly


@dataclass(frozen=True)
class Level:
    scene: str  # "control" or "page"
    fixed: bool  # one control per type, only the states drawn
    far_goals: bool  # goals several gestures away (max_actions > 1)


LEVELS: dict[int, Level] = {
    0: Level(scene="control", fixed=True, far_goals=False),
    1: Level(scene="control", fixed=False, far_goals=False),
    2: Level(scene="page", fixed=False, far_goals=False),
    3: Level(scene="page", fixed=False, far_goals=True),
}


def check_level(level: object) -> int:
    if isinstance(level, bool) or not isinstance(level, int | np.integer) \
            or int(level) not in LEVELS:
        raise ValueError(f"level must be one of {list(LEVELS)}, got {level!r}")
    return int(level)


@lru_cache(maxsize=256)
def fixed_control(name: str, viewport: tuple[int, int], touch: bool) -> Sample:
    """Level 0's control of type `name` for a layout viewport (CSS px): one draw of the
    type's sampler, centred."""
    sample = COMPONENTS[name].sample(
        np.random.default_rng(FIXED_SEED + TYPE_NAMES.index(name)), viewport, touch=touch)
    return Sample({**sample.params, "anchor": list(CENTRE)}, sample.current_state,
                  sample.goal_state)


def fixed_sample(rng: np.random.Generator, name: str, viewport: tuple[int, int],
                 touch: bool) -> Sample:
    """A level 0 episode's sample: the fixed control with states drawn from `rng`."""
    control = fixed_control(name, viewport, touch)
    # The cached control's params are shared: the type gets its own copy to draw on.
    return COMPONENTS[name].resample_states(rng, Sample(
        deepcopy(control.params), control.current_state, control.goal_state))
