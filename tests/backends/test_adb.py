"""The adb backend through the real adb server and adbutils, against a stand-in device.

tests/support/fake_adb_device.py speaks the adb transport protocol and shows its
screen with Chromium; everything on this side of the protocol is real: the
adb binary shipped with adbutils, adbutils itself, `adb reverse` carrying the
page's requests, the backend's calibration, `input`, and `screencap -p`.
"""

from __future__ import annotations

import time

import gymnasium as gym
import numpy as np
import pytest
from adb_standin import Device
from fake_adb_device import SCALE, SCREEN, STATUS_BAR, TALL_SCREEN

from finestate_env.agents.scripted import OracleAgent
from finestate_env.backends.adb import AdbBackend, AdbBackendError
from finestate_env.components import COMPONENTS


# The stand-in device's browser shows 360x760 CSS px (its status bar takes the rest), shorter
# than the 800 a phone page needs: these tests show the control alone, but for page_env's
# (a taller stand-in).
@pytest.fixture(scope="module")
def env(device):
    env = gym.make("FineState-Mobile-v0", backend="adb", scene="control",
                   backend_options=device.options(timeout_s=15)).unwrapped
    yield env
    env.close()


@pytest.mark.parametrize("type_name", ["slider", "switch", "date_picker", "drag_reorder"])
def test_a_full_episode_per_family(env, type_name):
    obs, info = env.reset(seed=2, options={"component": type_name})
    assert obs["screenshot"].shape == (SCREEN[1], SCREEN[0], 3)
    _, reward, terminated, _, info = env.step(OracleAgent().act(obs, info))
    assert (reward, terminated, info["crosscheck"], info["action_error"]) == (
        1.0, True, "agree", None), (info["goal_state"], info["state"])


@pytest.fixture(scope="module")
def page_env(adb_server):
    """A phone page (the env's default scene) on a stand-in whose browser shows 840 CSS
    px, more than the 800 a phone page needs."""
    device = Device(adb_server, "--tall")
    env = gym.make("FineState-Mobile-v0", backend="adb", viewport=TALL_SCREEN,
                   backend_options=device.options(timeout_s=15)).unwrapped
    yield env
    env.close()
    device.stop()


@pytest.mark.parametrize("type_name", ["slider", "switch", "date_picker", "drag_reorder"])
def test_a_page_episode_per_family(page_env, type_name):
    """On a page the device's browser reports the distractors it shows (their states and
    cards) and reads them back after the gesture, with the target's state."""
    obs, info = page_env.reset(seed=2, options={"component": type_name})
    instance, backend = page_env.instance, page_env.backend
    assert obs["screenshot"].shape == (TALL_SCREEN[1], TALL_SCREEN[0], 3)
    assert len(instance.scene.distractors) == len(instance.live.scene.distractors) > 0
    for distractor in instance.scene.distractors:  # cards below the status bar, on screen
        x1, y1, x2, y2 = distractor.loc
        assert 0 <= x1 < x2 < TALL_SCREEN[0] and STATUS_BAR <= y1 < y2 < TALL_SCREEN[1]
    shown = backend.read_distractors()
    assert list(page_env._distractors) == shown
    state, distractors = backend.read_state_and_distractors()
    assert distractors == shown and COMPONENTS[type_name].states_equal(
        state, instance.current_state, instance.live.params)
    _, reward, terminated, _, info = page_env.step(OracleAgent().act(obs, info))
    assert (reward, terminated, info["crosscheck"], info["collateral"]) == (
        1.0, True, "agree", False), (info["goal_state"], info["state"])


@pytest.mark.parametrize("type_name", ["switch", "slider"])
def test_probes_restored_in_page_give_the_states_of_one_render_per_probe(env, type_name):
    """The audit's probes on a device: one `input` and one page command each,
    the page restoring the control in place, equal to rendering afresh per probe."""
    from finestate_env.backends.base import Backend
    from finestate_env.core.coords import box_center
    from finestate_env.replay.audit import grid

    env.reset(seed=5, options={"component": type_name})
    instance = env.instance
    current = instance.boxes.current
    p0 = box_center(current.now)
    points = grid(current.core, 2) + grid(current.goal, 1)
    pairs = [(p0, p1) for p1 in points]
    fast = env.backend.probe(instance.live, instance.gesture, pairs)
    assert instance.live.goal_state in fast
    assert fast == Backend.probe(env.backend, instance.live, instance.gesture, pairs)


