"""The screenshot's Box holds no image-sized arrays: one value per bound, seen whole
through broadcast views, in every env and in a vector env's batched space. It is what
Gymnasium's own Box of the same bounds is to everything that reads it. And a small image
observation of a lone control is built from a screenshot captured at its own scale, an app
page's from the full screenshot; render() stays full, a seed gives its pixels."""

from __future__ import annotations

import pickle

import gymnasium as gym
import numpy as np
import pytest
from gymnasium import spaces
from gymnasium.vector.utils import batch_space, concatenate, create_empty_array
from stable_baselines3.common.preprocessing import is_image_space

from finestate_env.env.spaces import ImageBox, image_space

SHAPE = (720, 1280, 3)
BOUNDS = ("low", "high", "bounded_below", "bounded_above")


def costs_nothing(space: spaces.Box) -> bool:
    """Every bound array is a view of one value (all strides 0)."""
    return all(not any(getattr(space, name).strides) for name in BOUNDS)


@pytest.mark.fast
@pytest.mark.parametrize(("dtype", "low", "high"), [("uint8", 0, 255), ("float32", 0.0, 1.0)])
def test_the_image_box_is_gymnasiums_box_of_the_same_bounds(dtype, low, high):
    light = image_space(SHAPE, dtype)
    plain = spaces.Box(low, high, SHAPE, np.dtype(dtype))
    assert costs_nothing(light) and not costs_nothing(plain)
    assert light == plain and plain == light and isinstance(light, spaces.Box)
    assert repr(light) == repr(plain) and light.shape == SHAPE and light.dtype == plain.dtype
    for name in BOUNDS:
        assert np.array_equal(getattr(light, name), getattr(plain, name))
        assert not getattr(light, name).flags.writeable
    assert light.is_bounded() and light.contains(light.sample())
    assert not light.contains(np.zeros((720, 1280, 4), dtype))
    if dtype == "uint8":
        assert is_image_space(light) == is_image_space(plain)
        assert not light.contains(np.full(SHAPE, 1.5, np.float32))


@pytest.mark.fast
def test_a_batch_of_image_boxes_costs_nothing_either():
    single = image_space(SHAPE, "uint8")
    batched = batch_space(single, 8)
    assert isinstance(batched, ImageBox) and costs_nothing(batched)
    assert batched == batch_space(spaces.Box(0, 255, SHAPE, np.uint8), 8)
    buffer = create_empty_array(single, 3)
    images = [np.full(SHAPE, value, np.uint8) for value in (0, 7, 255)]
    assert np.array_equal(concatenate(single, images, buffer), np.stack(images))
    assert batch_space(single, 3).contains(buffer)


@pytest.mark.fast
def test_a_pickled_image_box_is_small_and_the_same_space():
    space = image_space(SHAPE, "uint8")
    space.seed(3)
    data = pickle.dumps(space)
    assert len(data) < 4096  # Gymnasium's own Box of these bounds pickles 11 MB
    back = pickle.loads(data)
    assert isinstance(back, ImageBox) and costs_nothing(back) and back == space
    assert np.array_equal(back.sample(), space.sample())  # the generator's state went too


def test_the_envs_and_their_vector_env_keep_no_image_sized_bounds():
    envs = gym.make_vec("FineState-Web-v0", num_envs=2, component="switch", scene="control")
    try:
        image = envs.single_observation_space["screenshot"]
        assert costs_nothing(image) and costs_nothing(envs.observation_space["screenshot"])
        assert all(costs_nothing(space["screenshot"])
                   for space in envs.get_attr("observation_space"))
        observations, _ = envs.reset(seed=0)
        assert envs.observation_space.contains(observations)
        assert observations["screenshot"].shape == (2, *SHAPE)
    finally:
        envs.close()


