"""The make-time options RL libraries need: a screenshot-only Box observation with the
instruction drawn in, the instruction as bytes beside the screenshot, resizing, float32
pixels, a flat [-1, 1] action; and every point the action spaces contain performable."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from env_checks import check_env_as_made
from gymnasium.utils.env_checker import check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from finestate_env.components import COMPONENTS
from finestate_env.core.actions import parse_action, parse_flat_action
from finestate_env.env.observation import (
    STRIP_LINES,
    ObservationMaker,
    instruction_bytes,
    wrap_instruction,
)
from finestate_env.env.spaces import INSTRUCTION_MAX_LENGTH, action_space

RL_MODES = {
    "image-84-float32-flat": {"obs_type": "image", "obs_size": (84, 84), "obs_dtype": "float32",
                              "action_type": "flat"},
    "dict_bytes-84-flat": {"obs_type": "dict_bytes", "obs_size": "84x84",
                           "action_type": "flat"},
    "image-native": {"obs_type": "image"},
}


@pytest.mark.parametrize("mode", list(RL_MODES))
def test_gymnasium_and_sb3_checkers_take_the_rl_modes(mode):
    env = gym.make("FineState-Web-v0", component=["slider", "switch"], **RL_MODES[mode])
    try:
        check_env(env.unwrapped)  # the raw env
        check_env_as_made(env)  # with the options' wrappers
        if mode != "image-native":  # SB3 warns (not fails) on big images; the others it takes
            sb3_check_env(env, warn=False)
        obs, _ = env.reset(seed=1)
        assert env.observation_space.contains(obs)
    finally:
        env.close()


def test_image_observation_shows_the_instruction_and_the_screenshot():
    env = gym.make("FineState-Web-v0", component="switch", obs_type="image",
                   render_mode="rgb_array")
    try:
        obs, _ = env.reset(seed=4)
        instruction = env.unwrapped.instance.instructions.interact
        strip = env.get_wrapper_attr("maker").strip_height
        assert obs.shape == (720 + strip, 1280, 3) and obs.dtype == np.uint8
        # Below the strip: the screenshot itself, pixel for pixel (render() gives it).
        assert np.array_equal(obs[strip:], env.render())
        # The strip holds dark text on white, and another instruction draws other pixels.
        assert (obs[:strip] < 100).any() and (obs[:strip] == 255).mean() > 0.8
        again, _ = env.reset(seed=4)
        assert np.array_equal(again, obs)  # deterministic
        other, _ = env.reset(seed=5)
        assert env.unwrapped.instance.instructions.interact != instruction
        assert not np.array_equal(other[:strip], obs[:strip])
    finally:
        env.close()


@pytest.mark.fast
@pytest.mark.parametrize("viewport,touch", [((1280, 720), False), ((1080, 2400), True)])
def test_every_instruction_fits_the_strip_whole(viewport, touch):
    # Instructions as the samplers write them, 30 seeds per type: none is shortened.
    maker = ObservationMaker(viewport, "image")
    layout = (viewport[0] // 3, viewport[1] // 3) if touch else viewport
    for component in COMPONENTS.values():
        for seed in range(30):
            rng = np.random.default_rng(seed)
            sample = component.sample(rng, layout, touch=touch)
            text = component.instructions(rng, sample).interact
            assert len(wrap_instruction(text, viewport[0], maker.font_px)) <= STRIP_LINES, text


def test_resize_and_float32():
    env = gym.make("FineState-Web-v0", component="switch", obs_type="image", obs_size=(84, 84),
                   obs_dtype="float32")
    try:
        obs, _ = env.reset(seed=0)
        assert obs.shape == (84, 84, 3) and obs.dtype == np.float32
        assert 0.0 <= obs.min() and obs.max() <= 1.0 and obs.std() > 0
    finally:
        env.close()


def test_dict_bytes_carries_the_instruction():
    env = gym.make("FineState-Web-v0", component="date_picker", obs_type="dict_bytes")
    try:
        obs, _ = env.reset(seed=0)
        assert obs["instruction"].shape == (INSTRUCTION_MAX_LENGTH,)
        text = bytes(obs["instruction"]).rstrip(b"\0").decode()
        assert text == env.unwrapped.instance.instructions.interact
        assert obs["screenshot"].shape == (720, 1280, 3)
    finally:
        env.close()
    assert bytes(instruction_bytes("Set 20 °C")).rstrip(b"\0").decode() == "Set 20 °C"


def test_flat_action_reaches_the_goal():
    env = gym.make("FineState-Web-v0", component="slider", action_type="flat")
    try:
        for seed in range(3):
            _, info = env.reset(seed=seed)
            now, goal = info["boxes"]["current"]["now"], info["boxes"]["current"]["goal"]
            points = [(now[0] + now[2]) / 2, (now[1] + now[3]) / 2,
                      (goal[0] + goal[2]) / 2, (goal[1] + goal[3]) / 2]
            action = np.array([p / s * 2 - 1 for p, s in zip(points, (1280, 720) * 2, strict=True)],
                              dtype=np.float32)
            _, reward, _, _, info2 = env.step(action)
            assert reward == 1.0 and info2["success"] and info2["action_error"] is None
        env.reset(seed=0)
        _, _, _, _, info2 = env.step(np.array([0, 0, 1.5, 0], dtype=np.float32))
        assert "outside [-1, 1]" in info2["action_error"]
    finally:
        env.close()


@pytest.mark.fast
@pytest.mark.parametrize("coord_mode,action_type", [("pixel", "dict"), ("normalized", "dict"),
                                                    ("pixel", "flat")])
def test_every_point_of_the_action_space_is_performable(coord_mode, action_type):
    space = action_space((1280, 720), coord_mode, action_type)
    space.seed(0)
    samples = [space.sample() for _ in range(1000)]
    # The corners too: what SB3 and RLlib produce when they clip onto the space.
    if action_type == "flat":
        samples += [np.array(c, np.float32) for c in ([1, 1, 1, 1], [-1, -1, -1, -1])]
    else:
        samples += [{"p0": space["p0"].high, "p1": space["p1"].high},
                    {"p0": space["p0"].low, "p1": space["p1"].low}]
    for action in samples:
        parsed = (parse_flat_action(action, (1280, 720)) if action_type == "flat"
                  else parse_action(action, coord_mode, (1280, 720)))
        assert parsed.error is None, action
        for x, y in (parsed.p0, parsed.p1):
            assert 0 <= x < 1280 and 0 <= y < 720


def test_the_space_edge_is_the_last_pixel_live():
    env = gym.make("FineState-Web-v0", component="switch").unwrapped
    try:
        env.reset(seed=0)
        edge = np.array([1280, 720], dtype=np.float32)
        _, _, _, _, info = env.step({"p0": edge, "p1": edge})
        assert info["action_error"] is None  # performed at (1279.5, 719.5)
        env.reset(seed=0)
        _, _, _, _, info = env.step({"p0": edge, "p1": edge + np.float32(0.5)})
        assert "off screen" in info["action_error"]
        assert parse_action({"p0": edge, "p1": edge}, "pixel", (1280, 720)).p1 == (1279.5, 719.5)
    finally:
        env.close()


@pytest.mark.fast
def test_bad_rl_options_are_named():
    with pytest.raises(ValueError, match="obs_type"):
        gym.make("FineState-Web-v0", obs_type="rgb")
    with pytest.raises(ValueError, match="obs_size"):
        gym.make("FineState-Web-v0", obs_size="84")
    with pytest.raises(ValueError, match="action_type"):
        gym.make("FineState-Web-v0", action_type="discrete")
