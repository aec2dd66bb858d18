"""The reward scorer's pages (rewards/scorer.py): drawn without frames (WebBackend
frames=False, Chromium under begin-frame control), and going on from the page the last
probe left when the same instance comes again. Neither may change a state: gestures
probed so, split over two probe calls, read back exactly what a fresh episode of the same
instance stepped with the same points reads back, on every type and on app pages."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from finestate_env.backends.web import WebBackend
from finestate_env.core.coords import box_center
from finestate_env.core.states import encode_state


@pytest.fixture(scope="module")
def frameless():
    backend = WebBackend(shared_browser=False, frames=False)
    yield backend
    backend.close()


def pairs_for(instance, rng, count: int) -> list[tuple[tuple[float, float], ...]]:
    """The oracle's points, then points in and around the control and anywhere."""
    current = instance.boxes.current
    width, height = instance.size.width, instance.size.height
    x1, y1, x2, y2 = current.loc
    near = np.array([max(0, x1 - 30), max(0, y1 - 30), min(width - 1, x2 + 30),
                     min(height - 1, y2 + 30)], float)
    pairs = [(box_center(current.now), box_center(current.goal))]
    while len(pairs) < count:
        where = near if rng.random() < 0.75 else np.array([0, 0, width - 1, height - 1], float)
        p0, p1 = (tuple(float(np.float32(v)) for v in rng.uniform(where[:2], where[2:]))
                  for _ in range(2))
        pairs.append((p0, p1))
    return pairs


def episode_states(env, instance, pairs) -> list[str]:
    """The state each pair leaves in a fresh episode (the first pair, the oracle's, must
    reach the goal: the pairs then show both outcomes)."""
    states, successes = [], []
    for p0, p1 in pairs:
        env.reset(options={"instance": instance})
        _, _, _, _, info = env.step({"p0": np.array(p0, np.float32),
                                     "p1": np.array(p1, np.float32)})
        states.append(info["state"])
        successes.append(info["success"])
    assert successes[0]
    return states


def probed_in_two_calls(backend, instance, pairs) -> list[str]:
    renders = backend.probe_renders
    half = len(pairs) // 2
    states = (backend.probe(instance.live, instance.gesture, pairs[:half])
              + backend.probe(instance.live, instance.gesture, pairs[half:]))
    assert backend.probe_renders == renders + 1  # the second call went on, unrendered
    return [encode_state(state) for state in states]


def test_lone_controls_of_every_type(env_for, component, frameless):
    env = env_for(component)
    env.reset(seed=202)
    instance = env.instance
    pairs = pairs_for(instance, np.random.default_rng(len(component)), 6)
    expected = episode_states(env, instance, pairs)
    assert probed_in_two_calls(frameless, instance, pairs) == expected


@pytest.mark.parametrize("seed", range(3))
def test_app_pages(frameless, seed):
    env = gym.make("FineState-Web-v0").unwrapped
    try:
        env.reset(seed=4000 + seed)
        instance = env.instance
        pairs = pairs_for(instance, np.random.default_rng(seed), 8)
        expected = episode_states(env, instance, pairs)
    finally:
        env.close()
    assert probed_in_two_calls(frameless, instance, pairs) == expected


def test_anything_else_on_the_page_between_probes_renders_again(env_for, frameless):
    env = env_for("slider")
    env.reset(seed=7)
    instance = env.instance
    pair = [(box_center(instance.boxes.current.now), box_center(instance.boxes.current.goal))]
    frameless.probe(instance.live, instance.gesture, pair)
    renders = frameless.probe_renders
    frameless.read_state()  # another call to the page: the next probe shows the spec again
    assert frameless.probe(instance.live, instance.gesture, pair) == [instance.goal_state]
    assert frameless.probe_renders == renders + 1
    with pytest.raises(RuntimeError, match="draws no frames"):
        frameless.screenshot()
