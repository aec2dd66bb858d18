"""Accordion: 3-6 collapsible sections, at most one open (exclusive).

One action: hover p0 (over the accordion), click p1 on a section's header. A
click on a closed section's header opens it and closes the open one; a click on
the open section's header closes it, leaving none open. Bodies, borders and gaps
have no handler: a click there does nothing. The state is the open section's
title, or None (JSON null) when none is open. The goal is either another section
open (from any state) or none open (from an open section: its header is the
target); either way one click on one header reaches it. Opening a section moves
the headers below it, so the target configuration's boxes are measured from the
rendering that shows the goal.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from pydantic import model_validator

from finestate_env.components.base import (
    ComponentType,
    Sample,
    Slot,
    choose,
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

# (card title, section titles, body sentences).
_DOMAINS = (
    ("Frequently asked questions",
     ("Resetting a password", "Changing plans", "Finding invoices", "How refunds work",
      "Is my data safe?", "Closing an account")),
    ("Shipping & returns",
     ("Delivery times", "Shipping costs", "International orders", "Tracking",
      "Returns policy", "Damaged items")),
    ("Settings",
     ("Account", "Notifications", "Privacy", "Appearance", "Language & region", "Storage")),
    ("Course outline",
     ("Week 1: Basics", "Week 2: Data types", "Week 3: Functions", "Week 4: Modules",
      "Week 5: Testing", "Week 6: Projects")),
    ("Product details",
     ("Description", "Materials & care", "Size guide", "Warranty", "In the box",
      "Specifications")),
    ("Filters",
     ("Price", "Brand", "Rating", "Color", "Availability", "Seller")),
)
_SENTENCES = (  # short enough for one line of the narrowest body
    "Open the menu and pick one.",
    "Most requests take {n} days.",
    "Change this any time.",
    "We email you when it is done.",
    "Standard options cost {n}.99.",
    "Items must be unused.",
    "Details are on the order page.",
    "Contact support if it persists.",
    "This applies to all plans.",
    "Updates roll out over {n} days.",
    "Up to {m} entries are kept.",
    "Choose what suits you best.",
    "Available in {n} regions.",
    "See the help center for more.",
)
_STYLES = ("flush", "separated")
_WIDTH = (300, 460)
_CARD_CHROME_Y = 26 + 28  # card padding 2 x 12, border 2 x 1, title 20 + margin 8


def _height(count: int, header: int, lines: list[int], style: str) -> int:
    """The accordion card's height in px with its tallest body open (accordion.css)."""
    body = 4 + 20 * max(lines) + 12
    if style == "flush":
        list_h = 2 + count * header + (count - 1) + body  # outer border, hairlines
    else:
        list_h = count * (header + 2) + (count - 1) * 8 + body
    return _CARD_CHROME_Y + list_h


def _states(rng: np.random.Generator, titles: list[str]) -> tuple[str | None, str | None]:
    """(current, goal): one section opened from none, the open one closed, or another one
    opened instead."""
    order = [int(i) for i in rng.permutation(len(titles))]
    if rng.random() < 0.2:
        return None, titles[order[0]]  # none open: open one
    if rng.random() < 0.3:
        return titles[order[0]], None  # close the open one
    return titles[order[0]], titles[order[1]]


_MOST_SECTIONS = max(len(pool) for _, pool in _DOMAINS)  # 6: a whole pool
_MOST_LINES = 3  # the most sentences of one section's body (the sampler draws 1-3)


