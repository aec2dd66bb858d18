"""Where a QCheckBox or QRadioButton takes a click and shows its state (checkbox,
radio_group; family B, toggle / option).

Their clickable area is the style's click rect (indicator plus label,
SE_CheckBoxClickRect / SE_RadioButtonClickRect), so that rect is the goal box.
"""

from __future__ import annotations

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QAbstractButton, QRadioButton, QStyle, QStyleOptionButton


def click_rect(button: QAbstractButton) -> QRect:
    """Where a press and release toggle a QCheckBox / QRadioButton (its hitButton)."""
    opt = QStyleOptionButton()
    button.initStyleOption(opt)
    element = (QStyle.SE_RadioButtonClickRect if isinstance(button, QRadioButton)
               else QStyle.SE_CheckBoxClickRect)
    return button.style().subElementRect(element, opt, button).intersected(button.rect())


def indicator_rect(button: QAbstractButton) -> QRect:
    opt = QStyleOptionButton()
    button.initStyleOption(opt)
    element = (QStyle.SE_RadioButtonIndicator if isinstance(button, QRadioButton)
               else QStyle.SE_CheckBoxIndicator)
    return button.style().subElementRect(element, opt, button)
