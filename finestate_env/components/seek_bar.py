"""Seek bar: a media player's progress bar, operated by dragging the playhead.

The player card shows the clip's title (and a poster for videos), a play button,
the elapsed time "m:ss", the seek track with its played portion and playhead,
and the total duration. The state is the playback position in whole seconds, on
the bar's seek step: 1 s for short clips, 5 s for longer ones.

One action: press on the playhead at p0 (or anywhere on the track, which jumps
the playhead there), drag, release at p1. The position is set by p1's x alone,
rounded to the nearest seek step and clamped to [0, duration], so the goal
region is a vertical band of the track. The play button is a distractor: it
never changes the position. Steps are sampled so that every position owns at
least 5 px of track. On a phone the band a finger presses and the play button
are TOUCH_TARGET px tall.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import numpy as np
from pydantic import Field, model_validator

from finestate_env.components.base import (
    STAGE_MARGIN,
    ComponentType,
    Grab,
    Sample,
    Slot,
    choose,
    distinct_pair,
    grid_code,
    grid_distance,
    same_grid_point,
    sample_anchor,
    touch_size,
)
from finestate_env.components.measures import measure
from finestate_env.components.params import (
    MAX_PIXELS,
    MAX_STEPS,
    Anchor,
    Fraction,
    Int,
    Params,
    Pixels,
    Text,
)
from finestate_env.core.schema import Instructions

# (title, subtitle, noun): what is playing.
_MEDIA = (
    ("Lecture 4: Fourier series", "Signals and Systems", "video"),
    ("Sourdough in 10 steps", "Home Baking", "video"),
    ("Quarterly results call", "Investor Relations", "recording"),
    ("Night Drive", "Paper Moon", "track"),
    ("Golden Hour", "Slow Rain", "track"),
    ("Episode 12: Deep sea", "The Curious Hour", "episode"),
    ("Product demo", "Onboarding", "video"),
    ("Morning Tide", "Static Hearts", "track"),
    ("Interview with the author", "Book Club Weekly", "episode"),
    ("Trail run highlights", "Outdoor Diaries", "video"),
    ("Voice memo 7", "Recordings", "recording"),
    ("Chapter 3", "Audiobook: Walden", "chapter"),
)
_PX_PER_STEP = (5.0, 14.0)
_SHORT_STEPS = (15, 180)  # 1 s steps: clips of 0:15 to 3:00
_LONG_STEPS = (24, 180)   # 5 s steps: clips of 2:00 to 15:00
_CHROME = 2 * 16 + 2  # card padding and border, horizontally
_HEADS = (12, 14, 16)  # even, so the rail starts on a whole pixel
_TIME = 48  # the elapsed and total labels, fixed width
_BAND = measure("seek_bar", "band")  # the hit band's height with a mouse
_PLAY = measure("seek_bar", "play")  # the play button's size with a mouse
_INLINE_EXTRA = _PLAY + 8 + _TIME + 8 + 8 + _TIME  # play button, labels and gaps in one row
_STACKED_HEIGHT = 160  # what a stacked card needs besides its poster, and some spare


def clock(seconds: int) -> str:
    """m:ss, the way players write a position."""
    return f"{seconds // 60}:{seconds % 60:02d}"


class SeekBarParams(Params):
    title: Text
    subtitle: Text
    noun: Literal["video", "recording", "track", "episode", "chapter"]  # what is playing
    duration: Int  # the clip's length in seconds, a whole number of steps
    step: Int  # the seek step in seconds: 1 (short clips) or 5
    track: Pixels  # the rail's length
    head: Pixels  # the playhead's diameter
    layout: Literal["inline", "stacked"]  # the track in the play button's row, or above it
    # A video's poster height; 0 for no poster. Negative where a video's viewport left no
    # room for one (a phone page's seek_bar distractor draws -26): no height, no poster.
    poster: Annotated[int, Field(strict=True, ge=-MAX_PIXELS, le=MAX_PIXELS)]
    buffered: Fraction  # the buffered share of the rail
    anchor: Anchor
    hit: Pixels | None = None  # on a phone: the height of the band a finger presses
    play: Pixels | None = None  # on a phone: the play button's size

    @model_validator(mode="after")
    def _a_grid(self) -> SeekBarParams:
        if self.step not in (1, 5):
            raise ValueError(f"step must be 1 or 5 (seconds), got {self.step}")
        steps, rest = divmod(self.duration, self.step)
        if rest or not 1 <= steps <= MAX_STEPS:
            raise ValueError(f"duration must be 1 to {MAX_STEPS} whole steps, got "
                             f"{self.duration} / {self.step}")
        return self


class SeekBar(ComponentType):
    name = "seek_bar"
    params_model = SeekBarParams
    family = "numeric_range"
    gesture = "drag"
    touch_goal = "band"
    aliases = ("Seek slider", "Progress slider")
    grab = Grab("core", "the seek track or playhead")
    # Qt keeps the labels, the play button and the track on one row: a 640 px
    # wide desktop slot, sampled for 128 px less than it.
    slots = {
        "web": Slot(target=350, distractor=240, min_width=360),
        "mobile": Slot(target=292, distractor=194, min_width=360),
        "desktop": Slot(target=250, distractor=240, min_width=640, pad=(128, 0)),
    }

    def label(self, params: dict[str, Any]) -> str:
        """The card's title."""
        return params["title"]

    def sample(self, rng: np.random.Generator, viewport: tuple[int, int],
               touch: bool = False) -> Sample:
        title, subtitle, noun = choose(rng, _MEDIA)
        head = choose(rng, _HEADS)
        room = viewport[0] - 2 * STAGE_MARGIN - _CHROME - head
        inline_room = min(900, room - _INLINE_EXTRA)
        inline = inline_room >= 240 and bool(rng.integers(2))
        band, play = touch_size(_BAND, touch), touch_size(_PLAY, touch)
        # A finger's play button takes its growth from an inline row's track.
        max_track = inline_room - (play - _PLAY) if inline else min(900, room)
        max_steps = max_track // 5
        short = bool(rng.integers(2)) and max_steps >= _SHORT_STEPS[0]
        bounds = _SHORT_STEPS if short else _LONG_STEPS
        steps = int(rng.integers(bounds[0], min(bounds[1], max_steps) + 1))
        step = 1 if short else 5
        px_per_step = float(rng.uniform(*_PX_PER_STEP))
        track = int(min(max_track, max(min(240, max_track), steps * px_per_step)))
        current_k, goal_k = distinct_pair(rng, 0, steps + 1)  # any position but the current one
        video = noun == "video"
        # A poster for videos; it must leave room for the bar on small viewports.
        height = _STACKED_HEIGHT + (band - _BAND) + (play - _PLAY)
        poster = int(min(rng.integers(120, 200), viewport[1] - 2 * STAGE_MARGIN - height))
        params = {
            "title": title, "subtitle": subtitle, "noun": noun, "duration": steps * step,
            "step": step, "track": track, "head": head, "layout": "inline" if inline else
            "stacked", "poster": poster if video else 0,
            "buffered": round(float(rng.uniform(0.3, 1.0)), 3), "anchor": sample_anchor(rng),
        }
        if touch:
            params.update(hit=band, play=play)
        return Sample(params, current_k * step, goal_k * step)

    def resample_states(self, rng: np.random.Generator, sample: Sample) -> Sample:
        step = sample.params["step"]
        current_k, goal_k = distinct_pair(rng, 0, sample.params["duration"] // step + 1)
        return Sample(sample.params, current_k * step, goal_k * step)

    def states_equal(self, a: Any, b: Any, params: dict[str, Any]) -> bool:
        steps = params["duration"] // params["step"]
        return same_grid_point(a, b, 0, params["step"], steps)

    def code(self, state: Any, params: dict[str, Any]) -> list[float]:
        """Goal vector: [k / n], the position's step over the last step of the duration."""
        return grid_code(state, 0, params["step"], params["duration"] // params["step"])

    def distance(self, state: Any, goal: Any, params: dict[str, Any]) -> float:
        """|steps between the two positions| / steps of the whole duration."""
        steps = params["duration"] // params["step"]
        return grid_distance(state, goal, 0, params["step"], steps)

    def instructions(self, rng: np.random.Generator, sample: Sample) -> Instructions:
        title, noun = sample.params["title"], sample.params["noun"]
        goal = self.describe(sample.goal_state, sample.params)
        locate = choose(rng, (f"Locate the seek bar of the {noun}.",
                              f"Find the playback progress bar for '{title}'.",
                              f"Where is the timeline of the {noun} player?"))
        interact = choose(rng, (
            f"Seek to {goal}.",
            f"Jump to {goal} in the {noun}.",
            f"Move the playhead to {goal}.",
            f"Skip to {goal} of '{title}'.",
            f"Set the playback position to {goal}.",
        ))
        return Instructions(locate=locate, interact=interact)

    def describe(self, state: Any, params: dict[str, Any]) -> str:
        return clock(int(state))
