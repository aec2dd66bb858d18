"""Frames captured under Chromium's begin-frame control (WebBackend capture="begin_frame",
issue #34): the same pixels and the same states as Page.captureScreenshot gives, episode
by episode (a render, a gesture, a capture after each), on every type and on app pages;
the browser's switches; the fallback for a browser that offers no begin-frame control."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.agents.scripted import OracleAgent
from finestate_env.backends import web
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
    assert UNPACED in WebBackend()._launch_args()
    assert not WebBackend(capture="begin_frame", headless=False).begin_frames


def test_capture_is_checked_and_read_from_the_environment(monkeypatch):
    with pytest.raises(ValueError, match="capture must be one of"):
        WebBackend(capture="redraw")
    monkeypatch.setenv("FINESTATE_CAPTURE", "begin_frame")
    assert WebBackend().capture == "begin_frame"
    monkeypatch.delenv("FINESTATE_CAPTURE")
    assert WebBackend().capture == "screenshot"


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
