"""carousel, as a native Qt control (family D, view manipulation).

carousel: a QStackedWidget of slides with prev/next QToolButtons and a row of
dot buttons; a click on a dot shows that slide.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import (
    QHBoxLayout,
    QStackedWidget,
    QToolButton,
    QWidget,
)

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control


class Dot(kit.SquareChoice):
    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setRenderHint(QPainter.Antialiasing)
        painter.setPen(Qt.NoPen)
        pal = self.palette()
        painter.setBrush(pal.color(QPalette.Highlight) if self.isChecked()
                         else pal.color(QPalette.Mid))
        painter.drawEllipse(self.rect().adjusted(1, 1, -1, -1))
        painter.end()


class CarouselControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.stack = QStackedWidget(self.card)
        self.stack.setFixedSize(p["width"], p["height"])
        for slide in p["slides"]:
            page = kit.TextLabel(f"{slide['title']}\n{slide['caption']}", self.stack)
            page.setAlignment(Qt.AlignCenter)
            page.setAutoFillBackground(True)
            pal = page.palette()
            pal.setColor(QPalette.Window, QColor.fromHsv(int(slide["tint"] * 6) % 360, 60, 235))
            pal.setColor(QPalette.WindowText, QColor("#1f2933"))
            page.setPalette(pal)
            self.stack.addWidget(page)
        self.card.add(self.stack)
        row = QWidget(self.card)
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(p["gap"])
        self.prev, self.next = QToolButton(row), QToolButton(row)
        self.prev.setArrowType(Qt.LeftArrow)
        self.next.setArrowType(Qt.RightArrow)
        layout.addWidget(self.prev)
        layout.addStretch(1)
        self.dots = []
        for i in range(len(p["slides"])):
            dot = Dot(row, p["dot"])
            dot.clicked.connect(lambda _=False, k=i: self.stack.setCurrentIndex(k))
            layout.addWidget(dot)
            self.dots.append(dot)
        layout.addStretch(1)
        layout.addWidget(self.next)
        self.prev.clicked.connect(lambda: self._go(self.stack.currentIndex() - 1))
        self.next.clicked.connect(lambda: self._go(self.stack.currentIndex() + 1))
        self.stack.currentChanged.connect(lambda k: self.dots[k].setChecked(True))
        self.stack.setCurrentIndex(state)
        self.dots[state].setChecked(True)
        self.card.add(row)

    def _go(self, k: int) -> None:
        self.stack.setCurrentIndex(max(0, min(len(self.dots) - 1, k)))

    def state(self) -> Any:
        return self.stack.currentIndex()

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        dots = [kit.box_of(d) for d in self.dots]
        core = [dots[0][0], min(b[1] for b in dots), dots[-1][2], max(b[3] for b in dots)]
        return {"loc": kit.box_of(self.card), "core": core, "goal": dots[goal],
                "now": dots[self.state()]}


CONTROL = CarouselControl
