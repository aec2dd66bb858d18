"""What a VLM is asked, in the coordinates it answers in: model profiles and the prompt.

- Coordinates: a model profile says which convention the model answers in
  (pixels, [0, 1] or 0-1000); the prompt asks for it and the answer is read in it
  (by `finestate_env.agents.vlm_agent`).
- The message is one user turn, the screenshot as a PNG data URL then the text:
  the same pixels give the same bytes, hence the same cache key
  (`finestate_env.agents.vlm_client`), whether they come from a file or from
  the live env.

Kept apart from the client and the agent so that the question can be read, and
tested, without an endpoint.

Multi-turn sessions (finestate_env.sessions) ask in turns: the first states the task,
the gesture, the convention, the turn budget and how to end (`session_prompt`); each later
turn is the new screen (`turn_prompt`). A text turn is one gesture, or the agent ending
the episode: a reply whose final answer is `done` and holds no point (`says_done`).
Nothing says whether the goal was reached.
"""

from __future__ import annotations

import base64
import io
import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from PIL import Image

from finestate_env.core.schema import CoordConvention

# -- model profiles: which coordinate convention a model answers in -------------

@dataclass(frozen=True)
class ModelProfile:
    pattern: str  # regular expression matched against the lower-cased model name
    coords: CoordConvention
    why: str
    # The model's image processor resizes every image to a multiple of its patch grid
    # (Qwen2.5-VL's `smart_resize`), and a model that answers in pixels answers in the
    # pixels of that resized image: None when the model sees the image at its own size.
    resize: str | None = None
    names: str = ""  # the model names it stands for, as an error message lists them

    def answer_frame(self, size: tuple[int, int],
                     max_pixels: int | None = None) -> tuple[int, int]:
        """(width, height) of the frame the model's pixel answers refer to, for an image
        of `size`: the size its processor resizes it to (QWEN_MAX_PIXELS unless
        `max_pixels` says what the trainer sets), else `size` itself."""
        if self.resize != "qwen2.5-vl":
            return size
        height, width = qwen_smart_resize(size[1], size[0],
                                          max_pixels=max_pixels or QWEN_MAX_PIXELS)
        return width, height


# First match wins. The conventions are the ones these models were trained on.
PROFILES: tuple[ModelProfile, ...] = (
    # qwen2.5-vl, qwen2.5vl, qwen25vl, qwen2_5_vl: one model, however it is spelt.
    ModelProfile(r"qwen2[-._]?5[-_]?vl", "pixel",
                 "Qwen2.5-VL grounds in absolute pixels of the image as its processor resized "
                 "it", resize="qwen2.5-vl", names="qwen2.5-vl"),
    ModelProfile(r"qwen3-?vl", "1000", "Qwen3-VL grounds on a 0-1000 grid", names="qwen3-vl"),
    ModelProfile(r"qwen2-?vl|qwen-vl", "1000", "Qwen(2)-VL grounds on a 0-1000 grid",
                 names="qwen2-vl, qwen-vl"),
    ModelProfile(r"ui-?tars", "1000", "UI-TARS answers on a 0-1000 grid", names="ui-tars"),
    ModelProfile(r"os-?atlas|uground|cogagent|seeclick", "1000",
                 "GUI grounding models trained on a 0-1000 grid",
                 names="os-atlas, uground, cogagent, seeclick"),
    ModelProfile(r"showui", "normalized", "ShowUI answers in [0, 1]", names="showui"),
    ModelProfile(r"gemini", "1000", "Gemini grounds on a 0-1000 grid", names="gemini"),
    # qwen3.5, qwen3_5, qwen3.6 (natively multimodal, no "vl"); not qwen3-8b, a text model.
    ModelProfile(r"qwen3[._]?[5-9](?!\d)", "1000",
                 "Qwen3.5 and later ground on Qwen3-VL's 0-1000 grid: \"relative coordinates "
                 "normalized to [0, 1000]\" (the Qwen team, "
                 "github.com/QwenLM/Qwen3.8-Flash-Next/issues/4)",
                 names="qwen3.5, qwen3.6"),
    # Before the pixel catch-all, which keeps Gemma 3 and earlier.
    ModelProfile(r"gemma[-_ ]?4(?!\d)", "1000",
                 "Gemma 4's boxes \"refer to an image size of 1000x1000, relative to the input "
                 "dimensions\" (huggingface.co/blog/gemma4; its box_2d lists y before x, the "
                 "gesture names x and y)", names="gemma-4"),
    ModelProfile(r"gpt|^o\d|claude|llava|internvl|pixtral|llama|gemma|molmo|minicpm", "pixel",
                 "asked for pixels of the stated image size",
                 names="gpt, o1/o3/..., claude, llava, internvl, pixtral, llama, gemma, molmo, "
                       "minicpm"),
)
DEFAULT_PROFILE = ModelProfile(".*", "pixel", "unknown model: asked for pixels of the stated size")


