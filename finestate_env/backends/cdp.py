"""The env's DevTools (CDP) connection to its Chromium: a pair of pipes, never a port.

Chromium started with `--remote-debugging-pipe` reads commands on its file descriptor 3
and writes replies and events on its descriptor 4, each message a JSON text ended by a
NUL byte (chromium.py starts it so). Nothing listens on a TCP port: only the process
that holds the pipes' other ends, the env's, can drive the browser, where a
`--remote-debugging-port` on 127.0.0.1 let any local user attach to it.

One pipe serves the whole browser (`CdpPipe`); each page is a session on it (flat
sessions: every message names its `sessionId`), driven through a `CdpChannel` of its
own. A reader thread splits what Chromium writes into messages and hands each reply to
the thread waiting for it, so the envs of a vector env still talk to their pages at the
same time (the reads and the waits release the GIL). Events (a request to serve, a page
that crashed, a load that finished) run in order on a second thread, so that a handler
that sends a command never holds up a reply.

Chromium handles one session's commands in order, so commands can be sent back to back
and their replies collected afterwards (`send_pipelined`).

Measured when the env still relayed through Playwright's Node driver: ~240 us for a
trivial command and ~4 ms of CPU (all processes) for a page script call, against ~50 us
and ~1 ms on a DevTools connection of its own.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import threading
import time
import weakref
from collections.abc import Callable, Sequence
from typing import Any

from finestate_env.backends import heap

_LOG = logging.getLogger(__name__)
_END = b"\0"  # ends every message, both ways
_REPLY = b'{"id":'  # how Chromium starts a reply (an event starts with "method")
_READ_SIZE = 1 << 20


class CdpError(RuntimeError):
    """Chromium answered a command with an error."""


class CdpConnectionLost(ConnectionError):
    """The DevTools connection closed or stopped answering: the browser or page is gone or hung."""


class _Batch:
    """The replies one send_pipelined call waits for; filled in by the reader thread."""

    __slots__ = ("first", "replies", "missing", "done", "lost", "session")

    def __init__(self, first: int, count: int, session: str | None) -> None:
        self.first = first
        self.replies: list[bytes | None] = [None] * count
        self.missing = count
        self.done = threading.Event()
        self.lost: str | None = None
        self.session = session


class CdpPipe:
    """The DevTools pipe of one browser: `to_browser` is written, `from_browser` read.

    Owns both descriptors (closed by `close`, or in a forked child at once: a child that
    kept the write end open would keep the browser alive after this process dies).
    `browser` is the channel of browser-wide commands and events (no session).
    """

    def __init__(self, to_browser: int, from_browser: int, name: str,
                 timeout: float = 10.0) -> None:
        self.name = name
        self._out, self._in = to_browser, from_browser
        self._lock = threading.Lock()  # ids, pending replies, sessions
        self._write_lock = threading.Lock()  # one message after another on the pipe
        self._next_id = 0
        self._pending: dict[int, _Batch] = {}
        self._sessions: dict[str, CdpChannel] = {}
        self._lost_callbacks: list[Callable[[str], None]] = []
        self.lost: str | None = None
        self._events: queue.SimpleQueue = queue.SimpleQueue()
        self.browser = CdpChannel(self, None, "browser", timeout)
        _PIPES.add(self)
        self._reader = threading.Thread(target=self._read, name=f"cdp-read-{name}", daemon=True)
        self._dispatcher = threading.Thread(target=self._dispatch, name=f"cdp-events-{name}",
                                            daemon=True)
        self._reader.start()
        self._dispatcher.start()

    # -- sessions ------------------------------------------------------------
    def session(self, session_id: str, target_id: str, timeout: float) -> CdpChannel:
        """The channel of session `session_id` (of target `target_id`), made on first ask.

        Called from an event handler (Target.attachedToTarget) as soon as Chromium names
        the session, so that none of the session's events is missed."""
        with self._lock:
            channel = self._sessions.get(session_id)
            if channel is None:
                channel = self._sessions[session_id] = CdpChannel(self, session_id, target_id,
                                                                  timeout)
                if self.lost:
                    channel.lost = self.lost
            return channel

    def on_lost(self, callback: Callable[[str], None]) -> None:
        """`callback(why)` once the pipe closes (on the reader thread)."""
        self._lost_callbacks.append(callback)

    # -- sending ---------------------------------------------------------------
    def _send(self, session: str | None, commands: Sequence[tuple[str, dict]],
              replies: bool = True) -> _Batch | None:
        with self._lock:
            if self.lost:
                raise CdpConnectionLost(self.lost)
            first = self._next_id + 1
            self._next_id += len(commands)
            batch = _Batch(first, len(commands), session) if replies else None
            if batch is not None:
                for offset in range(len(commands)):
                    self._pending[first + offset] = batch
        payload = b"".join(
            json.dumps({"id": first + offset, "method": method, "params": params}
                       if session is None else
                       {"id": first + offset, "method": method, "params": params,
                        "sessionId": session}).encode() + _END
            for offset, (method, params) in enumerate(commands))
        try:
            with self._write_lock:
                view = memoryview(payload)
                while view:
                    view = view[os.write(self._out, view):]
        except OSError as exc:
            self._forget(first, len(commands))
            raise CdpConnectionLost(f"writing to Chromium's DevTools pipe failed: {exc}") from exc
        return batch

    def _wait(self, batch: _Batch, commands: Sequence[tuple[str, dict]],
              timeout: float) -> list[dict]:
        if not batch.done.wait(timeout):
            self._forget(batch.first, len(commands))
            raise CdpConnectionLost(
                f"Chromium sent {len(commands) - batch.missing} of {len(commands)} replies "
                f"within {timeout:g} s")
        if batch.lost:
            raise CdpConnectionLost(batch.lost)
        return [json.loads(reply) for reply in batch.replies]

    def _forget(self, first: int, count: int) -> None:
        with self._lock:
            for ident in range(first, first + count):
                self._pending.pop(ident, None)

    # -- receiving -------------------------------------------------------------
    def _read(self) -> None:
        why = "Chromium closed its DevTools pipe: the browser is gone"
        chunks: list[bytes] = []
        try:
            while data := os.read(self._in, _READ_SIZE):
                # Screenshots' buffers, freed later, would leave the heap fragmented
                # (heap.py): counted, and the heap trimmed every so many bytes.
                heap.HEAP.received(len(data))
                start = 0
                while (end := data.find(_END, start)) >= 0:
                    if chunks:
                        chunks.append(data[start:end])
                        message, chunks = b"".join(chunks), []
                    else:
                        message = data[start:end]
                    start = end + 1
                    self._route(message)
                if start < len(data):
                    chunks.append(data[start:] if start else data)
        except OSError as exc:  # closed under the reader (close() or a forked child)
            why = f"the DevTools pipe closed: {exc}"
        self._lose(why)

    def _route(self, message: bytes) -> None:
        if message.startswith(_REPLY):
            # The id alone, read without parsing the rest: a screenshot's reply is
            # megabytes, which the waiting thread parses itself.
            end = message.find(b",", len(_REPLY))
            try:
                ident = int(message[len(_REPLY):end])
            except ValueError:
                ident = json.loads(message).get("id")
            with self._lock:
                batch = self._pending.pop(ident, None)
            if batch is not None:  # else a reply nobody waits for (notify, or timed out)
                batch.replies[ident - batch.first] = message
                batch.missing -= 1
                if batch.missing == 0:
                    batch.done.set()
        else:
            self._events.put(message)

    def _dispatch(self) -> None:
        while (message := self._events.get()) is not None:
            try:
                event = json.loads(message)
                session = event.get("sessionId")
                if session is None:
                    if event.get("method") == "Target.detachedFromTarget":
                        self._detached(event["params"].get("sessionId"), "detached")
                    self.browser._event(event)
                else:
                    with self._lock:
                        channel = self._sessions.get(session)
                    if channel is not None:
                        channel._event(event)
            except Exception:  # a handler's bug must not stop every later event
                _LOG.exception("DevTools event handler failed on %.200r", message)

    def _detached(self, session: str | None, why: str) -> None:
        with self._lock:
            channel = self._sessions.pop(session, None) if session else None
        if channel is not None:
            channel._lose(f"the page's DevTools session ended ({why})")

    def _fail_session(self, session: str | None, why: str) -> None:
        """Wake whoever waits for a reply on `session` with `why` (None: every session)."""
        with self._lock:
            batches = {id(b): b for b in self._pending.values()
                       if session is None or b.session == session}
            for ident in [i for i, b in self._pending.items() if id(b) in batches]:
                del self._pending[ident]
        for batch in batches.values():
            batch.lost = why
            batch.done.set()

    def _lose(self, why: str) -> None:
        with self._lock:
            if self.lost is None:
                self.lost = why
            sessions = list(self._sessions.values())
        for channel in [self.browser, *sessions]:
            channel.lost = channel.lost or why
        # The owner hears of the loss before any waiting call wakes with it: a caller that
        # met a lost pipe finds its browser marked dead (SharedBrowser.crashed).
        for callback in self._lost_callbacks:
            try:
                callback(why)
            except Exception:
                _LOG.exception("DevTools pipe: a lost-callback failed")
        self._fail_session(None, why)
        self._events.put(None)
        # The number is forgotten before the descriptor closes: a fork meanwhile must not
        # close, in its child, a number that another file has taken since.
        fd, self._in = self._in, -1
        with contextlib.suppress(OSError):
            os.close(fd)
        if self._out < 0:
            _PIPES.discard(self)

    def close(self) -> None:
        """Close our end of the commands: Chromium reads end of file and exits."""
        with self._write_lock:  # not under a write: its number must not be reused meanwhile
            fd, self._out = self._out, -1
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        if self._in < 0:
            _PIPES.discard(self)

    def _close_in_child(self) -> None:
        # Right after a fork, in the child: the threads are gone and the locks may be
        # held by them. The browser is the parent's: drop our copies of its pipes.
        self._lock, self._write_lock = threading.Lock(), threading.Lock()
        self.lost = "a forked process does not own its parent's browser"
        for fd in (self._out, self._in):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._out = self._in = -1
        self._pending.clear()
        _PIPES.discard(self)


