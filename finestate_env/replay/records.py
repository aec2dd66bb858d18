"""The records a replay writes, one JSON line per prediction, and their summary
(docs/design.md §5)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from finestate_env.core.metrics import CollateralTally, CrossCheckTally, MetricTally
from finestate_env.core.schema import CrossCheck, Platform, Point, StageVerdicts, StepResult

Outcome = Literal["performed", "missing", "wrong_format", "not_replayable", "error"]


class ReplayRecord(BaseModel):
    """What one prediction did: the static verdicts from the file's boxes beside the
    live verdicts from the state read back. Points are screenshot pixels."""

    model_config = ConfigDict(extra="forbid")

    key: str  # the prediction's id: what resuming a run skips on
    id: str
    component: str
    family: str  # "unknown" for an imported record whose type names no family
    platform: Platform
    p0: Point | None
    p1: Point | None
    outcome: Outcome
    # performed: the gesture ran (or could not: `action_error` says why, and
    # nothing was done); missing / wrong_format: the prediction had no usable
    # point, scored as a miss both ways; not_replayable: no live block, static
    # only; error: the renderer failed twice, `error` says how.
    state: Any = None  # read back from the control (None when nothing was read)
    goal_state: Any = None
    static: StageVerdicts | None = None
    # point -> "missing" / "wrong_format": a point the prediction lacked (a miss on its stages)
    problems: dict[str, str] = Field(default_factory=dict)
    live: StageVerdicts | None = None
    static_exact: bool | None = None  # p1 in the file's goal box (None: not performed)
    live_exact: bool | None = None  # the state read back equals the goal state
    crosscheck: CrossCheck | None = None
    boxes_match: bool | None = None  # did the live control measure the file's current boxes?
    action_error: str | None = None
    # A page scene's distractors the gesture changed, by label, read back live before and
    # after it (empty for a lone control, or when nothing was performed).
    collateral_changed: list[str] = Field(default_factory=list)
    error: str | None = None
    timings: dict[str, float] = Field(default_factory=dict)

    @classmethod
    def from_step(cls, result: StepResult) -> ReplayRecord:
        """A live episode's record (`finestate run --out`) in this shape, for the report: the
        step performed its action, its static exact is what the cross-check implies."""
        live_exact = result.success
        static_exact = live_exact if result.crosscheck == "agree" else not live_exact
        return cls(key=result.id, id=result.id, component=result.component,
                   family=result.family, platform=result.platform, p0=result.p0, p1=result.p1,
                   outcome="performed", state=result.state, goal_state=result.goal_state,
                   static=result.static, live=result.live, static_exact=static_exact,
                   live_exact=live_exact, crosscheck=result.crosscheck,
                   action_error=result.action_error, timings=result.timings,
                   collateral_changed=result.collateral_changed)


def read_result_line(record: dict[str, Any]) -> ReplayRecord:
    """One line of a results file: a replay's record, or a live run's step."""
    if "key" in record:
        return ReplayRecord.model_validate(record)
    return ReplayRecord.from_step(StepResult.model_validate(record))


OUTCOMES: tuple[Outcome, ...] = ("performed", "missing", "wrong_format", "not_replayable",
                                 "error")


class ReplayTally:
    """`summarize_replay` counted one record at a time (`add`): a results file of any length
    is summarised holding a few counts per platform, family and type."""

    def __init__(self) -> None:
        self.static, self.live = MetricTally("static"), MetricTally("live")
        self.crosscheck, self.collateral = CrossCheckTally(), CollateralTally()
        self.outcomes: dict[str, int] = dict.fromkeys(OUTCOMES, 0)
        self.action_errors = self.boxes_changed = 0

    def add(self, record: ReplayRecord) -> None:
        self.static.add(record)
        if record.outcome not in ("not_replayable", "error"):
            self.live.add(record)
        self.crosscheck.add(record)
        self.collateral.add(record)
        if record.outcome in self.outcomes:
            self.outcomes[record.outcome] += 1
        self.action_errors += record.action_error is not None
        self.boxes_changed += record.boxes_match is False

    @property
    def records(self) -> int:
        return sum(self.outcomes.values())

    def summary(self) -> dict[str, Any]:
        return {
            "static": self.static.table(),
            "live": self.live.table(),
            "crosscheck": self.crosscheck.table(),
            "collateral": self.collateral.table(),
            "outcomes": dict(self.outcomes),
            "action_errors": self.action_errors,
            "boxes_changed": self.boxes_changed,
        }


def summarize_replay(records: Iterable[ReplayRecord]) -> dict[str, Any]:
    """docs/design.md §5's replay summary: the four metrics static beside live, by platform,
    family and type, and the cross-check counts overall and by type.

    `live` covers the replayable predictions only (with misses counted in); the
    rest are counted in `not_replayable`. `records` are read once, never held.
    """
    tally = ReplayTally()
    for record in records:
        tally.add(record)
    return tally.summary()
