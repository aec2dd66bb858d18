"""The env's contract on the fake backend (backends/fake.py): no browser, no X, no device.

Everything here is what the env, its vector envs and the checkers promise whatever the
backend: spaces, info keys and their types, seeding, bad actions, goal vectors and
`compute_reward`, levels, terminal observations, crashes, and the backend contract itself
(backends/base.py). The live truth of each control is the rest of the suite's, on the
real backends; this tier (`make test-fast`) runs in seconds.
"""

from __future__ import annotations

import importlib.util
import inspect
import math
import os
import re
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from env_checks import check_env_as_made
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import finestate_env
from finestate_env import ENV_IDS, decode_state
from finestate_env.agents.scripted import OracleAgent
from finestate_env.backends import Backend, make_backend
from finestate_env.backends.fake import FakeBackend
from finestate_env.components import COMPONENTS, TYPE_NAMES
from finestate_env.components.qt import DESKTOP_TYPES
from finestate_env.env.vector import ConcurrentVectorEnv

pytestmark = pytest.mark.fast

ROOT = Path(finestate_env.__file__).parent
# The ids again under a namespace of their own, with the fake backend: what the contract
# checker (which makes its env by id) and make_vec are given here.
FAKE_IDS = {env_id: f"fake/{env_id}" for env_id in ENV_IDS}
for _env_id, _fake_id in FAKE_IDS.items():
    if _fake_id not in gym.registry:
        _spec = gym.spec(_env_id)
        gym.register(id=_fake_id, entry_point=_spec.entry_point,
                     vector_entry_point=_spec.vector_entry_point,
                     kwargs={**_spec.kwargs, "backend": "fake"})

_SHARED_CHECKER = Path(__file__).resolve().parents[3] / "shared" / "tools" / "check_contract.py"
CONTRACT_CHECKER = Path(os.environ.get(
    "FINESTATE_CONTRACT_CHECKER",
    _SHARED_CHECKER if _SHARED_CHECKER.is_file()
    else Path(__file__).resolve().parents[1] / "support" / "check_contract.py"))


def _centre(box) -> np.ndarray:
    return np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2], dtype=np.float32)


def _oracle(info: dict) -> dict:
    return OracleAgent().act(None, info)


def _outside(box, viewport) -> np.ndarray:
    """A point of the screen outside `box` (the corner farthest from it)."""
    x = 0.0 if box[0] > viewport[0] - 1 - box[2] else viewport[0] - 1.0
    y = 0.0 if box[1] > viewport[1] - 1 - box[3] else viewport[1] - 1.0
    return np.array([x, y], dtype=np.float32)


@pytest.fixture(scope="module")
def env():
    env = gym.make("FineState-Web-v0", backend="fake", render_mode="rgb_array").unwrapped
    yield env
    env.close()


# -- the backend contract ---------------------------------------------------------------

def _backend_classes() -> list[type[Backend]]:
    from finestate_env.backends.adb import AdbBackend
    from finestate_env.backends.adb_native import NativeViewsBackend
    from finestate_env.backends.desktop import DesktopBackend
    from finestate_env.backends.mobile import MobileBackend
    from finestate_env.backends.web import WebBackend

    return [WebBackend, MobileBackend, AdbBackend, NativeViewsBackend, DesktopBackend,
            FakeBackend]


@pytest.mark.parametrize("cls", _backend_classes(), ids=lambda cls: cls.__name__)
def test_every_backend_implements_the_whole_interface(cls):
    assert issubclass(cls, Backend) and not inspect.isabstract(cls)
    if cls is not FakeBackend:  # the fake takes the env's platform
        assert cls.platform in ("web", "mobile", "desktop")
    assert isinstance(cls.concurrent_steps, bool) and isinstance(cls.renders_pages, bool)
    assert cls.components is None or set(cls.components) <= set(COMPONENTS)


def test_nothing_outside_the_backends_asks_a_backend_its_class_or_probes_its_attributes():
    # The env, the vector env, replay and the tools use what Backend declares, nothing
    # else (issue #29): no isinstance on a backend class but Backend itself, no getattr or
    # hasattr on a backend.
    probing = re.compile(r"(getattr|hasattr)\([^)]*backend"
                         r"|isinstance\([^)]*\b(?!Backend\))\w+Backend\)")
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in sorted(ROOT.rglob("*.py")) if "backends" not in path.parts
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if probing.search(line)]
    assert found == []


