"""A RewardScorer that scores through a `finestate serve` elsewhere (its `POST /score`).

For trainers whose reward code runs apart from the machine with the browsers: the
functions of rewards/trainers.py use it when FINESTATE_REWARD_URL names the server. The
same `score` / `ascore` / `submit` as RewardScorer; standard library only.
"""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from finestate_env.rewards.ground_truth import GroundTruth
from finestate_env.rewards.scorer import Overloaded, RewardMode, Score, check_mode

# A refused (503) request is sent again this many times, RETRY_S apart, then Overloaded.
TRIES = 5
RETRY_S = 1.0
TIMEOUT_S = 300.0


class RemoteScorer:
    """Scores through the server at `url` (http://HOST:PORT); `token` for its
    Authorization header."""

    def __init__(self, url: str, *, mode: RewardMode = "exact", token: str | None = None,
                 timeout_s: float = TIMEOUT_S, concurrency: int = 16) -> None:
        self.url = url.rstrip("/")
        if self.url.endswith("/score"):
            self.url = self.url[:-len("/score")]
        self.mode = check_mode(mode)
        self.token = token
        self.timeout_s = timeout_s
        self._executor = ThreadPoolExecutor(concurrency, thread_name_prefix="finestate-remote")

    def score(self, truths: Sequence[Any], completions: Sequence[Any],
              mode: RewardMode | None = None) -> list[Score]:
        if len(truths) != len(completions):
            raise ValueError(f"{len(truths)} ground truths for {len(completions)} completions: "
                             "give one per completion")
        groups: OrderedDict[str, list[int]] = OrderedDict()
        for index, truth in enumerate(truths):
            groups.setdefault(_truth_text(truth), []).append(index)
        answer = self._post({"mode": mode or self.mode, "groups": [
            {"ground_truth": text, "completions": [completions[i] for i in indices]}
            for text, indices in groups.items()]})
        scores: list[Score | None] = [None] * len(completions)
        for indices, group in zip(groups.values(), answer["groups"], strict=True):
            for index, score in zip(indices, group["scores"], strict=True):
                scores[index] = Score(**score)
        return scores  # type: ignore[return-value]

    async def ascore(self, truths: Sequence[Any], completions: Sequence[Any],
                     mode: RewardMode | None = None) -> list[Score]:
        return await asyncio.to_thread(self.score, truths, completions, mode)

    def submit(self, truth: Any, completions: Sequence[Any],
               mode: RewardMode | None = None) -> Future:
        return self._executor.submit(self.score, [truth] * len(completions), completions, mode)

    def status(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url + "/health", timeout=self.timeout_s) as reply:
            return json.load(reply)

    def close(self) -> None:
        self._executor.shutdown(wait=True)

    def _post(self, payload: dict[str, Any]) -> dict[str, Any]:
        data = json.dumps(payload).encode()
        headers = {"content-type": "application/json"}
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        for attempt in range(TRIES):
            request = urllib.request.Request(self.url + "/score", data=data, headers=headers)
            try:
                with urllib.request.urlopen(request, timeout=self.timeout_s) as reply:
                    return json.load(reply)
            except urllib.error.HTTPError as exc:
                detail = _detail(exc)
                if exc.code != 503:
                    raise ValueError(f"the reward server refused the request ({exc.code}): "
                                     f"{detail}") from None
                if attempt == TRIES - 1:
                    raise Overloaded(f"the reward server is busy ({detail}) after {TRIES} "
                                     "tries") from None
            time.sleep(RETRY_S)
        raise AssertionError("unreachable")


def _truth_text(truth: Any) -> str:
    if isinstance(truth, GroundTruth):
        return truth.text()
    if isinstance(truth, dict) and "ground_truth" in truth and "instance" not in truth:
        truth = truth["ground_truth"]
    if isinstance(truth, bytes):
        return truth.decode()
    return truth if isinstance(truth, str) else json.dumps(truth)


def _detail(exc: urllib.error.HTTPError) -> str:
    try:
        return json.loads(exc.read()).get("detail", exc.reason)
    except (ValueError, AttributeError):
        return str(exc.reason)
