"""The env's own DevTools connection (finestate_env/backends/cdp.py) against real Chromium:
one pipe per browser, a session per page, replies routed to the thread that waits."""

from __future__ import annotations

import os
import threading

import pytest

from finestate_env.backends.cdp import CdpConnectionLost, CdpError
from finestate_env.backends.web import WebBackend


@pytest.fixture(scope="module")
def backend():
    with WebBackend(shared_browser=False) as backend:
        yield backend


def test_pipelined_replies_come_back_in_order(backend):
    commands = [("Runtime.evaluate", {"expression": f"{i} * 2", "returnByValue": True})
                for i in range(500)]
    results = backend._cdp.send_pipelined(commands)  # noqa: SLF001
    assert [r["result"]["value"] for r in results] == [2 * i for i in range(500)]


def test_a_failed_command_is_named_and_the_channel_stays_in_step(backend):
    channel = backend._cdp  # noqa: SLF001
    with pytest.raises(CdpError, match="Nonexistent.method"):
        channel.send_pipelined([("Runtime.evaluate", {"expression": "1"}),
                                ("Nonexistent.method", {}),
                                ("Runtime.evaluate", {"expression": "2"})])
    assert channel.evaluate("40 + 2") == 42


def test_a_page_exception_is_an_error_with_its_message(backend):
    with pytest.raises(CdpError, match="no such thing"):
        backend._cdp.evaluate("(() => { throw new Error('no such thing'); })()")  # noqa: SLF001


def test_pages_of_one_pipe_answer_threads_at_the_same_time(backend):
    # Two pages of one browser, each asked from a thread of its own while the other
    # waits: each thread gets its own page's replies, whatever order they arrive in.
    browser = backend._browser  # noqa: SLF001
    other = browser.new_page()
    try:
        results: dict[str, list] = {}

        def ask(name, channel, delay_ms):
            results[name] = [channel.evaluate(
                f"new Promise(r => setTimeout(() => r(['{name}', {i}]), {delay_ms}))")
                for i in range(20)]

        threads = [threading.Thread(target=ask, args=("a", backend._cdp, 3)),  # noqa: SLF001
                   threading.Thread(target=ask, args=("b", other, 1))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        assert results == {name: [[name, i] for i in range(20)] for name in ("a", "b")}
    finally:
        browser.close_page(other)
    with pytest.raises(CdpConnectionLost):
        other.evaluate("1")
    assert backend._cdp.evaluate("'still here'") == "still here"  # noqa: SLF001


def test_a_dead_browser_is_a_lost_connection_for_every_waiting_call():
    with WebBackend(shared_browser=False, timeout_s=20) as backend:
        channel = backend._cdp  # noqa: SLF001
        outcome = []

        def wait_forever():
            try:
                channel.evaluate("new Promise(() => {})")
            except CdpConnectionLost as exc:
                outcome.append(str(exc))

        waiter = threading.Thread(target=wait_forever)
        waiter.start()
        os.kill(backend._browser.process.pid, 9)  # noqa: SLF001
        waiter.join(10)
        assert not waiter.is_alive() and "pipe" in outcome[0]
        with pytest.raises(CdpConnectionLost):
            channel.evaluate("1")
        assert backend._browser.crashed  # noqa: SLF001
