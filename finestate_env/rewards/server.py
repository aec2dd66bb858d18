"""The reward server: live rewards over HTTP for trainers on other machines (`finestate serve`).

An ASGI app (FastAPI, served by uvicorn) over one RewardScorer; it only receives,
batches and answers, the scoring is the scorer's (rewards/scorer.py).

- `POST /get_reward`: OpenRLHF's remote reward protocol (`--reward.remote_url
  http://HOST:PORT/get_reward`): `{"query": [...], "prompts": [...], "labels": [...]}`
  -> `{"rewards": [...], "scores": [...], "extra_logs": {name: [...]}}`, each label a row's
  ground truth and each response what follows its prompt in its query. A sample that
  could not be judged is answered 503: OpenRLHF's client retries (5 times, 1 s apart),
  and the browser has restarted meanwhile; OpenRLHF has no way to leave a sample out, so
  a null reward is never sent to it.
- `POST /score`: `{"groups": [{"ground_truth": ..., "completions": [...]}], "mode":
  "exact" | "box" | "box_now" | "shaped"}` -> `{"groups": [{"rewards": [...], "scores": [{...}]}]}`,
  each score with its verdicts (rewards/scorer.py, Score); a reward that could not be
  computed is null and its `unjudged` says why.
- `GET /health`: the workers, what waits, what was scored.

Requests for the same instance that arrive while the workers are busy are merged and
scored on one render (OpenRLHF sends one sample per request: a group of 8 arrives as 8
requests). The queue is bounded: past `max_pending` waiting completions a request is
refused with 503 and Retry-After (a retry can succeed), never queued without bound; a
request of more than `max_pending` completions, which can never fit, gets 413 at once,
as does a body over `max_body` bytes. A body that is not `application/json` gets 415.
Bad requests and bad ground truths get 422 naming the field, the value and what is
allowed. Any completion is judged alone: one that cannot be read is reward 0.0 with its
`parse_error`, one whose judgement fails is unjudged alone; nothing a completion holds
answers 500. With a token, every request but /health needs `Authorization: Bearer
<token>`. docs/training-vlms.md lists every status with an example body.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from finestate_env.rewards.completions import response_of
from finestate_env.rewards.ground_truth import BadGroundTruth
from finestate_env.rewards.scorer import (
    Overloaded,
    RewardMode,
    RewardScorer,
    TooLarge,
    read_truth,
)
from finestate_env.rewards.trainers import openrlhf_answer

log = logging.getLogger("finestate.serve")
# The largest request body read (bytes): a group of 16 completions of a page instance is
# ~0.3 MB with its ground truths repeated.
MAX_BODY = 64 * 1024 * 1024
RETRY_AFTER_S = 1


class RewardRequest(BaseModel):
    """OpenRLHF's remote reward request."""

    model_config = ConfigDict(extra="ignore")

    query: list[str] = Field(min_length=1)
    prompts: list[str]
    labels: list[str]


