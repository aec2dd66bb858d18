"""Scenes: the page a control is shown in (issue #16; docs/design.md §2, scenes).

Scene "page" (the default, DEFAULT_SCENE) shows the control in an app page drawn by
the project: a template's chrome
(an app bar, a sidebar, headings, body text, drawn icons and images) and, in
its sections, other live controls of the 23 types, the distractors, some of
them of the target's own type with other labels. Scene "control" (the ablation)
shows the control alone, as the env did before issue #16: the same seed gives the
pixels it gave then.

The page is platform-neutral data: geometry in the renderer's own units (CSS
px), `blocks` that say what to draw and where, the target's slot and each
distractor's (type, params, state, label, slot). A platform's renderer draws the
blocks (for the web `widgets/web/scene.js`) and mounts every control with its
type's own renderer in its slot. Everything comes from the episode's RNG, after
nothing else: the control scene's draws are untouched.

How a page is composed (`compose`): the chrome of the template takes the top
and, for some, the left; the content below is a page title with a line of text,
then two columns in a sampled order: the target's column (its section heading,
the target's slot, same-type siblings where the type's instructions always name
the label, then other distractors or a drawn filler) and the side column (the
template's signature image, then distractor sections). Every control is sampled
by its own type for the slot it gets (the sampler's `viewport`), so it fits its
slot whole; the renderer checks that it does.

A template's `chrome` says what frames the content: "appbar" (the web's app bar and
sidebar), "window" (a desktop main window: title bar, menu bar, toolbar, an optional
dock panel, status bar) or "dialog" (a desktop dialog over its main window: title,
category list, button row). A platform's `Metrics` say how big its renderer draws
each type (the Qt widgets are not the web's), so that every control fits its slot: each
type declares its own slots (`ComponentType.slots`), its label (`label`) and whether its
siblings may share its section (`siblings`); `Metrics.of` gathers them.

A phone's page (`mobile.compose`) is one column between a status bar, an app bar
and a bottom navigation bar; it shares the column filling below (`_fill_column`,
with the phone's `Metrics`) and tops a short page up with compact settings rows.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from finestate_env.components.base import STAGE_MARGIN, ComponentType, Sample, Slot, choose
from finestate_env.core.schema import Instructions, SceneControl, SceneSpec

SCENES = ("control", "page")
# What every env, `generate`, `curve` and `gallery` show unless told otherwise: the control
# in an app page; "control" (the control alone) stays for ablations, with its old pixels.
DEFAULT_SCENE = "page"
# The platforms whose pages exist (issue #16 builds them one platform at a time).
PAGE_PLATFORMS = ("web", "mobile", "desktop")

# Where the target's column must give it at least this much (a time picker's clock).
MAIN_MIN = (600, 520)
# The target's column for the types whose widest control (plus the margin) fits it
# (`Slot.narrow`): that wide, which leaves room for a second side column.
NARROW_WIDTH = 372
SIDE_MIN = 372
HEADING = 30  # a section heading's line above its controls
GAP = 16
MAX_DISTRACTORS = 15
MIN_DISTRACTORS = 3


def label_of(component: str, params: dict[str, Any]) -> str:
    """A control's name on the page, as its instructions give it (the type's `label`)."""
    return str(_components()[component].label(params))


def names_of(params: Any) -> set[str]:
    """Every text a control shows from its parameters (labels, titles, options)."""
    if isinstance(params, str):
        return set() if params.startswith("#") else {params}
    if isinstance(params, dict):
        return set().union(*(names_of(v) for v in params.values())) if params else set()
    if isinstance(params, list | tuple):
        return set().union(*(names_of(v) for v in params)) if params else set()
    return set()


@dataclass(frozen=True)
class PageTemplate:
    """One app page of a platform: its texts and what it is made of (data only).

    The chrome (`appbar`, `sidebar`) and the signature `hero` image are drawn by the
    platform's renderer from the blocks `compose` emits; `pool` lists the distractor
    types that make sense on such a page, `fillers` the drawn blocks for spare room.
    """

    name: str
    apps: tuple[str, ...]  # the app bar's product name
    nav: tuple[str, ...]  # the app bar's links
    titles: tuple[str, ...]  # the page title
    intros: tuple[str, ...]  # the line of body text under it
    sections: tuple[str, ...]  # section headings, drawn without repeats
    pool: tuple[str, ...]  # distractor types
    hero: str  # the signature image block's kind
    fillers: tuple[str, ...]  # drawn blocks for leftover room
    texts: dict[str, tuple[str, ...]]  # word pools the drawn blocks pick from
    sidebar: tuple[tuple[str, str], ...] = ()  # (icon, label); empty: no sidebar
    icon: str = "grid"  # the app bar's logo
    chrome: str = "appbar"  # "appbar" (web), "window" or "dialog" (desktop): the module says
    toolbar: tuple[str, ...] = ()  # a desktop window's toolbar icons ("|": a separator)
    status: tuple[str, ...] = ()  # a desktop window's status bar texts
    dock: str = ""  # a desktop window's dock title, a dialog's name ("Preferences")
    bottom_nav: tuple[tuple[str, str], ...] = ()  # (icon, label): a phone's bottom bar


def _templates() -> dict[str, dict[str, PageTemplate]]:
    from finestate_env.components.scenes import desktop, mobile, web

    return {platform: {t.name: t for t in module.TEMPLATES}
            for platform, module in (("web", web), ("mobile", mobile), ("desktop", desktop))}


def templates(platform: str) -> dict[str, PageTemplate]:
    """The page templates of `platform`, by name (ValueError where none exist yet)."""
    found = _templates().get(platform)
    if not found:
        raise ValueError(f"scene='page' is not built yet for platform {platform!r}; it "
                         f"exists for {list(PAGE_PLATFORMS)}; use scene='control' there")
    return found


def check_scene(scene: str, platform: str) -> None:
    """ValueError unless `scene` is a scene name that `platform` has."""
    if scene not in SCENES:
        raise ValueError(f"scene must be one of {list(SCENES)}, got {scene!r}")
    if scene == "page":
        templates(platform)


# The smallest CSS viewport a platform's page is laid out on (width, height).
PAGE_MIN_VIEWPORT = {"web": (1100, 700), "mobile": (360, 800), "desktop": (1100, 700)}


def page_viewport_problem(viewport: tuple[int, int], platform: str = "web") -> str | None:
    """Why a page of `platform` cannot be laid out on `viewport` (CSS px), or None."""
    least = PAGE_MIN_VIEWPORT[platform]
    if viewport[0] < least[0] or viewport[1] < least[1]:
        return (f"scene='page' lays out a {platform} app page on at least "
                f"{least[0]}x{least[1]} CSS px; the viewport is {viewport[0]}x{viewport[1]} "
                f"(scene='control' shows the control alone on any viewport)")
    return None


@dataclass(frozen=True)
class Metrics:
    """A platform's page measures (CSS px, or screen px on the desktop): how tall a slot
    each type gets, how wide a distractor's slot must be, how the columns are cut.
    `Metrics.of` reads the per-type ones from the types' `slots`."""

    heading: int  # a section heading's line above its controls
    gap: int  # between one section and the next
    heights: dict[str, int]  # a distractor type's slot height (the sampler's viewport)
    min_width: dict[str, int]  # the narrowest slot a distractor type fits
    target_heights: dict[str, int]  # the target's slot height
    narrow: tuple[str, ...]  # targets whose column is `narrow_width` wide
    narrow_width: int = NARROW_WIDTH
    main_width: int = MAIN_MIN[0]  # the other targets' column
    side_min: int = SIDE_MIN  # a side column's least width
    # What the sampler is told less than the slot, (width, height), for a type whose
    # renderer draws it larger than the sampler's own allowance (a Qt seek bar's labels).
    pad: dict[str, tuple[int, int]] = field(default_factory=dict)
    # Whether a section may eat the room kept for the distractors still owed when no
    # type leaves it (the web's wide columns find room elsewhere; a phone's does not).
    lenient: bool = True

    @classmethod
    def of(cls, platform: str, **layout: Any) -> Metrics:
        """The measures of `platform`'s pages: every type's slot there (its `slots`), and
        `layout`, the platform's own (`heading`, `gap`, the columns' widths ...)."""
        missing = [name for name, kind in _components().items() if platform not in kind.slots]
        if missing:
            raise ValueError(f"no {platform!r} slot in the `slots` of {missing} "
                             "(docs/adding-a-type.md)")
        slots: dict[str, Slot] = {name: kind.slots[platform]
                                  for name, kind in _components().items()}
        seated = {name: slot for name, slot in slots.items() if slot.distractor is not None}
        return cls(heights={name: slot.distractor for name, slot in seated.items()},
                   min_width={name: slot.min_width for name, slot in seated.items()},
                   target_heights={name: slot.target for name, slot in slots.items()},
                   narrow=tuple(name for name, slot in slots.items() if slot.narrow),
                   pad={name: slot.pad for name, slot in slots.items() if slot.pad != (0, 0)},
                   **layout)

    def reserve(self, owed: int, pool: list[str]) -> int:
        """The room to keep for `owed` more distractors: each a section of the smallest
        type of `pool`. (A phone packs them tighter: mobile.PHONE overrides it.)"""
        return owed * (self.heading + min(self.heights[c] for c in pool) + self.gap)

    def viewport(self, component: str, slot: tuple[int, int]) -> tuple[int, int]:
        """What the sampler of `component` is given for a slot of `slot`."""
        pad = self.pad.get(component, (0, 0))
        return slot[0] - pad[0], slot[1] - pad[1]