_PIPES: weakref.WeakSet[CdpPipe] = weakref.WeakSet()


def _close_pipes_in_child() -> None:
    for pipe in list(_PIPES):
        pipe._close_in_child()


os.register_at_fork(after_in_child=_close_pipes_in_child)


class CdpChannel:
    """Commands to one target over the browser's pipe: a page's session, or the browser
    itself (`session_id` None). `url` names the page (for logs and tests; nothing to
    connect to)."""

    def __init__(self, pipe: CdpPipe, session_id: str | None, target_id: str,
                 timeout: float = 10.0) -> None:
        self.pipe = pipe
        self.session_id = session_id
        self.target_id = target_id
        self.timeout = timeout
        self.url = f"devtools-pipe://{pipe.name}/{target_id}"
        self.lost: str | None = None
        self._handlers: dict[str, list[Callable[[dict], None]]] = {}
        self._loads = threading.Condition()
        self._loaded: set[str] = set()  # loaderIds of the documents whose load event fired

    def on(self, method: str, handler: Callable[[dict], None]) -> None:
        """Run `handler(event)` for each event `method` of this target (on the events thread:
        it must not wait for a reply; `notify` sends without waiting)."""
        self._handlers.setdefault(method, []).append(handler)

    def _event(self, event: dict) -> None:
        method = event.get("method")
        if method == "Inspector.targetCrashed":
            self._lose("the page crashed")
        elif method == "Page.lifecycleEvent" and event["params"].get("name") == "load":
            with self._loads:
                self._loaded.add(event["params"].get("loaderId"))
                self._loads.notify_all()
        for handler in self._handlers.get(method, ()):
            handler(event)

    def _lose(self, why: str) -> None:
        self.lost = self.lost or why
        self.pipe._fail_session(self.session_id, self.lost)
        with self._loads:
            self._loads.notify_all()

    def send(self, method: str, params: dict | None = None) -> Any:
        return self.send_pipelined([(method, params or {})])[0]

    def send_pipelined(self, commands: Sequence[tuple[str, dict]],
                       while_waiting: Callable[[], object] | None = None,
                       settle_s: float = 0.0) -> list[Any]:
        """Send `commands` back to back, then wait for every reply; the results, in order.

        If any command fails, every reply is still collected (the channel stays in step)
        and the first failure is raised as CdpError. `while_waiting`: called again and again
        until the replies are in (each call a round trip of its own, which it waits for),
        for commands that wait on something only it brings about: input to a page under
        begin-frame control is handled at the next frame that the caller asks for. After
        each call the replies get up to `settle_s` to arrive before the next: what that
        call brought about may answer just after it returns.
        """
        if self.lost:
            raise CdpConnectionLost(self.lost)
        batch = self.pipe._send(self.session_id, commands)
        timeout = self.timeout
        if while_waiting is not None:
            deadline = time.monotonic() + timeout
            try:
                while not batch.done.is_set() and time.monotonic() < deadline:
                    while_waiting()
                    if settle_s:
                        batch.done.wait(settle_s)
            except BaseException:
                self.pipe._forget(batch.first, len(commands))
                raise
            timeout = max(0.0, deadline - time.monotonic())
        replies = self.pipe._wait(batch, commands, timeout)
        for (method, _), reply in zip(commands, replies, strict=True):
            error = reply.get("error")
            if error:
                raise CdpError(f"{method}: {error.get('message')} "
                               f"({error.get('data', '')})".replace(" ()", ""))
        return [reply.get("result", {}) for reply in replies]

    def notify(self, method: str, params: dict) -> None:
        """Send a command whose reply nobody waits for (from an event handler)."""
        if self.lost:
            raise CdpConnectionLost(self.lost)
        self.pipe._send(self.session_id, [(method, params)], replies=False)

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
        values, in one command."""
        return self.evaluate(call_expression(f"({function})", arg))

    def navigate(self, url: str) -> None:
        """Load `url` in the page and wait for its load event (needs Page.enable and
        Page.setLifecycleEventsEnabled on this session)."""
        reply = self.send("Page.navigate", {"url": url})
        if reply.get("errorText"):
            raise CdpError(f"loading {url}: {reply['errorText']}")
        loader = reply.get("loaderId")
        with self._loads:
            if not self._loads.wait_for(lambda: loader in self._loaded or self.lost,
                                        self.timeout):
                raise CdpConnectionLost(f"{url} did not load within {self.timeout:g} s")
        if self.lost:
            raise CdpConnectionLost(self.lost)

    def close(self) -> None:
        """Detach from the page (the page itself stays: Target.closeTarget closes it)."""
        if self.lost or self.session_id is None:
            return
        self.lost = "closed"
        with contextlib.suppress(CdpConnectionLost):
            self.pipe.browser.notify("Target.detachFromTarget", {"sessionId": self.session_id})
        self.pipe._detached(self.session_id, "closed")


def call_expression(function: str, arg: Any) -> str:
    """Page script that calls `function` (an expression) with `arg`, which travels as JSON."""
    return f"{function}({json.dumps(arg, allow_nan=False)})"
