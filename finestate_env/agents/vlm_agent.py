"""A vision-language model behind an OpenAI-compatible chat-completions endpoint, as an agent.

The agent sees what any agent sees, the screenshot and the instruction, plus a
VDA hint when one is asked for (`finestate_env.agents.vda`), and answers the two
FineState points. It works on static instances (`predict`, for `finestate
eval`) and live in the env (`act(observation, info)`, for `finestate run`).

It asks in the convention of the model's profile and reads the answer in it
(`finestate_env.agents.vlm_prompt`), through a `ChatClient` that caches, retries
and counts every request (`finestate_env.agents.vlm_client`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from finestate_env.agents.answers import parse_points
from finestate_env.agents.vda import (
    Hint,
    VDAMode,
    VDAParts,
    detection_hint,
    detection_prompt,
    hint_text,
    oracle_hint,
)
from finestate_env.agents.vlm_client import ChatClient
from finestate_env.agents.vlm_prompt import (
    ModelProfile,
    coordinate_rule,
    profile_for,
    task_prompt,
    user_message,
)
from finestate_env.core.coords import point_from_pixel, point_to_pixel
from finestate_env.core.errors import UsageError
from finestate_env.core.schema import CoordConvention, Instance, Prediction


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
            raise UsageError(f"vda must be none, oracle or model, got {vda!r}")
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
            instance = Instance.model_validate_json(info["instance"])
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
