"""Typed, bounded fields for the component types' parameter models.

Every instance's `live.params` (and each distractor's) reaches a renderer: a page's script,
the Qt app, the Android app. So each type declares what its params may hold as a pydantic
model (`ComponentType.params_model`, built from the fields below), and an instance from a
file, a reset option, a ground truth or a task is checked against it where it enters
(components/domain.py, `check_live`). The model only checks: the params handed to a
renderer stay the dict as given, so ids and digests do not move.

The fields are strict (a number written as a string, a bool where a number goes, a float
where an index goes are refused) and bounded (finite numbers, pixel sizes within
MAX_PIXELS, at most MAX_ITEMS items, texts of at most MAX_TEXT characters without control
characters): what a renderer is handed is what the type's own sampler could have drawn,
give or take the bounds.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator

# The longest text of one param (a label, a title, a line of body text), in characters.
MAX_TEXT = 200
# The most items of one list param (options, rows, labels, pins, swatches).
MAX_ITEMS = 256
# The largest size or coordinate in CSS px (an 8K screen's width, with room).
MAX_PIXELS = 16_384
# The largest magnitude of a value param (a range's ends, a value, a step).
MAX_MAGNITUDE = 1e9

# Printable text: no C0 control character, no DEL (a newline in a label is not a label).
_PRINTABLE = r"^[^\x00-\x1f\x7f]*$"

Text = Annotated[str, Field(strict=True, max_length=MAX_TEXT, pattern=_PRINTABLE)]
"""A string shown as text: a label, a title, an option."""

Num = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=-MAX_MAGNITUDE,
                             le=MAX_MAGNITUDE)]
"""A finite number (an int or a float), within MAX_MAGNITUDE."""

Positive = Annotated[float, Field(strict=True, allow_inf_nan=False, gt=0, le=MAX_MAGNITUDE)]
"""A finite number above 0 (a step)."""

Int = Annotated[int, Field(strict=True, ge=-int(MAX_MAGNITUDE), le=int(MAX_MAGNITUDE))]
"""A whole number, within MAX_MAGNITUDE (never a bool, never 3.0)."""

Pixels = Annotated[int, Field(strict=True, ge=0, le=MAX_PIXELS)]
"""A size or an offset in CSS px (a whole number)."""

Coordinate = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=-MAX_PIXELS,
                                    le=MAX_PIXELS)]
"""A position in CSS px, possibly fractional or negative (a pan's offset)."""

Fraction = Annotated[float, Field(strict=True, allow_inf_nan=False, ge=0, le=1)]
"""A number in [0, 1]."""

Index = Annotated[int, Field(strict=True, ge=0, lt=MAX_ITEMS)]
"""A position in a list param."""

Anchor = Annotated[list[Fraction], Field(min_length=2, max_length=2)]
"""Where the control sits in the page's free space, as fractions (base.sample_anchor)."""

def list_of(kind: Any, least: int = 0, most: int = MAX_ITEMS) -> Any:
    """A list of `kind` with `least` to `most` items."""
    return Annotated[list[kind], Field(min_length=least, max_length=most)]


class Params(BaseModel):
    """The base of every type's params model: no key it does not name, nothing changed."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# The most grid points of one range (a slider's values): the control draws each.
MAX_STEPS = 100_000


class RangeParams(Params):
    """The params of a value on the grid min + k * step (base.RangeType: slider, knob)."""

    label: Text
    min: Num
    max: Num
    step: Positive
    unit: Text

    @model_validator(mode="after")
    def _a_grid(self) -> RangeParams:
        steps = (self.max - self.min) / self.step
        if not 1 <= round(steps) <= MAX_STEPS or abs(steps - round(steps)) > 1e-6:
            raise ValueError(f"max - min must be 1 to {MAX_STEPS} whole steps, got "
                             f"({self.max} - {self.min}) / {self.step} = {steps:g}")
        return self


def _distinct(values: list) -> list:
    twice = sorted({str(v) for v in values if values.count(v) > 1})
    if twice:
        raise ValueError(f"items must be distinct (the control tells them apart by their "
                         f"text), got {twice} more than once")
    return values


def distinct_list_of(kind: Any, least: int = 0, most: int = MAX_ITEMS) -> Any:
    """A list of `kind`, `least` to `most` items, no two equal (labels, options, names)."""
    return Annotated[list[kind], Field(min_length=least, max_length=most),
                     AfterValidator(_distinct)]
