"""Scrollbar: a list of numbered rows ("Invoice #1042") scrolled by a custom scrollbar.

The list shows V whole rows of fixed height; the content is translated (no
native scrollbar) and scrolling snaps to whole rows, so the state is the index
of the first visible row, 0..maxFirst (maxFirst = rows - V).

One action: press on the scrollbar at p0 (the thumb, the `now` box; a press
anywhere on the track centres the thumb there) and release at p1. The first row
is ABSOLUTE in p1.y, x ignored: firstRow = clamp(round((p1.y - trackTop -
thumbH / 2) / (trackH - thumbH) * maxFirst), 0, maxFirst). The goal region is a
horizontal band across the track, at least 5 px tall: the row count is sampled
so that each row step owns >= 5 px of thumb travel (which caps it below 200 on
small screens).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from pydantic import model_validator

from finestate_env.components.base import (
    STAGE_MARGIN,
    TOUCH_TARGET,
    ComponentType,
    Grab,
    Sample,
    Slot,
    choose,
    grid_code,
    grid_distance,
    inner_pair,
    sample_anchor,
)
from finestate_env.components.params import (
    Anchor,
    Index,
    Int,
    Params,
    Pixels,
    Text,
    list_of,
)
from finestate_env.core.schema import Instructions

# (list title, row label prefix, first number range, detail pool, right column kind)
_LISTS = (
    ("Invoices", "Invoice #", (1000, 1900),
     ("Acme Corp", "Globex", "Initech", "Umbrella Ltd", "Stark Industries", "Wayne Enterprises",
      "Hooli", "Vandelay Imports", "Soylent Co", "Wonka Foods"), "amount"),
    ("Orders", "Order #", (58000, 59500),
     ("Shipped", "Processing", "Delivered", "On hold", "Cancelled", "Awaiting payment"), "amount"),
    ("Support tickets", "Ticket #", (100, 900),
     ("Login fails", "Refund request", "Broken link", "Slow export", "Password reset",
      "Billing question", "Feature request", "App crash"), "date"),
    ("Shipments", "Shipment SH-", (4000, 4800),
     ("Rotterdam", "Hamburg", "Antwerp", "Le Havre", "Felixstowe", "Valencia", "Genoa"), "date"),
    ("Pull requests", "PR #", (200, 2000),
     ("Fix typo in docs", "Bump deps", "Add dark mode", "Refactor auth", "Speed up tests",
      "Cache images", "Drop Python 3.8"), "date"),
    ("Tasks", "Task T-", (10, 600),
     ("Design review", "Write tests", "Update budget", "Call supplier", "Plan sprint",
      "Migrate DB", "Draft memo"), "date"),
)
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_VISIBLE = (6, 12)
_ROW_HEIGHT = (28, 40)
_TRACK_WIDTH = (10, 16)
_MIN_THUMB = 24
_PX_PER_ROW = (5.0, 9.0)  # thumb travel per row step
_ROWS = (20, 200)
# Card chrome around the list: border 2 + horizontal padding 2 * 16; border 2 +
# vertical padding 2 * 12 + title 20 + margin 8 + column header 28 + footer 8 + 20.
_CHROME_W = 2 + 2 * 16
_CHROME_H = 2 + 2 * 12 + 20 + 8 + 28 + 8 + 20


def thumb_height(track: int, visible: int, rows: int, minimum: int = _MIN_THUMB) -> int:
    """The thumb's height: the visible share of the track, at least `minimum` px."""
    return max(minimum, round(track * visible / rows))


class ScrollbarParams(Params):
    title: Text  # the list's title
    prefix: Text  # a row's label before its number ("Invoice #")
    start: Int  # the first row's number
    rows: Index  # the list's rows
    visible: Index  # the rows shown at once
    row_height: Pixels
    width: Pixels  # the list's width
    track_width: Pixels  # the drawn scrollbar's width
    thumb: Pixels  # the thumb's height
    details: list_of(Text, 1, _ROWS[1])  # per row: its middle column
    extra: list_of(Text, 1, _ROWS[1])  # per row: its right column (an amount, a date)
    columns: list_of(Text, 3, 3)  # the column headers
    anchor: Anchor
    hit: Pixels | None = None  # on a phone: the width of the strip that takes presses

    @model_validator(mode="after")
    def _rows_and_track(self) -> ScrollbarParams:
        if not 1 <= self.visible < self.rows:
            raise ValueError(f"visible must be at least 1 and less than rows ({self.rows}), "
                             f"got {self.visible}")
        if not len(self.details) == len(self.extra) == self.rows:
            raise ValueError(f"details and extra must give one entry per row ({self.rows}), "
                             f"got {len(self.details)} and {len(self.extra)}")
        track = self.visible * self.row_height
        if not 0 < self.thumb < track:
            raise ValueError(f"thumb must be shorter than the track (visible x row_height = "
                             f"{track} px) and above 0, got {self.thumb}")
        return self