class AccordionParams(Params):
    title: Text  # the card's title
    titles: distinct_list_of(Text, 3, _MOST_SECTIONS)  # the sections' titles, top to bottom
    bodies: list_of(list_of(Text, 1, _MOST_LINES), 3, _MOST_SECTIONS)  # each one's lines
    style: Literal["flush", "separated"]
    header: Pixels  # a header's height
    chevron: Literal["right", "left"]  # the side of the header's chevron
    width: Pixels  # the card's width
    # The section a "none open" goal closes (its header is the goal box), else None.
    closing: Text | None
    anchor: Anchor

    @model_validator(mode="after")
    def _a_body_per_section(self) -> AccordionParams:
        if len(self.bodies) != len(self.titles):
            raise ValueError(f"bodies must hold one body per title: {len(self.titles)} "
                             f"titles, {len(self.bodies)} bodies")
        if self.closing is not None and self.closing not in self.titles:
            raise ValueError(f"closing must be None or one of titles {self.titles}, "
                             f"got {self.closing!r}")
        return self


class Accordion(ComponentType):
    name = "accordion"
    params_model = AccordionParams
    family = "toggle_option"
    gesture = "tap"
    code_size = 2
    goal_params = ("closing",)
    aliases = ()
    slots = {
        "web": Slot(target=448, distractor=300, min_width=360),
        "mobile": Slot(target=360),
        "desktop": Slot(target=400, distractor=300, min_width=360),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The card's title."""
        return params["title"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        title, pool = choose(rng, _DOMAINS)
        style = choose(rng, _STYLES)
        header = int(rng.integers(36, 49))
        count = int(rng.integers(3, 7))
        lines = [int(rng.integers(1, 4)) for _ in range(count)]
        header, lowest = touch_size(header, touch), touch_size(32, touch)
        # Fewer sections, then lower headers and shorter bodies, until it fits the page.
        while _height(count, header, lines, style) > viewport[1] - 16:
            if count > 3:
                count, lines = count - 1, lines[:-1]
            elif header > lowest:
                header -= 2
            elif max(lines) > 1:
                lines = [min(n, max(lines) - 1) for n in lines]
            else:
                break
        picked = sorted(int(i) for i in rng.permutation(len(pool))[:count])
        titles = [pool[i] for i in picked]
        bodies = []
        for n in lines:
            chosen = rng.permutation(len(_SENTENCES))[:n]
            bodies.append([_SENTENCES[int(i)].format(n=int(rng.integers(2, 10)),
                                                      m=int(rng.integers(20, 500)))
                           for i in chosen])
        current, goal = _states(rng, titles)
        width = int(min(viewport[0] - 16, rng.integers(_WIDTH[0], _WIDTH[1] + 1)))
        params = {
            "title": title, "titles": titles, "bodies": bodies, "style": style,
            "header": header, "chevron": choose(rng, ("right", "left")), "width": width,
            # The section a "none open" goal closes: its header is the goal box of the
            # target configuration too, where nothing shows which section was open.
            "closing": current if goal is None else None,
            "anchor": sample_anchor(rng),
        }
        return Sample(params, current, goal)

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        current, goal = _states(rng, sample.params["titles"])
        return Sample({**sample.params, "closing": current if goal is None else None},
                      current, goal)

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        titles = params["titles"]
        if a is None or b is None:
            return a is None and b is None
        return isinstance(a, str) and isinstance(b, str) and a in titles and a == b

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [open, i / (n - 1)]: [0, 0] with every section closed, else [1.0,
        the open section's place among the n sections]."""
        return [0.0, 0.0] if state is None else [1.0, *index_code(state, params["titles"])]

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        title = sample.params["title"]
        locate = choose(rng, (f"Locate the {title} accordion.",
                              f"Find the collapsible {title} sections.",
                              f"Where is the {title} list of expandable sections?"))
        if sample.goal_state is None:
            open_ = sample.current_state
            interact = choose(rng, (f'Collapse the "{open_}" section.',
                                    f'Close the "{open_}" section so that none is open.',
                                    f'Fold up "{open_}" in {title}.'))
        else:
            goal = sample.goal_state
            interact = choose(rng, (f'Expand the "{goal}" section.',
                                    f'Open "{goal}" in {title}.',
                                    f'Show the contents of "{goal}".',
                                    f'Expand "{goal}".'))
        return Instructions(locate=locate, interact=interact)

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        return "none open" if state is None else f"{state!r} open"