def test_make_backend_gives_the_fake_for_each_platform():
    web = make_backend("fake", (1280, 720))
    assert (web.platform, web.layout_viewport, web.components) == ("web", (1280, 720), None)
    phone = make_backend("fake", (1080, 2400), platform="mobile")
    assert (phone.platform, phone.layout_viewport) == ("mobile", (360, 800))
    desktop = make_backend("fake", (1280, 720), platform="desktop")
    assert desktop.components == DESKTOP_TYPES
    with pytest.raises(ValueError, match="platform must be one of"):
        make_backend("fake", (1280, 720), platform="watch")
    with pytest.raises(ValueError, match="whole CSS px"):
        make_backend("fake", (1000, 2400), platform="mobile")
    with pytest.raises(ValueError, match="'fake'"):
        make_backend("no_such_backend", (1280, 720))


# -- the contract checkers ---------------------------------------------------------------

def _contract_checker():
    assert CONTRACT_CHECKER.is_file(), f"no contract checker at {CONTRACT_CHECKER}"
    spec = importlib.util.spec_from_file_location("check_contract", CONTRACT_CHECKER)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_shared_contract_checker_with_rl(env_id):
    checker = _contract_checker()
    fake_id = FAKE_IDS[env_id]
    assert checker.check(fake_id) + checker.check_rl(fake_id) == []


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_gymnasium_check_env_on_the_raw_env(env_id):
    env = gym.make(env_id, backend="fake", render_mode="rgb_array")
    try:
        check_env(env.unwrapped)
    finally:
        env.close()


# Each: the make options, and whether SB3 takes the spaces (no Text space in them).
RL_MODES = {
    "default": ({}, False),
    "rl": ({"obs_type": "screenshot", "obs_size": (84, 84), "action_type": "flat"}, True),
    "image-float": ({"obs_type": "image", "obs_size": (96, 64), "obs_dtype": "float32",
                     "coord_mode": "normalized"}, True),
    "goal-vector": ({"level": 0, "goal_obs": "vector", "obs_type": "screenshot",
                     "obs_size": (84, 84), "action_type": "flat", "terminal_obs": "skip"}, True),
    "goal-env": ({"goal_obs": "goal_env", "obs_type": "screenshot", "obs_size": (84, 84),
                  "action_type": "flat"}, True),
    "far-goals": ({"level": 3}, False),
    "bytes-shaped": ({"obs_type": "dict_bytes", "max_actions": 3, "reward": "shaped",
                      "action_type": "flat"}, True),
}


@pytest.mark.parametrize("mode", list(RL_MODES))
def test_gymnasium_and_sb3_checkers_take_every_mode(mode):
    kwargs, sb3 = RL_MODES[mode]
    env = gym.make("FineState-Web-v0", backend="fake", **kwargs)
    try:
        check_env(env.unwrapped, skip_render_check=True)  # the raw env
        check_env_as_made(env, skip_render_check=True)  # with the options' wrappers
        if sb3:
            sb3_check_env(env, warn=False)
        obs, _ = env.reset(seed=0)
        assert env.observation_space.contains(obs)
    finally:
        env.close()


# -- one env ------------------------------------------------------------------------------

def test_reset_and_step(env):
    obs, info = env.reset(seed=3)
    assert obs["screenshot"].shape == (720, 1280, 3) and obs["screenshot"].dtype == np.uint8
    assert env.observation_space.contains(obs)
    assert obs["instruction"] == env.instance.instructions.interact
    assert env.instance.live.backend == "FakeBackend" and env.instance.scene is not None
    assert np.array_equal(env.render(), obs["screenshot"])
    obs2, reward, terminated, truncated, info2 = env.step(_oracle(info))
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info2["success"] is True and info2["crosscheck"] == "agree"
    assert decode_state(info2["state"]) == env.instance.goal_state
    assert not np.array_equal(obs2["screenshot"], obs["screenshot"])  # the state is drawn
    with pytest.raises(ResetNeeded):
        env.step(_oracle(info))


