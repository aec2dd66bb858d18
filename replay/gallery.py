"""A contact sheet of every component type in every theme, boxes drawn on.

One row per type, one column per theme; each tile is the control cropped
from a real screenshot with `loc` (blue), `core` (orange), `goal` (green) and
`now` (red) outlined as measured live.

`make_page_gallery` is the sheet of a platform's page scenes (issue #16): one
whole page per template, the target's boxes drawn on and every distractor's
`loc` outlined in grey.
"""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym
from PIL import Image, ImageDraw

from finestate_env.components import resolve
from finestate_env.components.themes import themes_for
from finestate_env.core.schema import Instance
from finestate_env.replay import drawing
from finestate_env.replay.drawing import crop_around, draw_boxes

TILE = (300, 250)
LABEL_WIDTH = 130
HEADER = 28


def render_tile(env, instance: Instance, theme: str) -> Image.Image:
    """The instance drawn in `theme`, boxes re-measured live, cropped around `loc`."""
    live = instance.live.model_copy(update={"theme": theme})
    obs, info = env.reset(options={"instance": instance.model_copy(update={"live": live})})
    image = Image.fromarray(obs["screenshot"])
    boxes = info["boxes"]["current"]
    draw_boxes(image, {name: boxes[name] for name in ("loc", "core", "goal", "now")})
    crop = crop_around(image, boxes["loc"])
    crop.thumbnail(TILE)
    tile = Image.new("RGB", TILE, (255, 255, 255))
    tile.paste(crop, ((TILE[0] - crop.width) // 2, (TILE[1] - crop.height) // 2))
    return tile


def make_gallery(out: str | Path, components: list[str] | None = None, seed: int = 3,
                 platform: str = "web") -> Path:
    """One row per type, one column per theme of `platform` ("web", "mobile" or "desktop")."""
    names = resolve(components)
    themes = themes_for(platform)
    sheet = Image.new("RGB", (LABEL_WIDTH + TILE[0] * len(themes), HEADER + TILE[1] * len(names)),
                      (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    font = drawing.font(14)
    for col, theme in enumerate(themes):
        draw.text((LABEL_WIDTH + col * TILE[0] + 8, 6), theme, fill=(0, 0, 0), font=font)
    # One browser (or display) for the whole sheet.
    env = gym.make(f"FineState-{platform.capitalize()}-v0").unwrapped
    try:
        for row, name in enumerate(names):
            top = HEADER + row * TILE[1]
            draw.text((8, top + TILE[1] // 2 - 8), name, fill=(0, 0, 0), font=font)
            env.reset(seed=seed, options={"component": name})
            instance = env.instance
            for col, theme in enumerate(themes):
                tile = render_tile(env, instance, theme)
                sheet.paste(tile, (LABEL_WIDTH + col * TILE[0], top))
            draw.line((0, top, sheet.width, top), fill=(220, 220, 220))
    finally:
        env.close()
    out = Path(out)
    sheet.save(out, optimize=True)
    return out


PAGE_TILE = (640, 360)
PAGE_COLUMNS = 3


def make_page_gallery(out: str | Path, seed: int = 3, platform: str = "web",
                      component: list[str] | None = None) -> Path:
    """One tile per page template of `platform`: a whole page, scaled to PAGE_TILE, with
    its target's boxes and its distractors' loc boxes drawn on; the types cycle."""
    from finestate_env.components import scenes

    names = resolve(component)
    templates = sorted(scenes.templates(platform))
    rows = -(-len(templates) // PAGE_COLUMNS)
    sheet = Image.new("RGB", (PAGE_TILE[0] * PAGE_COLUMNS, (PAGE_TILE[1] + HEADER) * rows),
                      (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    font = drawing.font(14)
    env = gym.make(f"FineState-{platform.capitalize()}-v0", scene="page").unwrapped
    try:
        for i, template in enumerate(templates):
            name = names[i % len(names)]
            for attempt in range(200):  # the first seed from `seed` on that draws the template
                obs, _ = env.reset(seed=seed + attempt, options={"component": name})
                if env.instance.live.scene.template == template:
                    break
            instance = env.instance
            image = Image.fromarray(obs["screenshot"])
            for d in instance.scene.distractors:
                ImageDraw.Draw(image).rectangle(list(d.loc), outline=(150, 150, 150), width=2)
            draw_boxes(image, {k: getattr(instance.boxes.current, k)
                               for k in ("loc", "core", "goal", "now")})
            image.thumbnail(PAGE_TILE)
            x, y = (i % PAGE_COLUMNS) * PAGE_TILE[0], (i // PAGE_COLUMNS) * (PAGE_TILE[1] + HEADER)
            draw.text((x + 8, y + 6), f"{template} · target {name} · "
                      f"{len(instance.scene.distractors)} distractors", fill=(0, 0, 0), font=font)
            sheet.paste(image, (x, y + HEADER))
    finally:
        env.close()
    out = Path(out)
    sheet.save(out, optimize=True)
    return out
