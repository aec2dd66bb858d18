"""The env's spaces (docs/design.md §4b), built in one place.

The defaults are the FineState protocol's: a Dict of the screenshot and the instruction
text, and a Dict of the two points. The learner options give what RL libraries take, each
through a wrapper that declares its space from here (env/make.py applies them):

- `obs_type="image"`: one Box, the screenshot with the instruction drawn in a strip
  above it (as MiniWoB++ shows its utterance), for CNN policies (SB3 CnnPolicy, RLlib,
  TorchRL);
- `obs_type="screenshot"`: one Box, the screenshot alone, for policies told their goal
  otherwise (`goal_obs`: a goal vector that HER may relabel, which a drawn instruction
  would contradict);
- `obs_type="dict_bytes"`: a Dict of Boxes, the screenshot and the instruction as a
  fixed-length array of UTF-8 bytes (zero-padded), for SB3's MultiInputPolicy;
- `obs_size` resizes the image, `obs_dtype="float32"` scales it to [0, 1]
  (`RLObservation`, env/observation.py);
- `action_type="flat"`: one Box(4) in [-1, 1], (p0x, p0y, p1x, p1y) over the screen
  (`FlatAction`, env/wrappers.py).
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from copy import deepcopy
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import batch_space, read_from_shared_memory

from finestate_env.core.schema import CoordConvention

ObsType = Literal["dict", "image", "screenshot", "dict_bytes"]
OBS_TYPES: tuple[ObsType, ...] = ("dict", "image", "screenshot", "dict_bytes")
ActionType = Literal["dict", "flat"]
ACTION_TYPES: tuple[ActionType, ...] = ("dict", "flat")
ObsDtype = Literal["uint8", "float32"]
OBS_DTYPES: tuple[ObsDtype, ...] = ("uint8", "float32")

# Every character an instruction may contain: printable ASCII plus the few
# typographic and accented characters the templates and labels use. Sorted, so that
# the Text space's character order (and with it any encoding of an instruction, as in
# a vector env's shared memory) is the same in every process; a frozenset's order
# changes with each interpreter's string hashing.
INSTRUCTION_CHARSET = "".join(sorted(set(string.printable) | set("°·–—‘’“”×éèêàâçöüäñ")))
INSTRUCTION_MAX_LENGTH = 512  # characters in the Text space; UTF-8 bytes in dict_bytes


class InstructionText(spaces.Text):
    """The instruction's Text space, readable through an async vector env's shared memory.

    Gymnasium's AsyncVectorEnv reads its shared memory once, when it is made: a Box comes
    back as an array view that the workers then write into, but a Text comes back as
    strings decoded from the still-empty buffer, so every observation would show those
    (INSTRUCTION_MAX_LENGTH copies of the charset's first character). This subclass reads
    the buffer when the observation is used (`_SharedTexts`). Nothing else differs.
    """


class _SharedTexts(Sequence):
    """The instructions of every env of an async vector env, decoded from shared memory
    when read. `copy=True` (the vector env's default) deep-copies observations, which
    gives a plain tuple of the current strings."""

    def __init__(self, space: spaces.Text, buffer: Any, n: int) -> None:
        self._space, self._n = space, n
        self._data = np.frombuffer(buffer.get_obj(), dtype=np.int32).reshape(
            (n, space.max_length))

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, index):
        if isinstance(index, slice):
            return tuple(self)[index]
        codes = self._data[range(self._n)[index]]
        chars = self._space.character_list
        return "".join(chars[code] for code in codes if code < len(chars))

    def __deepcopy__(self, memo: dict) -> tuple[str, ...]:
        return tuple(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __repr__(self) -> str:
        return repr(tuple(self))


@read_from_shared_memory.register(InstructionText)
def _read_instruction_text(space: InstructionText, shared_memory: Any,
                           n: int = 1) -> _SharedTexts:
    return _SharedTexts(space, shared_memory, n)


def instruction_text() -> InstructionText:
    return InstructionText(max_length=INSTRUCTION_MAX_LENGTH, min_length=1,
                           charset=INSTRUCTION_CHARSET)


class ImageBox(spaces.Box):
    """A Box of images with one lower and one upper bound for every pixel.

    Gymnasium's Box keeps four arrays of the whole image (low, high and whether each
    is bounded): 11 MiB for one 1280x720 screenshot, in every env, and again N times
    over in a vector env's batched space. Here each is a read-only broadcast view of
    one value, which costs nothing; everything else is the Box's own (it compares
    equal to `Box(low, high, shape, dtype)`, and libraries that check
    `isinstance(space, Box)` take it).
    """

    _BOUNDS = ("low", "high", "bounded_below", "bounded_above")

    def __init__(self, low: float, high: float, shape: Sequence[int], dtype: Any,
                 seed: Any = None) -> None:
        super().__init__(low, high, shape=(1,), dtype=dtype, seed=seed)
        self._shape = tuple(int(n) for n in shape)
        self._broadcast_bounds()

    def _broadcast_bounds(self) -> None:
        for name in self._BOUNDS:
            one = np.asarray(getattr(self, name)).reshape(-1)[:1].reshape(())
            setattr(self, name, np.broadcast_to(one, self._shape))

    def __getstate__(self) -> dict:
        # One value per bound in a pickle (vector env workers, Ray), not the whole image.
        state = dict(self.__dict__)
        for name in self._BOUNDS:
            state[name] = np.array(state[name].reshape(-1)[:1])
        return state

    def __setstate__(self, state: Any) -> None:
        super().__setstate__(state)
        self._broadcast_bounds()


@batch_space.register(ImageBox)
def _batch_image_box(space: ImageBox, n: int = 1) -> ImageBox:
    return ImageBox(space.low.flat[0], space.high.flat[0], (n, *space.shape), space.dtype,
                    seed=deepcopy(space.np_random))


def image_space(shape: tuple[int, int, int], dtype: ObsDtype) -> spaces.Box:
    if dtype == "uint8":
        return ImageBox(0, 255, shape, np.uint8)
    return ImageBox(0.0, 1.0, shape, np.float32)


def observation_space(image_shape: tuple[int, int, int], obs_type: ObsType = "dict",
                      dtype: ObsDtype = "uint8") -> spaces.Space:
    """The observation space for an image of `image_shape` (height, width, 3)."""
    image = image_space(image_shape, dtype)
    if obs_type == "dict":
        return spaces.Dict({"screenshot": image, "instruction": instruction_text()})
    if obs_type == "dict_bytes":
        return spaces.Dict({"screenshot": image, "instruction": spaces.Box(
            0, 255, shape=(INSTRUCTION_MAX_LENGTH,), dtype=np.uint8)})
    if obs_type in ("image", "screenshot"):
        return image
    raise ValueError(f"obs_type must be one of {list(OBS_TYPES)}, got {obs_type!r}")


def action_space(viewport: tuple[int, int], coord_mode: CoordConvention = "pixel",
                 action_type: ActionType = "dict") -> spaces.Space:
    """p0 and p1 as (x, y): pixels in [0, width] x [0, height], or [0, 1] when normalized;
    or one Box(4) in [-1, 1] when flat. Every point the space contains is performable:
    its upper edge (x = width) is the last pixel column (core/actions.py)."""
    if action_type == "flat":
        return spaces.Box(-1.0, 1.0, shape=(4,), dtype=np.float32)
    if action_type != "dict":
        raise ValueError(f"action_type must be one of {list(ACTION_TYPES)}, got {action_type!r}")
    if coord_mode == "pixel":
        high = np.array(viewport, dtype=np.float32)
    elif coord_mode == "normalized":
        high = np.ones(2, dtype=np.float32)
    else:
        raise ValueError(f"coord_mode must be 'pixel' or 'normalized', got {coord_mode!r}")
    point = spaces.Box(low=np.zeros(2, dtype=np.float32), high=high, dtype=np.float32)
    return spaces.Dict({"p0": point, "p1": point})


def parse_size(size: tuple[int, int] | str, smallest: int,
               name: str = "obs_size") -> tuple[int, int]:
    """(width, height) from a pair or "WxH", each side in smallest..4096 pixels."""
    if isinstance(size, str):
        try:
            width, height = (int(v) for v in size.lower().split("x"))
        except ValueError:
            raise ValueError(f"{name} {size!r} is not 'WIDTHxHEIGHT'") from None
    else:
        width, height = (int(v) for v in size)
    if not (smallest <= width <= 4096 and smallest <= height <= 4096):
        raise ValueError(f"{name} {width}x{height} is outside {smallest}..4096 pixels per side")
    return width, height
