"""OpenRLHF 0.11.2's multi-turn agent around live sessions: `--train.agent_func_path`.

OpenRLHF loads the agent file (examples/agentic/openrlhf_agent_func.py) in each vLLM
engine actor and calls `AgentExecutor().execute(prompt, label, ...)` N times at once for
the N samples of a prompt (`asyncio.gather`, vllm_engine.py `generate_responses`). Its
`MultiTurnAgentExecutor` makes one `AgentInstance` per sample, `reset`s it with the row's
prompt and label, then alternates the engine's reply and the instance's `step` until
`done`. Here:

- `reset` opens a session (finestate_env.sessions) from the row's `label`: a session
  task's JSON text or a bare exported ground truth, from a pool shared by the process
  (made on first use, closed at exit). The first screenshot cannot come from the agent:
  OpenRLHF takes it from the dataset's image column (`--data.image_key`), so `reset`
  checks that the row's first image shows exactly the session's first screen (config
  `first_screen`: "pixels", "size" or "off") and refuses the row otherwise.
- `step` performs the reply (`says_done` ends the episode, else `act_text`: one gesture)
  in a worker thread, so that the samples gathered on the engine's event loop go on
  meanwhile. Before the end it returns the new screenshot (`environment_images`) and the
  user turn that shows it (`environment_feedback`: the model's chat tokens with one image
  placeholder per image, read from the model's own chat template unless configured);
  `rewards` 0. At the end (the agent says done, or the gestures run out) it returns the
  session's exact reward, once: OpenRLHF sums the steps' rewards.
- The session is closed at the end of every episode, whatever ends it: done, an error,
  or OpenRLHF's loop stopping on its length budget (`--data.max_len`) before the agent
  was done. That last episode is judged as it stands, as one whose gestures ran out.

An episode a renderer crash left unjudged (its reward None) cannot be carried by
OpenRLHF: `rewards` must be a number (`.item()` is summed into the sample's reward), a
None reward fails later in `compute_advantages_and_returns`, and a NaN would spread over
the group's baseline. So it is never paid 0.0: the executor runs the sample again (a new
session, a new generation of the same prompt, as independent as the first) up to
`unjudged_reruns` times, counted in the sample's `extra_logs`, and past that raises
UnjudgedEpisode, which fails the rollout with its cause.

The samples' `extra_logs` (the session's verdicts, logged by OpenRLHF per sample) have the
same keys in every sample, as OpenRLHF's batching needs: EXTRA_LOGS.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
from dataclasses import dataclass, fields
from typing import Any, Literal

import numpy as np
import torch
from openrlhf.utils.agent import AgentInstanceBase, MultiTurnAgentExecutor

from finestate_env.agents.vlm_prompt import says_done, turn_prompt
from finestate_env.sessions import AsyncSession, Screen, SessionPool, SessionResult, shared_pool

logger = logging.getLogger(__name__)

# Qwen2-VL, Qwen2.5-VL and Qwen3-VL's image placeholder, for `OpenRLHFConfig` by hand.
QWEN_IMAGE_PLACEHOLDER = "<|vision_start|><|image_pad|><|vision_end|>"
# The per-sample metrics every final response carries (OpenRLHF logs `extra_logs`).
EXTRA_LOGS = ("at_goal", "collateral", "turns", "action_errors", "oracle_actions",
              "said_done", "cut_by_length", "unjudged_reruns")
FirstScreen = Literal["pixels", "size", "off"]
ENV_PREFIX = "FINESTATE_OPENRLHF_"


class FirstScreenMismatch(ValueError):
    """The row's first image is not the screen its label's session shows: the model would
    be trained on a picture of another screen (a dataset error, never retried)."""


class UnjudgedEpisode(RuntimeError):
    """A renderer crash left the episode unjudged, again after the reruns allowed."""


@dataclass(frozen=True)
class OpenRLHFConfig:
    """How the agent runs. OpenRLHF makes `AgentExecutor()` with no arguments, so the
    agent file sets these, or `from_env()` reads them from FINESTATE_OPENRLHF_<FIELD>
    variables (upper case), which the engine actors inherit when set before the launch.

    - `max_sessions`, `idle_timeout_s`, `backend`: the process's SessionPool; episodes
      past `max_sessions` wait for a free session rather than fail;
    - `image_placeholder`, `turn_start`, `turn_end`: the feedback turn is `turn_start`,
      one `image_placeholder` per screenshot, the text, `turn_end`. None: read from the
      model's chat template (for Qwen: "<|im_end|>\\n<|im_start|>user\\n",
      QWEN_IMAGE_PLACEHOLDER, "<|im_end|>\\n<|im_start|>assistant\\n"). `turn_start`
      begins with what ends the model's reply; the token the model ended its reply with
      is not repeated;
    - `first_screen`: what is checked of the row's first image against the session's
      first screen: "pixels" (all equal), "size", or "off";
    - `unjudged_reruns`: how many times an unjudged sample is run again (module docstring).
    """

    max_sessions: int = 64
    idle_timeout_s: float = 600.0
    backend: str | None = None
    image_placeholder: str | None = None
    turn_start: str | None = None
    turn_end: str | None = None
    first_screen: FirstScreen = "pixels"
    unjudged_reruns: int = 2

    def __post_init__(self) -> None:
        if self.first_screen not in ("pixels", "size", "off"):
            raise ValueError(f"first_screen must be 'pixels', 'size' or 'off', got "
                             f"{self.first_screen!r}")
        if self.unjudged_reruns < 0:
            raise ValueError(f"unjudged_reruns must be 0 or more, got {self.unjudged_reruns}")

    @classmethod
    def from_env(cls, **defaults: Any) -> OpenRLHFConfig:
        """`defaults` overridden by the FINESTATE_OPENRLHF_<FIELD> variables that are set."""
        values = dict(defaults)
        for spec in fields(cls):
            raw = os.environ.get(ENV_PREFIX + spec.name.upper())
            if raw is None:
                continue
            kind = {"max_sessions": int, "unjudged_reruns": int,
                    "idle_timeout_s": float}.get(spec.name, str)
            try:
                values[spec.name] = kind(raw)
            except ValueError:
                raise ValueError(f"{ENV_PREFIX}{spec.name.upper()}={raw!r}: expected "
                                 f"{kind.__name__}") from None
        return cls(**values)


# -- the model's user turn ------------------------------------------------------------
@dataclass(frozen=True)
class FeedbackTurn:
    """The text that follows the model's reply to show it new screenshots: `start`, one
    `image_placeholder` per image, the text, `end` (OpenRLHF appends it verbatim and
    its processor expands each placeholder into the image's tokens)."""

    start: str
    image_placeholder: str
    end: str

    @classmethod
    def of(cls, processor: Any, config: OpenRLHFConfig) -> FeedbackTurn:
        """The configured strings, the missing ones read from the processor's chat
        template: a user turn with an image and one without, rendered after an assistant
        message, differ by exactly the placeholder."""
        given = (config.turn_start, config.image_placeholder, config.turn_end)
        if None not in given:
            return cls(*given)
        try:
            with_image = _after_reply(processor, [{"type": "image"}])
            text_only = _after_reply(processor, [])
        except Exception as exc:  # any template error: say what to configure instead
            raise ValueError(f"the model's chat template could not render a user turn with "
                             f"an image ({type(exc).__name__}: {exc}); set image_placeholder, "
                             f"turn_start and turn_end in OpenRLHFConfig") from exc
        (start, end), (image_start, image_end) = text_only, with_image
        if not image_start.startswith(start) or image_end != end or image_start == start:
            raise ValueError(f"the model's chat template puts images in a user turn in a way "
                             f"this adapter cannot split ({image_start!r} ... {image_end!r}); "
                             f"set image_placeholder, turn_start and turn_end in "
                             f"OpenRLHFConfig")
        return cls(start=config.turn_start if config.turn_start is not None else start,
                   image_placeholder=(config.image_placeholder
                                      if config.image_placeholder is not None
                                      else image_start[len(start):]),
                   end=config.turn_end if config.turn_end is not None else end)

    def text(self, text: str, images: int, reply_ended_with: str = "") -> str:
        """The feedback for `images` screenshots and `text`. `reply_ended_with`: the text
        of the reply's last token: when the template's turn starts with it (Qwen's
        <|im_end|>, which vLLM keeps in the reply's tokens), it is not written twice."""
        start = self.start
        if reply_ended_with and start.startswith(reply_ended_with):
            start = start[len(reply_ended_with):]
        return start + self.image_placeholder * images + text + self.end


_REPLY_MARK = "\x00finestate-reply\x00"
_TEXT_MARK = "\x00finestate-feedback\x00"


def _after_reply(processor: Any, images: list[dict]) -> tuple[str, str]:
    """(what the template writes between an assistant reply and a user turn's text, and
    after that text up to the next reply), for a user turn with `images` first."""
    rendered = processor.apply_chat_template(
        [{"role": "user", "content": "Q"}, {"role": "assistant", "content": _REPLY_MARK},
         {"role": "user", "content": [*images, {"type": "text", "text": _TEXT_MARK}]}],
        tokenize=False, add_generation_prompt=True)
    after = rendered.split(_REPLY_MARK, 1)[1]
    start, end = after.split(_TEXT_MARK, 1)
    return start, end


def config_pool(config: OpenRLHFConfig) -> SessionPool:
    """The process's SessionPool (one per engine actor) for `config`'s settings."""
    return shared_pool(config.max_sessions, config.idle_timeout_s, backend=config.backend)


@dataclass
class _Episode:
    """What one `execute` call shares with the instance OpenRLHF makes inside it (a
    context variable: each gathered sample runs in a task of its own)."""

    pool: SessionPool
    config: OpenRLHFConfig
    feedback: FeedbackTurn
    tokenizer: Any
    images: Any  # the row's images, as OpenRLHF passes them to `execute`
    instance: FineStateAgentInstance | None = None
    last_token: int | None = None  # the last token of the engine's latest reply

    def reply_ended_with(self) -> str:
        if self.last_token is None:
            return ""
        tokenizer = getattr(self.tokenizer, "tokenizer", self.tokenizer)
        return tokenizer.decode([self.last_token], skip_special_tokens=False)


_EPISODE: contextvars.ContextVar[_Episode] = contextvars.ContextVar("finestate_openrlhf")


class _RecordingEngine:
    """The engine as the executor calls it, noting each reply's last token (the step
    gets the reply's text only, which lacks the stop token vLLM keeps in the tokens)."""

    def __init__(self, engine: Any, episode: _Episode) -> None:
        self._engine, self._episode = engine, episode

    async def generate(self, prompt_token_ids: Any, sampling_params: Any, **kwargs: Any) -> Any:
        output = await self._engine.generate(prompt_token_ids, sampling_params, **kwargs)
        token_ids = list(output.outputs[0].token_ids)
        self._episode.last_token = token_ids[-1] if token_ids else None
        return output


# -- OpenRLHF's classes ---------------------------------------------------------------
class FineStateAgentInstance(AgentInstanceBase):
    """One sample's episode (the module docstring); made by OpenRLHF's executor inside
    `FineStateAgentExecutor.execute`, which it needs."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        episode = _EPISODE.get(None)
        if episode is None:
            raise RuntimeError("FineStateAgentInstance runs under FineStateAgentExecutor "
                               "(the agent file's AgentExecutor must subclass it)")
        episode.instance = self
        self._episode = episode
        self.session: AsyncSession | None = None
        self.result: SessionResult | None = None  # set when the episode has ended
        self.said_done = False  # the agent ended it (else its gestures or the budget did)

    async def reset(self, states: dict, **kwargs: Any) -> dict:
        episode = self._episode
        self.session = await episode.pool.aopen(states["label"])
        await asyncio.to_thread(check_first_screen, episode.images, self.session.observe(),
                                episode.config.first_screen)
        return {"observation": states["observation"]}

    async def step(self, states: dict, **kwargs: Any) -> dict:
        episode = self._episode
        reply = _without_end(states["action_text"], episode)
        if says_done(reply):
            await self._end(said_done=True)
        else:
            turn = await self.session.act_text(reply)
            if turn.done:
                await self._end(said_done=False)
            else:
                feedback = episode.feedback.text(turn_prompt(turn.feedback), 1,
                                                 episode.reply_ended_with())
                screenshot = await asyncio.to_thread(turn.screen.image)
                so_far = self.session.result()
                return {"rewards": torch.tensor(0.0), "scores": torch.tensor(0.0),
                        "environment_feedback": feedback, "environment_images": [screenshot],
                        "done": False, "extra_logs": extra_logs(so_far)}
        reward = self.result.reward
        return {"rewards": torch.tensor(reward), "scores": torch.tensor(reward),
                "environment_feedback": "", "environment_images": [], "done": True,
                "extra_logs": extra_logs(self.result, said_done=self.said_done)}

    async def end(self) -> SessionResult:
        """The verdict, once OpenRLHF's loop is over: the episode's own, or, when the loop
        stopped on its length budget first, the state as it stands (closing it)."""
        if self.result is None:
            await self._end(said_done=False)
        return self.result

    async def close(self) -> None:
        if self.session is not None:
            await self.session.close()

    async def _end(self, said_done: bool) -> None:
        self.result = await self.session.finish()
        self.said_done = said_done
        await self.session.close()
        if self.result.reward is None:
            raise UnjudgedEpisode(f"session {self.session.session.id}: {self.result.unjudged}")


class FineStateAgentExecutor(MultiTurnAgentExecutor):
    """OpenRLHF's MultiTurnAgentExecutor, its loop unchanged, around each sample: the
    episode's context for the instance, a free session (at most `max_sessions` episodes at
    once), the final verdict and metrics, reruns of unjudged samples, and the session
    closed whatever happens. `pool`: a SessionPool of the caller's (tests), else the
    process's."""

    def __init__(self, agent_instance_cls: type[FineStateAgentInstance] = FineStateAgentInstance,
                 config: OpenRLHFConfig | None = None, pool: SessionPool | None = None) -> None:
        super().__init__(agent_instance_cls)
        self.config = config or OpenRLHFConfig()
        self._pool = pool
        self._slots: asyncio.Semaphore | None = None
        self._feedback: dict[str, FeedbackTurn] = {}

    @property
    def pool(self) -> SessionPool:
        if self._pool is None:
            self._pool = config_pool(self.config)
        return self._pool

    async def execute(self, prompt, label, sampling_params, max_length: int, hf_tokenizer,
                      llm_engine, images=None):
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.pool.max_sessions)
        feedback = self._feedback_turn(hf_tokenizer)
        async with self._slots:
            for rerun in range(self.config.unjudged_reruns + 1):
                episode = _Episode(pool=self.pool, config=self.config, feedback=feedback,
                                   tokenizer=hf_tokenizer, images=images)
                token = _EPISODE.set(episode)
                try:
                    response = await super().execute(
                        prompt, label, sampling_params, max_length, hf_tokenizer,
                        _RecordingEngine(llm_engine, episode), images)
                    cut = episode.instance.result is None
                    result = await episode.instance.end()
                except UnjudgedEpisode as exc:
                    if rerun == self.config.unjudged_reruns:
                        raise UnjudgedEpisode(f"{exc} (unjudged {rerun + 1} times in a row; "
                                              f"unjudged_reruns={rerun})") from exc
                    logger.warning("finestate: an unjudged episode is run again: %s", exc)
                    continue
                finally:
                    _EPISODE.reset(token)
                    if episode.instance is not None:
                        await episode.instance.close()
                if cut:  # no step said done: its reward is the state's, paid here
                    response["reward"] = response["scores"] = result.reward
                response["extra_logs"] = extra_logs(
                    result, said_done=episode.instance.said_done,
                    cut_by_length=cut, unjudged_reruns=rerun)
                return response
        raise AssertionError("unreachable: the last rerun returns or raises")

    def _feedback_turn(self, processor: Any) -> FeedbackTurn:
        # Ray hands each call a new copy of the processor: known by its chat template
        key = str(getattr(processor, "chat_template", None))
        known = self._feedback.get(key)
        if known is None:
            known = self._feedback[key] = FeedbackTurn.of(processor, self.config)
        return known


