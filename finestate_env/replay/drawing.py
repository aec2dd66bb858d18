"""Boxes and points drawn on screenshots: the one palette of the gallery, audit and report."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from PIL import Image, ImageDraw, ImageFont

BOX_COLOURS = {"loc": (37, 99, 235), "core": (245, 158, 11), "goal": (22, 163, 74),
               "now": (220, 38, 38), "measured": (192, 38, 211), "start": (8, 145, 178)}
POINT_COLOURS = {"p0": (37, 99, 235), "p1": (220, 38, 38), "miss": (220, 38, 38),
                 "hit": (22, 163, 74)}


def font(size: int) -> ImageFont.ImageFont:
    try:
        return ImageFont.truetype("DejaVuSans.ttf", size)
    except OSError:  # no DejaVu on this machine: Pillow's built-in bitmap font
        return ImageFont.load_default()


def draw_boxes(image: Image.Image, boxes: Mapping[str, Sequence[float]]) -> None:
    """Outline each named box (inclusive pixel edges) in its palette colour, goal thicker."""
    draw = ImageDraw.Draw(image)
    for name, box in boxes.items():
        if box is not None:
            draw.rectangle(list(box), outline=BOX_COLOURS[name],
                           width=2 if name in ("goal", "measured", "start") else 1)


def draw_points(image: Image.Image, points: Iterable[tuple[str, Sequence[float] | None]],
                radius: int = 5) -> None:
    """A cross per (kind, point): `p0`, `p1`, or an audit probe's `hit` / `miss`."""
    draw = ImageDraw.Draw(image)
    for kind, point in points:
        if point is None:
            continue
        x, y = point
        colour = POINT_COLOURS[kind]
        draw.line((x - radius, y - radius, x + radius, y + radius), fill=colour, width=2)
        draw.line((x - radius, y + radius, x + radius, y - radius), fill=colour, width=2)


def crop_around(image: Image.Image, box: Sequence[float], margin: int = 12) -> Image.Image:
    """The part of `image` around `box` (inclusive edges), `margin` pixels wider."""
    x1, y1, x2, y2 = box
    return image.crop((max(0, int(x1) - margin), max(0, int(y1) - margin),
                       min(image.width, int(x2) + margin + 1),
                       min(image.height, int(y2) + margin + 1)))
