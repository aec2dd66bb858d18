"""Table column: a data table whose column widths are resized by dragging in the header.

The table has 3-6 columns and 4-10 rows; every column's right border in the
header carries a resize handle (6-8 px wide, straddling the border; on a phone
the handles and the header row are TOUCH_TARGET px). The state is the width in
px of one named column, on the table's resize step S (2, 4, 5, 8 or 10 px) and
within [min, max].

One action: press on the target column's resize handle at p0, drag, release
at p1. While the button is down the pointer is captured, so y is ignored and
p1's x alone sets the width, absolutely: width = clamp(round((p1.x -
column_left) / S) * S, min, max), where column_left is the column's left edge
(it does not move: only the columns to its right shift). The goal region is
therefore a vertical band of the header row, S px wide (wider at a clamped
end); the header row spans the table's full width, which leaves room to the
right for the column's maximum width. The other columns' handles resize those
columns the same way, but only the named column's width is the state.
"""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
from pydantic import AfterValidator, Field, StrictBool, model_validator

from finestate_env.components.base import (
    STAGE_MARGIN,
    TOUCH_TARGET,
    ComponentType,
    Grab,
    Sample,
    Slot,
    choose,
    distinct_pair,
    grid_code,
    grid_distance,
    on_grid_index,
    sample_anchor,
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

_COMPANIES = ("Acme Corp", "Northwind", "Globex", "Initech", "Umbrella", "Hooli", "Stark Ltd",
              "Wayne Ent.", "Contoso", "Fabrikam", "Tailspin", "Litware")
_PEOPLE = ("Ana Silva", "Ben Carter", "Chloe Kim", "David Okafor", "Emma Rossi", "Farah Aziz",
           "Gabriel Diaz", "Hana Sato", "Ivan Petrov", "Julia Novak", "Karim Haddad",
           "Lena Fischer", "Mateo Cruz", "Nora Lind")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def _cell(rng: np.random.Generator, kind: str) -> str:
    """One sampled cell of a column of `kind`."""
    n = lambda lo, hi: int(rng.integers(lo, hi + 1))  # noqa: E731
    values = {
        "invoice": lambda: f"INV-{n(1000, 9999)}",
        "company": lambda: choose(rng, _COMPANIES),
        "person": lambda: choose(rng, _PEOPLE),
        "date": lambda: f"2026-{n(1, 12):02d}-{n(1, 28):02d}",
        "short_date": lambda: f"{choose(rng, _MONTHS)} {n(1, 28)}",
        "money": lambda: f"${n(1000, 999999) / 100:,.2f}",
        "salary": lambda: f"${n(40, 180)},{n(0, 9)}00",
        "status": lambda: choose(rng, ("Paid", "Pending", "Overdue", "Draft")),
        "department": lambda: choose(rng, ("Sales", "Finance", "Support", "Design", "Legal",
                                           "Marketing", "Engineering")),
        "role": lambda: choose(rng, ("Manager", "Analyst", "Engineer", "Designer", "Intern",
                                     "Director", "Consultant")),
        "city": lambda: choose(rng, ("Lisbon", "Berlin", "Toronto", "Osaka", "Austin", "Dublin",
                                     "Nairobi", "Madrid")),
        "order": lambda: f"#{n(10000, 99999)}",
        "count": lambda: str(n(1, 48)),
        "region": lambda: choose(rng, ("North", "South", "East", "West", "Central")),
        "yes_no": lambda: choose(rng, ("Yes", "No")),
        "sku": lambda: f"SKU-{n(1000, 9999)}",
        "product": lambda: choose(rng, ("Desk lamp", "Office chair", "Monitor arm", "Keyboard",
                                        "Webcam", "Headset", "USB hub", "Notebook")),
        "category": lambda: choose(rng, ("Furniture", "Electronics", "Accessories", "Audio",
                                         "Stationery")),
        "price": lambda: f"${n(499, 49999) / 100:.2f}",
        "rating": lambda: f"{n(30, 50) / 10:.1f}",
        "file": lambda: choose(rng, ("report.pdf", "budget.xlsx", "logo.svg", "notes.txt",
                                     "photo.jpg", "deck.pptx", "data.csv", "backup.zip")),
        "size": lambda: f"{n(1, 999) / 10:.1f} MB",
        "type": lambda: choose(rng, ("PDF", "Spreadsheet", "Image", "Text", "Archive")),
        "task": lambda: choose(rng, ("Fix login bug", "Write tests", "Update docs",
                                     "Review PR", "Plan sprint", "Refactor API", "Design logo")),
        "priority": lambda: choose(rng, ("Low", "Medium", "High", "Urgent")),
        "hours": lambda: f"{n(1, 16)} h",
    }
    return values[kind]()


# (table title, columns as (header, kind, right-aligned)). The first column is always shown.
_TABLES = (
    ("Invoices", (("Invoice", "invoice", False), ("Client", "company", False),
                  ("Date", "date", False), ("Amount", "money", True),
                  ("Status", "status", False), ("Due", "short_date", False))),
    ("Employees", (("Name", "person", False), ("Department", "department", False),
                   ("Role", "role", False), ("Office", "city", False),
                   ("Start date", "date", False), ("Salary", "salary", True))),
    ("Orders", (("Order", "order", False), ("Customer", "company", False),
                ("Items", "count", True), ("Total", "money", True),
                ("Region", "region", False), ("Shipped", "yes_no", False))),
    ("Products", (("SKU", "sku", False), ("Product", "product", False),
                  ("Category", "category", False), ("Price", "price", True),
                  ("Stock", "count", True), ("Rating", "rating", True))),
    ("Files", (("Name", "file", False), ("Size", "size", True), ("Type", "type", False),
               ("Modified", "date", False), ("Owner", "person", False))),
    ("Tasks", (("Task", "task", False), ("Assignee", "person", False),
               ("Priority", "priority", False), ("Due", "short_date", False),
               ("Estimate", "hours", True), ("Status", "status", False))),
)
_STEPS = (2, 4, 5, 8, 10)
_COLUMNS = (3, 6)
_ROWS = (4, 10)
_OTHER_WIDTH = (72, 150)
_MIN_OTHER_WIDTH = 48
_TARGET_MIN = (40, 80)
_TARGET_SPAN = (80, 220)   # max - min, before the viewport limits it
_FILLER = (16, 48)         # header beyond the target's widest reach
_HEADER_PX = (32, 40)
_ROW_PX = (28, 36)
_HANDLE_PX = (6, 8)
# Card width besides the table: card border and padding, table border (table_column.css).
_CHROME_WIDTH = 2 + 2 * 12 + 2
# Card height besides the rows and the header: borders, padding, title, footer.
_CHROME_HEIGHT = 2 + 2 * 12 + 20 + 8 + 2 + 8 + 20


def _a_step(value: int) -> int:
    if value not in _STEPS:
        raise ValueError(f"a resize step must be one of {list(_STEPS)}, got {value}")
    return value


class TableColumnParams(Params):
    title: Text  # the table's title
    headers: list_of(Text, *_COLUMNS)  # one per column
    numeric: list_of(StrictBool, *_COLUMNS)  # per column: right-aligned
    cells: list_of(list_of(Text, *_COLUMNS), 1, _ROWS[1])  # the rows, a text per column
    # per column: its width in px; null for the target's (its width is the state)
    widths: list_of(Pixels | None, *_COLUMNS)
    target: Index  # the column to resize
    step: Annotated[int, Field(strict=True), AfterValidator(_a_step)]  # the widths' grid
    min: Pixels  # the target's widths: min + k * step up to max
    max: Pixels
    table_width: Pixels  # the header row's width, room for the target at max
    header_height: Pixels
    row_height: Pixels
    handle: Pixels  # a resize handle's width
    sorted: Index  # the column the table shows sorted
    anchor: Anchor

    @model_validator(mode="after")
    def _columns_agree(self) -> TableColumnParams:
        count = len(self.headers)
        if len(self.numeric) != count or len(self.widths) != count:
            raise ValueError(f"numeric and widths must give one entry per header ({count}), "
                             f"got {len(self.numeric)} and {len(self.widths)}")
        if any(len(row) != count for row in self.cells):
            raise ValueError(f"every row of cells must give one text per header ({count})")
        if not (self.target < count and self.sorted < count):
            raise ValueError(f"target and sorted must index headers (0 to {count - 1}), got "
                             f"{self.target} and {self.sorted}")
        if [i for i, w in enumerate(self.widths) if w is None] != [self.target]:
            raise ValueError(f"widths must be null at target ({self.target}) and only there, "
                             f"got {self.widths}")
        if not (0 < self.min < self.max and (self.max - self.min) % self.step == 0):
            raise ValueError(f"min and max must give 0 < min < max with max - min a whole "
                             f"number of steps ({self.step}), got {self.min} and {self.max}")
        others = sum(w for w in self.widths if w is not None)
        if self.table_width < others + self.max:
            raise ValueError(f"table_width must hold the other columns ({others} px) and the "
                             f"target at max ({self.max} px), got {self.table_width}")
        return self


class TableColumn(ComponentType):
    name = "table_column"
    params_model = TableColumnParams
    family = "view_manipulation"
    gesture = "drag"
    # The width is fine along x (one step); on a phone the header row, across
    # which the band runs, and the handle a finger grabs are TOUCH_TARGET or more.
    touch_goal = "band"
    aliases = ("Column resize", "Table column resize", "Resizable column")
    grab = Grab("now", "the column's resize handle")
    # Qt draws the header beside the columns the sampler sized: 10 px less wide.
    slots = {
        "web": Slot(target=489),
        "mobile": Slot(target=360),
        "desktop": Slot(target=460, pad=(10, 0)),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The header of the column to resize."""
        return params["headers"][params["target"]]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        title, columns = choose(rng, _TABLES)
        step = int(choose(rng, _STEPS))
        available = viewport[0] - 2 * STAGE_MARGIN - _CHROME_WIDTH
        filler = int(rng.integers(_FILLER[0], _FILLER[1] + 1))
        if touch:  # room in the header for the half of the last handle past its border
            filler = max(filler, TOUCH_TARGET // 2)
        lo = int(np.ceil(int(rng.integers(_TARGET_MIN[0], _TARGET_MIN[1] + 1)) / step)) * step
        # Columns, most first, until the others and the target's full range fit.
        count = int(rng.integers(_COLUMNS[0], min(_COLUMNS[1], len(columns)) + 1))
        while count > _COLUMNS[0] and (available - filler - lo - _TARGET_SPAN[0]
                                       < (count - 1) * _MIN_OTHER_WIDTH):
            count -= 1
        room = available - filler - lo - (count - 1) * _MIN_OTHER_WIDTH
        span_px = min(int(rng.integers(_TARGET_SPAN[0], _TARGET_SPAN[1] + 1)), room)
        steps = span_px // step
        if steps < 4:
            raise ValueError(f"table_column: viewport {viewport} leaves no room to resize")
        hi = lo + steps * step
        chosen = [0] + sorted(int(i) + 1 for i in rng.choice(len(columns) - 1, count - 1,
                                                             replace=False))
        target = int(rng.integers(count))
        budget = available - filler - hi  # for the other columns
        widths: list[int | None] = []
        for i in range(count):
            if i == target:
                widths.append(None)  # the state, given apart
                continue
            widths.append(int(rng.integers(_OTHER_WIDTH[0], _OTHER_WIDTH[1] + 1)))
        others = sum(w for w in widths if w is not None)
        if others > budget:  # shrink what the others have above the minimum, proportionally
            spare = others - (count - 1) * _MIN_OTHER_WIDTH
            keep = budget - (count - 1) * _MIN_OTHER_WIDTH
            widths = [None if w is None
                      else _MIN_OTHER_WIDTH + (w - _MIN_OTHER_WIDTH) * keep // spare
                      for w in widths]
            others = sum(w for w in widths if w is not None)
        current_k, goal_k = distinct_pair(rng, 0, steps + 1)  # any width but the current one
        row_count = int(rng.integers(_ROWS[0], _ROWS[1] + 1))
        header = touch_size(int(rng.integers(_HEADER_PX[0], _HEADER_PX[1] + 1)), touch)
        row_height = int(rng.integers(_ROW_PX[0], _ROW_PX[1] + 1))
        fit_rows = (viewport[1] - 2 * STAGE_MARGIN - _CHROME_HEIGHT - header) // row_height
        row_count = max(2, min(row_count, fit_rows))
        kinds = [columns[i][1] for i in chosen]
        params = {
            "title": title, "headers": [columns[i][0] for i in chosen],
            "numeric": [columns[i][2] for i in chosen],
            "cells": [[_cell(rng, kind) for kind in kinds] for _ in range(row_count)],
            "widths": widths, "target": target, "step": step, "min": lo, "max": hi,
            "table_width": others + hi + filler, "header_height": header,
            "row_height": row_height,
            "handle": touch_size(int(rng.integers(_HANDLE_PX[0], _HANDLE_PX[1] + 1)), touch),
            "sorted": int(rng.integers(count)), "anchor": sample_anchor(rng),
        }
        return Sample(params, lo + current_k * step, lo + goal_k * step)

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        """Two new widths of the same column: which column is named sets the table's width
        (the others' widths and the target's widest), so it is kept."""
        lo, step = sample.params["min"], sample.params["step"]
        current_k, goal_k = distinct_pair(rng, 0, (sample.params["max"] - lo) // step + 1)
        return Sample(sample.params, lo + current_k * step, lo + goal_k * step)

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        def index(value: Any) -> int | None:
            if not isinstance(value, int) or isinstance(value, bool):
                return None
            k = on_grid_index(value, params["min"], params["step"])
            return k if k is not None and params["min"] <= value <= params["max"] else None

        ka, kb = index(a), index(b)
        return ka is not None and ka == kb

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [k / n], the column width's step on its grid over the last step."""
        last = round((params["max"] - params["min"]) / params["step"])
        return grid_code(state, params["min"], params["step"], last)

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """|steps between the two widths| / steps from the narrowest to the widest."""
        if not self.states_equal(state, state, params):  # not a width the column can have
            return 1.0
        steps = int(round((params["max"] - params["min"]) / params["step"]))
        return grid_distance(state, goal, params["min"], params["step"], steps)

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        params = sample.params
        column, title = params["headers"][params["target"]], params["title"]
        goal = sample.goal_state
        locate = choose(rng, (f"Locate the '{column}' column header in the {title} table.",
                              f"Find the resize handle of the '{column}' column.",
                              f"Where is the right border of the '{column}' column?"))
        templates = [f"Make the '{column}' column {goal} px wide.",
                     f"Resize the '{column}' column to a width of {goal} px.",
                     f"Drag the right border of '{column}' so that the column is {goal} px wide.",
                     f"Set the width of the '{column}' column in the {title} table to {goal} px."]
        if goal < sample.current_state:
            templates.append(f"Narrow the '{column}' column to {goal} px.")
        else:
            templates.append(f"Widen the '{column}' column to {goal} px.")
        return Instructions(locate=locate, interact=choose(rng, templates))

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        return f"{state} px"