def test_screen_frame_is_found_and_boxes_are_screen_pixels(env, assert_boxes_below_the_bar):
    _, info = env.reset(seed=4, options={"component": "switch"})
    # Calibration found the page under the device's 120-pixel status bar at scale 3.
    assert env.backend.frame == (float(SCALE), 0, STATUS_BAR)
    assert env.backend.layout_viewport == (SCREEN[0] // SCALE, (SCREEN[1] - STATUS_BAR) // SCALE)
    # Boxes come in screen pixels: they are the boxes the emulated phone measures
    # for the same instance on a page of the same size, moved down by the bar.
    assert_boxes_below_the_bar(env.instance.live, info["boxes"])


def test_screencap_png_is_decoded(env):
    env.reset(seed=4, options={"component": "switch"})
    shot = env.backend.screenshot()
    assert shot.dtype == np.uint8 and shot.shape == (SCREEN[1], SCREEN[0], 3)
    assert (shot[:STATUS_BAR] == 60).all()  # the fake status bar, exactly
    assert not (shot[STATUS_BAR] == 60).all()  # the page starts right under it


def test_wrong_viewport_is_a_clear_error(device):
    backend = AdbBackend(viewport=(720, 1280), **device.options(timeout_s=5))
    with pytest.raises(AdbBackendError, match="1080x2400 screen"):
        backend.start()
    backend.close()


def test_missing_browser_is_a_clear_error(adb_server):
    device = Device(adb_server, "--no-browser")
    try:
        backend = AdbBackend(viewport=SCREEN, **device.options(timeout_s=5))
        with pytest.raises(AdbBackendError, match="has no browser"):
            backend.start()
    finally:
        device.stop()


def test_a_page_that_never_answers_times_out(adb_server):
    device = Device(adb_server, "--frozen-browser")
    try:
        backend = AdbBackend(viewport=SCREEN, **device.options(timeout_s=3))
        started = time.monotonic()
        with pytest.raises(AdbBackendError, match="did not answer 'hello' within 3 s"):
            backend.start()
        assert time.monotonic() - started < 10
    finally:
        device.stop()


def test_offline_device_is_a_clear_error_in_bounded_time(adb_server):
    device = Device(adb_server)
    device.stop()  # the device goes away: the server drops or marks it offline
    backend = AdbBackend(viewport=SCREEN, **device.options(timeout_s=3, retries=2))
    started = time.monotonic()
    with pytest.raises(AdbBackendError, match=device.serial.replace(".", r"\.")):
        backend.start()
    assert time.monotonic() - started < 20


def test_a_device_lost_mid_episode_makes_the_step_unjudged(adb_server,
                                                           step_after_losing_the_device):
    device = Device(adb_server)
    env = gym.make("FineState-Mobile-v0", backend="adb", scene="control",
                   backend_options=device.options(timeout_s=15, retries=1)).unwrapped
    try:
        step_after_losing_the_device(env, device)
    finally:
        env.close()


def test_far_goals_are_measured_on_the_device_after_each_gesture(device):
    """Episodes of several gestures (issue #18): after each gesture the page measures the
    new screen (driver.js "measure"), and the oracle follows it to a date months away."""
    env = gym.make("FineState-Mobile-v0", backend="adb", scene="control",
                   component="date_picker", max_actions=4,
                   backend_options=device.options(timeout_s=15)).unwrapped
    try:
        far = 0
        for seed in range(6):
            obs, info = env.reset(seed=seed)
            planned, steps, done = info["oracle_actions"], 0, False
            while not done:
                obs, _, terminated, truncated, info = env.step(OracleAgent().act(obs, info))
                steps, done = steps + 1, terminated or truncated
            assert info["success"] is True and steps == planned, (seed, planned, steps)
            far += planned > 1
        assert far >= 2
    finally:
        env.close()