def test_a_small_observation_asks_for_a_scaled_capture_and_takes_either_size():
    from finestate_env.env.observation import OVERSAMPLE, ObservationMaker

    # Full size unless the observation is at most a quarter of the screen's per side.
    assert ObservationMaker((1280, 720), "screenshot").capture_scale is None
    assert ObservationMaker((1280, 720), "screenshot", (640, 360)).capture_scale is None
    small = ObservationMaker((1280, 720), "screenshot", (84, 84))
    assert small.capture_scale == OVERSAMPLE * 84 / 720
    image = ObservationMaker((1280, 720), "image", (84, 84))
    assert image.capture_scale == OVERSAMPLE * 84 / (720 + image.strip_height)
    # The instruction's strip follows a scaled screenshot's width.
    rng = np.random.default_rng(0)
    full = rng.integers(0, 256, (720, 1280, 3), np.uint8)
    for maker in (small, image):
        for shot in (full, full[::4, ::4]):
            obs = maker(shot, "Set the volume to 30")
            assert obs.shape == (84, 84, 3) and obs.dtype == np.uint8


def _oracle(info):
    now, goal = info["boxes"]["current"]["now"], info["boxes"]["current"]["goal"]
    return {"p0": np.array([(now[0] + now[2]) / 2, (now[1] + now[3]) / 2], np.float32),
            "p1": np.array([(goal[0] + goal[2]) / 2, (goal[1] + goal[3]) / 2], np.float32)}


def test_a_lone_controls_scaled_capture_is_deterministic_close_and_render_stays_full():
    from finestate_env.env.observation import ObservationMaker

    kwargs = {"component": "slider", "scene": "control", "obs_type": "screenshot",
              "obs_size": (84, 84), "render_mode": "rgb_array"}
    env = gym.make("FineState-Web-v0", **kwargs)
    other = gym.make("FineState-Web-v0", **kwargs, terminal_obs="skip")
    try:
        # The observation wrapper asks each reset for the scale it allows.
        assert env.get_wrapper_attr("maker").capture_scale == 2 * 84 / 720
        obs, info = env.reset(seed=2)
        assert env.unwrapped._screenshot.shape == (168, 299, 3)  # 2 x 84 rows of the 720
        full = env.render()
        assert full.shape == SHAPE
        # As the full screenshot resized gives, within a grey level on average.
        resized = ObservationMaker((1280, 720), "screenshot", (84, 84))._image(full)
        assert np.abs(obs.astype(int) - resized.astype(int)).mean() < 1.0
        # The same seed, another env (another page): the same pixels.
        again, _ = other.reset(seed=2)
        assert np.array_equal(again, obs)
        shown, reward, *_ = env.step(_oracle(info))
        assert reward == 1.0 and env.unwrapped._screenshot.shape == (168, 299, 3)
        assert not np.array_equal(shown, obs) and env.render().shape == SHAPE
        skipped, reward, *_ = other.step(_oracle(info))
        assert reward == 1.0 and np.array_equal(skipped, obs)  # the terminal shot skipped
        assert np.array_equal(other.render(), env.render())
    finally:
        env.close()
        other.close()


def test_an_app_pages_small_observation_is_the_full_screenshot_resized_seed_for_seed():
    # Drawn at a small scale, a page came out differently for the same seed (around its
    # icons): its RL observation is the full screenshot, resized, every time.
    from finestate_env.env.observation import ObservationMaker

    env = gym.make("FineState-Web-v0", component=["slider", "switch"], scene="page",
                   obs_type="screenshot", obs_size=(84, 84), render_mode="rgb_array")
    try:
        resize = ObservationMaker((1280, 720), "screenshot", (84, 84))._image
        for seed in (12, 15, 19, 22, 25, 33, 36, 40):
            obs, _ = env.reset(seed=seed)
            assert env.unwrapped._screenshot.shape == SHAPE
            assert np.array_equal(obs, resize(env.render()))
            again, _ = env.reset(seed=seed)
            assert np.array_equal(again, obs), seed
    finally:
        env.close()
