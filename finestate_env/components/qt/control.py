"""The shape of every Qt renderer: build the widgets, read the state, measure the boxes."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication, QWidget

from finestate_env.components.qt import kit


class Control:
    """One rendered instance: `card` holds its widgets, placed on the stage by the app.

    Subclasses build in `build(state)`, read back in `state()` from the widgets
    alone, and measure in `boxes(goal)` the four boxes of the configuration now
    shown (loc, core, goal, now) in screen pixels, inclusive edges. A goal box
    is measured for the gesture the oracle and the audit perform: p0 at the
    centre pixel of `now`.
    """

    title_key: str | None = None  # the params key that titles the card

    def __init__(self, stage: QWidget, params: dict[str, Any], state: Any) -> None:
        self.params = params
        self.card = kit.Card(stage, params.get(self.title_key) if self.title_key else None)
        self.build(state)

    def build(self, state: Any) -> None:
        raise NotImplementedError

    def state(self) -> Any:
        raise NotImplementedError

    def boxes(self, goal: Any) -> dict[str, kit.Box]:
        raise NotImplementedError

    def reach(self, goal: Any) -> int | None:
        """Gestures the shortest route to `goal` still takes from what is shown (0 at the
        goal, 1 when the goal box reaches it); None for a type whose every goal is one
        gesture away. Types with goals further away (episodes of several gestures)
        override it, and their goal box is then the next gesture's."""
        return None

    def snapshot(self) -> Any:
        """Everything the card holds, read from the widgets: a page reads its distractors
        back whole (a card of several switches is one distractor). The state, unless the
        state is one item of several."""
        return self.state()

    def settle(self) -> None:
        """Lay out now (posted layout requests only: never pending input)."""
        self.card.layout().activate()
        QApplication.sendPostedEvents()