def test_the_same_seed_gives_the_same_instance_and_pixels():
    one = gym.make("FineState-Mobile-v0", backend="fake").unwrapped
    two = gym.make("FineState-Mobile-v0", backend="fake").unwrapped
    try:
        for seed in (0, 7):
            obs_a, info_a = one.reset(seed=seed)
            obs_b, info_b = two.reset(seed=seed)
            assert info_a["instance"] == info_b["instance"]
            assert np.array_equal(obs_a["screenshot"], obs_b["screenshot"])
        assert one.reset(seed=1)[1]["instance"] != two.reset(seed=2)[1]["instance"]
    finally:
        one.close()
        two.close()


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
def test_a_bad_action_is_an_action_error_not_an_exception(env, case):
    action, names, says = BAD_ACTIONS[case]
    env.reset(seed=5)
    _, reward, terminated, _, info = env.step(action)
    assert reward == 0.0 and terminated and info["success"] is False
    assert names in info["action_error"] and says in info["action_error"]
    assert info["state"] == info["current_state"]  # nothing was performed
    obs, info = env.reset(seed=6)
    _, reward, _, _, info = env.step(_oracle(info))
    assert reward == 1.0 and info["action_error"] is None


def test_every_point_of_the_action_space_is_performable():
    env = gym.make("FineState-Web-v0", backend="fake", coord_mode="normalized")
    env.action_space.seed(0)
    try:
        for seed in range(40):
            env.reset(seed=seed)
            assert env.step(env.action_space.sample())[4]["action_error"] is None
    finally:
        env.close()


def test_a_miss_changes_nothing_and_the_boxes_say_so(env):
    obs, info = env.reset(seed=11, options={"component": "slider"})
    goal = info["boxes"]["current"]["goal"]
    miss = _outside(goal, env.viewport)
    _, reward, _, _, info2 = env.step({"p0": miss, "p1": miss})
    assert reward == 0.0 and info2["state"] == info2["current_state"]
    assert info2["crosscheck"] == "agree" and not info2["static"]["es_sr_int"]
    # A drag released on the goal but not started on the thumb: the box says exact, the
    # control did not move (a false accept, as a real slider gives).
    obs, info = env.reset(seed=11, options={"component": "slider"})
    now = info["boxes"]["current"]["now"]
    _, reward, _, _, info2 = env.step({"p0": _outside(now, env.viewport), "p1": _centre(goal)})
    assert reward == 0.0 and info2["crosscheck"] == "false_accept"


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_info_key_keeps_one_type_over_all_types(env_id):
    env = gym.make(env_id, backend="fake", scene="control").unwrapped
    kinds: dict[str, set[str]] = {}

    def record(phase: str, info: dict, prefix: str = "") -> None:
        for key, value in info.items():
            path = f"{phase}:{prefix}{key}"
            if isinstance(value, dict):
                kinds.setdefault(path, set()).add("dict")
                record(phase, value, f"{prefix}{key}.")
            elif isinstance(value, np.ndarray):
                kinds.setdefault(path, set()).add(f"array{value.shape}{value.dtype}")
            else:
                kinds.setdefault(path, set()).add(
                    "str" if isinstance(value, str) or value is None else type(value).__name__)

    try:
        for i, component in enumerate(env.components):
            _, info = env.reset(seed=i, options={"component": component})
            record("reset", info)
            for action in (_oracle(info), {"p0": np.zeros(2, np.float32),
                                           "p1": np.zeros(2, np.float32)}):
                _, _, _, _, info2 = env.step(action)
                record("step", info2)
                env.reset(seed=i, options={"component": component})
    finally:
        env.close()
    assert {path: sorted(k) for path, k in kinds.items() if len(k) > 1} == {}
    assert kinds["step:state"] == {"str"} and kinds["step:success"] == {"bool"}
    assert kinds["reset:boxes.current.goal"] == {"array(4,)float64"}
    assert "reset:timings" not in kinds


def test_timings_only_when_asked_for():
    env = gym.make("FineState-Web-v0", backend="fake", timings=True).unwrapped
    try:
        _, info = env.reset(seed=0)
        assert set(info["timings"]) == {"render", "screenshot", "total"}
        _, _, _, _, info2 = env.step(_oracle(info))
        assert set(info2["timings"]) == {"action", "readback", "screenshot", "total"}
    finally:
        env.close()