def _components() -> dict[str, ComponentType]:
    from finestate_env.components import COMPONENTS

    return COMPONENTS


WEB = Metrics.of("web", heading=HEADING, gap=GAP)
# Types whose every interact instruction names the control's label (`siblings`): only
# these may have siblings of their own type in the target's section (the label then tells
# them apart; for the others the section does, so their same-type distractors sit in
# other sections).
SIBLING_TYPES = tuple(name for name, kind in _components().items() if kind.siblings)


@dataclass
class _Layout:
    """What composing a page builds up: blocks drawn, controls placed."""

    blocks: list[dict[str, Any]]
    controls: list[SceneControl]
    labels: set[str]  # every control's label so far (the target's first)
    forbidden: str  # the target's label: no distractor shows it anywhere
    metrics: Metrics = WEB


def _sample_fitting(rng: np.random.Generator, component: str, slot: tuple[int, int],
                    layout: _Layout, touch: bool) -> Sample | None:
    """A sample of `component` for a slot of `slot` whose names keep the page unambiguous:
    its label new on the page, the target's label nowhere in it. None after 20 tries."""
    definition: ComponentType = _components()[component]
    for _ in range(20):
        try:
            sample = definition.sample(rng, layout.metrics.viewport(component, slot),
                                       touch=touch)
        except ValueError:  # a slot too small for this draw (tree_view's search gives up)
            return None
        label = label_of(component, sample.params)
        if label not in layout.labels and layout.forbidden not in names_of(sample.params):
            return sample
    return None


