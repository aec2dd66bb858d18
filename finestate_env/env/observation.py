"""The learner's observation (`RLObservation`): obs_type, obs_size and obs_dtype.

The env's own observation is the screenshot as captured and the instruction as text.
These options change only what the agent is handed, never the page: the control, its
boxes, the actions' frame and `render()` stay the screenshot's. `gym.make(id, obs_type=...,
obs_size=..., obs_dtype=...)` wraps the env in `RLObservation` (env/make.py).

- `obs_type="image"` draws the instruction into a strip above the screenshot, black
  on white, in DejaVu Sans (Debian's fonts-dejavu-core, which make installs), so that
  a policy that sees only pixels still sees its goal. The strip is sized to the
  screenshot's width (three lines at width / 40 px) and holds the whole instruction at
  every default screen size; an instruction too long for it ends in "...".
- `obs_type="screenshot"` is the screenshot alone.
- `obs_size` resizes the whole image (strip included) with bilinear filtering.
- `obs_dtype="float32"` divides by 255.
- `obs_type="dict_bytes"` gives the instruction as its UTF-8 bytes, zero-padded.

Capturing is the env's: an obs_size of at most a quarter of the screen's per side gives
`capture_scale`, which `RLObservation` passes to each reset (`options["capture_scale"]`),
and at which the env then asks the backend for a lone control's screen (the web's
`screenshot_scaled`: drawn at OVERSAMPLE times the observation's scale, not at full
size): cheaper, a little other pixels (within a grey level on average), as deterministic.
The observation takes a screenshot of either size. The env used alone captures every
screen whole, as its space says.

Every step is deterministic: the same screenshot and instruction give the same array.
"""

from __future__ import annotations

import functools
import textwrap
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from finestate_env.env.spaces import (
    INSTRUCTION_MAX_LENGTH,
    OBS_DTYPES,
    OBS_TYPES,
    ObsDtype,
    ObsType,
    observation_space,
    parse_size,
)
from finestate_env.env.wrappers import MakeOption

FONT_PATH = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
STRIP_LINES = 3
# A scaled capture (capture_scale) keeps this many screen pixels per observation pixel,
# per side, so that the bilinear resize still averages them as it does a full screenshot.
OVERSAMPLE = 2


class RLObservation(MakeOption, gym.ObservationWrapper):
    """`obs_type`, `obs_size` and `obs_dtype` (the module docstring): the env's
    `Dict(screenshot, instruction)` as the observation an RL library takes.

    `obs_type`: "dict" (the env's own), "image" (one Box, the instruction drawn in a strip
    above the screenshot), "screenshot" (one Box, the screenshot alone) or "dict_bytes"
    (the instruction as a Box of UTF-8 bytes beside the screenshot); `obs_size`:
    (width, height) or "WxH", 8..4096 px a side, the image resized (strip included);
    `obs_dtype`: "uint8" or "float32" (the image in [0, 1]).
    """

    def __init__(self, env: gym.Env, obs_type: ObsType = "dict",
                 obs_size: tuple[int, int] | str | None = None,
                 obs_dtype: ObsDtype = "uint8") -> None:
        super().__init__(env)
        self.obs_type, self.obs_size, self.obs_dtype = obs_type, obs_size, obs_dtype
        self.maker = ObservationMaker(env.unwrapped.viewport, obs_type,
                                      check_options(obs_type, obs_size, obs_dtype), obs_dtype)
        self.observation_space = self.maker.space
        self._built: Any = None  # the last observation built, and the env's capture it shows
        self._built_from = -1
        # In the spec: the options given, as gym.make takes them (MakeOption).
        self.make_options = {key: value for key, value, default in (
            ("obs_type", obs_type, "dict"), ("obs_size", obs_size, None),
            ("obs_dtype", obs_dtype, "uint8")) if value != default}

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if self.maker.capture_scale is not None:  # the episode's captures, at its scale
            options = {**(options or {}), "capture_scale": self.maker.capture_scale}
        return super().reset(seed=seed, options=options)

    def observation(self, observation: dict[str, Any]) -> Any:
        capture = self.env.unwrapped.captures
        if capture == self._built_from:  # the last capture again (terminal_obs="skip", a
            return _copy(self._built)  # malformed action): its observation, a copy of its own
        self._built = self.maker(observation["screenshot"], observation["instruction"])
        self._built_from = capture
        return self._built


def _copy(observation: Any) -> Any:
    if isinstance(observation, dict):
        return {key: _copy(value) for key, value in observation.items()}
    return observation.copy() if isinstance(observation, np.ndarray) else observation