def test_what_the_backend_declares_the_env_follows():
    # A backend of some types: the env offers these alone and refuses another by name.
    env = gym.make("FineState-Web-v0", backend="fake",
                   backend_options={"components": ["slider", "switch"]}).unwrapped
    assert env.components == ["slider", "switch"]
    env.close()
    with pytest.raises(ValueError, match="no web renderer yet"):
        gym.make("FineState-Web-v0", backend="fake", component="knob",
                 backend_options={"components": ["slider"]})
    desktop = gym.make("FineState-Desktop-v0", backend="fake").unwrapped
    assert desktop.components == list(DESKTOP_TYPES)
    desktop.close()
    # A backend of lone controls: no page.
    with pytest.raises(ValueError, match="renders lone controls only"):
        gym.make("FineState-Web-v0", backend="fake", backend_options={"renders_pages": False})
    env = gym.make("FineState-Web-v0", backend="fake", scene="control",
                   backend_options={"renders_pages": False})
    assert env.reset(seed=0)[1]["component"] in COMPONENTS
    env.close()


def test_a_crash_is_recovered_or_unjudged_never_a_verdict(env):
    """A crash before the step: the step is done again on a restarted backend and gives
    the undisturbed verdict; with no recovery allowed it is unjudged, truncated, and the
    next reset restarts the backend."""
    obs, info = env.reset(seed=2)
    starts = env.backend.starts
    env.backend.crash()
    _, reward, terminated, truncated, info2 = env.step(_oracle(info))
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert "crashed" in info2["recovered"] and info2["unjudged"] is None
    assert env.backend.starts == starts + 1
    unrecovered = gym.make("FineState-Web-v0", backend="fake", recoveries=0).unwrapped
    try:
        obs, info = unrecovered.reset(seed=2)
        starts = unrecovered.backend.starts
        unrecovered.backend.crash()
        _, reward, terminated, truncated, info2 = unrecovered.step(_oracle(info))
        assert (reward, terminated, truncated) == (0.0, False, True)
        assert info2["crosscheck"] == "unjudged" and "crashed" in info2["unjudged"]
        obs, info = unrecovered.reset(seed=2)
        assert unrecovered.backend.starts == starts + 1
        assert unrecovered.step(_oracle(info))[1] == 1.0
    finally:
        unrecovered.close()


# -- goals, levels, several gestures -------------------------------------------------------

def test_goal_env_achieved_goal_follows_the_state_and_compute_reward_is_the_reward():
    env = gym.make("FineState-Web-v0", backend="fake", goal_obs="goal_env", max_actions=2,
                   obs_type="screenshot", obs_size=(84, 84))
    compute_reward = env.get_wrapper_attr("compute_reward")  # AsGoalEnv's method
    try:
        rewards, achieved, desired = [], [], []
        for seed in range(8):
            obs, info = env.reset(seed=seed)
            assert not np.array_equal(obs["achieved_goal"], obs["desired_goal"])
            goal = info["boxes"]["current"]["goal"]
            miss = _outside(goal, env.unwrapped.viewport)
            for action in ({"p0": miss, "p1": miss}, _oracle(info)):
                obs, reward, terminated, _, info = env.step(action)
                assert compute_reward(obs["achieved_goal"], obs["desired_goal"], info) == reward
                rewards.append(reward)
                achieved.append(obs["achieved_goal"])
                desired.append(obs["desired_goal"])
            assert terminated and reward == 1.0
        batch = compute_reward(np.stack(achieved), np.stack(desired), None)
        assert batch.tolist() == rewards == [0.0, 1.0] * 8
    finally:
        env.close()


def test_far_goals_take_the_types_own_number_of_gestures():
    env = gym.make("FineState-Web-v0", backend="fake", level=3).unwrapped
    try:
        counts = []
        for seed in range(30):
            obs, info = env.reset(seed=seed)
            planned = info["oracle_actions"]
            for gesture in range(1, planned + 1):
                obs, reward, terminated, truncated, info = env.step(_oracle(info))
                assert (reward == 1.0) == terminated == (gesture == planned)
                assert info["crosscheck"] == "agree" and not truncated
            counts.append(planned)
        assert max(counts) > 1  # some goals were far
    finally:
        env.close()


