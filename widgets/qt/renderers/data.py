"""Family C, specific data, as native Qt controls.

rating: a row of stars per item, each star two hit halves (5 stars, 0.5 steps)
or one (10 stars); a press and release on the same half sets that value, gaps do
nothing. color_picker: the colour button with its swatch palette open below (a
grid of swatch buttons with gaps). date_picker: the date field with a
QCalendarWidget open below; a press on a day cell selects it (Qt selects a
neighbouring month's day too, and shows that month: another state, never the
goal). time_picker: the type's clock becomes a time list, a wrapping QListWidget
of the fixed hour's 60 minutes, all visible; a press on a minute selects it
(the web dial's radius and layout do not apply). list_box: the field with its
QListWidget of options open below, all rows visible.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

from PySide6.QtCore import QDate, QPointF, QRect, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen, QPolygonF
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QCalendarWidget,
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QListView,
    QListWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from widgets.qt import kit
from widgets.qt.control import Control


def _field(text: str, parent: QWidget) -> QLabel:
    """A read-only field showing the chosen value, as the popup's owner."""
    field = QLabel(text, parent)
    field.setFrameShape(QFrame.StyledPanel)
    field.setMargin(4)
    return field


def _list(parent: QWidget) -> QListWidget:
    view = QListWidget(parent)
    view.setSelectionMode(QAbstractItemView.SingleSelection)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
    view.setVerticalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
    view.setFocusPolicy(Qt.NoFocus)
    view.setEditTriggers(QAbstractItemView.NoEditTriggers)
    view.setDragEnabled(False)
    return view


class Stars(QWidget):
    """One item's stars: zones of width size/2 (half stars) or size, gaps between stars."""

    def __init__(self, parent: QWidget, stars: int, step: float, size: int, gap: int,
                 value: float) -> None:
        super().__init__(parent)
        self.stars, self.step, self.size, self.gap, self.value = stars, step, size, gap, value
        self.setFixedSize(stars * size + (stars - 1) * gap, size)
        self.pressed_zone = None

    def zone_rect(self, value: float) -> QRect:
        """The local rect whose click sets `value`."""
        k = round(value / self.step)
        if self.step == 0.5:
            star, half = (k - 1) // 2, (k - 1) % 2
            return QRect(star * (self.size + self.gap) + half * self.size // 2, 0,
                         self.size // 2, self.size)
        return QRect((k - 1) * (self.size + self.gap), 0, self.size, self.size)

    def zone_at(self, x: int, y: int) -> float | None:
        for k in range(1, round(self.stars / self.step) + 1):
            value = k * self.step
            if self.zone_rect(value).contains(x, y):
                return value
        return None

    def mousePressEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        p = event.position().toPoint()
        self.pressed_zone = self.zone_at(p.x(), p.y())

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        p = event.position().toPoint()
        zone = self.zone_at(p.x(), p.y())
        if zone is not None and zone == self.pressed_zone:
            self.value = int(zone) if float(zone).is_integer() else zone
            self.update()
        self.pressed_zone = None

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        painter.setPen(Qt.NoPen)
        gold, empty = QColor("#f5a623"), self.palette().color(QPalette.Mid)
        for i in range(self.stars):
            x = i * (self.size + self.gap)
            star = _star(x, self.size)
            painter.setBrush(empty)
            painter.drawPolygon(star)
            filled = min(1.0, max(0.0, self.value - i))
            if filled > 0:
                painter.setClipRect(QRect(x, 0, round(self.size * filled), self.size))
                painter.setBrush(gold)
                painter.drawPolygon(star)
                painter.setClipping(False)
        painter.end()


def _star(x: int, size: int) -> QPolygonF:
    cx, cy, outer, inner = x + size / 2, size / 2 + 1, size / 2 - 1, size / 5
    points = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = math.pi / 5 * i - math.pi / 2
        points.append(QPointF(cx + r * math.cos(a), cy + r * math.sin(a)))
    return QPolygonF(points)


class RatingControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        self.rows, self.stars = [], []
        for i, label in enumerate(p["labels"]):
            row = QWidget(self.card)
            inline = p["layout"] == "inline"
            layout = QHBoxLayout(row) if inline else QVBoxLayout(row)
            layout.setContentsMargins(0, 0, 0, 0)
            name = QLabel(label, row)
            if inline:
                name.setFixedWidth(p["label_width"])
            layout.addWidget(name)
            value = state if i == p["target"] else (p["values"][i] or 0)
            stars = Stars(row, p["stars"], p["step"], p["size"], p["gap"], value)
            layout.addWidget(stars)
            layout.addStretch(1)
            self.card.add(row)
            self.rows.append(row)
            self.stars.append(stars)

    def state(self) -> Any:
        return self.stars[self.params["target"]].value

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        stars = self.stars[self.params["target"]]
        value = stars.value
        now = (kit.box_of(stars, stars.zone_rect(value)) if value else
               kit.box_of(stars, stars.zone_rect(stars.step)))
        return {"loc": kit.box_of(self.rows[self.params["target"]]), "core": kit.box_of(stars),
                "goal": kit.box_of(stars, stars.zone_rect(goal)), "now": now}


class Swatch(QAbstractButton):
    def __init__(self, parent: QWidget, colour: str, size: int) -> None:
        super().__init__(parent)
        self.colour = colour
        self.setCheckable(True)
        self.setAutoExclusive(True)
        self.setFocusPolicy(Qt.NoFocus)
        self.setFixedSize(size, size)

    def sizeHint(self) -> QSize:  # noqa: N802
        return self.size()

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor(self.colour))
        if self.isChecked():
            painter.setPen(QPen(self.palette().color(QPalette.WindowText), 2))
            painter.drawRect(self.rect().adjusted(1, 1, -1, -1))
        painter.end()