# -- helpers --------------------------------------------------------------------------
def extra_logs(result: SessionResult, *, said_done: bool = False, cut_by_length: bool = False,
               unjudged_reruns: int = 0) -> dict[str, float]:
    """The sample's metrics for OpenRLHF's logs: EXTRA_LOGS, numbers."""
    metrics = result.metrics()
    logs = {name: metrics[name] for name in EXTRA_LOGS[:5]}
    logs.update(said_done=float(said_done), cut_by_length=float(cut_by_length),
                unjudged_reruns=float(unjudged_reruns))
    return logs


def check_first_screen(images: Any, screen: Screen, mode: FirstScreen) -> None:
    """FirstScreenMismatch unless the row's first image (OpenRLHF's image references:
    PIL, bytes, path, URL or base64) shows `screen` (`mode`: all pixels equal, or the
    size only)."""
    if mode == "off":
        return
    from openrlhf.utils.vlm_utils import load_images

    refs = images if isinstance(images, list | tuple) else [images]
    refs = [ref for ref in refs if ref is not None]
    if not refs:
        raise FirstScreenMismatch(
            "the row has no image: OpenRLHF shows the first screenshot only from the "
            "dataset's image column (--data.image_key, with --data.max_images_per_prompt "
            "above 0)")
    loaded = load_images(refs[:1])
    if not loaded:
        raise FirstScreenMismatch(f"the row's first image could not be loaded ({refs[0]!r:.80})")
    first = np.asarray(loaded[0].convert("RGB"))
    size = (first.shape[1], first.shape[0])
    if size != screen.size:
        raise FirstScreenMismatch(f"the row's first image is {size[0]}x{size[1]}, the session's "
                                  f"first screen {screen.size[0]}x{screen.size[1]}: the label "
                                  f"is not this row's screen")
    if mode == "pixels" and not np.array_equal(first, screen.pixels):
        differ = int(np.any(first != screen.pixels, axis=-1).sum())
        raise FirstScreenMismatch(f"the row's first image differs from the session's first "
                                  f"screen in {differ} pixels: the label is not this row's "
                                  f"screen (or the image was re-encoded lossily)")


def _without_end(reply: str, episode: _Episode) -> str:
    """The reply without an end-of-turn text at its end: vLLM leaves the stop token out of
    the text unless told to keep it (`include_stop_str_in_output`), and then the answer
    parser should not see it. The ends: the EOS token, and what the template writes first
    after a reply (the feedback turn's first line: Qwen's <|im_end|>)."""
    tokenizer = getattr(episode.tokenizer, "tokenizer", episode.tokenizer)
    for end in (getattr(tokenizer, "eos_token", None), episode.feedback.start.split("\n")[0]):
        if end and reply.endswith(end):
            reply = reply[: -len(end)]
    return reply


__all__ = ["EXTRA_LOGS", "QWEN_IMAGE_PLACEHOLDER", "FeedbackTurn", "FineStateAgentExecutor",
           "FineStateAgentInstance", "FirstScreenMismatch", "OpenRLHFConfig", "UnjudgedEpisode",
           "check_first_screen", "config_pool", "extra_logs"]
