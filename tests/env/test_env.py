"""The env as RL code uses it: registration, spaces, the contract, bad actions, close."""

from __future__ import annotations

import math
import os
import time

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded

from finestate_env.agents.scripted import OracleAgent
from finestate_env.backends.processes import alive, descendants, matching
from finestate_env.core.coords import box_center


@pytest.fixture(scope="module")
def env():
    env = gym.make("FineState-Web-v0", render_mode="rgb_array").unwrapped
    yield env
    env.close()


def test_reset_and_step_shapes(env):
    obs, info = env.reset(seed=3)
    assert obs["screenshot"].shape == (720, 1280, 3) and obs["screenshot"].dtype == np.uint8
    assert env.observation_space.contains(obs)
    assert obs["instruction"] == env.instance.instructions.interact
    assert np.array_equal(env.render(), obs["screenshot"])
    obs2, reward, terminated, truncated, info2 = env.step(OracleAgent().act(obs, info))
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info2["state"] == info2["goal_state"] or info2["success"]
    # The observation after the step shows the new state: the pixels changed.
    assert not np.array_equal(obs2["screenshot"], obs["screenshot"])


def test_step_before_reset_and_twice_raise():
    env = gym.make("FineState-Web-v0").unwrapped
    try:
        with pytest.raises(ResetNeeded):
            env.step({"p0": [1, 1], "p1": [1, 1]})
        obs, info = env.reset(seed=0)
        env.step(OracleAgent().act(obs, info))
        with pytest.raises(ResetNeeded):
            env.step({"p0": [1, 1], "p1": [1, 1]})
    finally:
        env.close()


BAD_ACTIONS = {
    "nan": ({"p0": [math.nan, 10.0], "p1": [10.0, 10.0]}, "'p0'", "not finite"),
    "inf": ({"p0": [10.0, 10.0], "p1": [math.inf, 10.0]}, "'p1'", "not finite"),
    "off screen": ({"p0": [10.0, 10.0], "p1": [1280.5, 10.0]}, "'p1'", "off screen"),
    "negative": ({"p0": [-0.5, 10.0], "p1": [10.0, 10.0]}, "'p0'", "off screen"),
    "wrong shape": ({"p0": [1.0, 2.0, 3.0], "p1": [10.0, 10.0]}, "'p0'", "shape (2,)"),
    "missing key": ({"p0": [10.0, 10.0]}, "'p1'", "missing"),
    "not numbers": ({"p0": ["a", "b"], "p1": [10.0, 10.0]}, "'p0'", "not a pair of numbers"),
    "not a mapping": ([[1.0, 2.0], [3.0, 4.0]], "mapping", "got list"),
}


@pytest.mark.parametrize("case", list(BAD_ACTIONS))
def test_bad_action_is_reported_not_raised(env, case):
    action, names, says = BAD_ACTIONS[case]
    env.reset(seed=5)
    _, reward, terminated, _, info = env.step(action)
    assert reward == 0.0 and terminated and info["success"] is False
    assert names in info["action_error"] and says in info["action_error"]
    assert info["state"] == info["current_state"]  # nothing was performed
    # The env keeps working: the next episode succeeds with the oracle.
    obs, info = env.reset(seed=6)
    _, reward, _, _, info = env.step(OracleAgent().act(obs, info))
    assert reward == 1.0 and info["action_error"] is None


def test_normalized_coordinates():
    env = gym.make("FineState-Web-v0", coord_mode="normalized").unwrapped
    pixel_env = gym.make("FineState-Web-v0").unwrapped
    try:
        obs, info = env.reset(seed=4)
        _, pixel_info = pixel_env.reset(seed=4)
        for name, box in info["boxes"]["current"].items():
            pixel_box = pixel_info["boxes"]["current"][name]
            assert box.tolist() == [pixel_box[0] / 1280, pixel_box[1] / 720,
                                  pixel_box[2] / 1280, pixel_box[3] / 720]
        assert env.action_space["p0"].high.tolist() == [1.0, 1.0]
        _, reward, _, _, step_info = env.step(OracleAgent().act(obs, info))
        assert reward == 1.0 and step_info["static"]["es_sr_int"]
    finally:
        env.close()
        pixel_env.close()


def test_viewport_option():
    # 800x600 is too small for an app page (the default scene): the error says what fits.
    with pytest.raises(ValueError, match="1100x700 CSS px.*scene='control'"):
        gym.make("FineState-Web-v0", viewport="800x600")
    env = gym.make("FineState-Web-v0", viewport="800x600", scene="control").unwrapped
    try:
        obs, info = env.reset(seed=2)
        assert obs["screenshot"].shape == (600, 800, 3)
        assert env.action_space["p1"].high.tolist() == [800.0, 600.0]
        _, reward, _, _, _ = env.step(OracleAgent().act(obs, info))
        assert reward == 1.0
    finally:
        env.close()
    with pytest.raises(ValueError, match="WIDTHxHEIGHT"):
        gym.make("FineState-Web-v0", viewport="big")


def test_component_and_family_options():
    with pytest.raises(ValueError, match="unknown component"):
        gym.make("FineState-Web-v0", component="no_such_type")
    with pytest.raises(ValueError, match="unknown family"):
        gym.make("FineState-Web-v0", family="no_such_family")
    env = gym.make("FineState-Web-v0", family="numeric_range").unwrapped
    try:
        seen = {env.reset(seed=s)[1]["family"] for s in range(6)}
        assert seen == {"numeric_range"}
    finally:
        env.close()


