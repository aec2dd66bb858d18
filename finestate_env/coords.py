"""Coordinate conventions, converted here and nowhere else.

Frames: `pixel` is screenshot pixels (origin top-left, pixel i spans [i, i+1));
`normalized` divides by the image size, so [0, 1) covers the image; `1000`
is `normalized` times 1000 (the 0-1000 grid many VLMs answer in).
Boxes are xyxy with inclusive edges in every frame.
"""

from __future__ import annotations

from collections.abc import Sequence

from finestate_env.schema import CoordConvention

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
