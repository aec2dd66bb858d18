"""Carousel: a card with an image carousel, its arrows and a row of dot indicators.

One action: click the goal slide's dot. The dots are small square hit targets
(8-14 px) with gaps between them in which a click does nothing; a click on a
dot shows that slide at once, so any slide is one action away. The goal is
never the current slide nor its neighbour: the prev/next arrows work too (one
slide back or forth, stopping at the ends), so a neighbour would be reachable
outside the goal box, which is the goal's dot alone. The state is the shown slide's index,
0-based (instructions count from 1 or name the slide's title). On a phone each dot
sits in a TOUCH_TARGET square that takes its taps, the squares edge to edge, and a
deck has only as many slides as the card's width holds squares.

No goal further away with episodes of several gestures: every slide's dot is shown,
so every slide is one click away. (A deck that shows a window of its dots, as some
carousels do, would put slides beyond the visible dots: not drawn yet.)
"""

from __future__ import annotations

from typing import Annotated, Any

import numpy as np
from pydantic import Field, model_validator

from finestate_env.components.base import (
    STAGE_MARGIN,
    TOUCH_TARGET,
    ComponentType,
    Sample,
    Slot,
    choose,
    grid_distance,
    sample_anchor,
    size_within,
)
from finestate_env.components.params import (
    Anchor,
    Fraction,
    Int,
    Params,
    Pixels,
    Text,
    list_of,
)
from finestate_env.core.schema import Instructions

# (card title, noun, slides as (title, caption)).
_DECKS = (
    ("Featured destinations", "destination", (
        ("Harbour at dusk", "Fishing boats come home as the lights go on."),
        ("Alpine lake", "Still water under the first snow of autumn."),
        ("Desert road", "Two hundred kilometres without a single bend."),
        ("Old town square", "Market stalls open at seven every morning."),
        ("Rice terraces", "Green steps carved into the hillside."),
        ("Northern lights", "A clear night far above the Arctic Circle."),
        ("Coastal cliffs", "A walking trail along the edge of the sea."),
        ("Lavender fields", "In full bloom from late June to August."),
        ("Forest trail", "Eight kilometres of shade and birdsong."),
        ("City skyline", "The view from the fortieth floor."),
        ("Island ferry", "Forty minutes across a calm bay."),
        ("Snowy village", "Wooden chalets and one small bakery."))),
    ("New arrivals", "product", (
        ("Trail runner 2", "Light shoes with a grippy sole."),
        ("Canvas tote", "Roomy, washable and built to last."),
        ("Wool beanie", "Soft merino in six colours."),
        ("Rain shell", "Packs into its own pocket."),
        ("Desk lamp", "Warm light with three brightness steps."),
        ("Ceramic mug", "Hand glazed, holds 350 ml."),
        ("Travel pillow", "Memory foam for long flights."),
        ("Steel bottle", "Keeps drinks cold for a day."),
        ("Linen shirt", "Breathable fabric for hot days."),
        ("Day pack", "Twenty litres with a laptop sleeve."))),
    ("This week's recipes", "recipe", (
        ("Lemon pasta", "Ready in twenty minutes."),
        ("Tomato soup", "With basil and crunchy croutons."),
        ("Green curry", "Coconut milk, lime and fresh herbs."),
        ("Mushroom risotto", "Slow stirred and creamy."),
        ("Fish tacos", "Crisp slaw and a squeeze of lime."),
        ("Lentil stew", "Hearty, cheap and freezer friendly."),
        ("Berry tart", "Buttery crust, summer fruit."),
        ("Banana bread", "Moist loaf with walnuts."),
        ("Veggie burger", "Black beans and smoked paprika."),
        ("Pancake stack", "Fluffy, with maple syrup."))),
    ("Getting started", "tip", (
        ("Create a project", "Give it a name and invite your team."),
        ("Add your first task", "Tasks can have due dates and owners."),
        ("Set up a board", "Drag cards between columns."),
        ("Connect your calendar", "See deadlines next to meetings."),
        ("Turn on reminders", "Never miss a due date again."),
        ("Share a view", "Send a read-only link to anyone."),
        ("Use shortcuts", "Press the question mark to see them all."),
        ("Track time", "Start a timer on any task."),
        ("Export a report", "CSV or PDF, your choice."))),
)
_COUNT = (4, 10)
_DOT = (8, 14)
_GAP = (6, 12)
_WIDTH = (260, 400)
_HEIGHT = (140, 200)
# Card chrome (see carousel.css): borders 2, padding 2 x 12 (vertical) and
# 2 x 16 (horizontal), title 20 + 8, dots row margin 12 + dot.
_CHROME_W = 34
_CHROME_H = 2 + 24 + 28 + 12


def _far_pair(rng: np.random.Generator, count: int) -> tuple[int, int]:
    """(current, goal) slides: the goal neither the current slide nor a neighbour (an arrow
    would reach those too, and only the dot is the goal box)."""
    current = int(rng.integers(count))
    return current, int(choose(rng, [i for i in range(count) if abs(i - current) >= 2]))


