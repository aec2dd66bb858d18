"""Shared fixtures: real Chromium envs, one per component type, reused across tests."""

from __future__ import annotations

import gymnasium as gym
import pytest

from finestate_env import components


@pytest.fixture(scope="session")
def env_for():
    """`env_for(component)` -> an unwrapped FineState-Web-v0 env showing only that type,
    alone on the stage (scene="control"): the tests that use it are about each type's own
    behaviour. Pages, the default scene, have theirs in tests/components/test_scenes_live.py,
    and the default env's contract is tested in tests/env."""
    envs: dict[str, object] = {}

    def get(component: str):
        if component not in envs:
            envs[component] = gym.make("FineState-Web-v0", component=component,
                                       scene="control").unwrapped
        return envs[component]

    yield get
    for env in envs.values():
        env.close()


def pytest_generate_tests(metafunc):
    if "component" in metafunc.fixturenames:
        metafunc.parametrize("component", list(components.COMPONENTS))
