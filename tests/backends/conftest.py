"""Fixtures of the adb tests: a real adb server and a stand-in device, one of each per module."""

from __future__ import annotations

import time

import pytest
from adb_standin import Device, kill_server, start_server

from finestate_env.agents.scripted import OracleAgent


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


@pytest.fixture
def step_after_losing_the_device():
    """`(env, device) -> info`: reset a switch on `device`, stop the device, step the oracle.
    The step ends the episode without success within 20 s, naming the device."""
    def lose(env, device) -> dict:
        obs, info = env.reset(seed=1, options={"component": "switch"})
        device.stop()
        started = time.monotonic()
        _, reward, terminated, _, info = env.step(OracleAgent().act(obs, info))
        assert time.monotonic() - started < 20
        assert (reward, terminated, info["success"]) == (0.0, True, False)
        assert device.serial in info["action_error"]
        return info

    return lose