class Slide(Params):
    """One slide: its title and caption, and its picture's parts."""

    title: Text
    caption: Text
    tint: Annotated[Int, Field(ge=0, le=70)]  # the hills' accent share, in % less 30
    sun: Fraction  # the sun's place across the picture
    hill: Fraction  # the first hill's place across the picture


class CarouselParams(Params):
    title: Text  # the card's title
    noun: Text  # what a slide shows ("destination"), for instructions
    slides: list_of(Slide, 1, max(len(deck[2]) for deck in _DECKS))
    dot: Pixels  # a dot's size
    gap: Pixels  # between two dots (0 on a phone)
    width: Pixels  # the picture's size
    height: Pixels
    anchor: Anchor
    hit: Pixels | None = None  # on a phone: the square around each dot that takes its taps

    @model_validator(mode="after")
    def _slides_and_dots(self) -> CarouselParams:
        titles = [slide.title for slide in self.slides]
        if len(set(titles)) != len(titles):
            raise ValueError(f"the slides' titles must be distinct, got {titles}")
        if self.hit is not None and self.hit < self.dot:
            raise ValueError(f"hit (a dot's tap square) must be at least dot ({self.dot} px), "
                             f"got {self.hit}")
        return self


class Carousel(ComponentType):
    name = "carousel"
    params_model = CarouselParams
    family = "view_manipulation"
    gesture = "tap"
    aliases = ()
    # Qt's dots row is taller than the web's: sampled for 12 px less.
    slots = {
        "web": Slot(target=290, distractor=290, min_width=360),
        "mobile": Slot(target=318, distractor=200, min_width=360),
        "desktop": Slot(target=290, distractor=290, min_width=360, pad=(0, 12)),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The card's title."""
        return params["title"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        title, noun, pool = choose(rng, _DECKS)
        count = min(int(rng.integers(_COUNT[0], _COUNT[1] + 1)), len(pool))
        chosen = rng.choice(len(pool), size=count, replace=False)
        slides = []
        for i in chosen:
            name, caption = pool[int(i)]
            # The picture: a sun, a hill and a tint, all drawn from the theme's colours.
            slides.append({
                "title": name, "caption": caption,
                "tint": int(rng.integers(18, 46)), "sun": round(float(rng.uniform(0.15, 0.85)), 3),
                "hill": round(float(rng.uniform(0.0, 0.6)), 3),
            })
        dot = int(rng.integers(_DOT[0], _DOT[1] + 1))
        gap = int(rng.integers(_GAP[0], _GAP[1] + 1))
        width = size_within(rng, _WIDTH, viewport[0] - 2 * STAGE_MARGIN - _CHROME_W)
        # A phone's dots row is a row of finger-sized squares (below), not the dot's size.
        dots_row = max(dot, TOUCH_TARGET) if touch else dot
        height = size_within(rng, _HEIGHT, viewport[1] - 2 * STAGE_MARGIN - _CHROME_H - dots_row)
        if touch:
            # Each dot sits in a TOUCH_TARGET square, the squares edge to edge (a
            # gap would only be a strip a tap is moved out of), as many as the
            # card's width holds; the dot keeps its drawn size inside.
            count = min(count, width // TOUCH_TARGET)
            slides, gap = slides[:count], 0
        current, goal = _far_pair(rng, count)
        params = {
            "title": title, "noun": noun, "slides": slides, "dot": dot, "gap": gap,
            "width": width, "height": height, "anchor": sample_anchor(rng),
        }
        if touch:
            params["hit"] = TOUCH_TARGET
        return Sample(params, current, goal)

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        current, goal = _far_pair(rng, len(sample.params["slides"]))
        return Sample(sample.params, current, goal)

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        count = len(params["slides"])
        return (all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < count
                    for v in (a, b)) and a == b)

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [i / (n - 1)], the slide shown among the n slides."""
        count = len(params["slides"])
        return [state / (count - 1) if count > 1 else 0.0]

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """|slides between the two| / (slides - 1)."""
        return grid_distance(state, goal, 0, 1, len(params["slides"]) - 1)

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        title, noun = sample.params["title"], sample.params["noun"]
        count = len(sample.params["slides"])
        goal = sample.goal_state
        name = sample.params["slides"][goal]["title"]
        locate = choose(rng, (f"Locate the {title} carousel.",
                              f"Find the {title} slideshow.",
                              f"Where is the carousel of {title}?"))
        interact = choose(rng, (
            f"Show slide {goal + 1}.",
            f"Go to the '{name}' slide.",
            f"Open slide {goal + 1} of {count} in the {title} carousel.",
            f"Switch the carousel to the {noun} '{name}'.",
            f"Jump straight to slide {goal + 1} using the dots.",
        ))
        return Instructions(locate=locate, interact=interact)

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        return f"slide {state + 1}: {params['slides'][state]['title']}"
