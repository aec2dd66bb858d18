"""Tabs: a bar of 3-7 tabs above a panel that shows the active tab's content.

One action: hover p0 (over the tabbed panel), click p1 on a tab. A click on a
tab makes it the active one (clicking the active tab keeps it active); the
gaps and padding of the bar and the content panel do nothing. The state is the
active tab's label; the goal is any other tab of the bar, so one click on it
reaches the goal. Tabs are square hit elements (any rounded look is drawn by a
pseudo-element), all drawn in one font weight, so the bar keeps its layout
whichever tab is active.

On a phone (touch) every tab is at least TOUCH_TARGET CSS px high and wide (a
short label's tab grows to `hit`), and the bar keeps fewer tabs to fit them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import numpy as np
from pydantic import Field, StrictBool, model_validator

from finestate_env.components.base import (
    TOUCH_TARGET,
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

# (panel title, tab labels in the order an app would show them).
_DOMAINS = (
    ("Product details", ("Overview", "Specs", "Reviews", "Q&A", "Shipping", "Warranty", "Extras")),
    ("Account settings", ("General", "Security", "Billing", "Alerts", "Privacy", "Team", "Apps")),
    ("Project", ("Summary", "Tasks", "Files", "Activity", "Members", "Wiki", "Settings")),
    ("Profile", ("Posts", "About", "Photos", "Friends", "Videos", "Events", "Groups")),
    ("Sales report", ("Today", "Week", "Month", "Quarter", "Year", "All time")),
    ("Mailbox", ("Inbox", "Sent", "Drafts", "Archive", "Spam", "Trash")),
    ("Repository", ("Code", "Issues", "Pull requests", "Actions", "Wiki", "Insights")),
    ("Course", ("Syllabus", "Lessons", "Quizzes", "Grades", "Forum", "Resources")),
    ("Order #4821", ("Items", "Payment", "Delivery", "Invoice", "Returns")),
    ("Server status", ("Health", "Metrics", "Logs", "Alerts", "Config", "Deploys")),
)
_SENTENCES = (
    "Last updated {n} days ago by the admin team.",
    "{n} items need your attention this week.",
    "Changes here are saved automatically.",
    "Only members with edit rights can change this.",
    "Showing {n} of {m} entries, newest first.",
    "Tap an entry to see more details.",
    "Export the list as CSV or PDF at any time.",
    "Notifications for this section are on.",
    "{n} people viewed this in the last hour.",
    "Filters: status is open, owner is anyone.",
    "Synced with the cloud {n} minutes ago.",
    "Averages are based on {m} reviews.",
    "Ships within {n} business days.",
    "No problems found in the last check.",
    "Drafts are kept for {m} days.",
    "Contact support if something looks wrong.",
)
_STYLES = ("underline", "pills", "boxed")
# Widest advance of a 14 px label character in any theme font, in px, averaged over a
# word (a safe upper bound: the bar must never overflow the card).
_CHAR_PX = 9.5
_CARD_CHROME = 34  # card padding 2 x 16 and border 2 x 1 (stage.css .fs-card)


def _bar_width(labels: list[str], pad: int, gap: int, style: str, fill: bool,
               least: int = 0) -> float:
    """An upper bound on the bar's width in px (tabs.css lays it out this way), each
    tab at least `least` px wide."""
    texts = [max(least, len(t) * _CHAR_PX + 2 * pad) for t in labels]
    tabs = len(labels) * max(texts) if fill else sum(texts)
    return tabs + gap * (len(labels) - 1) + (8 if style == "pills" else 0)


_MOST_TABS = max(len(pool) for _, pool in _DOMAINS)  # a bar's most tabs (a whole pool)
_MOST_LINES = 4  # the most lines of text a tab's panel holds (the sampler draws 2-4)


class TabContent(Params):
    """What a tab's panel shows."""

    heading: Text
    lines: list_of(Text, 1, _MOST_LINES)


