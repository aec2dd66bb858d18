"""The web and phone ids' own vector env (env/vector.py), as `gym.make_vec` gives it: envs
stepped at the same time from threads, one browser for all. That each env gives what a
single env gives is checked with the other vector modes in test_vector_and_checkers.py;
here: which class make_vec picks, the autoreset modes, masks, bad input, a browser
killed under it, and nothing left behind."""

from __future__ import annotations

import os
import signal

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from benchmarks.vector_bench import oracle_actions
from finestate_env.agents.scripted import OracleAgent
from finestate_env.backends.processes import alive, descendants
from finestate_env.env.vector import ConcurrentVectorEnv, browser_kwargs, default_browsers

# A screen no other test asks for: these envs' browser is theirs alone (chromium.BROWSERS).
VIEWPORT = (1280, 708)


def _make(num_envs: int = 2, **kwargs):
    return gym.make_vec("FineState-Web-v0", num_envs=num_envs, viewport=VIEWPORT,
                        scene="control", component="switch", **kwargs)


def test_make_vec_gives_the_concurrent_env_for_web_and_phone_and_sync_for_desktop():
    for env_id, kind in (("FineState-Web-v0", ConcurrentVectorEnv),
                         ("FineState-Mobile-v0", ConcurrentVectorEnv),
                         ("FineState-Desktop-v0", SyncVectorEnv)):
        spec = gym.spec(env_id)
        assert (spec.vector_entry_point is not None) == (kind is ConcurrentVectorEnv), env_id
    vec = _make(3)
    try:
        assert type(vec) is ConcurrentVectorEnv and vec.concurrent
        assert vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
        assert vec.observation_space["screenshot"].shape == (3, VIEWPORT[1], VIEWPORT[0], 3)
        browsers = {id(env.unwrapped.backend._browser) for env in vec.envs}
        # Pages drawn under begin-frame control (the default): a browser each, since a
        # browser asks for one frame at a time.
        assert all(env.unwrapped.backend.begin_frames for env in vec.envs)
        assert len(browsers) == vec.browsers == 3
    finally:
        vec.close()
    # Pages that draw on their own: one browser per CORES_PER_BROWSER cores (one on 2).
    vec = _make(3, backend_options={"capture": "screenshot"})
    try:
        browsers = {id(env.unwrapped.backend._browser) for env in vec.envs}
        assert len(browsers) == vec.browsers == default_browsers(3)
    finally:
        vec.close()
    vec = _make(3, browsers=1)  # the caller's choice stands
    try:
        assert len({id(env.unwrapped.backend._browser) for env in vec.envs}) == vec.browsers == 1
    finally:
        vec.close()


def test_envs_spread_over_browsers_step_as_single_envs_do():
    """browsers=2: env i in browser i mod 2; each gives the observation a single env of
    seed i gives, and the oracle reaches every goal."""
    vec = _make(4, browsers=2)
    single = gym.make("FineState-Web-v0", viewport=VIEWPORT, scene="control",
                      component="switch").unwrapped
    try:
        assert vec.browsers == 2
        browser = [id(env.unwrapped.backend._browser) for env in vec.envs]
        assert browser[0] == browser[2] != browser[1] == browser[3]
        obs, infos = vec.reset(seed=30)
        for i in range(4):
            alone, _ = single.reset(seed=30 + i)
            assert np.array_equal(obs["screenshot"][i], alone["screenshot"])
        _, rewards, terminated, _, _ = vec.step(oracle_actions(infos))
        assert rewards.tolist() == [1.0] * 4 and terminated.all()
    finally:
        vec.close()
        single.close()


@pytest.mark.fast
def test_how_many_browsers_make_vec_spreads_its_envs_over():
    assert [default_browsers(16, cores) for cores in (1, 2, 5, 6, 16, 64)] == [1, 1, 1, 2, 5, 16]
    assert default_browsers(2, cores=16) == 2  # never more browsers than envs
    kwargs = {"component": "switch"}
    assert browser_kwargs(kwargs, 3, 2)["backend_options"] == {"browser_group": 1}
    assert browser_kwargs(kwargs, 3, 1) is kwargs  # one browser: as before
    # the caller's own choice stands, and backends without browsers are left alone
    for own in ({"backend_options": {"shared_browser": False}},
                {"backend_options": {"browser_group": "mine"}}, {"backend": "adb"},
                {"backend": "fake"}):
        assert browser_kwargs(own, 3, 4) == own
    with pytest.raises(ValueError, match="browsers must be a whole number"):
        ConcurrentVectorEnv(2, browsers=0, backend="fake")


def test_next_step_autoreset_resets_on_the_step_after_the_last():
    vec = _make(2)
    try:
        _, infos = vec.reset(seed=10)
        _, rewards, terminated, truncated, _ = vec.step(oracle_actions(infos))
        assert rewards.tolist() == [1.0, 1.0] and terminated.all() and not truncated.any()
        # The next step is the reset step: no action performed, reward 0, a new episode.
        obs, rewards, terminated, _, infos = vec.step(oracle_actions(infos))
        assert rewards.tolist() == [0.0, 0.0] and not terminated.any()
        assert "success" not in infos and obs["screenshot"].shape[0] == 2
        _, rewards, terminated, _, _ = vec.step(oracle_actions(infos))
        assert rewards.tolist() == [1.0, 1.0] and terminated.all()
    finally:
        vec.close()