def _distractor(rng: np.random.Generator, component: str, rect: tuple[int, int, int, int],
                section: str, layout: _Layout, touch: bool) -> bool:
    """Sample and place one distractor of `component` in `rect`; False when none fits."""
    sample = _sample_fitting(rng, component, (rect[2], rect[3]), layout, touch)
    if sample is None:
        return False
    label = label_of(component, sample.params)
    layout.labels.add(label)
    layout.controls.append(SceneControl(component=component, label=label, section=section,
                                        params=sample.params, state=sample.current_state,
                                        rect=rect))
    return True


def _fill_column(rng: np.random.Generator, template: PageTemplate, x: int, y: int, width: int,
                 bottom: int, sections: list[str], layout: _Layout, touch: bool) -> int:
    """Distractor sections stacked in a column from y down to `bottom`; returns where
    they end. Each section is a heading and one or two controls of the template's pool."""
    metrics = layout.metrics
    pool = [c for c in template.pool if metrics.min_width[c] <= width]
    heights = metrics.heights
    while pool and sections and len(layout.controls) < MAX_DISTRACTORS:
        room = bottom - y - metrics.heading
        order = [pool[int(i)] for i in rng.permutation(len(pool))]
        # Short on distractors: only a type that leaves room for the rest of the three.
        owed = max(0, MIN_DISTRACTORS - len(layout.controls) - 1)
        keep = metrics.reserve(owed, pool)
        choice = next((c for c in order if heights[c] <= room - keep), None)
        if choice is None and metrics.lenient:
            choice = next((c for c in order if heights[c] <= room), None)
        if choice is None:
            break
        section = sections.pop(0)
        top = y + metrics.heading
        placed = 0
        # A second control of the same type under the same heading where it fits.
        for _ in range(1 + (_components()[choice].siblings and bool(rng.integers(2)))):
            h = heights[choice]
            if top + h > bottom or len(layout.controls) >= MAX_DISTRACTORS:
                break
            if _distractor(rng, choice, (x, top, width, h), section, layout, touch):
                top += h
                placed += 1
        if placed:
            layout.blocks.append({"kind": "heading", "rect": [x, y, width, metrics.heading],
                                  "text": section})
            y = top + metrics.gap
    return y


