"""The env's own DevTools connection (finestate_env/backends/cdp.py) against real Chromium."""

from __future__ import annotations

import pytest

from finestate_env.backends.cdp import CdpChannel, CdpConnectionLost, CdpError
from finestate_env.backends.web import WebBackend


@pytest.fixture(scope="module")
def backend():
    with WebBackend() as backend:
        yield backend


def test_pipelined_replies_come_back_in_order(backend):
    commands = [("Runtime.evaluate", {"expression": f"{i} * 2", "returnByValue": True})
                for i in range(500)]
    results = backend._cdp.send_pipelined(commands)  # noqa: SLF001
    assert [r["result"]["value"] for r in results] == [2 * i for i in range(500)]


def test_a_failed_command_is_named_and_the_connection_stays_in_step(backend):
    channel = backend._cdp  # noqa: SLF001
    with pytest.raises(CdpError, match="Nonexistent.method"):
        channel.send_pipelined([("Runtime.evaluate", {"expression": "1"}),
                                ("Nonexistent.method", {}),
                                ("Runtime.evaluate", {"expression": "2"})])
    assert channel.evaluate("40 + 2") == 42


def test_a_page_exception_is_an_error_with_its_message(backend):
    with pytest.raises(CdpError, match="no such thing"):
        backend._cdp.evaluate("(() => { throw new Error('no such thing'); })()")  # noqa: SLF001


def test_a_closed_or_unreachable_endpoint_is_a_lost_connection(backend):
    channel = CdpChannel(backend._cdp.url, timeout=5)  # noqa: SLF001 (a second client)
    assert channel.evaluate("'hello'") == "hello"
    channel.close()
    with pytest.raises(CdpConnectionLost):
        channel.evaluate("1")
    with pytest.raises(CdpConnectionLost, match="cannot open"):
        CdpChannel("ws://127.0.0.1:9/devtools/page/none", timeout=2)
