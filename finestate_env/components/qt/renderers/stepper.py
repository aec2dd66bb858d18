"""stepper, as a native Qt control (family A, numeric range).

stepper: one QSpinBox / QDoubleSpinBox per field. Fusion stacks the up and
down arrows at the field's right end; one press on an arrow is one step.
The goal box is the arrow toward the goal; in the target configuration,
where no arrow moves toward it, it is the value's edit field.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QHBoxLayout,
    QStyle,
    QStyleOptionSpinBox,
    QVBoxLayout,
    QWidget,
)

from finestate_env.components.qt import kit
from finestate_env.components.qt.control import Control


class StepperControl(Control):
    title_key = "title"

    def build(self, state: Any) -> None:
        p = self.params
        self.card.setFixedWidth(p["width"])
        self.spins, self.rows = [], []
        for i, field in enumerate(p["fields"]):
            value = state if i == p["target"] else field["value"]
            row = QWidget(self.card)
            inline = p["layout"] == "inline"
            layout = QHBoxLayout(row) if inline else QVBoxLayout(row)
            layout.setContentsMargins(0, 0, 0, 0)
            layout.addWidget(kit.TextLabel(field["label"], row), 1)
            decimals = kit.decimals(field["step"])
            spin = QDoubleSpinBox(row)
            spin.setDecimals(decimals)
            spin.setRange(field["min"], field["max"])
            spin.setSingleStep(field["step"])
            spin.setSuffix(field["unit"])
            spin.setValue(value)
            spin.setFocusPolicy(Qt.NoFocus)
            spin.setFixedSize(p["field"] + p["button"], p["height"])
            layout.addWidget(spin)
            self.card.add(row)
            self.rows.append(row)
            self.spins.append(spin)

    def state(self) -> Any:
        return self._value(self.params["target"])

    def snapshot(self) -> Any:
        return [self._value(i) for i in range(len(self.spins))]

    def _value(self, i: int) -> Any:
        field, spin = self.params["fields"][i], self.spins[i]
        return kit.grid_value(field["min"], field["step"],
                              kit.grid_index(spin.value(), field["min"], field["step"]))

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        t = self.params["target"]
        spin = self.spins[t]
        opt = QStyleOptionSpinBox()
        spin.initStyleOption(opt)
        style = spin.style()
        up = style.subControlRect(QStyle.CC_SpinBox, opt, QStyle.SC_SpinBoxUp, spin)
        down = style.subControlRect(QStyle.CC_SpinBox, opt, QStyle.SC_SpinBoxDown, spin)
        edit = style.subControlRect(QStyle.CC_SpinBox, opt, QStyle.SC_SpinBoxEditField, spin)
        field = self.params["fields"][t]
        k_goal = kit.grid_index(goal, field["min"], field["step"])
        k_now = kit.grid_index(self.state(), field["min"], field["step"])
        aim = up if k_goal > k_now else down if k_goal < k_now else edit
        arrows = up.united(down)
        return {"loc": kit.box_of(self.rows[t]), "core": kit.box_of(spin, arrows),
                "goal": kit.box_of(spin, aim), "now": kit.box_of(spin, edit)}

    def reach(self, goal: Any) -> int:
        """One click an arrow per step."""
        field = self.params["fields"][self.params["target"]]
        return abs(kit.grid_index(goal, field["min"], field["step"])
                   - kit.grid_index(self.state(), field["min"], field["step"]))


CONTROL = StepperControl
