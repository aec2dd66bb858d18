"""Fixtures of the adb tests: a real adb server and a stand-in device, one of each per module."""

from __future__ import annotations

import time

import pytest
from adb_standin import Device, kill_server, start_server
from fake_adb_device import SCREEN, STATUS_BAR

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
    Within 20 s the step is unjudged (truncated, never a failure: the device cannot be
    reached to do it again), naming the device."""
    def lose(env, device) -> dict:
        obs, info = env.reset(seed=1, options={"component": "switch"})
        device.stop()
        started = time.monotonic()
        _, reward, terminated, truncated, info = env.step(OracleAgent().act(obs, info))
        assert time.monotonic() - started < 20
        assert (reward, terminated, truncated, info["success"]) == (0.0, False, True, False)
        assert info["crosscheck"] == "unjudged" and device.serial in info["unjudged"]
        return info

    return lose


@pytest.fixture
def assert_boxes_below_the_bar():
    """`(live, info_boxes) -> None`: the boxes a device reported for instance `live` are
    those the emulated phone measures on a page of the same size, moved down by the
    stand-in's status bar, exactly."""
    from finestate_env.backends.mobile import MobileBackend

    def check(live, info_boxes) -> None:
        with MobileBackend(viewport=(SCREEN[0], SCREEN[1] - STATUS_BAR)) as phone:
            emulated = phone.render(live).boxes
        for config in ("current", "target"):
            for name in ("loc", "core", "goal", "now"):
                x1, y1, x2, y2 = getattr(getattr(emulated, config), name)
                assert info_boxes[config][name].tolist() == [
                    x1, y1 + STATUS_BAR, x2, y2 + STATUS_BAR]

    return check
