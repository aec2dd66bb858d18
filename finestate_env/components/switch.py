"""Switch: an on/off toggle, the target among 3-5 labelled switches on a settings card.

One action: hover p0 (over the target switch's row), click p1. A click anywhere
on a switch's track flips that switch; the others are real switches too, but
the state is the target's alone, so the goal (the opposite of the current
state) is reached only by clicking the target's track. The neighbours give
locating its meaning: the target is found by its label, not by being the only
control on the page.

On a phone (touch) each track is a hit area of `hit` CSS px each way (the pill
keeps its look inside it, as Material's switch sits in a 48 dp target), and the
rows are at least that tall.

The card is as tall as its rows and its title; a viewport too short for all of
them (a phone page's settings row, widgets/scenes) keeps as many rows as fit,
then drops the title, and a narrow one (a quick-settings tile) narrows the card
and draws its labels from the short ones. A viewport of a whole screen never
binds, so a seed draws what it always drew there.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pydantic import StrictBool, model_validator

from finestate_env.components.base import (
    STAGE_MARGIN,
    TOUCH_TARGET,
    ComponentType,
    Sample,
    Slot,
    choose,
    sample_anchor,
)
from finestate_env.components.params import (
    Anchor,
    Index,
    Params,
    Pixels,
    Text,
    distinct_list_of,
    list_of,
)
from finestate_env.core.schema import Instructions

_LABELS = ("Wi-Fi", "Bluetooth", "Airplane mode", "Auto-update", "Dark mode", "Notifications",
           "Location", "Mobile data", "Hotspot", "Do not disturb", "Auto-brightness", "NFC")
_TITLES = ("Settings", "Quick settings", "Connectivity", "Preferences", "System")
_COUNT = (3, 5)
_WIDTH = (240, 320)
# switch.css / stage.css: a card's padding and border (26 px), its title line (24), a row.
_CARD_CHROME, _TITLE_H, _ROW = 26, 24, 40
_SHORT_LABEL = 10  # characters: what a tile narrower than _WIDTH[0] shows whole


class SwitchParams(Params):
    title: Text | None = None  # absent on a card too short for it (a lone settings row)
    labels: distinct_list_of(Text, 1, _COUNT[1])
    on: list_of(StrictBool | None, 1, _COUNT[1])  # each switch's state; null for the target's
    target: Index  # the switch whose state is the instance's
    width: Pixels  # the card's width
    anchor: Anchor
    hit: Pixels | None = None  # on a phone: the size of a track's finger-sized hit area

    @model_validator(mode="after")
    def _target_and_states(self) -> SwitchParams:
        if self.title is None and "title" in self.model_fields_set:
            raise ValueError("title must be a text or absent (the page script tests for "
                             "absence), got null")
        count = len(self.labels)
        if len(self.on) != count:
            raise ValueError(f"on must be as long as labels ({count}), got {len(self.on)}")
        if self.target >= count:
            raise ValueError(f"target must index labels (0 to {count - 1}), got {self.target}")
        for i, on in enumerate(self.on):
            if i != self.target and on is None:
                raise ValueError(f"on[{i}] must be true or false: only the target's "
                                 f"(on[{self.target}]) is null")
        return self


class Switch(ComponentType):
    name = "switch"
    params_model = SwitchParams
    family = "toggle_option"
    gesture = "tap"
    aliases = ("Toggle", "Toggle switch")
    siblings = True
    # Qt's switch card is shorter than the web's: a shorter desktop slot.
    slots = {
        "web": Slot(target=266, distractor=266, min_width=336, narrow=True),
        "mobile": Slot(target=258, distractor=162, min_width=360),
        "desktop": Slot(target=240, distractor=240, min_width=336, narrow=True),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The label of the named item."""
        return params["labels"][params["target"]]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        count = int(rng.integers(_COUNT[0], _COUNT[1] + 1))
        row = max(_ROW, TOUCH_TARGET) if touch else _ROW
        room = viewport[1] - 2 * STAGE_MARGIN - _CARD_CHROME
        titled = room >= _TITLE_H + row
        count = max(1, min(count, (room - _TITLE_H * titled) // row))
        narrow = viewport[0] - 2 * STAGE_MARGIN < _WIDTH[0]
        names = [n for n in _LABELS if len(n) <= _SHORT_LABEL] if narrow else _LABELS
        labels = [names[i] for i in rng.permutation(len(names))[:count]]
        target = int(rng.integers(count))
        current = bool(rng.integers(2))
        # The target's own entry is null: its state is the instance's, given apart.
        on = [None if i == target else bool(rng.integers(2)) for i in range(count)]
        params = {
            "title": choose(rng, _TITLES), "labels": labels, "on": on, "target": target,
            "width": int(min(rng.integers(_WIDTH[0], _WIDTH[1] + 1),
                             viewport[0] - 2 * STAGE_MARGIN)),
            "anchor": sample_anchor(rng),
        }
        if not titled:  # a lone settings row: its label is its name
            del params["title"]
        if touch:
            params["hit"] = TOUCH_TARGET
        return Sample(params, current, not current)

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        """The named switch flipped either way; it stays the named one (its row is the
        control, `loc`: the others are its neighbours)."""
        current = bool(rng.integers(2))
        return Sample(sample.params, current, not current)

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        return isinstance(a, bool) and isinstance(b, bool) and a == b

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [1.0] on, [0.0] off."""
        return [1.0 if state else 0.0]

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        label = sample.params["labels"][sample.params["target"]]
        goal = self.describe(sample.goal_state, sample.params)
        locate = choose(rng, (f"Locate the {label} switch.", f"Find the toggle for {label}.",
                              f"Where is the {label} switch?"))
        interact = choose(rng, (f"Turn {goal} {label}.", f"Switch {label} {goal}.",
                                f"Set the {label} switch to {goal}."))
        return Instructions(locate=locate, interact=interact)

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        return "on" if state else "off"
