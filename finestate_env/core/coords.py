"""Coordinate conventions, converted here and nowhere else.

Frames: `pixel` is screenshot pixels (origin top-left, pixel i spans [i, i+1));
`normalized` divides by the image size, so [0, 1) covers the image; `1000`
is `normalized` times 1000 (the 0-1000 grid many VLMs answer in).
Boxes are xyxy with inclusive edges in every frame.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from finestate_env.core.schema import CoordConvention

_SCALE = {"normalized": 1.0, "1000": 1000.0}


def point_to_pixel(point: Sequence[float], convention: CoordConvention,
                   size: tuple[int, int]) -> tuple[float, float]:
    """Map a point given in `convention` to screenshot pixels; `size` is (width, height)."""
    x, y = float(point[0]), float(point[1])
    if convention == "pixel":
        return x, y
    scale = _SCALE[convention]
    return x / scale * size[0], y / scale * size[1]


def point_from_pixel(point: Sequence[float], convention: CoordConvention,
                     size: tuple[int, int]) -> tuple[float, float]:
    x, y = float(point[0]), float(point[1])
    if convention == "pixel":
        return x, y
    scale = _SCALE[convention]
    return x / size[0] * scale, y / size[1] * scale


def box_from_pixel(box: Sequence[float], convention: CoordConvention,
                   size: tuple[int, int]) -> tuple[float, float, float, float]:
    x1, y1 = point_from_pixel(box[:2], convention, size)
    x2, y2 = point_from_pixel(box[2:], convention, size)
    return x1, y1, x2, y2


def box_to_pixel(box: Sequence[float], convention: CoordConvention,
                 size: tuple[int, int]) -> tuple[float, float, float, float]:
    x1, y1 = point_to_pixel(box[:2], convention, size)
    x2, y2 = point_to_pixel(box[2:], convention, size)
    return x1, y1, x2, y2


def box_center(box: Sequence[float]) -> tuple[float, float]:
    """Centre of an inclusive-edge box (the midpoint of its extreme points)."""
    return (box[0] + box[2]) / 2.0, (box[1] + box[3]) / 2.0


# -- box formats and conversions between any two conventions -----------------
# A box format says how four numbers describe a box: `xyxy` is
# [x1, y1, x2, y2] (both corners, inclusive), `xywh` is [x, y, width, height]
# with x2 = x + width (ScreenSpot v1). Both describe the same inclusive box.

BoxFormat = Literal["xyxy", "xywh"]
BOX_FORMATS: tuple[BoxFormat, ...] = ("xyxy", "xywh")
CONVENTIONS: tuple[CoordConvention, ...] = ("pixel", "normalized", "1000")


def xywh_to_xyxy(box: Sequence[float]) -> tuple[float, float, float, float]:
    x, y, w, h = (float(v) for v in box)
    return x, y, x + w, y + h


def xyxy_to_xywh(box: Sequence[float]) -> tuple[float, float, float, float]:
    x1, y1, x2, y2 = (float(v) for v in box)
    return x1, y1, x2 - x1, y2 - y1


def box_to_xyxy(box: Sequence[float], box_format: BoxFormat) -> tuple[float, float, float, float]:
    if box_format == "xywh":
        return xywh_to_xyxy(box)
    x1, y1, x2, y2 = (float(v) for v in box)
    return x1, y1, x2, y2


def box_from_xyxy(box: Sequence[float], box_format: BoxFormat) -> tuple[float, float, float, float]:
    if box_format == "xywh":
        return xyxy_to_xywh(box)
    x1, y1, x2, y2 = (float(v) for v in box)
    return x1, y1, x2, y2


def needs_size(source: CoordConvention, target: CoordConvention) -> bool:
    """True when converting between the two conventions needs the image size."""
    return source != target and "pixel" in (source, target)


def convert_point(point: Sequence[float], source: CoordConvention, target: CoordConvention,
                  size: tuple[int, int] | None = None) -> tuple[float, float]:
    """`point` from one convention to another; `size` (width, height) only when pixels are
    involved. Equal conventions return the point unchanged (no rounding at all)."""
    x, y = float(point[0]), float(point[1])
    if source == target:
        return x, y
    if source == "normalized" and target == "1000":
        return x * 1000.0, y * 1000.0
    if source == "1000" and target == "normalized":
        return x / 1000.0, y / 1000.0
    if size is None:
        raise ValueError(f"converting a point from {source!r} to {target!r} needs the image size")
    if source == "pixel":
        return point_from_pixel((x, y), target, size)
    return point_to_pixel((x, y), source, size)


def convert_box(box: Sequence[float], source: CoordConvention, target: CoordConvention,
                size: tuple[int, int] | None = None) -> tuple[float, float, float, float]:
    """An xyxy box from one convention to another, corner by corner (see `convert_point`).

    Every conversion is monotone, so a point on a box's edge stays on that edge when the
    point and the box are converted alike: inclusive edges survive the conversion.
    """
    x1, y1 = convert_point(box[:2], source, target, size)
    x2, y2 = convert_point(box[2:], source, target, size)
    return x1, y1, x2, y2
