"""One browser for many envs (issue #17): the envs of a process that launch Chromium the
same way share one browser, each with a page and a renderer of its own.

What sharing must not change: each env's instances and pixels are those of an env with a
browser of its own, whatever the others do in between; a dead browser is reported by
every env that used it, and each recovers; closing the last env leaves no process.
"""

from __future__ import annotations

import os
import signal
import time

import gymnasium as gym
import numpy as np
import pytest

from finestate_env.agents.scripted import OracleAgent
from finestate_env.backends.processes import alive, descendants, tree_memory_mib
from finestate_env.components import COMPONENTS

TYPES = list(COMPONENTS)


def _episode(env, component: str, seed: int) -> tuple[np.ndarray, np.ndarray, float]:
    obs, info = env.reset(seed=seed, options={"component": component})
    shown = obs["screenshot"].copy()
    obs, reward, _, _, _ = env.step(OracleAgent().act(obs, info))
    return shown, obs["screenshot"].copy(), reward


@pytest.mark.parametrize("env_id", ["FineState-Web-v0", "FineState-Mobile-v0"])
def test_envs_of_a_process_share_one_browser_and_keep_their_pixels(env_id):
    alone = gym.make(env_id, backend_options={"shared_browser": False}).unwrapped
    shared = [gym.make(env_id).unwrapped for _ in range(3)]
    try:
        expected = {name: _episode(alone, name, 500 + i) for i, name in enumerate(TYPES)}
        # Interleaved: env k shows type i while the others hold other types on their pages.
        for i, name in enumerate(TYPES):
            env = shared[i % len(shared)]
            shown, after, reward = _episode(env, name, 500 + i)
            assert reward == 1.0, name
            assert np.array_equal(shown, expected[name][0]), f"{name}: reset pixels differ"
            assert np.array_equal(after, expected[name][1]), f"{name}: step pixels differ"
        browsers = {id(env.backend._browser) for env in shared}
        assert len(browsers) == 1
        assert alone.backend._browser is not shared[0].backend._browser
    finally:
        alone.close()
        for env in shared:
            env.close()


def test_a_dead_shared_browser_is_recovered_by_each_env():
    before = descendants(os.getpid())
    # A screen no other test's env asks for: these two share a browser nobody else uses,
    # so the one killed below is theirs (other envs of the session live on).
    envs = [gym.make("FineState-Web-v0", viewport=(1280, 716)).unwrapped for _ in range(2)]
    try:
        started = []
        for env in envs:
            obs, info = env.reset(seed=0, options={"component": "slider"})
            started.append((obs, info))
        browser = envs[0].backend._browser
        for pid in descendants(os.getpid()) - before:  # its browser and renderers
            if b"chrom" in open(f"/proc/{pid}/cmdline", "rb").read():
                os.kill(pid, signal.SIGKILL)
        for env, (obs, info) in zip(envs, started, strict=True):
            _, reward, terminated, _, info = env.step(OracleAgent().act(obs, info))
            assert reward == 1.0 and terminated  # done again on a new browser
            assert "Chromium died" in info["recovered"]
        for env in envs:  # the new browser, shared again
            obs, info = env.reset(seed=1, options={"component": "slider"})
            _, reward, _, _, _ = env.step(OracleAgent().act(obs, info))
            assert reward == 1.0
        assert envs[0].backend._browser is envs[1].backend._browser is not browser
    finally:
        for env in envs:
            env.close()


def test_each_env_beyond_the_first_costs_a_page_not_a_browser():
    """A gross-regression guard (make bench measures it): a browser of its own costs an
    env over 300 MiB of PSS here, a page of a shared one well under 120."""
    before = descendants(os.getpid())
    envs = []
    try:
        for _ in range(4):
            env = gym.make("FineState-Web-v0", viewport=(1280, 712)).unwrapped  # a fresh key
            env.reset(seed=0, options={"component": "slider"})
            envs.append(env)
            if len(envs) == 1:
                one = tree_memory_mib()["pss"]
        extra = (tree_memory_mib()["pss"] - one) / 3
        assert extra < 200, f"each env beyond the first costs {extra:.0f} MiB of PSS"
    finally:
        for env in envs:
            env.close()
    assert alive(descendants(os.getpid()) - before) == set()


def test_a_page_renewed_every_few_renders_keeps_the_pixels_and_frees_its_renderer():
    """A page is replaced by a fresh one (a new renderer process) every `renew_every`
    renders, which keeps memory flat over long runs (make soak): the same seeds give the
    same pixels, and the old renderer is gone."""
    def renderers() -> set[int]:
        return {pid for pid in descendants(os.getpid())
                if b"--type=renderer" in open(f"/proc/{pid}/cmdline", "rb").read()}

    plain = gym.make("FineState-Web-v0", backend_options={"shared_browser": False}).unwrapped
    renewed = gym.make("FineState-Web-v0", backend_options={"shared_browser": False,
                                                            "renew_every": 2}).unwrapped
    try:
        seen = []
        for seed in range(5):
            expected = _episode(plain, TYPES[seed], 700 + seed)
            before = renderers()
            shown, after, reward = _episode(renewed, TYPES[seed], 700 + seed)
            assert reward == 1.0
            assert np.array_equal(shown, expected[0]) and np.array_equal(after, expected[1])
            seen.append(renewed.backend._cdp.url)  # names the page target
            if seed in (2, 4):  # renders 3 and 5: a fresh page in a new renderer process
                assert seen[-1] != seen[-2]
                deadline = time.monotonic() + 5  # the old renderer exits once its page closed
                while len(renderers()) > len(before) and time.monotonic() < deadline:
                    time.sleep(0.05)
                now = renderers()
                assert now - before and len(now) == len(before)
        assert len(set(seen)) == 3
    finally:
        plain.close()
        renewed.close()
    with pytest.raises(ValueError, match="renew_every"):
        gym.make("FineState-Web-v0", backend_options={"renew_every": -1})