def test_reset_renders_a_given_instance(env):
    _, info = env.reset(seed=9)
    instance = env.instance
    env.reset(seed=10)
    # The model, its dict or info["instance"]'s JSON text: the same instance again.
    for given in (instance, instance.model_dump(mode="json"), info["instance"]):
        obs, info2 = env.reset(options={"instance": given})
        assert env.instance.id == instance.id and info2["instance"] == info["instance"]
        for config in ("current", "target"):
            for name, box in info["boxes"][config].items():
                assert np.array_equal(info2["boxes"][config][name], box)
    _, reward, _, _, _ = env.step(OracleAgent().act(obs, info2))
    assert reward == 1.0


def test_no_request_leaves_the_browser(env):
    """Requests elsewhere are refused twice over: the page's CSP blocks them (and records
    it), and the backend's interception fails whatever reaches it that is not one of the
    package's own files."""
    env.reset(seed=1)
    before = len(env.backend.blocked_requests)
    env.backend.evaluate("""async () => {
        const img = new Image(); img.src = 'https://example.com/pixel.png';
        try { await fetch('http://127.0.0.1:9/x'); } catch (e) {}
        try { await fetch('/not-a-stage-file.json'); } catch (e) {}
        await new Promise(r => setTimeout(r, 100));
    }""")
    violations = env.backend.evaluate("() => FineState.violations()")
    assert "img-src blocked https://example.com/pixel.png" in violations
    assert "connect-src blocked http://127.0.0.1:9/x" in violations
    blocked = env.backend.blocked_requests[before:]
    assert blocked == ["http://finestate.invalid/not-a-stage-file.json"]
    # The page was changed by script: the next instance is shown on a fresh page.
    tampered = env.backend.tampered_pages
    env.reset(seed=2)
    assert env.backend.tampered_pages == tampered + 1


@pytest.mark.parametrize("env_id", ["FineState-Web-v0", "FineState-Mobile-v0"])
def test_close_leaves_no_browser_process(env_id):
    before = descendants(os.getpid())
    chromium_before = matching(b"chromium")
    # A browser of its own: the module's env would keep a shared one running (a shared
    # browser closes with its last env: tests/backends/test_shared_browser.py).
    env = gym.make(env_id, backend_options={"shared_browser": False})
    env.reset(seed=0)
    started = descendants(os.getpid()) - before
    assert started, "the env started no process: is the browser real?"
    env.close()
    assert alive(started) == set()
    # Nothing daemonised either (a crash handler re-parented to init, say). Other test
    # processes may start browsers meanwhile (make test runs a worker per core): theirs
    # have a living parent, an orphan of ours has init.
    assert {pid for pid in matching(b"chromium") - chromium_before
            if _parent(pid) == 1} == set()
    env.close()  # closing twice is harmless


def test_browser_crash_is_recovered():
    before = descendants(os.getpid())
    env = gym.make("FineState-Web-v0", backend_options={"shared_browser": False}).unwrapped
    try:
        obs, info = env.reset(seed=0)
        # Kill this env's browser only (the module's env shares another one, which lives on).
        for pid in (descendants(os.getpid()) - before) & matching(b"chromium"):
            os.kill(pid, 9)
        _, reward, terminated, _, info = env.step(OracleAgent().act(obs, info))
        # A crash is never a verdict: the step was done again on a new browser.
        assert reward == 1.0 and terminated and info["action_error"] is None
        assert "Chromium died" in info["recovered"]
        obs, info = env.reset(seed=1)
        _, reward, _, _, _ = env.step(OracleAgent().act(obs, info))
        assert reward == 1.0
    finally:
        env.close()


def test_renderer_crash_is_recovered():
    """Only the page's renderer dies, the browser lives on: the next input on
    the env's own DevTools connection fails, and the step is done again on a new page."""
    before = descendants(os.getpid())
    env = gym.make("FineState-Web-v0").unwrapped
    try:
        obs, info = env.reset(seed=0)
        renderers = [pid for pid in descendants(os.getpid()) - before
                     if b"--type=renderer" in _cmdline(pid)]
        assert renderers, "no renderer process found"
        for pid in renderers:
            os.kill(pid, 9)
        deadline = time.monotonic() + 5
        while alive(set(renderers)) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.5)  # the browser has seen its renderer go before the next input
        _, reward, terminated, _, info = env.step(OracleAgent().act(obs, info))
        assert reward == 1.0 and terminated and "Chromium died" in info["recovered"]
        obs, info = env.reset(seed=1)
        _, reward, _, _, _ = env.step(OracleAgent().act(obs, info))
        assert reward == 1.0
    finally:
        env.close()


def _parent(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat") as file:
            return int(file.read().rsplit(")", 1)[1].split()[1])
    except OSError:  # gone meanwhile
        return None


def _cmdline(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as file:
            return file.read()
    except OSError:  # gone meanwhile
        return b""


def test_oracle_points_are_inside_their_boxes(env):
    obs, info = env.reset(seed=8)
    action = OracleAgent().act(obs, info)
    boxes = info["boxes"]["current"]
    assert tuple(action["p1"]) == tuple(np.float32(box_center(boxes["goal"])))
