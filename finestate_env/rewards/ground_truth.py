"""What a training row carries so that a completion can be judged: its ground truth.

A row's ground truth is one JSON text (verl's `reward_model.ground_truth`, OpenRLHF's
label, EasyR1's `ground_truth`: trainers that pass only a string pass this one). It holds

- `instance`: the instance whole, with its `live` block (type, parameters, current and
  goal states, theme, viewport, seed, page) that renders the *same* screen again, and
  its boxes in the screenshot's pixels (for the static box verdicts);
- `coords`: the coordinate convention the prompt asked for ("pixel", "normalized" or
  "1000");
- `frame`: (width, height) of the pixels a "pixel" answer refers to: the screenshot's
  size, or the size the model's image processor resizes it to (Qwen2.5-VL answers in the
  pixels of its resized image: agents/vlm_prompt.py, ModelProfile.answer_frame).

`format` names the layout, so that a trainer's file written today is read the same way
later, or refused with a clear message.
"""

from __future__ import annotations

import hashlib
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from finestate_env.components.domain import InvalidLive, check_instance
from finestate_env.components.params import MAX_PIXELS
from finestate_env.core.coords import point_to_pixel
from finestate_env.core.errors import UsageError, field_path, shown
from finestate_env.core.schema import CoordConvention, Instance, Size

FORMAT = "finestate-reward/1"


class BadGroundTruth(UsageError):
    """A ground truth that cannot be read: the message names the field and what it expected."""


class GroundTruth(BaseModel):
    """A row's ground truth (the module docstring); `GroundTruth.read(text)` parses one."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    format: Literal["finestate-reward/1"] = FORMAT
    instance: Instance
    coords: CoordConvention
    frame: Size

    @model_validator(mode="after")
    def _renderable(self) -> GroundTruth:
        if self.instance.live is None or self.instance.boxes is None:
            raise ValueError(f"instance {self.instance.id!r} has no live block and boxes: a "
                             "reward needs both (export-rl writes them)")
        if self.instance.gesture is None:
            raise ValueError(f"instance {self.instance.id!r} has no gesture")
        return self

    @classmethod
    def read(cls, value: Any) -> GroundTruth:
        """A ground truth from its JSON text, its dict, verl's `reward_model` dict
        (`{"style": ..., "ground_truth": text}`) or a GroundTruth; BadGroundTruth names the
        field that is wrong, the value and what is allowed. Read from text or a dict, the
        instance is checked against its type's own domain (components/domain.py): a truth
        that no renderer may be handed is refused here, before anything is rendered."""
        if isinstance(value, GroundTruth):
            return value
        if isinstance(value, dict) and "ground_truth" in value and "instance" not in value:
            value = value["ground_truth"]
        try:
            if isinstance(value, str | bytes):
                truth = cls.model_validate_json(value)
            elif isinstance(value, dict):
                truth = cls.model_validate(value)
            else:
                raise BadGroundTruth(f"ground truth must be the JSON text export-rl writes "
                                     f"(or its dict), got {type(value).__name__}")
            check_instance(truth.instance)
        except ValidationError as exc:
            raise BadGroundTruth(f"ground truth: {_first_error(exc)}") from None
        except InvalidLive as exc:
            raise BadGroundTruth(f"ground truth: {exc}") from None
        if max(truth.frame.width, truth.frame.height) > MAX_PIXELS:
            raise BadGroundTruth(f"ground truth: frame: {truth.frame.width}x"
                                 f"{truth.frame.height} is larger than {MAX_PIXELS} px on a side")
        return truth

    def text(self) -> str:
        """The JSON text a row stores."""
        return self.model_dump_json()

    @cached_property
    def key(self) -> str:
        """Equal for ground truths that show the same screen and judge alike: completions
        with the same key are scored on one render."""
        digest = hashlib.sha1(self.model_dump_json().encode()).hexdigest()[:16]
        return f"{self.instance.id}/{digest}"

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) of the screenshot, in pixels."""
        return self.instance.size.width, self.instance.size.height

    def to_pixels(self, point: tuple[float, float]) -> tuple[float, float]:
        """An answer's point, in the row's convention, as screenshot pixels."""
        if self.coords == "pixel":
            (fw, fh), (w, h) = (self.frame.width, self.frame.height), self.size
            return point[0] * w / fw, point[1] * h / fh
        return point_to_pixel(point, self.coords, self.size)


def ground_truth(instance: Instance, coords: CoordConvention,
                 frame: tuple[int, int] | None = None) -> GroundTruth:
    """The ground truth of `instance` for answers in `coords` (in `frame`'s pixels when
    "pixel"; default: the screenshot's size)."""
    size = instance.size
    width, height = frame or (size.width, size.height)
    return GroundTruth(instance=instance, coords=coords, frame=Size(width=width, height=height))


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = field_path(error["loc"]).lstrip(".") or "(the whole value)"
    return f"{where}: {error['msg']} (got {shown(error.get('input'))})"