def test_same_step_autoreset_keeps_the_final_step_and_starts_the_next():
    vec = _make(2, autoreset_mode=AutoresetMode.SAME_STEP)
    single = gym.make("FineState-Web-v0", viewport=VIEWPORT, scene="control",
                      component="switch").unwrapped
    try:
        _, infos = vec.reset(seed=20)
        obs, rewards, terminated, _, infos2 = vec.step(oracle_actions(infos))
        assert rewards.tolist() == [1.0, 1.0] and terminated.all()
        assert infos2["final_info"]["success"].tolist() == [True, True]
        # Env k's next episode is the single env's after reset(seed=20 + k) and a step.
        for k in range(2):
            s_obs, s_info = single.reset(seed=20 + k)
            assert infos["instance"][k] == s_info["instance"], k
            s_obs2, *_ = single.step(OracleAgent().act(s_obs, s_info))
            assert np.array_equal(infos2["final_obs"][k]["screenshot"], s_obs2["screenshot"]), k
            s_obs, s_info = single.reset()
            assert np.array_equal(obs["screenshot"][k], s_obs["screenshot"]), k
            assert infos2["instance"][k] == s_info["instance"], k
        assert infos2["instance"][0] != infos["instance"][0]
    finally:
        vec.close()
        single.close()


def test_reset_mask_resets_only_the_envs_asked_for():
    vec = _make(2)
    try:
        obs, infos = vec.reset(seed=30)
        obs2, infos2 = vec.reset(seed=[None, 31], options={
            "reset_mask": np.array([False, True])})
        assert np.array_equal(obs2["screenshot"][0], obs["screenshot"][0])
        assert list(infos2["_instance"]) == [False, True]
        with pytest.raises(ValueError, match="reset_mask"):
            vec.reset(options={"reset_mask": np.array([False, False])})
    finally:
        vec.close()


def test_disabled_autoreset_says_which_env_needs_a_reset():
    vec = _make(2, autoreset_mode=AutoresetMode.DISABLED)
    try:
        _, infos = vec.reset(seed=40)
        vec.step(oracle_actions(infos))
        with pytest.raises(RuntimeError, match="env 0 ended its episode"):
            vec.step(oracle_actions(infos))
        _, infos = vec.reset(seed=41)
        _, rewards, _, _, _ = vec.step(oracle_actions(infos))
        assert rewards.tolist() == [1.0, 1.0]
    finally:
        vec.close()


def test_bad_points_in_one_env_are_that_envs_action_error():
    vec = _make(2, autoreset_mode=AutoresetMode.SAME_STEP)
    try:
        _, infos = vec.reset(seed=50)
        actions = oracle_actions(infos)
        actions["p1"][1] = [np.nan, 5.0]
        _, rewards, terminated, _, infos2 = vec.step(actions)
        errors = infos2["final_info"]["action_error"]
        assert errors[0] is None and "'p1'" in errors[1] and "not finite" in errors[1]
        assert rewards.tolist() == [1.0, 0.0] and terminated.all()
    finally:
        vec.close()


def test_a_killed_browser_is_recovered_by_each_env_in_its_own_thread():
    before = descendants(os.getpid())
    vec = _make(3, autoreset_mode=AutoresetMode.SAME_STEP)
    try:
        _, infos = vec.reset(seed=60)
        browser = vec.envs[0].backend._browser
        for pid in descendants(os.getpid()) - before:
            if b"chrom" in open(f"/proc/{pid}/cmdline", "rb").read():
                os.kill(pid, signal.SIGKILL)
        # The crash is met in the envs' threads, and each env does its step again there
        # on a fresh browser (a crash is never a verdict).
        _, rewards, _, _, infos2 = vec.step(oracle_actions(infos))
        final = infos2["final_info"]
        assert rewards.tolist() == [1.0, 1.0, 1.0]
        assert all("Chromium died" in cause for cause in final["recovered"])
        _, rewards, _, _, _ = vec.step(oracle_actions(infos2))
        assert rewards.tolist() == [1.0, 1.0, 1.0]
        assert len({id(env.backend._browser) for env in vec.envs}) == vec.browsers  # as before
        assert vec.envs[0].backend._browser is not browser
    finally:
        vec.close()
    assert alive(descendants(os.getpid()) - before) == set()


def test_pages_renewed_from_the_envs_threads():
    # Every render on a fresh page: each renewal opens a page from an env's thread.
    vec = _make(2, autoreset_mode=AutoresetMode.SAME_STEP,
                backend_options={"renew_every": 1})
    try:
        _, infos = vec.reset(seed=70)
        pages = {env.backend._cdp.url for env in vec.envs}
        for _ in range(3):
            _, rewards, _, _, infos = vec.step(oracle_actions(infos))
            assert rewards.tolist() == [1.0, 1.0]
        assert not pages & {env.backend._cdp.url for env in vec.envs}
    finally:
        vec.close()
