"""A vision-language model behind an OpenAI-compatible chat-completions endpoint, as an agent.

The agent sees what any agent sees, the screenshot and the instruction, plus a
VDA hint when one is asked for (`finestate_env.vda`), and answers the two
FineState points. It works on static instances (`predict`, for `finestate
eval`) and live in the env (`act(observation, info)`, for `finestate run`).

- Endpoint: hosted APIs, or local servers (vLLM, Ollama ...) through `base_url`,
  always through the `openai` package.
- Coordinates: a model profile says which convention the model answers in
  (pixels, [0, 1] or 0-1000); the prompt asks for it and the answer is read in it.
- Retries: the `openai` client's own (exponential backoff with jitter, at most
  8 s a wait, `Retry-After` honoured up to 2 minutes) on 408, 409, 429, 5xx,
  timeouts and connection errors; the number taken is counted in the usage. Any
  other error, or a retryable one that outlasts `max_retries`, stops the run
  with `ModelRequestFailed`: what was done is in the cache.
- Cache: every response on disk, keyed by a hash of model + messages + params,
  written atomically: a rerun costs nothing and an interrupted run resumes.
- The API key is read from an environment variable only, handed to the client
  and never printed, logged, cached or written into a prediction.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from finestate_env.answers import parse_points
from finestate_env.coords import point_from_pixel, point_to_pixel
from finestate_env.schema import CoordConvention, Instance, Prediction
from finestate_env.vda import (
    Hint,
    VDAMode,
    VDAParts,
    detection_hint,
    detection_prompt,
    hint_text,
    oracle_hint,
)

DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
# Local servers (vLLM, Ollama) take any key; the client insists on one.
LOCAL_PLACEHOLDER_KEY = "not-needed"


# -- model profiles: which coordinate convention a model answers in -------------

@dataclass(frozen=True)
class ModelProfile:
    pattern: str  # regular expression matched against the lower-cased model name
    coords: CoordConvention
    why: str


# First match wins. The conventions are the ones these models were trained on.
PROFILES: tuple[ModelProfile, ...] = (
    ModelProfile(r"qwen2\.5-?vl|qwen2_5_vl", "pixel", "Qwen2.5-VL grounds in absolute pixels"),
    ModelProfile(r"qwen3-?vl", "1000", "Qwen3-VL grounds on a 0-1000 grid"),
    ModelProfile(r"qwen2-?vl|qwen-vl", "1000", "Qwen(2)-VL grounds on a 0-1000 grid"),
    ModelProfile(r"ui-?tars", "1000", "UI-TARS answers on a 0-1000 grid"),
    ModelProfile(r"os-?atlas|uground|cogagent|seeclick", "1000",
                 "GUI grounding models trained on a 0-1000 grid"),
    ModelProfile(r"showui", "normalized", "ShowUI answers in [0, 1]"),
    ModelProfile(r"gemini", "1000", "Gemini grounds on a 0-1000 grid"),
    ModelProfile(r"gpt|^o\d|claude|llava|internvl|pixtral|llama|gemma|molmo|minicpm", "pixel",
                 "asked for pixels of the stated image size"),
)
DEFAULT_PROFILE = ModelProfile(".*", "pixel", "unknown model: asked for pixels of the stated size")


def profile_for(model: str, coords: CoordConvention | None = None) -> ModelProfile:
    """The model's profile; `coords` overrides the convention (for a model not in the table)."""
    name = model.lower().rsplit("/", 1)[-1]
    profile = next((p for p in PROFILES if re.search(p.pattern, name)), DEFAULT_PROFILE)
    if coords is not None and coords != profile.coords:
        return ModelProfile(profile.pattern, coords, "set by the user")
    return profile


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


# -- the response cache ------------------------------------------------------------

class ResponseCache:
    """One JSON file per response, named by the SHA-256 of model + messages + params.

    Files are written to a temporary name and renamed, so an interrupted run
    leaves whole files only; an unreadable file counts as absent and is rewritten.
    """

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)

    @staticmethod
    def key(model: str, messages: list[dict[str, Any]], params: dict[str, Any]) -> str:
        blob = json.dumps({"model": model, "messages": messages, "params": params},
                          sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()

    def path(self, key: str) -> Path:
        return self.directory / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        try:
            record = json.loads(self.path(key).read_text())
        except (OSError, ValueError):
            return None
        return record if isinstance(record, dict) and "response" in record else None

    def put(self, key: str, record: dict[str, Any]) -> None:
        path = self.path(key)
        partial = path.with_suffix(f".{os.getpid()}.partial")
        partial.write_text(json.dumps(record, ensure_ascii=False) + "\n")
        os.replace(partial, path)


# -- the client ----------------------------------------------------------------------

class ModelRequestFailed(RuntimeError):
    """The endpoint refused a request, or kept failing past the retries."""


@dataclass
class Usage:
    """Requests and tokens: `tokens` over every response used (cached or not), `new_tokens`
    over the requests this run really sent."""

    requests: int = 0  # sent to the endpoint by this run (each may have been retried)
    cached: int = 0  # served from the cache
    retries: int = 0  # retries the client took across this run's requests
    without_usage: int = 0  # responses that carried no token counts
    tokens: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TOKEN_KEYS, 0))
    new_tokens: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TOKEN_KEYS, 0))

    def add(self, usage: dict[str, Any] | None, cached: bool, retries: int) -> None:
        if cached:
            self.cached += 1
        else:
            self.requests += 1
            self.retries += retries
        if not usage:
            self.without_usage += 1
            return
        for key in TOKEN_KEYS:
            value = int(usage.get(key) or 0)
            self.tokens[key] += value
            if not cached:
                self.new_tokens[key] += value

    def as_json(self) -> dict[str, Any]:
        return {"requests": self.requests, "cached": self.cached, "retries": self.retries,
                "responses_without_usage": self.without_usage, "tokens": dict(self.tokens),
                "new_tokens": dict(self.new_tokens)}


