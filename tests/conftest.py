"""Shared fixtures: real Chromium envs, one per component type, reused across tests; and the
fast tier's marker.

`@pytest.mark.fast` (or a module's `pytestmark`) puts a test in the fast tier, which
`make test-fast` runs alone (`-m fast`) and `make test` with everything else: a test that
needs no browser, no X display, no device and no JDK (the fake backend at most,
backends/fake.py) and takes seconds. In such a test, starting a real backend fails at
once, so that the tier stays what it says.
"""

from __future__ import annotations

import gymnasium as gym
import pytest

from finestate_env import components

FAST_MARKER = ("fast: needs no browser, X display, device or JDK (the fake backend at most) "
               "and runs in seconds; `make test-fast` runs these alone")


def pytest_configure(config):
    config.addinivalue_line("markers", FAST_MARKER)


@pytest.fixture(autouse=True)
def _fast_tier_starts_no_real_backend(request, monkeypatch):
    """In a test marked fast, a real backend's start() raises instead of launching."""
    if request.node.get_closest_marker("fast") is None:
        return
    from finestate_env.backends.adb import AdbBackend
    from finestate_env.backends.adb_native import NativeViewsBackend
    from finestate_env.backends.desktop import DesktopBackend
    from finestate_env.backends.web import WebBackend

    def refuse(self, *args, **kwargs):
        raise RuntimeError(f"a test marked fast started {type(self).__name__}: it needs a real "
                           "renderer, so it belongs to the full suite (make test) alone")

    for cls in (WebBackend, DesktopBackend, AdbBackend, NativeViewsBackend):
        monkeypatch.setattr(cls, "start", refuse)


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
