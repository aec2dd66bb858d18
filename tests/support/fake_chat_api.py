"""A loopback test double of an OpenAI-compatible chat-completions API (the remote API
cannot exist here): everything on our side runs for real against it, the `openai` client
with its retries, the cache, the prompts, the parser, the CLI."""

from __future__ import annotations

import json
import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

USAGE = {"prompt_tokens": 1200, "completion_tokens": 17, "total_tokens": 1217}


class FakeChatAPI:
    """Answers POST .../chat/completions: scripted replies first, then `answer(prompt)`.

    A scripted reply is `("status", code, headers)` for an error or `("text", answer)`.
    Every request is recorded (path, headers, body) for the tests to inspect.
    """

    def __init__(self) -> None:
        self.requests: list[dict] = []
        self.script: deque = deque()
        self.answer = lambda prompt: '{"p0": [5, 5], "p1": [5, 5]}'
        # A reply from the whole request body (a multi-turn conversation), when set.
        self.reply = None
        api = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                api.requests.append({"path": self.path,
                                     "headers": {k.lower(): v for k, v in self.headers.items()},
                                     "body": body})
                if not self.path.endswith("/chat/completions"):
                    return self._send(404, {"error": {"message": "no such route"}})
                if api.script:
                    reply = api.script.popleft()
                elif api.reply is not None:
                    reply = ("text", api.reply(body))
                else:
                    reply = ("text", api.answer(prompt_of(body)))
                if reply[0] == "status":
                    return self._send(reply[1], {"error": {"message": f"scripted {reply[1]}",
                                                           "type": "server_error"}}, reply[2])
                self._send(200, {
                    "id": f"chatcmpl-{len(api.requests)}", "object": "chat.completion",
                    "created": 1700000000, "model": body["model"],
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": reply[1]}}],
                    "usage": USAGE})

            def _send(self, code: int, payload: dict, headers: dict | None = None) -> None:
                data = json.dumps(payload).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def prompts(self) -> list[str]:
        return [prompt_of(r["body"]) for r in self.requests]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def prompt_of(body: dict) -> str:
    parts = body["messages"][-1]["content"]
    return "\n".join(p["text"] for p in parts if p.get("type") == "text")
