"""Frames captured under Chromium's begin-frame control (WebBackend capture="begin_frame",
issue #34): the same pixels and the same states as Page.captureScreenshot gives, episode
by episode (a render, a gesture, a capture after each), on every type and on app pages,
full size and at an RL observation's scale; the browser's switches; the default; the
fallback for a browser that offers no begin-frame control."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import gymnasium as gym
import numpy as np
import pytest

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.agents.scripted import OracleAgent
from finestate_env.backends import web
from finestate_env.backends.mobile import MobileBackend
from finestate_env.backends.web import BEGIN_FRAME_ARGS, UNPACED, WebBackend
from finestate_env.components import COMPONENTS


def _episodes(capture: str, scene: str | None, components) -> list[tuple]:
    """(first screenshot, state, screenshot after the oracle's gesture) per type."""
    kwargs = {} if scene is None else {"scene": scene}
    env = gym.make("FineState-Web-v0", max_actions=2,
                   backend_options={"capture": capture, "shared_browser": False}, **kwargs)
    try:
        assert env.unwrapped.backend.capture == capture
        seen = []
        for i, component in enumerate(components):
            obs, info = env.reset(seed=2000 + i, options={"component": component})
            after, _, _, _, step_info = env.step(OracleAgent().act(obs, info))
            seen.append((obs["screenshot"], step_info["state"], after["screenshot"]))
        assert env.unwrapped.backend.begin_frames == (capture == "begin_frame")
        return seen
    finally:
        env.close()


def _scaled_episodes(capture: str, components) -> list[tuple]:
    """An RL user's env (84x84 screenshots, lone controls: captured at a small scale,
    env/observation.py), per type: the first observation, then for the oracle's gesture
    and a random one from the control, each its state and next observation."""
    env = gym.make("FineState-Web-v0", scene="control", obs_type="screenshot",
                   obs_size="84x84", max_actions=3,
                   backend_options={"capture": capture, "shared_browser": False})
    rng = np.random.default_rng(34)
    try:
        seen = []
        for i, component in enumerate(components):
            obs, info = env.reset(seed=3000 + i, options={"component": component})
            assert env.unwrapped._screenshot.shape[1] < 1280  # captured small
            seen.append(obs)
            for gesture in ("oracle", "random"):
                now = np.asarray(info["boxes"]["current"]["now"], dtype=np.float64)
                if gesture == "oracle":
                    action = OracleAgent().act({}, info)
                else:
                    action = {"p0": rng.uniform(now[:2], now[2:]).astype(np.float32),
                              "p1": rng.uniform((0, 0), (1280, 720)).astype(np.float32)}
                obs, _, terminated, truncated, info = env.step(action)
                seen += [info["state"], obs]
                if terminated or truncated:
                    break
        assert env.unwrapped.backend.begin_frames == (capture == "begin_frame")
        return seen
    finally:
        env.close()


def test_scaled_begin_frame_captures_give_the_screenshots_pixels_and_states():
    # Chromium draws a scaled clip by resizing the view around a frame of its own; under
    # begin-frame control that frame is asked for. Input after it must land where it did.
    components = list(COMPONENTS)
    drawn = _scaled_episodes("screenshot", components)
    framed = _scaled_episodes("begin_frame", components)
    assert len(drawn) == len(framed) > 2 * len(components)
    for i, (seen, seen_bf) in enumerate(zip(drawn, framed, strict=True)):
        if isinstance(seen, np.ndarray):
            assert np.array_equal(seen, seen_bf), i
        else:
            assert seen == seen_bf, i


@pytest.mark.parametrize("scene", ["control", None], ids=["lone controls", "app pages"])
def test_begin_frame_captures_give_the_screenshots_pixels(scene):
    components = list(COMPONENTS) if scene == "control" else list(COMPONENTS)[:6]
    drawn = _episodes("screenshot", scene, components)
    framed = _episodes("begin_frame", scene, components)
    for component, (first, state, after), (first_bf, state_bf, after_bf) in zip(
            components, drawn, framed, strict=True):
        assert np.array_equal(first, first_bf), component
        assert state == state_bf, component
        assert np.array_equal(after, after_bf), component


def test_the_begin_frame_browser_is_launched_to_draw_only_when_asked():
    args = WebBackend(capture="begin_frame")._launch_args()
    assert set(BEGIN_FRAME_ARGS) <= set(args) and UNPACED not in args
    assert UNPACED in WebBackend(capture="screenshot")._launch_args()
    assert not WebBackend(capture="begin_frame", headless=False).begin_frames


def test_capture_is_checked_and_read_from_the_environment(monkeypatch):
    with pytest.raises(ValueError, match="capture must be one of"):
        WebBackend(capture="redraw")
    monkeypatch.setenv("FINESTATE_CAPTURE", "begin_frame")
    assert WebBackend().capture == "begin_frame"
    monkeypatch.setenv("FINESTATE_CAPTURE", "screenshot")
    assert WebBackend().capture == "screenshot"
    monkeypatch.delenv("FINESTATE_CAPTURE")
    assert WebBackend().capture == "begin_frame"  # the default (issue #34)
    # A phone's touch input is drawn as ever (untried under begin-frame control).
    assert MobileBackend().capture == "screenshot"


def test_a_browser_without_begin_frame_control_is_captured_with_screenshots(monkeypatch):
    monkeypatch.setattr(web.WebBackend, "_frames_offered", lambda self: False)
    backend = WebBackend(capture="begin_frame", shared_browser=False)
    try:
        with pytest.warns(RuntimeWarning, match="offers no begin-frame control"):
            backend.start()
        assert not backend.begin_frames
        assert set(BEGIN_FRAME_ARGS).isdisjoint(backend._launch_args())
        assert backend.screenshot().shape == (720, 1280, 3)
    finally:
        backend.close()


def test_pages_of_one_browser_capture_from_threads_at_once():
    # Two pages' overlapping begin-frame requests make the browser's GPU process exit (six
    # times and the browser gives up): a browser takes one at a time (SharedBrowser.frame_lock).
    backends = [WebBackend(capture="begin_frame", browser_group="frame-lock") for _ in range(2)]
    try:
        for backend in backends:
            backend.start()
        assert backends[0]._browser is backends[1]._browser and backends[0].begin_frames
        sampler = gym.make("FineState-Web-v0", scene="control")  # never started: no browser
        spec = sampler.unwrapped._sample_live(5, "slider")
        sampler.close()

        def capture(backend: WebBackend) -> list[np.ndarray]:
            backend.render(spec)
            return [backend.screenshot() for _ in range(30)]

        with ThreadPoolExecutor(2) as pool:
            shots = list(pool.map(capture, backends))
        assert backends[0]._browser.crashed is None
        assert all(np.array_equal(shot, shots[0][0]) for seen in shots for shot in seen)
    finally:
        for backend in backends:
            backend.close()


def test_a_capture_after_a_render_or_read_back_marks_the_page_in_that_call():
    # The capture's marker is set up by the render or read-back just before it (the env's
    # reset and step), saving a round trip; changes made after it are drawn all the same,
    # and a frame asked for in between (a gesture's) makes the capture mark the page itself.
    backend = WebBackend(capture="begin_frame", shared_browser=False)
    sampler = gym.make("FineState-Web-v0", scene="control")  # never started: no browser
    spec = sampler.unwrapped._sample_live(7, "slider")
    sampler.close()
    try:
        backend.start()
        scripts: list[str] = []
        send = backend._cdp.send
        backend._cdp.send = lambda method, params=None: (
            scripts.append((params or {}).get("expression", "")), send(method, params))[1]

        def markers_in(capture) -> tuple[int, np.ndarray]:
            scripts.clear()
            shot = capture()
            return sum(web._MARK in script for script in scripts), shot

        rendered = backend.render(spec)
        markers, first = markers_in(backend.screenshot)
        assert markers == 0

        backend.read_state()
        backend.evaluate("document.body.style.background = 'rgb(255, 0, 0)'")
        markers, red = markers_in(backend.screenshot)
        assert markers == 0 and tuple(red[-1, -1]) == (255, 0, 0)  # drawn, though marked before
        backend.evaluate("document.body.style.background = ''")

        box = rendered.boxes.current.now
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        backend.perform("drag", centre, (box[2], centre[1]))
        markers, moved = markers_in(backend.screenshot)
        assert markers == 1  # the gesture's frames may have run the old marker: a new one
        assert not np.array_equal(moved, first)
        assert np.array_equal(moved, backend.screenshot())  # nothing left undrawn
    finally:
        backend.close()