class ScoreGroup(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ground_truth: str | dict[str, Any]
    # Any JSON value: a completion of a shape no trainer sends is that completion's parse
    # error (reward 0.0), never the request's.
    completions: list[Any] = Field(min_length=1)


class ScoreRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    groups: list[ScoreGroup] = Field(min_length=1)
    mode: RewardMode | None = None


class _Refused(Exception):
    def __init__(self, status: int, detail: str, headers: dict[str, str] | None = None):
        super().__init__(detail)
        self.status, self.detail, self.headers = status, detail, headers


def create_app(scorer: RewardScorer, *, token: str | None = None,
               max_body: int = MAX_BODY) -> FastAPI:
    """The server's app over `scorer` (closed when the app shuts down)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        await asyncio.to_thread(scorer.close)

    app = FastAPI(title="finestate-env reward server", lifespan=lifespan)
    app.add_middleware(_Guard, token=token, max_body=max_body)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        return _error(422, "; ".join(_field_error(e) for e in exc.errors()[:5]))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        # FastAPI answers a body json.loads raised on with a bare 400 "There was an error
        # parsing the body": say what was wrong with it, as for any body that is not JSON.
        cause = exc.__cause__
        if exc.status_code == 400 and isinstance(cause, RecursionError | UnicodeDecodeError):
            why = ("nested too deeply" if isinstance(cause, RecursionError)
                   else f"not UTF-8 text: {cause.reason} at byte {cause.start}")
            return _error(422, f"body: not JSON ({why})")
        return _error(exc.status_code, str(exc.detail), getattr(exc, "headers", None))

    @app.exception_handler(_Refused)
    async def refused(request: Request, exc: _Refused):
        return _error(exc.status, exc.detail, exc.headers)

    @app.get("/health")
    async def health() -> JSONResponse:
        return JSONResponse({"status": "ok", "mode": scorer.mode, **scorer.status()})

    @app.post("/get_reward")
    async def get_reward(body: RewardRequest) -> JSONResponse:
        n = len(body.query)
        for name in ("prompts", "labels"):
            if len(getattr(body, name)) != n:
                raise _Refused(422, f"{name}: {len(getattr(body, name))} items for {n} queries; "
                                    "give one per query")
        responses = [response_of(q, p) for q, p in zip(body.query, body.prompts, strict=True)]
        scores = await _score(scorer, [(f"labels[{i}]", label, [response])
                                       for i, (label, response)
                                       in enumerate(zip(body.labels, responses, strict=True))],
                              None)
        flat = [group[0] for group in scores]
        missing = [s for s in flat if s.reward is None]
        if missing:  # OpenRLHF retries a 503; a null reward would break its step
            raise _Refused(503, f"{len(missing)} of {n} samples could not be judged: "
                                f"{missing[0].unjudged}", {"Retry-After": str(RETRY_AFTER_S)})
        return JSONResponse(openrlhf_answer(flat))

    @app.post("/score")
    async def score(body: ScoreRequest) -> JSONResponse:
        groups = await _score(scorer, [(f"groups[{i}].ground_truth", g.ground_truth,
                                        g.completions) for i, g in enumerate(body.groups)],
                              body.mode)
        return JSONResponse({"groups": [{"rewards": [s.reward for s in group],
                                         "scores": [s.as_json() for s in group]}
                                        for group in groups]})

    return app


async def _score(scorer: RewardScorer, groups: list[tuple[str, Any, list[Any]]],
                 mode: RewardMode | None) -> list[list[Any]]:
    """Submit each (field name, ground truth, completions) group and await its scores;
    a bad ground truth is refused naming its field, a full queue with 503."""
    total = sum(len(completions) for _, _, completions in groups)
    if total > scorer.max_pending:  # never fits the queue, however long the client waits
        raise _Refused(413, f"body: {total} completions in one request, the most this server "
                            f"holds at once is {scorer.max_pending} (--max-pending); send at "
                            "most that many a request")
    futures = []
    for field, value, completions in groups:
        try:
            truth = read_truth(value)
        except (BadGroundTruth, json.JSONDecodeError, TypeError) as exc:
            raise _Refused(422, f"{field}: {exc}") from None
        try:
            futures.append(asyncio.wrap_future(scorer.submit(truth, completions, mode)))
        except (Overloaded, TooLarge) as exc:
            for future in futures:
                future.cancel()
            if isinstance(exc, TooLarge):  # no retry can succeed: say the bound
                raise _Refused(413, str(exc)) from None
            raise _Refused(503, str(exc), {"Retry-After": str(RETRY_AFTER_S)}) from None
    return list(await asyncio.gather(*futures))


class _Guard:
    """The token and the body's size, checked before anything is parsed (a plain ASGI
    middleware: Starlette's BaseHTTPMiddleware costs a task group per request).

    A body is refused with 413 when its Content-Length says it is too big, or, sent in
    chunks, as soon as more than `max_body` bytes have arrived: never read whole first."""

    def __init__(self, app, token: str | None, max_body: int) -> None:
        self.app, self.max_body = app, max_body
        self.expected = None if token is None else f"Bearer {token}".encode()

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope["headers"])
        if self.expected is not None and scope["path"] != "/health" and \
                not hmac.compare_digest(headers.get(b"authorization", b""), self.expected):
            return await _error(401, "authorization: a valid 'Bearer <token>' header is "
                                     "needed")(scope, receive, send)
        if scope["method"] == "POST" and not _is_json(headers.get(b"content-type", b"")):
            given = headers.get(b"content-type", b"").decode("latin-1")
            return await _error(415, f"content-type: {given or 'none'!r} is not JSON; send "
                                     "the body as application/json")(scope, receive, send)
        length = headers.get(b"content-length", b"")
        if length.isdigit() and int(length) > self.max_body:
            return await _error(413, f"body: {int(length)} bytes, the most this server reads "
                                     f"is {self.max_body}")(scope, receive, send)
        received = 0

        async def limited():
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_body:  # FastAPI answers an HTTPException as it is
                raise HTTPException(413, f"body: over {self.max_body} bytes, the most this "
                                         "server reads")
            return message

        await self.app(scope, limited, send)


def _is_json(content_type: bytes) -> bool:
    """application/json, or a +json type (application/problem+json), any parameters."""
    media = content_type.split(b";", 1)[0].strip().lower()
    return media == b"application/json" or (media.startswith(b"application/")
                                             and media.endswith(b"+json"))


def _field_error(error: dict[str, Any]) -> str:
    if error.get("type") == "json_invalid":  # loc is ("body", character offset)
        where = error.get("loc", ("body", "?"))[-1]
        why = (error.get("ctx") or {}).get("error", "JSON decode error")
        return f"body: not JSON ({why} at character {where})"
    where = ""
    for part in error.get("loc", ())[1:] if error.get("loc", ("",))[0] == "body" else \
            error.get("loc", ()):
        where += f"[{part}]" if isinstance(part, int) else f".{part}" if where else str(part)
    return f"{where or 'body'}: {error.get('msg', 'invalid')}"


def _error(status: int, detail: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status, headers=headers)


def serve(scorer: RewardScorer, host: str = "127.0.0.1", port: int = 8000, *,
          token: str | None = None, log_level: str = "warning") -> None:
    """Run the server until interrupted (uvicorn, one process; the scorer's workers score)."""
    import uvicorn

    uvicorn.run(create_app(scorer, token=token), host=host, port=port, log_level=log_level,
                timeout_graceful_shutdown=30)