class Scrollbar(ComponentType):
    name = "scrollbar"
    params_model = ScrollbarParams
    family = "view_manipulation"
    gesture = "drag"
    # The first row is fine along y (a few px per row); on a phone the track
    # takes presses across TOUCH_TARGET px, as a fast-scroll handle does.
    touch_goal = "band"
    aliases = ("Scrollbars",)
    grab = Grab("core", "the scrollbar's thumb or track")
    slots = {
        "web": Slot(target=526),
        "mobile": Slot(target=360),
        "desktop": Slot(target=490),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The card's title."""
        return params["title"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        title, prefix, numbers, details, right = choose(rng, _LISTS)
        row_height = int(rng.integers(_ROW_HEIGHT[0], _ROW_HEIGHT[1] + 1))
        room = min(420, viewport[1] - 2 * STAGE_MARGIN - _CHROME_H)
        visible = int(min(rng.integers(_VISIBLE[0], _VISIBLE[1] + 1), room // row_height))
        if visible < 4:  # a very short screen: smaller rows
            row_height, visible = 28, max(3, room // 28)
        track = visible * row_height
        min_thumb = TOUCH_TARGET if touch else _MIN_THUMB  # a thumb a finger can hold
        # As many rows as the track allows at the sampled px per step, within _ROWS.
        px_per_row = float(rng.uniform(*_PX_PER_ROW))
        rows = int(min(_ROWS[1], visible + (track - min_thumb) // px_per_row))
        rows = max(rows, _ROWS[0])
        while rows > visible + 1 and (track - thumb_height(track, visible, rows, min_thumb)) \
                / (rows - visible) < 5:
            rows -= 1
        # The goal is an inner row (not 0 or maxFirst, where the clamp widens the
        # region), any but the current one.
        current, goal = inner_pair(rng, rows - visible + 1)
        start = int(rng.integers(numbers[0], numbers[1] + 1))
        width = int(min(rng.integers(360, 521), viewport[0] - 2 * STAGE_MARGIN - _CHROME_W))
        if right == "amount":
            extra = [f"${int(rng.integers(12, 9999))}.{int(rng.integers(100)):02d}"
                     for _ in range(rows)]
        else:
            extra = [f"{choose(rng, _MONTHS)} {int(rng.integers(1, 29))}" for _ in range(rows)]
        params = {
            "title": title, "prefix": prefix, "start": start, "rows": rows,
            "visible": visible, "row_height": row_height, "width": width,
            "track_width": int(rng.integers(_TRACK_WIDTH[0], _TRACK_WIDTH[1] + 1)),
            "thumb": thumb_height(track, visible, rows, min_thumb),
            "details": [choose(rng, details) for _ in range(rows)], "extra": extra,
            "columns": ["Number", "Customer" if title == "Invoices" else
                        "Status" if title == "Orders" else
                        "Port" if title == "Shipments" else "Title",
                        "Amount" if right == "amount" else "Date"],
            "anchor": sample_anchor(rng),
        }
        if touch:
            # The drawn bar keeps its width; the strip that takes the press
            # reaches over the list's right edge to TOUCH_TARGET px, and the
            # thumb is at least as tall.
            params["hit"] = max(TOUCH_TARGET, params["track_width"])
        return Sample(params, current, goal)

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        current, goal = inner_pair(rng, sample.params["rows"] - sample.params["visible"] + 1)
        return Sample(sample.params, current, goal)

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        def on_grid(value: Any) -> bool:
            return (isinstance(value, int) and not isinstance(value, bool)
                    and 0 <= value <= params["rows"] - params["visible"])

        return on_grid(a) and on_grid(b) and a == b

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [first row / last first row], how far down the list is scrolled."""
        return grid_code(state, 0, 1, params["rows"] - params["visible"])

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """|rows between the two scroll positions| / rows the list can scroll."""
        return grid_distance(state, goal, 0, 1, params["rows"] - params["visible"])

    def row_label(self, index: int, params: dict[str, Any]) -> str:
        return f"{params['prefix']}{params['start'] + index}"

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        title = sample.params["title"]
        row = self.row_label(sample.goal_state, sample.params)
        locate = choose(rng, (f"Locate the scrollbar of the {title} list.",
                              f"Find the scroll thumb of the {title} list.",
                              f"Where is the {title} list's scrollbar?"))
        interact = choose(rng, (f"Scroll so that '{row}' is the top row.",
                                f"Drag the scrollbar until '{row}' is the first visible row.",
                                f"Scroll the {title} list so that it starts at '{row}'.",
                                f"Use the scrollbar to bring '{row}' to the top of the list."))
        return Instructions(locate=locate, interact=interact)

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        return f"first row {state} ('{self.row_label(state, params)}')"
