"""The chat client for an OpenAI-compatible chat-completions endpoint: cached, retried, counted.

- Endpoint: hosted APIs, or local servers (vLLM, Ollama ...) through `base_url`,
  always through the `openai` package.
- Retries: the `openai` client's own (exponential backoff with jitter, at most
  8 s a wait, `Retry-After` honoured up to 2 minutes) on 408, 409, 429, 5xx,
  timeouts and connection errors; the number taken is counted in the usage. Any
  other error, or a retryable one that outlasts `max_retries`, stops the run
  with `ModelRequestFailed`: what was done is in the cache.
- Cache: every response on disk, keyed by a hash of model + messages + params,
  written atomically: a rerun costs nothing and an interrupted run resumes.
- The API key is read from an environment variable only, handed to the client
  and never printed, logged, cached or written into a prediction.

It knows nothing of screenshots, prompts or points: it sends messages and
returns the answer's text with its usage (the prompt is
`finestate_env.agents.vlm_prompt`, the agent `finestate_env.agents.vlm_agent`).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from finestate_env.core.errors import UsageError
from finestate_env.core.extras import require

DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
# Local servers (vLLM, Ollama) take any key; the client insists on one.
LOCAL_PLACEHOLDER_KEY = "not-needed"


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

    def add_counts(self, counted: dict[str, Any]) -> None:
        """Add another Usage's `as_json()` (a Ray actor's count of one answer)."""
        self.requests += counted["requests"]
        self.cached += counted["cached"]
        self.retries += counted["retries"]
        self.without_usage += counted["responses_without_usage"]
        for key in TOKEN_KEYS:
            self.tokens[key] += counted["tokens"][key]
            self.new_tokens[key] += counted["new_tokens"][key]

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
        openai = require("openai", "agents", "a VLM agent")

        if max_retries < 0:
            raise UsageError(f"max_retries must be >= 0, got {max_retries}")
        api_key = os.environ.get(api_key_env)
        if not api_key:
            if base_url is None:
                raise UsageError(f"no API key: set the environment variable {api_key_env} "
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
        # Called before each request this client sends (not for cached answers): a rate
        # limit shared with other processes (`eval --ray --rate-limit`); the client's own
        # retries of a request go unthrottled, spaced by its backoff.
        self.throttle: Callable[[], None] | None = None

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

        if self.throttle is not None:
            self.throttle()
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
