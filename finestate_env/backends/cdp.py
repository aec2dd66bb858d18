"""A direct DevTools (CDP) connection to one page, beside Playwright's.

Every command Playwright relays passes through its node driver: measured here,
~240 us for a trivial command and ~420 us for a mouse event, pipelined or not.
The same commands on a WebSocket of our own to the page's DevTools endpoint
cost ~50 us and ~120 us, and a page script call ~1 ms of CPU (all processes)
against ~4. Gestures, probes, screenshots and the page's own calls (render,
read-back) take this way; Playwright keeps what it is good at (launching,
routing requests, crash events, `evaluate` for tests and tools).

Chromium handles one connection's commands in order, so commands can be sent
back to back and their replies collected afterwards (`send_pipelined`).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


class CdpError(RuntimeError):
    """Chromium answered a command with an error."""


class CdpConnectionLost(ConnectionError):
    """The DevTools connection closed or stopped answering: the browser is gone or hung."""


class CdpChannel:
    """Commands to one page target over its DevTools WebSocket (`ws://.../devtools/page/ID`)."""

    def __init__(self, url: str, timeout: float = 10.0) -> None:
        self.url = url
        self.timeout = timeout
        self._next_id = 0
        self._stack = contextlib.ExitStack()
        try:
            self._socket = self._stack.enter_context(connect(
                url, open_timeout=timeout, close_timeout=1,
                # Loopback only: no proxy from the environment, no compression
                # (CPU for nothing here), no keep-alive pings, and replies are
                # always drained (a bounded queue could stall a long pipeline).
                proxy=None, compression=None, ping_interval=None,
                max_size=None, max_queue=None))
        except (OSError, TimeoutError) as exc:
            raise CdpConnectionLost(f"cannot open the DevTools connection {url}: {exc}") from exc

    def send(self, method: str, params: dict | None = None) -> Any:
        return self.send_pipelined([(method, params or {})])[0]

    def send_pipelined(self, commands: Sequence[tuple[str, dict]]) -> list[Any]:
        """Send `commands` back to back, then wait for every reply; the results, in order.

        If any command fails, every reply is still collected (the connection
        stays in step) and the first failure is raised as CdpError.
        """
        first = self._next_id + 1
        self._next_id += len(commands)
        try:
            for offset, (method, params) in enumerate(commands):
                self._socket.send(json.dumps(
                    {"id": first + offset, "method": method, "params": params}))
            replies: dict[int, dict] = {}
            while len(replies) < len(commands):
                message = json.loads(self._socket.recv(timeout=self.timeout))
                # Events (no id) and late replies to an abandoned batch are skipped.
                index = message.get("id", 0) - first
                if 0 <= index < len(commands):
                    replies[index] = message
        except TimeoutError as exc:
            raise CdpConnectionLost(
                f"Chromium sent {len(replies)} of {len(commands)} replies within "
                f"{self.timeout:g} s") from exc
        except (ConnectionClosed, OSError) as exc:
            raise CdpConnectionLost(f"the DevTools connection closed: {exc}") from exc
        for index in range(len(commands)):
            error = replies[index].get("error")
            if error:
                raise CdpError(f"{commands[index][0]}: {error.get('message')} "
                               f"({error.get('data', '')})".replace(" ()", ""))
        return [replies[index].get("result", {}) for index in range(len(commands))]

    def evaluate(self, expression: str) -> Any:
        """The JSON value of a page script expression (main world); a promise is awaited."""
        reply = self.send("Runtime.evaluate", {"expression": expression,
                                               "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in reply:
            details = reply["exceptionDetails"]
            raise CdpError(f"{expression}: "
                           f"{details.get('exception', {}).get('description') or details['text']}")
        return reply["result"].get("value")

    def call(self, function: str, arg: Any) -> Any:
        """The JSON value of page script `function` (its source) called with `arg`, which
        travels as JSON: what Playwright's page.evaluate(function, arg) does for JSON
        values, without the round trip through its driver (~4 ms of CPU against ~1)."""
        return self.evaluate(f"({function})({json.dumps(arg, allow_nan=False)})")

    def close(self) -> None:
        with contextlib.suppress(Exception):  # closing a dead connection must still finish
            self._stack.close()