TOKEN_KEYS = ("prompt_tokens", "completion_tokens", "total_tokens")


@dataclass(frozen=True)
class Completion:
    text: str
    usage: dict[str, Any] | None
    cached: bool
    retries: int


class ChatClient:
    """One model behind an OpenAI-compatible endpoint: cached, retried, counted."""

    def __init__(self, model: str, *, base_url: str | None = None,
                 api_key_env: str = DEFAULT_API_KEY_ENV, cache_dir: str | Path | None = None,
                 max_retries: int = 6, timeout: float = 120.0, temperature: float | None = 0.0,
                 max_tokens: int | None = 512, usage: Usage | None = None) -> None:
        import openai

        if max_retries < 0:
            raise ValueError(f"max_retries must be >= 0, got {max_retries}")
        api_key = os.environ.get(api_key_env)
        if not api_key:
            if base_url is None:
                raise ValueError(f"no API key: set the environment variable {api_key_env} "
                                 "(or name another one with --api-key-env)")
            api_key = LOCAL_PLACEHOLDER_KEY
        # Kept only to scrub it from error messages; never stored anywhere else.
        self._secret = api_key
        self.model = model
        self.base_url = base_url
        self.params: dict[str, Any] = {}
        if temperature is not None:
            self.params["temperature"] = temperature
        if max_tokens:
            self.params["max_tokens"] = max_tokens
        self.cache = ResponseCache(cache_dir) if cache_dir is not None else None
        self.usage = usage if usage is not None else Usage()
        self._client = openai.OpenAI(api_key=api_key, base_url=base_url,
                                     max_retries=max_retries, timeout=timeout)

    def __repr__(self) -> str:
        return f"ChatClient(model={self.model!r}, base_url={self.base_url!r})"

    def complete(self, messages: list[dict[str, Any]]) -> Completion:
        key = ResponseCache.key(self.model, messages, self.params)
        record = self.cache.get(key) if self.cache else None
        if record is not None:
            completion = Completion(_answer_text(record["response"]),
                                    record["response"].get("usage"), True, 0)
        else:
            response, retries = self._request(messages)
            completion = Completion(_answer_text(response), response.get("usage"), False,
                                    retries)
            if self.cache:
                self.cache.put(key, {"model": self.model, "params": self.params,
                                     "retries": retries, "response": response})
        self.usage.add(completion.usage, completion.cached, completion.retries)
        return completion

    def _request(self, messages: list[dict[str, Any]]) -> tuple[dict[str, Any], int]:
        import openai

        try:
            raw = self._client.chat.completions.with_raw_response.create(
                model=self.model, messages=messages, **self.params)
            response = raw.parse()
        except openai.APIStatusError as exc:
            raise ModelRequestFailed(self._scrub(
                f"{self.model}: the endpoint answered HTTP {exc.status_code} "
                f"({_short(exc.message)}) after the client's retries")) from None
        except openai.APIError as exc:  # connection errors, timeouts, unreadable bodies
            raise ModelRequestFailed(self._scrub(
                f"{self.model}: request failed after the client's retries: "
                f"{type(exc).__name__}: {_short(str(exc))}")) from None
        return response.model_dump(mode="json", exclude_none=True), int(raw.retries_taken)

    def _scrub(self, text: str) -> str:
        return text.replace(self._secret, "***") if self._secret else text


def _answer_text(response: dict[str, Any]) -> str:
    """The first choice's text; an answer without one reads as empty (a parse failure)."""
    try:
        content = response["choices"][0]["message"].get("content")
    except (KeyError, IndexError, TypeError, AttributeError):
        return ""
    if isinstance(content, list):  # some servers return content parts
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content if isinstance(content, str) else ""


def _short(text: str, limit: int = 300) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit] + "..."


# -- the agent -------------------------------------------------------------------------

@dataclass(frozen=True)
class Answer:
    """One model answer: points in the model's convention (`coords`), or why they are missing."""

    p0: tuple[float, float] | None
    p1: tuple[float, float] | None
    coords: CoordConvention
    text: str
    error: str | None
    note: str | None
    hint: Hint | None
    hint_text: str | None
    usage: dict[str, Any] | None
    cached: bool