class ColorPickerControl(Control):
    def build(self, state: Any) -> None:
        p = self.params
        self.card.add(QLabel(p["label"], self.card))
        self.button = _field("", self.card)
        self.card.add(self.button)
        self.palette_widget = QFrame(self.card)
        self.palette_widget.setFrameShape(QFrame.StyledPanel)
        grid = QGridLayout(self.palette_widget)
        grid.setContentsMargins(8, 8, 8, 8)
        grid.setSpacing(p["gap"])
        self.swatches = {}
        for i, (name, colour) in enumerate(p["swatches"]):
            swatch = Swatch(self.palette_widget, colour, p["swatch"])
            swatch.setToolTip(name)
            swatch.setChecked(colour == state)
            swatch.toggled.connect(self._show)
            grid.addWidget(swatch, i // p["columns"], i % p["columns"])
            self.swatches[colour] = swatch
        self.card.add(self.palette_widget)
        self._show()

    def _show(self) -> None:
        names = dict((c, n) for n, c in self.params["swatches"])
        state = self.state()
        self.button.setText(f"{names.get(state, '')}  {state}")

    def state(self) -> Any:
        return next((c for c, s in self.swatches.items() if s.isChecked()), None)

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        core = kit.box_of(self.palette_widget)
        return {"loc": kit.box_of(self.card), "core": core,
                "goal": kit.box_of(self.swatches[goal]),
                "now": kit.box_of(self.swatches[self.state()])}


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
        self.card.add(QLabel(p["label"], self.card))
        self.field = _field("", self.card)
        self.card.add(self.field)
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

    def _cell(self, iso: str) -> kit.Box:
        """The day cell of `iso` in the shown month (its own number, not a neighbour's)."""
        day = dt.date.fromisoformat(iso)
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
        return {"loc": kit.box_of(self.card), "core": [first[0], first[1], last[2], last[3]],
                "goal": self._cell(goal), "now": self._cell(self.state())}


class _PickFromList(Control):
    """A list (`self.view`) whose current row's text is the state, echoed in `self.field`."""

    def row_of(self, text: str) -> int:
        raise NotImplementedError

    def _show(self) -> None:
        self.field.setText(self.state())

    def state(self) -> Any:
        return self.view.currentItem().text()

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        viewport = self.view.viewport()
        row_box = lambda text: kit.box_of(  # noqa: E731
            viewport, self.view.visualItemRect(self.view.item(self.row_of(text))))
        return {"loc": kit.box_of(self.card), "core": kit.box_of(viewport),
                "goal": row_box(goal), "now": row_box(self.state())}


class TimePickerControl(_PickFromList):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.add(QLabel(p["label"], self.card))
        self.field = _field("", self.card)
        self.card.add(self.field)
        self.view = _list(self.card)
        self.view.setViewMode(QListView.ListMode)
        self.view.setFlow(QListView.LeftToRight)
        self.view.setWrapping(True)
        self.view.setGridSize(QSize(56, 26))
        self.view.setUniformItemSizes(True)
        for minute in range(60):
            self.view.addItem(f"{p['hour']:02d}:{minute:02d}")
        self.view.setFixedSize(10 * 56 + 2 * self.view.frameWidth() + 2,
                               6 * 26 + 2 * self.view.frameWidth() + 2)
        self.view.setCurrentRow(self.row_of(state))
        self.view.currentRowChanged.connect(self._show)
        self.card.add(self.view)
        self._show()

    def row_of(self, text: str) -> int:
        return int(text[3:])  # "HH:MM": the list holds the hour's minutes in order


class ListBoxControl(_PickFromList):
    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        self.card.add(QLabel(p["label"], self.card))
        self.field = _field("", self.card)
        self.card.add(self.field)
        self.view = _list(self.card)
        for option in p["options"]:
            self.view.addItem(option)
            self.view.item(self.view.count() - 1).setSizeHint(QSize(0, p["row_height"]))
        frame = self.view.frameWidth()
        self.view.setFixedHeight(len(p["options"]) * p["row_height"] + 2 * frame)
        self.view.setCurrentRow(self.row_of(state))
        self.view.currentRowChanged.connect(self._show)
        self.card.add(self.view)
        self._show()

    def row_of(self, text: str) -> int:
        return self.params["options"].index(text)


RENDERERS = {"rating": RatingControl, "color_picker": ColorPickerControl,
             "date_picker": DatePickerControl, "time_picker": TimePickerControl,
             "list_box": ListBoxControl}
