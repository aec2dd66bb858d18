"""checkbox, as a native Qt control (family B, toggle / option).

checkbox: QCheckBox, whose clickable area is the style's click rect (indicator
plus label, SE_CheckBoxClickRect), so that rect is the goal box.
Web-only params (CSS sizes, styles, radii) are ignored where Qt's style decides.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QWidget

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control
from finestate_env.components.qt.renderers.check_buttons import click_rect, indicator_rect


class CheckboxControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        if p.get("hint"):
            self.card.add(kit.muted(p["hint"], self.card))
        self.rows, self.boxes_ = [], []
        for i, label in enumerate(p["labels"]):
            row = QWidget(self.card)
            row.setFixedHeight(p["row"])
            layout = QHBoxLayout(row)
            layout.setContentsMargins(0, 0, 0, 0)
            box = QCheckBox(label, row)
            box.setChecked(label in state)
            layout.addWidget(box)
            layout.addStretch(1)
            if p.get("counts"):
                layout.addWidget(kit.muted(str(p["counts"][i]), row))
            self.card.add(row)
            self.rows.append(row)
            self.boxes_.append(box)

    def state(self) -> Any:
        return sorted(b.text() for b in self.boxes_ if b.isChecked())

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        t = self.params["target"]
        box = self.boxes_[t]
        clickable = kit.box_of(box, click_rect(box))
        return {"loc": kit.box_of(self.rows[t]), "core": clickable, "goal": clickable,
                "now": kit.box_of(box, indicator_rect(box))}


CONTROL = CheckboxControl
