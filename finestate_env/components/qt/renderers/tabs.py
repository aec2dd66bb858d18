"""tabs, as a native Qt control (family B, toggle / option).

tabs: a QTabBar over a QStackedWidget; a press on a tab selects it.
Web-only params (CSS sizes, styles, radii) are ignored where Qt's style decides.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStackedWidget, QTabBar, QVBoxLayout, QWidget

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control


class TabsControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        self.bar = QTabBar(self.card)
        self.bar.setUsesScrollButtons(False)
        self.bar.setElideMode(Qt.ElideNone)
        self.bar.setExpanding(bool(p.get("fill")))
        self.bar.setDrawBase(True)
        self.bar.setFocusPolicy(Qt.NoFocus)
        self.pages = QStackedWidget(self.card)
        for label, content in zip(p["labels"], p["contents"], strict=True):
            self.bar.addTab(label)
            page = QWidget(self.pages)
            layout = QVBoxLayout(page)
            layout.setContentsMargins(4, 4, 4, 4)
            heading = kit.TextLabel(content["heading"], page)
            layout.addWidget(heading)
            for line in content["lines"]:
                layout.addWidget(kit.muted(line, page))
            layout.addStretch(1)
            self.pages.addWidget(page)
        self.bar.currentChanged.connect(self.pages.setCurrentIndex)
        self.bar.setCurrentIndex(p["labels"].index(state))
        self.pages.setCurrentIndex(p["labels"].index(state))
        self.pages.setFixedHeight(24 + 20 * p["lines"])
        self.card.add(self.bar)
        self.card.add(self.pages)

    def state(self) -> Any:
        return self.bar.tabText(self.bar.currentIndex())

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        labels = self.params["labels"]
        tab = kit.box_of(self.bar, self.bar.tabRect(labels.index(goal)))
        now = kit.box_of(self.bar, self.bar.tabRect(self.bar.currentIndex()))
        tabs = kit.union([kit.box_of(self.bar, self.bar.tabRect(i)) for i in range(len(labels))])
        return {"loc": kit.box_of(self.card), "core": tabs, "goal": tab, "now": now}


CONTROL = TabsControl
