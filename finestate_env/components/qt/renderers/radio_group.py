"""radio_group, as a native Qt control (family B, toggle / option).

radio_group: QRadioButton, whose clickable area is the style's click rect
(indicator plus label, SE_RadioButtonClickRect), so that rect is the goal box.
Web-only params (CSS sizes, styles, radii) are ignored where Qt's style decides.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QRadioButton, QVBoxLayout, QWidget

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control
from finestate_env.components.qt.renderers.check_buttons import click_rect, indicator_rect


class RadioGroupControl(Control):
    title_key = "question"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        if p.get("hint"):
            self.card.add(kit.muted(p["hint"], self.card))
        self.group_widget = QWidget(self.card)
        horizontal = p["layout"] == "horizontal"
        layout = QHBoxLayout(self.group_widget) if horizontal else QVBoxLayout(
            self.group_widget)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        self.group = QButtonGroup(self.group_widget)
        self.buttons = []
        for i, option in enumerate(p["options"]):
            text = option + (f" - {p['details'][i]}" if p.get("details") else "")
            button = QRadioButton(text, self.group_widget)
            button.setFixedHeight(p["row"])
            button.setChecked(option == state)
            self.group.addButton(button, i)
            layout.addWidget(button)
            self.buttons.append(button)
        if horizontal:
            layout.addStretch(1)
        self.card.add(self.group_widget)

    def state(self) -> Any:
        checked = self.group.checkedId()
        return self.params["options"][checked] if checked >= 0 else None

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        options = self.params["options"]
        shown = self.state()
        goal_button = self.buttons[options.index(goal)]
        now_button = self.buttons[options.index(shown)]
        core = kit.union([kit.box_of(b, click_rect(b)) for b in self.buttons])
        return {"loc": kit.box_of(self.card), "core": core,
                "goal": kit.box_of(goal_button, click_rect(goal_button)),
                "now": kit.box_of(now_button, indicator_rect(now_button))}


CONTROL = RadioGroupControl
