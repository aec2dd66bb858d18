"""Radio group: a card with a question and 3-6 mutually exclusive options.

State: the selected option's label. One action: hover p0 (over the card),
click p1 on an option; each option is one square-cornered clickable row (its
circle, its label and the rest of the row, as an HTML <label> would be), and a
click anywhere on it selects that option. The rows are laid edge to edge,
stacked (vertical) or side by side (horizontal), so the union of the rows is one
rectangle and each row is exactly the region that selects its option. The goal
is any other option of the group.

On a phone (touch) each row is at least TOUCH_TARGET CSS px high (its circle
keeps its size, as Material's 20 dp radio sits in a 48 dp target); side by side
a row is wider than that anyway (circle, 8 px gap, text, 24 px trail). A card
with no room for its stacked rows takes fewer options.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from pydantic import model_validator

from finestate_env.components.base import (
    TOUCH_TARGET,
    ComponentType,
    Sample,
    Slot,
    choose,
    distinct_pair,
    index_code,
    sample_anchor,
    touch_size,
)
from finestate_env.components.params import (
    Anchor,
    Params,
    Pixels,
    Text,
    distinct_list_of,
    list_of,
)
from finestate_env.core.schema import Instructions

# (question, a short name for instructions, options, a muted detail per option or None)
_GROUPS = (
    ("Shipping method", "shipping method",
     ("Standard", "Express", "Overnight", "Store pickup", "Economy", "Same day"),
     ("Free", "$9.99", "$24.99", "Free", "$2.99", "$14.99")),
    ("Payment method", "payment method",
     ("Credit card", "PayPal", "Bank transfer", "Apple Pay", "Cash on delivery", "Gift card"),
     None),
    ("Appearance", "appearance", ("Light", "Dark", "System", "High contrast"), None),
    ("Plan", "plan", ("Free", "Basic", "Pro", "Team", "Enterprise"),
     ("$0/mo", "$5/mo", "$12/mo", "$25/mo", "Custom")),
    ("T-shirt size", "size", ("XS", "S", "M", "L", "XL", "XXL"), None),
    ("Priority", "priority", ("Low", "Normal", "High", "Urgent"), None),
    ("How did you hear about us?", "referral source",
     ("Search engine", "A friend", "Social media", "Podcast", "Advertisement", "Other"), None),
    ("Export format", "export format", ("CSV", "JSON", "PDF", "XLSX", "XML"), None),
    ("Email frequency", "email frequency", ("Daily", "Weekly", "Monthly", "Never"), None),
    ("Seat class", "seat class", ("Economy", "Premium", "Business", "First"),
     ("$320", "$540", "$1,280", "$2,950")),
    ("Who can see your profile?", "profile visibility",
     ("Everyone", "Friends", "Friends of friends", "Only me"), None),
)
_HINTS = ("You can change this later.", "Required", "Applies to new orders only.")
_COUNT = (3, 6)
_WIDTH = (240, 360)
_ROW_PX = (30, 40)
_CIRCLE_PX = (16, 18, 20)
_CHAR_PX = 10  # a generous width of one 14 px character in any theme font
# The card's height besides its rows: 2 border + 24 padding + 28 question (+ 24 hint).
_OVERHEAD, _OVERHEAD_HINT = 54, 78


class RadioGroupParams(Params):
    question: Text  # the card's heading
    name: Text  # the group's short name in instructions
    options: distinct_list_of(Text, 2, _COUNT[1])  # distinct: the state is one of them
    details: list_of(Text, 2, _COUNT[1]) | None  # a muted detail per option (stacked), or null
    hint: Text | None  # a line under the options, or null
    layout: Literal["horizontal", "vertical"]  # the options side by side, or stacked
    width: Pixels  # the card's width
    row: Pixels  # an option row's height
    circle: Pixels  # the radio circle's size
    anchor: Anchor

    @model_validator(mode="after")
    def _options_and_details(self) -> RadioGroupParams:
        count = len(self.options)
        if self.details is not None and len(self.details) != count:
            raise ValueError(f"details must be null or as long as options ({count}), got "
                             f"{len(self.details)}")
        if self.details is not None and self.layout == "horizontal":
            raise ValueError("details must be null where layout is horizontal")
        return self


class RadioGroup(ComponentType):
    name = "radio_group"
    params_model = RadioGroupParams
    family = "toggle_option"
    gesture = "tap"
    aliases = ("Radio", "Radio button", "Radio buttons")
    slots = {
        "web": Slot(target=292, distractor=240, min_width=360),
        "mobile": Slot(target=286, distractor=190, min_width=360),
        "desktop": Slot(target=292, distractor=240, min_width=360),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The group's name."""
        return params["name"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        question, short, pool, details = choose(rng, _GROUPS)
        count = int(rng.integers(_COUNT[0], min(_COUNT[1], len(pool)) + 1))
        if touch:  # finger-sized stacked rows under the tallest overhead (a hint)
            count = max(2, min(count, (viewport[1] - 16 - _OVERHEAD_HINT) // TOUCH_TARGET))
        keep = sorted(int(i) for i in rng.permutation(len(pool))[:count])  # in the pool's order
        options = [pool[i] for i in keep]
        circle = int(choose(rng, _CIRCLE_PX))
        hint = choose(rng, _HINTS) if rng.random() < 0.3 else None
        room = viewport[0] - 16 - 34  # inside the card's border and padding
        # A horizontal row: per option the circle, 8 px gap, the text, 24 px trail.
        row_width = sum(32 + circle + (_CHAR_PX + 1) * len(o) for o in options)
        horizontal = row_width <= min(room, 560) and rng.random() < 0.5
        if horizontal:
            details = None
        else:
            details = [details[i] for i in keep] if details is not None else None
        longest = max(_CHAR_PX * (len(o) + (len(d) + 2 if details else 0))
                      for o, d in zip(options, details or options, strict=True))
        # Side by side, the renderer widens the card to the row's measured width
        # (which row_width bounds from above); stacked, the longest row must fit.
        need = 34 + (0 if horizontal else 8 + circle + longest)
        need = max(need, 34 + _CHAR_PX * len(question))
        width = min(max(need, int(rng.integers(_WIDTH[0], _WIDTH[1] + 1))), viewport[0] - 16)
        overhead = _OVERHEAD_HINT if hint else _OVERHEAD
        rows = 1 if horizontal else count
        row = int(rng.integers(_ROW_PX[0], _ROW_PX[1] + 1))
        row = touch_size(max(24, min(row, (viewport[1] - 16 - overhead) // rows)), touch)
        current, goal = distinct_pair(rng, 0, count)  # any option but the current one
        params = {
            "question": question, "name": short, "options": options, "details": details,
            "hint": hint, "layout": "horizontal" if horizontal else "vertical",
            "width": width, "row": row, "circle": circle, "anchor": sample_anchor(rng),
        }
        return Sample(params, options[current], options[goal])

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        options = sample.params["options"]
        current, goal = distinct_pair(rng, 0, len(options))
        return Sample(sample.params, options[current], options[goal])

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        options = params["options"]
        return isinstance(a, str) and isinstance(b, str) and a in options and a == b

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [i / (n - 1)], the selected option's place among the n options."""
        return index_code(state, params["options"])

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        question, short = sample.params["question"], sample.params["name"]
        goal = sample.goal_state
        locate = choose(rng, (f"Locate the {short} options.",
                              f"Find the \"{question}\" radio group.",
                              f"Where is the choice of {short}?",
                              f"Point at the radio buttons for the {short}."))
        interact = choose(rng, (f"Select '{goal}'.", f"Set the {short} to '{goal}'.",
                                f"Choose '{goal}' under \"{question}\".",
                                f"Pick the '{goal}' option for the {short}."))
        return Instructions(locate=locate, interact=interact)
