"""What opens a live session: a task, read from whatever a trainer's row carries.

A task is one JSON text (`format: "finestate-session/1"`) or its dict, that every trainer
can carry in a row as it is (TRL's columns, verl's `extra_info` / `reward_model`,
OpenRLHF's `label`, a verifiers task's `info`, the keyword arguments of an OpenEnv
`reset`). It holds either

- `ground_truth`: an exported row's ground truth (rewards/ground_truth.py), whose live
  block renders the *same* screen again, and whose convention (`coords`, `frame`) the
  agent's points are read in; or
- `seed` with optional `component`, `scene`, `level` and `platform`: an instance drawn
  by the env itself from the seed, as `env.reset(seed=...)` draws it;

and how the episode runs:

- `max_actions`: gestures the agent may make (default 5);
- `ends`: "agent" (default): the episode goes on until the agent stops (or the gestures
  run out), so reaching the goal is never announced to the model; "goal": it ends as
  soon as the control shows the goal, as the Gymnasium env does;
- `feedback`: "screen" (default): after a gesture the agent sees the new screen, nothing
  more; "state": the control's state read back is also given as text (a curriculum
  aid: it tells the model what its gesture did, in the type's own terms);
- `coords` (seeded tasks only; a ground truth has its own): the convention the agent's
  points are read in ("pixel", "normalized" or "1000"), with `frame` the (width, height)
  its pixel answers refer to.

A bare ground truth (the text export-rl writes for single-turn rows) is a task too, with
the defaults above. Equal tasks open sessions that show the same pixels and go through
the same states for the same gestures: the members of a GRPO group share one start.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from finestate_env.core.errors import UsageError, field_path, shown
from finestate_env.core.schema import CoordConvention, Platform, Size
from finestate_env.rewards.ground_truth import BadGroundTruth, GroundTruth

FORMAT = "finestate-session/1"
DEFAULT_MAX_ACTIONS = 5
# The most gestures a session allows (the env's own bound).
MAX_ACTIONS = 100
Ends = Literal["agent", "goal"]
Feedback = Literal["screen", "state"]


class BadTask(UsageError):
    """A task that cannot open a session: the message names the field and what it expected."""


class SessionTask(BaseModel):
    """One session's task (the module docstring); `SessionTask.read(value)` parses one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal["finestate-session/1"] = FORMAT
    ground_truth: GroundTruth | None = None
    seed: int | None = Field(default=None, ge=0, lt=2**63)
    component: str | None = None
    scene: str | None = None
    level: int | None = Field(default=None, ge=0, le=3)
    platform: Platform | None = None
    max_actions: int = Field(default=DEFAULT_MAX_ACTIONS, ge=1, le=MAX_ACTIONS)
    ends: Ends = "agent"
    feedback: Feedback = "screen"
    coords: CoordConvention | None = None
    frame: Size | None = None

    @model_validator(mode="after")
    def _one_source(self) -> SessionTask:
        drawn = {name: getattr(self, name) for name in ("seed", "component", "scene", "level",
                                                        "coords", "frame")
                 if getattr(self, name) is not None}
        if self.ground_truth is not None:
            if drawn:
                raise ValueError(f"a task with a ground_truth takes its screen and convention "
                                 f"from it: {sorted(drawn)} cannot be given beside it")
            if self.platform not in (None, self.ground_truth.instance.platform):
                raise ValueError(f"platform {self.platform!r} is not the ground truth's "
                                 f"{self.ground_truth.instance.platform!r}")
        elif self.seed is None:
            raise ValueError("a task needs a ground_truth (an exported row's) or a seed")
        if self.frame is not None and self.coords != "pixel":
            raise ValueError("frame is the size pixel answers refer to: give it with "
                             "coords='pixel'")
        return self

    @classmethod
    def read(cls, value: Any) -> SessionTask:
        """A task from its JSON text or dict, from a bare ground truth (text, dict, verl's
        `reward_model` dict) or a SessionTask; BadTask names the field that is wrong."""
        if isinstance(value, SessionTask):
            return value
        if isinstance(value, GroundTruth):
            return cls(ground_truth=value)
        if isinstance(value, str | bytes):
            try:
                value = json.loads(value)
            except ValueError as exc:
                raise BadTask(f"task: not JSON ({exc})") from None
        if not isinstance(value, dict):
            raise BadTask(f"a task must be the JSON text of an object (a session task or a "
                          f"ground truth), got {type(value).__name__}")
        if value.get("format", FORMAT) != FORMAT or "instance" in value or (
                "ground_truth" in value and "style" in value):
            return cls(ground_truth=_ground_truth(value))  # a bare ground truth
        value = dict(value)
        if "ground_truth" in value:
            value["ground_truth"] = _ground_truth(value["ground_truth"])
        try:
            return cls.model_validate(value)
        except ValidationError as exc:
            error = exc.errors()[0]
            where = field_path(error["loc"]).lstrip(".") or "(the whole task)"
            raise BadTask(f"task: {where}: {error['msg']} "
                          f"(got {shown(error.get('input'))})") from None

    def text(self) -> str:
        """The JSON text a row stores: the format, the ground truth as its own text has
        it, and the fields that differ from their defaults."""
        fields = self.model_dump(mode="json", exclude_defaults=True,
                                 exclude={"format", "ground_truth"})
        if self.ground_truth is not None:
            fields = {"ground_truth": json.loads(self.ground_truth.text()), **fields}
        return json.dumps({"format": FORMAT, **fields}, separators=(",", ":"))


def _ground_truth(value: Any) -> GroundTruth:
    try:
        return GroundTruth.read(value)
    except BadGroundTruth as exc:
        raise BadTask(f"task: {exc}") from None
