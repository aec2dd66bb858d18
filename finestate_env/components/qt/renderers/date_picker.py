"""date_picker, as a native Qt control (family C, specific data).

date_picker: the date field with a QCalendarWidget open below; a press on a day
cell selects it (Qt selects a neighbouring month's day too, and shows that
month: another state, never the goal). A goal in another month (episodes of several
gestures) is reached through the navigation bar's month arrows, which turn the shown
month and leave the selection alone: the goal box is then the arrow toward it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import QCalendarWidget, QTableView, QToolButton

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control
from finestate_env.components.qt.renderers.pickers import value_field

_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December")


def _write_date(day: dt.date, style: str) -> str:
    if style == "dmy":
        return f"{day.day:02d}/{day.month:02d}/{day.year}"
    if style == "us":
        return f"{day.month:02d}/{day.day:02d}/{day.year}"
    if style == "long":
        return f"{_MONTHS[day.month - 1]} {day.day}, {day.year}"
    return day.isoformat()


class DatePickerControl(Control):
    def build(self, state: Any) -> None:
        p = self.params
        self.field = value_field(self.card, p["label"])
        self.calendar = QCalendarWidget(self.card)
        self.calendar.setVerticalHeaderFormat(QCalendarWidget.NoVerticalHeader)
        self.calendar.setFirstDayOfWeek(Qt.Monday if p["week_start"] == 1 else Qt.Sunday)
        self.calendar.setHorizontalHeaderFormat(QCalendarWidget.ShortDayNames)
        self.calendar.setFocusPolicy(Qt.NoFocus)
        day = dt.date.fromisoformat(state)
        self.calendar.setSelectedDate(QDate(day.year, day.month, day.day))
        self.view = self.calendar.findChild(QTableView)
        cell = p["cell"]
        self.calendar.setFixedSize(7 * cell + 2, 7 * cell + 34)
        self.calendar.selectionChanged.connect(self._show)
        self.card.add(self.calendar)
        self._show()

    def _show(self) -> None:
        self.field.setText(_write_date(dt.date.fromisoformat(self.state()),
                                       self.params["format"]))

    def state(self) -> Any:
        return self.calendar.selectedDate().toString("yyyy-MM-dd")

    def _months_to(self, iso: str) -> int:
        """Months from the shown one to the month of `iso`: > 0 ahead, < 0 behind."""
        day = dt.date.fromisoformat(iso)
        return ((day.year - self.calendar.yearShown()) * 12
                + day.month - self.calendar.monthShown())

    def _cell(self, iso: str) -> kit.Box:
        """The day cell of `iso` in the shown month (its own number, not a neighbour's)."""
        day = dt.date.fromisoformat(iso)
        if self._months_to(iso) != 0:
            raise ValueError(f"{iso} is not in the month shown")
        model = self.view.model()
        for row in range(1, model.rowCount()):
            for column in range(model.columnCount()):
                index = model.index(row, column)
                if model.data(index) != day.day:
                    continue
                in_month = not ((row <= 2 and day.day > 20) or (row >= 5 and day.day < 15))
                if in_month:
                    return kit.box_of(self.view.viewport(), self.view.visualRect(index))
        raise ValueError(f"{iso} is not shown")

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        model = self.view.model()
        first = kit.box_of(self.view.viewport(), self.view.visualRect(model.index(1, 0)))
        last = kit.box_of(self.view.viewport(), self.view.visualRect(
            model.index(model.rowCount() - 1, model.columnCount() - 1)))
        months = self._months_to(goal)
        if months == 0:
            aim = self._cell(goal)
        else:  # the next gesture of the shortest route: the arrow toward the goal's month
            arrow = "qt_calendar_nextmonth" if months > 0 else "qt_calendar_prevmonth"
            aim = kit.box_of(self.calendar.findChild(QToolButton, arrow))
        state = self.state()
        # The selected day, once its month is turned away, is shown in the field only.
        now = self._cell(state) if self._months_to(state) == 0 else kit.box_of(self.field)
        return {"loc": kit.box_of(self.card), "core": [first[0], first[1], last[2], last[3]],
                "goal": aim, "now": now}

    def reach(self, goal: Any) -> int:
        """A click per month to turn, then the day's."""
        return 0 if goal == self.state() else abs(self._months_to(goal)) + 1


CONTROL = DatePickerControl