def known_profile(model: str) -> ModelProfile | None:
    """The profile whose pattern the model's name (its last path part) matches, or None."""
    name = model.lower().rsplit("/", 1)[-1]
    return next((p for p in PROFILES if re.search(p.pattern, name)), None)


def known_models() -> str:
    """The names the profiles stand for, with their conventions, for an error message."""
    return "; ".join(f"{p.names} ({p.coords})" for p in PROFILES)


def profile_for(model: str, coords: CoordConvention | None = None) -> ModelProfile:
    """The model's profile; `coords` overrides the convention (for a model not in the table)."""
    profile = known_profile(model) or DEFAULT_PROFILE
    if coords is not None and coords != profile.coords:
        return ModelProfile(profile.pattern, coords, "set by the user")
    return profile


# Qwen2.5-VL's image processor (preprocessor_config.json of its released checkpoints):
# sides rounded to multiples of 28 (14 px patches merged 2x2), the area kept in
# [min_pixels, max_pixels].
QWEN_FACTOR = 28
QWEN_MIN_PIXELS = 56 * 56
QWEN_MAX_PIXELS = 12_845_056


def qwen_smart_resize(height: int, width: int, factor: int = QWEN_FACTOR,
                      min_pixels: int = QWEN_MIN_PIXELS,
                      max_pixels: int = QWEN_MAX_PIXELS) -> tuple[int, int]:
    """(height, width) Qwen2-VL's and Qwen2.5-VL's processors resize an image to
    (`smart_resize` of transformers' Qwen2VLImageProcessor, the same arithmetic)."""
    h_bar = round(height / factor) * factor
    w_bar = round(width / factor) * factor
    if h_bar * w_bar > max_pixels:
        beta = math.sqrt((height * width) / max_pixels)
        h_bar = max(factor, math.floor(height / beta / factor) * factor)
        w_bar = max(factor, math.floor(width / beta / factor) * factor)
    elif h_bar * w_bar < min_pixels:
        beta = math.sqrt(min_pixels / (height * width))
        h_bar = math.ceil(height * beta / factor) * factor
        w_bar = math.ceil(width * beta / factor) * factor
    return h_bar, w_bar



# -- the prompt: the question and the message that carries it ------------------

def coordinate_rule(convention: CoordConvention, size: tuple[int, int]) -> str:
    """The sentence that tells the model which coordinates to answer in."""
    width, height = size
    if convention == "pixel":
        return (f"Coordinates are pixels of the screenshot, origin top-left: x from 0 to "
                f"{width - 1} (left to right), y from 0 to {height - 1} (top to bottom).")
    if convention == "normalized":
        return ("Coordinates are fractions of the screenshot's width and height, origin "
                "top-left: x and y from 0 to 1.")
    return ("Coordinates are on a 0-1000 grid over the screenshot, origin top-left: x from 0 "
            "(left edge) to 1000 (right edge), y from 0 (top) to 1000 (bottom).")


