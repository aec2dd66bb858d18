"""Fixtures of the adb tests: a real adb server and a stand-in device, one of each per module."""

from __future__ import annotations

import pytest
from adb_standin import Device, kill_server, start_server


@pytest.fixture(scope="module")
def adb_server():
    port = start_server()
    yield port
    kill_server(port)


@pytest.fixture(scope="module")
def device(adb_server):
    device = Device(adb_server)
    yield device
    device.stop()