class VLMAgent:
    """Asks a VLM for p0 and p1; `act` for the live env, `predict` for static instances.

    Only the observation (screenshot and instruction) reaches the model, plus a
    VDA hint when `vda` is not "none". The oracle VDA reads the instance's boxes
    (from `info["instance"]` live), by design and only for the hint.
    """

    name = "openai"

    def __init__(self, chat: ChatClient, profile: ModelProfile | None = None,
                 vda: VDAMode = "none", vda_parts: VDAParts = "both",
                 detector: ChatClient | None = None, detector_profile: ModelProfile | None = None,
                 frame: CoordConvention = "pixel") -> None:
        if vda not in ("none", "oracle", "model"):
            raise ValueError(f"vda must be none, oracle or model, got {vda!r}")
        self.chat = chat
        self.profile = profile or profile_for(chat.model)
        self.vda = vda
        self.vda_parts = vda_parts
        self.detector = detector or chat
        self.detector_profile = detector_profile or profile_for(self.detector.model)
        self.frame = frame
        self.last_answer: Answer | None = None

    def answer(self, screenshot: np.ndarray, instruction: str,
               instance: Instance | None = None) -> Answer:
        height, width = np.shape(screenshot)[:2]
        size = (int(width), int(height))
        hint = self._hint(screenshot, instruction, instance, size)
        text_hint = (hint_text(hint, self.vda_parts, self.profile.coords, size)
                     if hint is not None else None)
        prompt = task_prompt(instruction, self.profile.coords, size, text_hint)
        completion = self.chat.complete(user_message(screenshot, prompt))
        parsed = parse_points(completion.text)
        self.last_answer = Answer(parsed.p0, parsed.p1, self.profile.coords, completion.text,
                                  parsed.error, parsed.note, hint, text_hint, completion.usage,
                                  completion.cached)
        return self.last_answer

    def _hint(self, screenshot: np.ndarray, instruction: str, instance: Instance | None,
              size: tuple[int, int]) -> Hint | None:
        if self.vda == "none":
            return None
        if self.vda == "oracle":
            if instance is None:
                raise ValueError("the oracle VDA needs the instance (its boxes) for its hint")
            return oracle_hint(instance)
        convention = self.detector_profile.coords
        prompt = detection_prompt(instruction, convention, size,
                                  coordinate_rule(convention, size))
        completion = self.detector.complete(user_message(screenshot, prompt))
        return detection_hint(completion.text, self.detector.model, convention, size)

    def predict(self, instance: Instance, screenshot: np.ndarray) -> Prediction:
        """A prediction for a static instance, in the model's convention, with its metadata."""
        answer = self.answer(screenshot, instance.instructions.interact, instance)
        metadata: dict[str, Any] = {
            "model": self.chat.model, "vda": self.vda, "answer": answer.text,
            "cached": answer.cached, "usage": answer.usage}
        if self.vda != "none":
            metadata["vda_parts"] = self.vda_parts
            metadata["hint"] = answer.hint.as_json() if answer.hint else None
        if answer.error:
            metadata["parse_error"] = answer.error
        if answer.note:
            metadata["parse_note"] = answer.note
        return Prediction(id=instance.id, p0=answer.p0, p1=answer.p1, coords=answer.coords,
                          **metadata)

    def act(self, observation: dict[str, Any], info: dict[str, Any]) -> dict[str, np.ndarray]:
        """The env's action; an unreadable answer becomes NaN points (the env reports it)."""
        instance = None
        if self.vda == "oracle":
            instance = Instance.model_validate(info["instance"])
        answer = self.answer(observation["screenshot"], observation["instruction"], instance)
        height, width = np.shape(observation["screenshot"])[:2]
        return {key: self._to_frame(point, (int(width), int(height)))
                for key, point in (("p0", answer.p0), ("p1", answer.p1))}

    def _to_frame(self, point: tuple[float, float] | None, size: tuple[int, int]) -> np.ndarray:
        if point is None:
            return np.array([np.nan, np.nan], dtype=np.float32)
        pixel = point_to_pixel(point, self.profile.coords, size)
        return np.asarray(point_from_pixel(pixel, self.frame, size), dtype=np.float32)


def build_agents(model: str, *, vda: VDAMode = "none", vda_parts: VDAParts = "both",
                 vda_model: str | None = None, baseline: bool = True,
                 coords: CoordConvention | None = None, frame: CoordConvention = "pixel",
                 **client_options: Any) -> tuple[VLMAgent, VLMAgent | None]:
    """The agent asked for and, when it has a VDA and `baseline`, the same model without one.

    Each agent counts its own usage (the detector's requests count with its agent);
    all share `client_options` (base_url, api_key_env, cache_dir, retries, params).
    """
    def agent(mode: VDAMode) -> VLMAgent:
        chat = ChatClient(model, **client_options)
        detector = None
        if mode == "model" and vda_model and vda_model != model:
            detector = ChatClient(vda_model, usage=chat.usage, **client_options)
        return VLMAgent(chat, profile_for(model, coords), vda=mode, vda_parts=vda_parts,
                        detector=detector, frame=frame)

    return agent(vda), (agent("none") if vda != "none" and baseline else None)