def compose(rng: np.random.Generator, template: PageTemplate, component: str,
            viewport: tuple[int, int], touch: bool = False,
            metrics: Metrics = WEB) -> tuple[Sample, SceneSpec]:
    """The target's sample and the page around it (the module docstring says how)."""
    problem = page_viewport_problem(viewport)
    if problem:
        raise ValueError(problem)
    width, height = viewport
    words = {key: list(pool) for key, pool in sorted(template.texts.items())}
    blocks: list[dict[str, Any]] = []
    (left, top, right, bottom), document = _chrome(rng, template, width, height, blocks)
    margin = 24
    x0, x1 = left + margin, right - margin
    blocks.append({"kind": "title", "rect": [x0, top + 14, x1 - x0, 30],
                   "text": document or choose(rng, template.titles)})
    blocks.append({"kind": "text", "rect": [x0, top + 46, x1 - x0, 20],
                   "text": choose(rng, template.intros)})
    y0 = top + 78
    # The columns: the target's, as wide as its type needs, and as many side columns
    # of at least `side_min` px as the rest holds; the target's column among them is drawn.
    main_w = metrics.narrow_width if component in metrics.narrow else metrics.main_width
    rest = x1 - x0 - main_w - margin
    count = max(1, (rest + margin) // (metrics.side_min + margin))
    side_w = (rest - (count - 1) * margin) // count
    widths = [side_w] * count
    place = int(rng.integers(count + 1))
    widths.insert(place, main_w)
    xs = [x0 + sum(widths[:i]) + i * margin for i in range(len(widths))]
    main_x = xs[place]
    sides = [(x, w) for i, (x, w) in enumerate(zip(xs, widths, strict=True)) if i != place]
    sections = [template.sections[int(i)] for i in rng.permutation(len(template.sections))]

    # The target: its section heading, then its slot, as tall as its type needs.
    section = sections.pop(0)
    slot_h = min(metrics.target_heights[component], bottom - y0 - metrics.heading)
    slot = (main_x, y0 + metrics.heading, main_w, slot_h)
    sample = _components()[component].sample(
        rng, metrics.viewport(component, (slot[2], slot[3])), touch=touch)
    label = label_of(component, sample.params)
    layout = _Layout(blocks=blocks, controls=[], labels={label}, forbidden=label,
                     metrics=metrics)
    blocks.append({"kind": "heading", "rect": [main_x, y0, main_w, metrics.heading],
                   "text": section})
    y = slot[1] + slot_h
    if _components()[component].siblings and component in metrics.heights:
        for _ in range(int(rng.integers(0, 3))):  # Volume, then Bass and Treble
            h = metrics.heights[component]
            if y + h > bottom or not _distractor(rng, component, (main_x, y, main_w, h),
                                                  section, layout, touch):
                break
            y += h
    y = _fill_column(rng, template, main_x, y + metrics.gap, main_w, bottom, sections, layout,
                     touch)
    _filler(rng, template, main_x, y, main_w, bottom, blocks)

    # The side columns: the template's signature image atop the first, then distractor
    # sections; without the image when that leaves the page fewer than three distractors.
    for hero_h in (int(rng.integers(150, 201)), 0):
        trial = _Layout(blocks=list(blocks), controls=list(layout.controls),
                        labels=set(layout.labels), forbidden=label, metrics=metrics)
        left_sections = list(sections)
        for i, (x, w) in enumerate(sides):
            y = y0
            if hero_h and i == 0:
                trial.blocks.append({"kind": template.hero, "rect": [x, y0, w, hero_h],
                                     "seed": int(rng.integers(1 << 30)), "words": words})
                y += hero_h + metrics.gap
            y = _fill_column(rng, template, x, y, w, bottom, left_sections, trial, touch)
            _filler(rng, template, x, y, w, bottom, trial.blocks)
        if len(trial.controls) >= MIN_DISTRACTORS:
            break
    layout, blocks = trial, trial.blocks
    if len(layout.controls) < MIN_DISTRACTORS:
        raise _NoRoom(f"page {template.name!r} found room for only "
                      f"{len(layout.controls)} distractors beside a {component}")
    return sample, SceneSpec(template=template.name, label=label, section=section,
                             rect=slot, blocks=blocks, distractors=layout.controls)


def _chrome(rng: np.random.Generator, template: PageTemplate, width: int, height: int,
            blocks: list[dict[str, Any]]) -> tuple[tuple[int, int, int, int], str | None]:
    """Draw the template's chrome into `blocks`; returns the content's frame
    (left, top, right, bottom) and the document a window shows (its page title)."""
    if template.chrome == "appbar":  # the web: an app bar, a sidebar for some
        top = 56
        blocks.append({"kind": "appbar", "rect": [0, 0, width, top],
                       "title": choose(rng, template.apps), "icon": template.icon,
                       "nav": list(template.nav),
                       "active": int(rng.integers(len(template.nav)))})
        left = 0
        if template.sidebar:
            left = 216
            blocks.append({"kind": "sidebar", "rect": [0, top, left, height - top],
                           "items": [list(item) for item in template.sidebar],
                           "active": int(rng.integers(len(template.sidebar)))})
        return (left, top, width, height - 12), None
    if template.chrome not in ("window", "dialog"):
        raise ValueError(f"template {template.name!r}: unknown chrome {template.chrome!r}")
    # A desktop main window: title bar, menu bar, toolbar on top, status bar below; the
    # window's document is the page's title, or for a dialog the document behind it.
    app = choose(rng, template.apps)
    document = choose(rng, template.texts.get("documents") or template.titles)
    status = [template.status[int(i)] for i in rng.choice(len(template.status), 2,
                                                               replace=False)]
    blocks.append({"kind": "titlebar", "rect": [0, 0, width, WINDOW_TOP[0]],
                   "title": f"{document} — {app}", "icon": template.icon})
    blocks.append({"kind": "menubar", "rect": [0, WINDOW_TOP[0], width, WINDOW_TOP[1]],
                   "items": list(template.nav)})
    blocks.append({"kind": "toolbar", "rect": [0, sum(WINDOW_TOP[:2]), width, WINDOW_TOP[2]],
                   "icons": list(template.toolbar)})
    top, bottom = sum(WINDOW_TOP), height - STATUS_BAR
    blocks.append({"kind": "statusbar", "rect": [0, bottom, width, STATUS_BAR],
                   "texts": status})
    side = [list(item) for item in template.sidebar]
    active = int(rng.integers(len(side))) if side else 0
    if template.chrome == "window":
        left = 0
        if side:
            left = DOCK_WIDTH
            blocks.append({"kind": "dock", "rect": [0, top, left, bottom - top],
                           "title": template.dock,
                           "items": side, "active": active})
        return (left, top, width, bottom - 8), document
    # A dialog over the window: its title bar, its category list, its button row.
    x, y = DIALOG_INSET
    w, h = width - 2 * x, bottom - 4 - y
    blocks.append({"kind": "dialog", "rect": [x, y, w, h], "title": f"{app} {template.dock}",
                   "items": side, "active": active, "buttons": ["Help", "Cancel", "Apply", "OK"]})
    frame = (x + DIALOG_LIST, y + WINDOW_TOP[0], x + w, y + h - DIALOG_BUTTONS)
    return frame, choose(rng, template.titles)


# The desktop chrome's measures: the title bar, menu bar and toolbar heights, the status
# bar, a window's dock panel, a dialog's inset in the window, its category list and its
# button row.
WINDOW_TOP = (28, 24, 34)
STATUS_BAR = 24
DOCK_WIDTH = 200
DIALOG_INSET = (24, 40)
DIALOG_LIST = 180
DIALOG_BUTTONS = 48


def _filler(rng: np.random.Generator, template: PageTemplate, x: int, y: int, width: int,
            bottom: int, blocks: list[dict[str, Any]]) -> None:
    """A drawn block in the room left at the foot of a column, when there is some."""
    if bottom - y >= 90:
        blocks.append({"kind": choose(rng, template.fillers), "rect": [x, y, width, bottom - y],
                       "seed": int(rng.integers(1 << 30)),
                       "words": {k: list(v) for k, v in sorted(template.texts.items())}})


def sample_page(rng: np.random.Generator, platform: str, component: str,
                viewport: tuple[int, int], touch: bool = False,
                template: str | None = None) -> tuple[Sample, SceneSpec]:
    """A page of `platform` with a `component` target: a template drawn from `rng`
    (or the one named), the target's sample and the page around it."""
    found = templates(platform)
    names = sorted(found)
    name = template if template is not None else names[int(rng.integers(len(names)))]
    if name not in found:
        raise ValueError(f"unknown {platform} page template {name!r}; available: {names}")
    layout = _composer(platform)
    for _ in range(ATTEMPTS - 1):  # a draw short of distractors is drawn again
        try:
            return layout(rng, found[name], component, viewport, touch)
        except _NoRoom:
            pass
    return layout(rng, found[name], component, viewport, touch)


def _composer(platform: str) -> Callable[..., tuple[Sample, SceneSpec]]:
    """How `platform` lays a page out: the web's and the desktop's columns (each with its
    renderer's measures: the Qt widgets are not the web's), or a phone's one column."""
    if platform == "mobile":
        from finestate_env.components.scenes import mobile

        return mobile.compose
    if platform == "desktop":
        from finestate_env.components.scenes import desktop

        return functools.partial(compose, metrics=desktop.METRICS)
    return compose


class _NoRoom(RuntimeError):
    """A page drawn with fewer than MIN_DISTRACTORS distractors."""


ATTEMPTS = 20


def page_instructions(rng: np.random.Generator, component: str, sample: Sample,
                      scene: SceneSpec) -> Instructions:
    """The type's own instructions, drawn until they name the target's label where the
    type's wordings can, then placed in the target's section: the section is unique on
    the page, and no distractor shows the target's label."""
    definition = _components()[component]
    for _ in range(12):
        drawn = definition.instructions(rng, sample)
        if scene.label in drawn.interact:
            break
    where = f"In the {scene.section} section, "
    return Instructions(locate=where + _lower_first(drawn.locate),
                        interact=where + _lower_first(drawn.interact))


def _lower_first(sentence: str) -> str:
    # Every wording starts with a verb (Set, Drag, Locate, Where ...), never with a name.
    return sentence[:1].lower() + sentence[1:]


__all__ = ["PAGE_PLATFORMS", "SCENES", "STAGE_MARGIN", "Metrics", "PageTemplate", "check_scene",
           "compose", "label_of", "names_of", "page_instructions", "sample_page", "templates"]
