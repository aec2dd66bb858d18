"""The project's data types (docs/design.md §4, §5): boxes, instances, predictions, results.

Conventions are carried in the names and docstrings: a `PixelBox` is
`[x1, y1, x2, y2]` in screenshot pixels with inclusive edges (a point p is in
the box when x1 <= p.x <= x2 and y1 <= p.y <= y2); a point is `(x, y)` in the
same frame, origin top-left, continuous (pixel i spans [i, i+1)).
"""

from __future__ import annotations

import math
from typing import Annotated, Any, ClassVar, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

Platform = Literal["web", "mobile", "desktop"]
Family = Literal["numeric_range", "toggle_option", "specific_data", "view_manipulation"]
Gesture = Literal["tap", "drag"]
CoordConvention = Literal["pixel", "normalized", "1000"]
# "unjudged": the backend crashed and the step could not be done again (env `recoveries`):
# no verdict, counted apart by every metric (core/metrics.py).
CrossCheck = Literal["agree", "false_accept", "false_reject", "unjudged"]

FAMILIES: tuple[Family, ...] = (
    "numeric_range",
    "toggle_option",
    "specific_data",
    "view_manipulation",
)


def _check_box(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    if not all(math.isfinite(v) for v in box):
        raise ValueError(f"box {list(box)} has a non-finite coordinate")
    x1, y1, x2, y2 = box
    if x1 > x2 or y1 > y2:
        raise ValueError(f"box {list(box)} is not [x1, y1, x2, y2] with x1 <= x2 and y1 <= y2")
    return box


def _check_point(point: tuple[float, float]) -> tuple[float, float]:
    if not all(math.isfinite(v) for v in point):
        raise ValueError(f"point {list(point)} has a non-finite coordinate")
    return point


Box = Annotated[tuple[float, float, float, float], AfterValidator(_check_box)]
"""`[x1, y1, x2, y2]`, inclusive edges, in the frame its owner names."""

Point = Annotated[tuple[float, float], AfterValidator(_check_point)]
"""`(x, y)`, origin top-left, in the frame its owner names."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _OmitWhenNone(_Model):
    """A model whose fields named in `_omitted_when_none` are left out of every dump when
    None: file lines and ids (digests of those dumps) stay what they were before the
    fields existed (a lone control has no scene; a one-gesture run no episode fields)."""

    _omitted_when_none: ClassVar[tuple[str, ...]] = ()

    @model_serializer(mode="wrap")
    def _without_absent_fields(self, handler: SerializerFunctionWrapHandler,
                               info: SerializationInfo) -> dict[str, Any]:
        data = handler(self)
        for name in self._omitted_when_none:
            if getattr(self, name) is None:
                data.pop(name, None)
        return data


class _SceneOptional(_OmitWhenNone):
    _omitted_when_none = ("scene",)


class Size(_Model):
    width: int = Field(gt=0)
    height: int = Field(gt=0)


class Boxes(_Model):
    """The four boxes of one configuration (docs/design.md §4), pixels, inclusive edges."""

    loc: Box  # visible extent of the control
    core: Box  # where operating changes the state at all
    goal: Box  # wholly inside the region where the gesture's p1 yields exactly the goal
    now: Box  # where the current state is shown (thumb, checked item)


class BoxSet(_Model):
    current: Boxes  # what the agent sees
    target: Boxes  # the same control once it shows the goal state


class Instructions(_Model):
    locate: str
    interact: str


Rect = tuple[int, int, int, int]
"""`(x, y, width, height)` in the renderer's own units (CSS px), origin top-left."""


class SceneControl(_Model):
    """One live control of a scene other than the target: a distractor.

    Rendered by its type's own renderer at `rect` (its slot, which it fits whole);
    `state` is the state it is shown in, read back after a step to tell collateral
    changes. `label` is its name on the page (never the target's)."""

    component: str
    label: str
    section: str  # the heading of the page section it sits in
    params: dict[str, Any]
    state: Any
    rect: Rect


class SceneSpec(_Model):
    """The page an instance's control is shown in (docs/design.md §2, scenes): a template
    drawn by the project (`blocks`: headings, text, drawn icons and images, in CSS px),
    the target's slot and section, and the distractors. Everything is sampled from the
    episode's seed (`finestate_env.components.scenes`), so it rebuilds exactly."""

    template: str
    label: str  # the target's name on the page, as the instruction gives it
    section: str  # the heading of the target's section, unique on the page
    rect: Rect  # the target's slot
    blocks: list[dict[str, Any]]  # what the page draws around the controls
    distractors: list[SceneControl]


class LiveSpec(_SceneOptional):
    """Everything needed to rebuild an instance live, exactly."""

    component: str
    params: dict[str, Any]
    current_state: Any
    goal_state: Any
    theme: str
    viewport: Size
    seed: int | None = None
    backend: str = "web"
    # The page around the control; None: the control alone (scene "control"). Left out
    # of every dump when None, so that a control instance's file lines and its id (a
    # digest of this block) are what they were before scenes existed.
    scene: SceneSpec | None = None

    def renderer_spec(self) -> dict[str, Any]:
        """What a renderer is handed (stage.js, the Qt app, the adb page driver):
        the control, the state it shows, the goal its boxes are measured for, the theme,
        and the page around it when there is one."""
        spec = {"component": self.component, "params": self.params, "state": self.current_state,
                "goal": self.goal_state, "theme": self.theme}
        if self.scene is not None:
            spec["scene"] = self.scene.model_dump(mode="json")
        return spec


class SourceRecord(_Model):
    """The external record an instance was imported from, exactly as read: the fields the
    project's layout has no place for (a desktop record's `interact`, keys nobody knows)
    are kept here as given, and an export to the same layout writes them back."""

    layout: str  # the layout it was read in (`finestate_env.datasets.formats.LAYOUTS`)
    record: dict[str, Any]


class SceneDistractor(_Model):
    """A distractor as an instance records it: its type, its label and where it is."""

    component: str
    label: str
    section: str
    loc: Box  # its visible extent, measured, screenshot pixels, inclusive edges


class SceneRecord(_Model):
    """What an instance records of its page (issue #16): the template and its distractors."""

    template: str
    section: str  # the target's section
    distractors: list[SceneDistractor]


class Instance(_SceneOptional):
    id: str
    platform: Platform
    component: str
    # None only for an imported static record whose type names no known family / gesture.
    family: Family | None
    gesture: Gesture | None
    instructions: Instructions
    current_state: Any
    goal_state: Any
    image: str | None = None  # screenshot file, relative to the instances file
    # The image's size and the boxes in its pixels. Both None only for an imported
    # normalised record whose image size is unknown (no image file, no width/height):
    # it scores in [0, 1] alone, against normalised and 0-1000 predictions.
    size: Size | None
    boxes: BoxSet | None  # pixels of `image`
    live: LiveSpec | None = None  # absent for imported static records: not replayable
    # The current boxes in [0, 1] exactly as an imported normalised record gave them.
    # Static scoring compares in this frame when present, so imported boxes are never
    # re-rounded through pixels (finestate_env.datasets.formats documents the mapping).
    normalized_boxes: Boxes | None = None
    source: SourceRecord | None = None  # imported records: the record as given
    # A page scene's record as measured (None, and left out of dumps, for a lone control).
    scene: SceneRecord | None = None

    @model_validator(mode="after")
    def _pixels_or_normalised(self) -> Instance:
        if (self.size is None) != (self.boxes is None):
            raise ValueError("size and boxes go together: both given, or both null for a "
                             "normalised record whose image size is unknown")
        if self.size is None and (self.normalized_boxes is None or self.live is not None):
            raise ValueError("an instance without a size needs normalized_boxes and no live "
                             "block")
        return self


class Prediction(BaseModel):
    """One agent answer. Extra keys (model name, tokens ...) are kept as metadata."""

    model_config = ConfigDict(extra="allow", frozen=True)

    id: str
    p0: Point | None = None  # None: the agent gave no locate point (a miss, counted apart)
    p1: Point | None = None
    coords: CoordConvention = "pixel"


POINT_KEYS = ("p0", "p1")
PointProblem = Literal["missing", "wrong_format"]


def point_problem(prediction: Prediction, key: str) -> PointProblem | None:
    """Why `prediction`'s `key` point cannot be scored, or None when it can.

    A reader that met a point it could not parse records why in the prediction's
    `format_errors` metadata (datasets/formats/predictions.py)."""
    errors = getattr(prediction, "format_errors", None) or {}
    if key in errors:
        return "wrong_format"
    return "missing" if getattr(prediction, key) is None else None


class StageVerdicts(_Model):
    """The four stage-wise hits of docs/design.md §4 for one action."""

    sr_loc: bool
    sr_int: bool
    es_sr_loc: bool
    es_sr_int: bool


class StepResult(_OmitWhenNone):
    """One performed action and what it did, static beside live."""

    _omitted_when_none = ("gestures", "episode_success", "episode_collateral_changed",
                          "oracle_gestures", "unjudged")

    id: str
    component: str
    family: Family
    platform: Platform
    p0: Point | None
    p1: Point | None
    state: Any
    goal_state: Any
    success: bool
    static: StageVerdicts
    live: StageVerdicts
    crosscheck: CrossCheck
    action_error: str | None = None
    timings: dict[str, float] = Field(default_factory=dict)
    # A page scene's distractors the action changed, by label (empty for a lone control):
    # a step can reach the goal and still have changed something else.
    collateral_changed: list[str] = Field(default_factory=list)
    # An episode of several gestures (env max_actions > 1): the fields above are its first
    # gesture's (the FineState protocol); these are the episode's. None in one-gesture runs.
    gestures: int | None = None
    episode_success: bool | None = None
    episode_collateral_changed: list[str] | None = None
    oracle_gestures: int | None = None  # what the oracle takes to the goal (info oracle_actions)
    # Why the step could not be judged (the backend crashed past recovery): then no metric
    # counts it, and the summary counts it apart. None (left out of dumps) when judged.
    unjudged: str | None = None

    @property
    def collateral(self) -> bool:
        return bool(self.collateral_changed)

    @property
    def live_exact(self) -> bool:
        """A step's success is the state read back equalling the goal: live exact."""
        return self.success
