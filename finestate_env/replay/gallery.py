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


# A platform's page sheet: the tile a page is scaled into, tiles a row, header lines.
PAGE_SHEETS = {"web": ((640, 360), 3, 1), "desktop": ((640, 360), 3, 1),
               "mobile": ((360, 800), 5, 2)}


def make_page_gallery(out: str | Path, seed: int = 3, platform: str = "web",
                      component: list[str] | None = None) -> Path:
    """One tile per page template of `platform`: a whole page, scaled into its tile, with
    its target's boxes and its distractors' loc boxes drawn on; the types cycle."""
    from finestate_env.components import scenes

    names = resolve(component)
    templates = sorted(scenes.templates(platform))
    tile, columns, lines = PAGE_SHEETS[platform]
    header = HEADER + 18 * (lines - 1)
    rows = -(-len(templates) // columns)
    sheet = Image.new("RGB", (tile[0] * columns, (tile[1] + header) * rows), (255, 255, 255))
    draw = ImageDraw.Draw(sheet)
    font = drawing.font(14)
    env = gym.make(f"FineState-{platform.capitalize()}-v0", scene="page").unwrapped
    try:
        for i, template in enumerate(templates):
            name = names[i % len(names)]
            # The first seed from `seed` on that draws the template with its signature image.
            hero, found = scenes.templates(platform)[template].hero, None
            for attempt in range(200):
                obs, _ = env.reset(seed=seed + attempt, options={"component": name})
                scene = env.instance.live.scene
                if scene.template == template:
                    found = found or (seed + attempt, obs)
                    if any(b["kind"] == hero for b in scene.blocks):
                        break
            else:  # none shows it: the first that draws the template
                obs, _ = env.reset(seed=found[0], options={"component": name})
            instance = env.instance
            # Scaled first, outlined after: a phone's 1080x2400 page shrinks 3x.
            image = Image.fromarray(obs["screenshot"])
            image.thumbnail(tile)
            k = image.width / instance.size.width

            def scaled(box, k=k):
                return [v * k for v in box]

            for d in instance.scene.distractors:
                ImageDraw.Draw(image).rectangle(scaled(d.loc), outline=(150, 150, 150), width=2)
            draw_boxes(image, {b: scaled(getattr(instance.boxes.current, b))
                               for b in ("loc", "core", "goal", "now")})
            x, y = (i % columns) * tile[0], (i // columns) * (tile[1] + header)
            words = [template, f"target {name}", f"{len(instance.scene.distractors)} distractors"]
            text = " · ".join(words) if lines == 1 else f"{words[0]}\n{' · '.join(words[1:])}"
            draw.multiline_text((x + 8, y + 6), text, fill=(0, 0, 0), font=font, spacing=4)
            sheet.paste(image, (x, y + header))
    finally:
        env.close()
    out = Path(out)
    sheet.save(out, optimize=True)
    return out
