"""segmented, as a native Qt control (family B, toggle / option).

segmented: checkable QToolButtons edge to edge in an exclusive QButtonGroup.
Web-only params (CSS sizes, styles, radii) are ignored where Qt's style decides.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QToolButton, QWidget

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control


class SegmentedControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        self.rows, self.buttons, self.groups = [], [], []
        for g, spec in enumerate(p["groups"]):
            shown = state if g == p["target"] else p["selected"][g]
            self.card.add(kit.TextLabel(spec["label"], self.card))
            row = QWidget(self.card)
            layout = QHBoxLayout(row)
            layout.setContentsMargins(0, 0, 0, 0)
            layout.setSpacing(0)
            group = QButtonGroup(row)
            buttons = []
            for i, text in enumerate(spec["segments"]):
                button = QToolButton(row)
                button.setText(text)
                button.setCheckable(True)
                button.setFocusPolicy(Qt.NoFocus)
                button.setFixedSize(spec["segment"], p["height"])
                button.setChecked(text == shown)
                group.addButton(button, i)
                layout.addWidget(button)
                buttons.append(button)
            layout.addStretch(1)
            self.card.add(row)
            self.rows.append(row)
            self.buttons.append(buttons)
            self.groups.append(group)

    def state(self) -> Any:
        return self._selected(self.params["target"])

    def snapshot(self) -> Any:
        return [self._selected(g) for g in range(len(self.groups))]

    def _selected(self, g: int) -> Any:
        checked = self.groups[g].checkedId()
        return self.params["groups"][g]["segments"][checked] if checked >= 0 else None

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        t = self.params["target"]
        segments = self.params["groups"][t]["segments"]
        buttons = self.buttons[t]
        core = kit.union([kit.box_of(b) for b in buttons])
        return {"loc": core, "core": core,
                "goal": kit.box_of(buttons[segments.index(goal)]),
                "now": kit.box_of(buttons[segments.index(self.state())])}


CONTROL = SegmentedControl