@pytest.mark.parametrize("level", [0, 1, 2])
def test_levels_give_the_same_instance_for_the_same_seed(level):
    envs = [gym.make("FineState-Web-v0", backend="fake", level=level).unwrapped
            for _ in range(2)]
    try:
        infos = [env.reset(seed=4)[1]["instance"] for env in envs]
        assert infos[0] == infos[1]
        assert (envs[0].instance.live.scene is None) == (level < 2)
    finally:
        for env in envs:
            env.close()


def test_shaped_reward_and_truncation():
    env = gym.make("FineState-Web-v0", backend="fake", max_actions=2, reward="shaped")
    try:
        obs, info = env.reset(seed=9)
        miss = _outside(info["boxes"]["current"]["goal"], env.unwrapped.viewport)
        _, reward, terminated, truncated, info = env.step({"p0": miss, "p1": miss})
        assert (reward, terminated, truncated) == (0.0, False, False)
        _, reward, terminated, truncated, info = env.step({"p0": miss, "p1": miss})
        assert (reward, terminated, truncated) == (0.0, False, True)
        obs, info = env.reset(seed=9)
        _, reward, terminated, _, info = env.step(_oracle(info))
        assert terminated and reward == 1.0 + 1.0  # the whole distance, and the goal
    finally:
        env.close()


def test_terminal_obs_skip_takes_no_screenshot_until_render():
    env = gym.make("FineState-Web-v0", backend="fake", terminal_obs="skip",
                   render_mode="rgb_array").unwrapped
    capture = gym.make("FineState-Web-v0", backend="fake").unwrapped
    try:
        obs, info = env.reset(seed=1)
        c_obs, c_info = capture.reset(seed=1)
        obs2, reward, *_ = env.step(_oracle(info))
        c_obs2, *_ = capture.step(_oracle(c_info))
        assert reward == 1.0 and np.array_equal(obs2["screenshot"], obs["screenshot"])
        assert np.array_equal(env.render(), c_obs2["screenshot"])
    finally:
        env.close()
        capture.close()


# -- vector envs ---------------------------------------------------------------------------

VECTOR_MODES = {
    "sync": ("sync", {}, {}),
    "async-shared-memory": ("async", {"shared_memory": True}, {}),
    "async-pipes-same-step": ("async", {"shared_memory": False,
                                        "autoreset_mode": gym.vector.AutoresetMode.SAME_STEP}, {}),
    "native": (None, {}, {}),
    "native-same-step": (None, {}, {"autoreset_mode": gym.vector.AutoresetMode.SAME_STEP}),
}
VECTOR_TYPES = ["slider", "switch", "date_picker", "drag_reorder", "tree_view"]


def _env_row(batch: dict, index: int) -> dict:
    row = {}
    for key, value in batch.items():
        if key.startswith("_"):
            continue
        if isinstance(value, dict):
            row[key] = _env_row(value, index)
        else:
            row[key] = value[index].item() if isinstance(value[index], np.generic) else value[index]
    return row


def _assert_same(vector_value, single_value, where: str) -> None:
    if isinstance(single_value, dict):
        for key, value in single_value.items():
            _assert_same(vector_value[key], value, f"{where}.{key}")
    elif isinstance(single_value, np.ndarray):
        assert np.array_equal(vector_value, single_value), where
    else:
        assert type(vector_value) is type(single_value) and vector_value == single_value, where


@pytest.fixture(scope="module")
def single_episodes():
    env = gym.make(FAKE_IDS["FineState-Web-v0"]).unwrapped
    out = {}
    for i, component in enumerate(VECTOR_TYPES):
        for seed in (100 + 2 * i, 101 + 2 * i):
            obs, info = env.reset(seed=seed, options={"component": component})
            obs2, reward, _, _, info2 = env.step(_oracle(info))
            out[component, seed] = (obs, info, obs2, reward, info2)
    env.close()
    return out