def check_options(obs_type: ObsType, obs_size: tuple[int, int] | str | None,
                  obs_dtype: ObsDtype) -> tuple[int, int] | None:
    """The options checked (a message naming the one that is wrong), obs_size as
    (width, height)."""
    if obs_type not in OBS_TYPES:
        raise ValueError(f"obs_type must be one of {list(OBS_TYPES)}, got {obs_type!r}")
    if obs_dtype not in OBS_DTYPES:
        raise ValueError(f"obs_dtype must be one of {list(OBS_DTYPES)}, got {obs_dtype!r}")
    return None if obs_size is None else parse_size(obs_size, 8)


class ObservationMaker:
    """Builds observations of one kind for screenshots of one size (width, height)."""

    def __init__(self, viewport: tuple[int, int], obs_type: ObsType = "dict",
                 obs_size: tuple[int, int] | None = None, obs_dtype: ObsDtype = "uint8"):
        width, height = viewport
        self.obs_type, self.obs_size, self.obs_dtype = obs_type, obs_size, obs_dtype
        self.font_px = max(12, round(width / 40))
        self.strip_height = (STRIP_LINES * round(self.font_px * 1.25) + self.font_px
                             if obs_type == "image" else 0)
        shown = obs_size or (width, height + self.strip_height)
        self.space = observation_space((shown[1], shown[0], 3), obs_type, obs_dtype)
        self.width = width
        # The fraction of the screen's size a screenshot needs for this observation, or None
        # for the full size (reset's capture_scale); it takes a screenshot of either size.
        self.capture_scale: float | None = None
        if obs_size is not None:
            scale = OVERSAMPLE * max(obs_size[0] / width,
                                     obs_size[1] / (height + self.strip_height))
            self.capture_scale = scale if scale <= 0.5 else None

    def __call__(self, screenshot: np.ndarray, instruction: str):
        if self.obs_type == "image":
            strip = self._strip(instruction, self.width)
            if screenshot.shape[1] != self.width:  # a scaled capture: the strip scaled too
                strip = _scaled(strip, screenshot.shape[1])
            return self._image(np.concatenate([strip, screenshot]))
        image = self._image(screenshot)
        if self.obs_type == "screenshot":
            return image
        if self.obs_type == "dict_bytes":
            return {"screenshot": image, "instruction": instruction_bytes(instruction)}
        return {"screenshot": image, "instruction": instruction}

    def _image(self, pixels: np.ndarray) -> np.ndarray:
        if self.obs_size is not None and (pixels.shape[1], pixels.shape[0]) != self.obs_size:
            pixels = np.asarray(Image.fromarray(pixels).resize(
                self.obs_size, Image.Resampling.BILINEAR))
        if self.obs_dtype == "float32":
            return pixels.astype(np.float32) / np.float32(255.0)
        return pixels

    def _strip(self, instruction: str, width: int) -> np.ndarray:
        return _draw_strip(instruction, width, self.strip_height, self.font_px)


def wrap_instruction(instruction: str, width: int, font_px: int) -> list[str]:
    """The instruction's lines in a strip `width` px wide, before any shortening."""
    font = _font(font_px)
    room = width - 2 * (font_px // 2)
    lines: list[str] = []
    for word in instruction.split():
        # Measured, not counted: glyph widths vary.
        if lines and font.getlength(f"{lines[-1]} {word}") <= room:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


@functools.lru_cache(maxsize=256)
def _draw_strip(instruction: str, width: int, height: int, font_px: int) -> np.ndarray:
    font = _font(font_px)
    margin = font_px // 2
    lines = wrap_instruction(instruction, width, font_px)
    if len(lines) > STRIP_LINES:
        lines = lines[:STRIP_LINES - 1] + [textwrap.shorten(
            " ".join(lines[STRIP_LINES - 1:]), width=len(lines[STRIP_LINES - 1]),
            placeholder="...")]
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        draw.text((margin, margin + row * round(font_px * 1.25)), line, fill="black",
                  font=font)
    strip = np.asarray(image)
    strip.setflags(write=False)  # cached: shared by every observation with this text
    return strip


def _scaled(strip: np.ndarray, width: int) -> np.ndarray:
    """The strip resized to `width` px wide, its height in proportion."""
    height = max(1, round(strip.shape[0] * width / strip.shape[1]))
    return np.asarray(Image.fromarray(strip).resize((width, height),
                                                    Image.Resampling.BILINEAR))


@functools.lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont:
    if FONT_PATH.is_file():
        return ImageFont.truetype(str(FONT_PATH), size)
    return ImageFont.load_default(size)  # Pillow's own font, when DejaVu is not installed


def instruction_bytes(instruction: str) -> np.ndarray:
    """The instruction as UTF-8 bytes, zero-padded to INSTRUCTION_MAX_LENGTH (a byte Box);
    `bytes(array).rstrip(b"\\0").decode()` gives it back."""
    encoded = instruction.encode("utf-8")[:INSTRUCTION_MAX_LENGTH]
    array = np.zeros(INSTRUCTION_MAX_LENGTH, dtype=np.uint8)
    array[:len(encoded)] = np.frombuffer(encoded, dtype=np.uint8)
    return array