class TabsParams(Params):
    title: Text  # the card's title
    labels: distinct_list_of(Text, 3, _MOST_TABS)  # the tabs, left to right
    contents: list_of(TabContent, 3, _MOST_TABS)  # each tab's panel, in the labels' order
    lines: Annotated[int, Field(strict=True, ge=2, le=_MOST_LINES)]  # the panel's height in lines
    style: Literal["underline", "pills", "boxed"]
    gap: Pixels  # between tabs
    pad: Pixels  # a tab's padding left and right
    fill: StrictBool  # tabs of equal width filling the bar
    tab_height: Pixels
    width: Pixels  # the card's width
    anchor: Anchor
    hit: Pixels | None = None  # on a phone: a tab's least width

    @model_validator(mode="after")
    def _one_panel_per_tab(self) -> TabsParams:
        if len(self.contents) != len(self.labels):
            raise ValueError(f"contents must hold one panel per label: {len(self.labels)} "
                             f"labels, {len(self.contents)} contents")
        for i, content in enumerate(self.contents):
            if len(content.lines) > self.lines:
                raise ValueError(f"contents[{i}].lines: at most lines = {self.lines} lines, "
                                 f"got {len(content.lines)}")
        return self


class Tabs(ComponentType):
    name = "tabs"
    params_model = TabsParams
    family = "toggle_option"
    gesture = "tap"
    aliases = ("Tab", "Tab bar")
    # Qt's tab page is shorter than the web's: a shorter desktop slot.
    slots = {
        "web": Slot(target=244, distractor=244, min_width=372),
        "mobile": Slot(target=246, distractor=246, min_width=360),
        "desktop": Slot(target=210, distractor=210, min_width=372),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The card's title."""
        return params["title"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        title, pool = choose(rng, _DOMAINS)
        style = choose(rng, _STYLES)
        gap = int(choose(rng, (4, 6, 8))) if style == "pills" else int(choose(rng, (0, 0, 2, 16)))
        pad = int(rng.integers(10, 19))
        fill = bool(rng.integers(2)) if style != "boxed" else False
        budget = viewport[0] - 16 - _CARD_CHROME  # the stage keeps an 8 px margin
        least = TOUCH_TARGET if touch else 0  # a tab's narrowest width
        count = int(rng.integers(3, min(7, len(pool)) + 1))
        # Drop tabs (longest first) until the bar fits, then tighten the padding.
        picked = sorted(int(i) for i in rng.permutation(len(pool))[:count])
        while len(picked) > 3 and _bar_width([pool[i] for i in picked], pad, gap, style,
                                             fill, least) > budget:
            picked.remove(max(picked, key=lambda i: (len(pool[i]), i)))
        while pad > 6 and _bar_width([pool[i] for i in picked], pad, gap, style, fill,
                                     least) > budget:
            pad -= 2
        if _bar_width([pool[i] for i in picked], pad, gap, style, fill, least) > budget:
            # Still too wide for a tiny viewport: the three shortest labels, tight.
            picked = sorted(sorted(range(len(pool)), key=lambda i: (len(pool[i]), i))[:3])
            gap, fill = min(gap, 4), False
        labels = [pool[i] for i in picked]
        need = _bar_width(labels, pad, gap, style, fill, least) + _CARD_CHROME
        width = int(min(viewport[0] - 16, max(need, rng.integers(300, 561))))
        lines = int(rng.integers(2, 5))
        contents = []
        for label in labels:
            count_lines = int(rng.integers(1, lines + 1))
            chosen = rng.permutation(len(_SENTENCES))[:count_lines]
            text = [_SENTENCES[int(i)].format(n=int(rng.integers(2, 10)),
                                               m=int(rng.integers(10, 400))) for i in chosen]
            contents.append({"heading": label, "lines": text})
        current, goal = (int(i) for i in rng.permutation(len(labels))[:2])
        params = {
            "title": title, "labels": labels, "contents": contents, "lines": lines,
            "style": style, "gap": gap, "pad": pad, "fill": fill,
            "tab_height": touch_size(int(rng.integers(32, 45)), touch), "width": width,
            "anchor": sample_anchor(rng),
        }
        if touch:
            params["hit"] = TOUCH_TARGET
        return Sample(params, labels[current], labels[goal])

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        labels = sample.params["labels"]
        current, goal = (int(i) for i in rng.permutation(len(labels))[:2])
        return Sample(sample.params, labels[current], labels[goal])

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        labels = params["labels"]
        return isinstance(a, str) and isinstance(b, str) and a in labels and a == b

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [i / (n - 1)], the open tab's place among the n tabs."""
        return index_code(state, params["labels"])

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        title, goal = sample.params["title"], sample.goal_state
        locate = choose(rng, (f"Locate the tabbed {title} panel.",
                              f"Find the tabs of the {title} card.",
                              f"Where is the tab bar for {title}?"))
        interact = choose(rng, (f"Open the {goal} tab.", f"Switch to the {goal} tab.",
                                f"Show the {goal} tab of {title}.",
                                f"Select the tab labelled {goal}."))
        return Instructions(locate=locate, interact=interact)
