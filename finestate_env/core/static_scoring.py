"""Scoring predictions against instances' boxes, without a browser (docs/design.md §4).

Two modes:

- `stagewise` (default): docs/design.md §4 with the static `exact` (p1 in `goal`):
  SR@Loc = p0 in loc, SR@Int = p1 in core, ES-SR@Loc = p0 in loc and p1 in goal,
  ES-SR@Int = p1 in core and p1 in goal.
- `release`: the four rates of the released FineState-Bench evaluation code:
  SR@Loc = p0 in bbox (loc), ES-SR@Loc = p0 in now_coords (now), SR@Int =
  ES-SR@Int = p1 in target_coords (goal); `formats.finestate_bench` maps the
  released fields so that its fallbacks to bbox are reproduced.

Where points are compared: in pixels when both the prediction and the boxes are
pixels (this project's instances, ScreenSpot pixel records); otherwise in [0, 1],
against an imported record's normalised boxes as given (`Instance.normalized_boxes`)
or against pixel boxes divided by the image size exactly as the exporter divides
them. So boxes are never re-rounded through pixels, a point scores the same against
an instance and against its exported record, and a point on an edge stays on it.
Edges are inclusive; there is no tolerance. An instance without an image size (an
imported normalised record whose image was not found) needs none for normalised and
0-1000 predictions; a pixel point for it raises `SizeNeeded`, naming the prediction.

A prediction whose two points are both missing or unparseable scores `None` (a
miss, counted in `missing`); with one usable point the other point's stages miss.
An instance nobody predicted is a miss too (the released code would have no result
for it, so `release` rates equal the released code's when every instance is predicted).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from finestate_env.core import scoring
from finestate_env.core.coords import convert_box, convert_point
from finestate_env.core.errors import UsageError
from finestate_env.core.metrics import MetricTally
from finestate_env.core.schema import (
    POINT_KEYS,
    Boxes,
    CoordConvention,
    Instance,
    Prediction,
    StageVerdicts,
    point_problem,
)

ScoreMode = Literal["stagewise", "release"]
SCORE_MODES: tuple[ScoreMode, ...] = ("stagewise", "release")
Miss = Literal["missing", "wrong_format", "no_prediction"]


class SizeNeeded(UsageError):
    """A pixel point for an instance whose image size is unknown: nothing maps it onto the
    instance's normalised boxes."""

    def __init__(self, instance_id: str, prediction_id: str) -> None:
        self.instance_id, self.prediction_id = instance_id, prediction_id
        super().__init__(f"prediction {prediction_id!r} is in pixels, and instance "
                         f"{instance_id!r} has no image size to compare pixels with its "
                         "normalised boxes")


def needs_size(instance: Instance, prediction: Prediction) -> bool:
    """True when scoring `prediction` against `instance` needs an image size it lacks."""
    return instance.size is None and has_pixel_points(prediction)


def has_pixel_points(prediction: Prediction) -> bool:
    """A point in pixels: what only an instance with an image size can score."""
    return (prediction.coords == "pixel"
            and any(getattr(prediction, key) is not None for key in POINT_KEYS))


@dataclass(frozen=True)
class ScoredPrediction:
    """One instance's verdict. Points are screenshot pixels (`coords` "pixel"), or [0, 1]
    for an instance without an image size (`coords` "normalized"); `verdicts` None is a
    miss."""

    id: str
    platform: str
    family: str  # "unknown" when the instance names no family
    component: str
    p0: tuple[float, float] | None
    p1: tuple[float, float] | None
    verdicts: StageVerdicts | None
    miss: Miss | None = None  # why `verdicts` is None
    problems: dict[str, str] = field(default_factory=dict)  # point -> missing / wrong_format
    coords: CoordConvention = "pixel"  # the frame of p0 and p1

    def to_json(self) -> dict[str, Any]:
        record = {"id": self.id, "platform": self.platform, "family": self.family,
                  "component": self.component,
                  "p0": list(self.p0) if self.p0 else None,
                  "p1": list(self.p1) if self.p1 else None,
                  "verdicts": self.verdicts.model_dump() if self.verdicts else None,
                  "miss": self.miss, "problems": self.problems}
        if self.coords != "pixel":
            record["coords"] = self.coords
        return record


def _frame(instance: Instance, convention: CoordConvention) -> tuple[CoordConvention, Boxes]:
    """Where to compare: in pixels only when the prediction and the boxes are both pixels,
    else in [0, 1], with the boxes divided by the size exactly as the exporter does, so a
    point scores the same against an instance and against its exported record."""
    if instance.normalized_boxes is not None:
        return "normalized", instance.normalized_boxes
    if convention == "pixel":
        return "pixel", instance.boxes.current
    size = (instance.size.width, instance.size.height)
    current = instance.boxes.current
    return "normalized", Boxes(**{name: convert_box(getattr(current, name), "pixel",
                                                    "normalized", size)
                                  for name in ("loc", "core", "goal", "now")})