def task_prompt(instruction: str, convention: CoordConvention, size: tuple[int, int],
                hint: str | None = None) -> str:
    """The question: two points for one interaction, in the model's convention."""
    lines = [
        f"You operate the graphical user interface in this screenshot "
        f"({size[0]}x{size[1]} pixels). Task: {instruction}",
        "Answer with two points:",
        "- p0, the locate point: on the control to operate. When the action is a drag, "
        "p0 is where to press (the thumb, handle, divider or item to move).",
        "- p1, the operate point: where to click, or where to release the drag, so that "
        "the control ends in exactly the requested state.",
        coordinate_rule(convention, size),
    ]
    if hint:
        lines.append(hint)
    lines.append('Reply with only a JSON object: {"p0": [x, y], "p1": [x, y]}.')
    return "\n".join(lines)


def encode_png(screenshot: np.ndarray) -> str:
    """The screenshot as a PNG data URL (the same pixels give the same bytes, hence the same
    cache key, whether they come from a file or from the live env)."""
    buffer = io.BytesIO()
    Image.fromarray(np.asarray(screenshot, dtype=np.uint8)).save(buffer, format="PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def user_message(screenshot: np.ndarray, text: str) -> list[dict[str, Any]]:
    # One user turn, image first: some local chat templates accept no system turn.
    return [{"role": "user", "content": [
        {"type": "image_url", "image_url": {"url": encode_png(screenshot)}},
        {"type": "text", "text": text}]}]


# -- multi-turn sessions -------------------------------------------------------

DONE_WORD = "done"
_DONE = re.compile(r"^\W*(?:<answer>\s*)?done\W*(?:</answer>\s*)?$", re.IGNORECASE)
_DONE_TAIL = re.compile(r"(?:<answer>\s*)?\bdone\W*(?:</answer>)?\s*$", re.IGNORECASE)


def session_prompt(instruction: str, coords: str, frame: tuple[int, int], max_actions: int,
                   *, tool: bool = False) -> str:
    """The first turn's text: the task, the gesture, the convention, the turn budget, and
    how to end. `tool`: the model calls a `gesture` tool (and `done`) instead of replying
    with JSON."""
    lines = [
        f"You operate the graphical user interface in this screenshot ({frame[0]}x{frame[1]} "
        f"pixels). Task: {instruction}",
        "Each turn, make one gesture: press at (x0, y0) and release at (x1, y1); the same "
        "point twice is a click or a tap. After each gesture you see the new screen, and you "
        "may correct the control with another gesture.",
        coordinate_rule(coords, frame),  # type: ignore[arg-type]
        f"You have at most {max_actions} gesture{'s' if max_actions != 1 else ''}.",
    ]
    if tool:
        lines.append("Call the gesture tool for each gesture; when the control shows exactly "
                     "what the task asks, call the done tool (or stop calling tools).")
    else:
        lines.append('Reply with only a JSON object for each gesture: {"p0": [x0, y0], '
                     '"p1": [x1, y1]}. When the control shows exactly what the task asks, '
                     f'reply with only the word {DONE_WORD}.')
    return "\n".join(lines)


def turn_prompt(feedback: str) -> str:
    """The text beside a later turn's screenshot."""
    text = "The screen after your gesture."
    return f"{text}\n{feedback}" if feedback else text


def says_done(reply: Any) -> bool:
    """Whether a text reply ends the episode: its final answer is `done`, with no point."""
    if not isinstance(reply, str):
        return False
    text = reply.strip()
    if "</think>" in text:  # a reasoning model's thoughts do not end anything
        text = text.rsplit("</think>", 1)[1].strip()
    if _DONE.match(text):
        return True
    return bool(_DONE_TAIL.search(text)) and not re.search(r"\d", text[-200:])