@pytest.mark.parametrize("mode", list(VECTOR_MODES))
def test_vector_envs_give_what_single_envs_give(mode, single_episodes):
    vectorization_mode, vector_kwargs, kwargs = VECTOR_MODES[mode]
    vec = gym.make_vec(FAKE_IDS["FineState-Web-v0"], num_envs=2,
                       vectorization_mode=vectorization_mode, vector_kwargs=vector_kwargs,
                       **kwargs)
    try:
        if vectorization_mode is None:  # the ids' own, stepping the fakes from threads
            assert isinstance(vec, ConcurrentVectorEnv) and vec.concurrent
        for i, component in enumerate(VECTOR_TYPES):
            seeds = [100 + 2 * i, 101 + 2 * i]
            obs, info = vec.reset(seed=seeds, options={"component": component})
            rows = [_env_row(info, k) for k in (0, 1)]
            actions = {key: np.stack([_oracle(row)[key] for row in rows]) for key in ("p0", "p1")}
            obs2, rewards, terminated, _, info2 = vec.step(actions)
            same_step = "final_info" in info2
            step_info = info2["final_info"] if same_step else info2
            for k, seed in enumerate(seeds):
                s_obs, s_info, s_obs2, s_reward, s_info2 = single_episodes[component, seed]
                where = f"{mode} {component} seed {seed}"
                step_obs = (info2["final_obs"][k] if same_step
                            else {key: obs2[key][k] for key in obs2})
                assert obs["instruction"][k] == s_obs["instruction"], where
                assert np.array_equal(obs["screenshot"][k], s_obs["screenshot"]), where
                assert np.array_equal(step_obs["screenshot"], s_obs2["screenshot"]), where
                _assert_same(_env_row(info, k), s_info, f"{where} reset info")
                _assert_same(_env_row(step_info, k), s_info2, f"{where} step info")
                assert rewards[k] == s_reward == 1.0 and terminated[k], where
    finally:
        vec.close()


def test_the_native_vector_env_steps_one_by_one_a_backend_not_declared_concurrent(monkeypatch):
    monkeypatch.setattr(FakeBackend, "concurrent_steps", False)
    vec = gym.make_vec(FAKE_IDS["FineState-Web-v0"], num_envs=2)
    try:
        assert not vec.concurrent
        obs, info = vec.reset(seed=0)
        actions = {key: np.stack([_oracle(_env_row(info, k))[key] for k in (0, 1)])
                   for key in ("p0", "p1")}
        assert vec.step(actions)[1].tolist() == [1.0, 1.0]
    finally:
        vec.close()


def test_set_level_and_autoreset_through_the_native_vector_env():
    vec = gym.make_vec(FAKE_IDS["FineState-Mobile-v0"], num_envs=2, scene="control")
    try:
        vec.call("set_level", 0)
        assert vec.get_attr("level") == (0, 0)
        obs, info = vec.reset(seed=[5, 6])
        actions = {key: np.stack([_oracle(_env_row(info, k))[key] for k in (0, 1)])
                   for key in ("p0", "p1")}
        _, rewards, terminated, _, _ = vec.step(actions)
        assert rewards.tolist() == [1.0, 1.0] and terminated.all()
        # NEXT_STEP: the step after the last resets, with a reward of 0.
        _, rewards, terminated, _, info = vec.step(actions)
        assert rewards.tolist() == [0.0, 0.0] and not terminated.any()
        assert set(info["component"]) <= set(TYPE_NAMES)
    finally:
        vec.close()


# -- replay and the box audit ----------------------------------------------------------------

def test_replay_and_the_audit_run_on_the_fake_as_on_any_backend(env):
    from finestate_env.core.coords import box_center
    from finestate_env.core.schema import Prediction
    from finestate_env.replay.audit import audit_instance
    from finestate_env.replay.live_replay import ReplayWorker

    worker = ReplayWorker(backend="fake")
    try:
        for seed in range(4):
            env.reset(seed=seed)
            instance, boxes = env.instance, env.instance.boxes.current
            hit = Prediction(id=instance.id, p0=box_center(boxes.now),
                             p1=box_center(boxes.goal), coords="pixel")
            record = worker.replay(instance, hit)
            assert (record.outcome, record.live_exact, record.crosscheck, record.boxes_match) == (
                "performed", True, "agree", True)
            if seed == 0:  # a renderer dead between jobs: the next render restarts it
                worker.backends.for_instance(instance).crash()
                assert worker.replay(instance, hit).live_exact
            report = audit_instance(env.backend, instance, density=3)
            assert report.soundness == 1.0 and report.tightness == 1.0
    finally:
        worker.close()