def _converted(point: Sequence[float] | None, source: CoordConvention,
               target: CoordConvention, size: tuple[int, int]) -> tuple[float, float] | None:
    return None if point is None else convert_point(point, source, target, size)


def score_prediction(instance: Instance, prediction: Prediction | None,
                     mode: ScoreMode = "stagewise") -> ScoredPrediction:
    """The verdicts of one prediction (None: nobody predicted this instance)."""
    if mode not in SCORE_MODES:
        raise UsageError(f"unknown scoring mode {mode!r}; expected one of {list(SCORE_MODES)}")
    base = {"id": instance.id, "platform": instance.platform,
            "family": instance.family or "unknown", "component": instance.component}
    if prediction is None:
        return ScoredPrediction(**base, p0=None, p1=None, verdicts=None, miss="no_prediction")
    if needs_size(instance, prediction):
        raise SizeNeeded(instance.id, prediction.id)
    size = None if instance.size is None else (instance.size.width, instance.size.height)
    shown: CoordConvention = "pixel" if size is not None else "normalized"
    frame, boxes = _frame(instance, prediction.coords)
    problems = {key: problem for key in POINT_KEYS
                if (problem := point_problem(prediction, key)) is not None}
    p0 = _converted(prediction.p0, prediction.coords, frame, size)
    p1 = _converted(prediction.p1, prediction.coords, frame, size)
    points = {key: _converted(getattr(prediction, key), prediction.coords, shown, size)
              for key in POINT_KEYS}
    if p0 is None and p1 is None:
        miss = "wrong_format" if "wrong_format" in problems.values() else "missing"
        return ScoredPrediction(**base, **points, verdicts=None, miss=miss, problems=problems,
                                coords=shown)
    if mode == "release":
        verdicts = scoring.release_verdicts(p0, p1, boxes.loc, boxes.now, boxes.goal)
    else:
        verdicts = scoring.stage_verdicts(p0, p1, boxes, scoring.static_exact(p1, boxes))
    return ScoredPrediction(**base, **points, verdicts=verdicts, problems=problems,
                            coords=shown)


class Scorer:
    """`score` one instance at a time: call it on each instance (in file order) for its
    record, then `summary()`. The predictions are held (the first of each id), the
    instances and records never: the summary is counted as they go by."""

    def __init__(self, predictions: Iterable[Prediction], mode: ScoreMode = "stagewise") -> None:
        self.mode = mode
        self._first: dict[str, Prediction] = {}
        self._repeated: set[str] = set()
        self._matched: set[str] = set()  # the ids of `_first` an instance has
        self.predictions = 0
        for prediction in predictions:
            self.predictions += 1
            if prediction.id in self._first:
                self._repeated.add(prediction.id)
            else:
                self._first[prediction.id] = prediction
        self._tally = MetricTally("verdicts")
        self.instances = self.no_prediction = self.wrong_format = self.missing_point = 0

    def prediction(self, instance_id: str) -> Prediction | None:
        """The first prediction of `instance_id`: the one scored."""
        return self._first.get(instance_id)

    def __call__(self, instance: Instance) -> ScoredPrediction:
        prediction = self._first.get(instance.id)
        record = score_prediction(instance, prediction, self.mode)
        if prediction is not None:
            self._matched.add(prediction.id)
        self.instances += 1
        self._tally.add(record)
        problems = record.problems.values()
        self.no_prediction += record.miss == "no_prediction"
        self.wrong_format += "wrong_format" in problems
        self.missing_point += "missing" in problems and "wrong_format" not in problems
        return record

    def summary(self) -> dict[str, Any]:
        """`score`'s summary of the instances scored so far."""
        summary = self._tally.table()
        summary["mode"] = self.mode
        summary["counts"] = {
            "instances": self.instances,
            "predictions": self.predictions,
            "no_prediction": self.no_prediction,
            "wrong_format": self.wrong_format,
            "missing_point": self.missing_point,
            "unknown_ids": sorted(set(self._first) - self._matched),
            "duplicate_ids": sorted(self._repeated & self._matched),
        }
        return summary


def score(instances: Iterable[Instance], predictions: Iterable[Prediction],
          mode: ScoreMode = "stagewise") -> tuple[list[ScoredPrediction], dict[str, Any]]:
    """One record per instance (in order) and the summary (`Scorer`, in a list).

    The summary is docs/design.md §5's `{"overall", "by_platform", "by_family",
    "by_component"}` of metric sets, with `mode` and `counts` beside it: predictions
    read, `no_prediction` (instances nobody predicted), `wrong_format` and
    `missing_point` (predictions with an unparseable / absent point), and
    `unknown_ids` / `duplicate_ids` (ignored; the first prediction of an id counts).
    """
    scorer = Scorer(predictions, mode)
    records = [scorer(instance) for instance in instances]
    return records, scorer.summary()
