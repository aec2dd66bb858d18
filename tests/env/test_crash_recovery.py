"""A crash is never a verdict (#46): a backend killed at any moment of an episode gives the
verdict an undisturbed run gives (recovered: a fresh render, the episode's gestures
performed again, the state checked, the gesture performed again), or an explicit unjudged
step (truncated, `info["unjudged"]`, crosscheck "unjudged"), never a failure or a false
accept. Real Chromium, the real Qt app and X server, SIGKILL as the fault."""

from __future__ import annotations

import os
import random
import signal
import threading
import time

import gymnasium as gym
import numpy as np
import pytest

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.agents.episodes import step_result
from finestate_env.agents.scripted import OracleAgent
from finestate_env.backends.processes import descendants
from finestate_env.core.metrics import summarize


def kill(pids) -> int:
    killed = 0
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
            killed += 1
        except ProcessLookupError:
            pass
    return killed


def below_us() -> set[int]:
    return descendants(os.getpid())


def episode(env, seed: int, fault=None, gestures: int = 1) -> list[tuple]:
    """(reward, terminated, truncated, state, crosscheck, recovered, unjudged) of each step
    of the oracle's episode from `seed`; `fault(step_index)` runs before each step."""
    _, info = env.reset(seed=seed)
    steps = []
    for index in range(gestures):
        if fault is not None:
            fault(index)
        _, reward, terminated, truncated, info = env.step(OracleAgent().act(None, info))
        steps.append((reward, terminated, truncated, info["state"], info["crosscheck"],
                      info["recovered"], info["unjudged"]))
        if terminated or truncated:
            break
    return steps


def verdicts(steps):
    """What a step says of the control, without how it got there."""
    return [step[:5] for step in steps]


@pytest.mark.parametrize("env_id, options", [
    ("FineState-Web-v0", {"component": "slider", "scene": "control"}),
    ("FineState-Web-v0", {}),  # an app page: its distractors are checked too
    ("FineState-Mobile-v0", {"component": "date_picker"}),
    ("FineState-Desktop-v0", {"component": "knob", "scene": "control"}),
])
def test_a_backend_killed_between_reset_and_step_is_recovered(env_id, options):
    with gym.make(env_id, **options) as env:
        clean = [episode(env, seed) for seed in (0, 1)]
        for seed, expected in zip((0, 1), clean, strict=True):
            steps = episode(env, seed, fault=lambda _: kill(below_us()))
            assert verdicts(steps) == verdicts(expected)
            assert steps[0][5] is not None and steps[0][6] is None  # recovered, judged
            assert expected[0][0] == 1.0  # the oracle's gesture: the test sees the verdict
    assert not below_us(), "processes left after close()"


def test_a_kill_before_a_later_gesture_replays_the_episode_first():
    """Several gestures (a stepper's far goals): killed before the second and the third,
    the episode is shown again as it was (its gestures performed again, its state
    checked) and ends where an undisturbed run ends."""
    with gym.make("FineState-Web-v0", component="stepper", max_actions=4) as env:
        for seed in range(3):
            expected = episode(env, seed, gestures=4)
            steps = episode(env, seed, gestures=4,
                            fault=lambda index: index and kill(below_us()))
            assert verdicts(steps) == verdicts(expected)
            assert all(step[5] is not None for step in steps[1:])


def test_past_its_recoveries_a_step_is_unjudged_never_a_verdict():
    with gym.make("FineState-Web-v0", component="slider", scene="control",
                  recoveries=0) as env:
        _, info = env.reset(seed=0)
        kill(below_us())
        _, reward, terminated, truncated, info = env.step(OracleAgent().act(None, info))
        assert (reward, terminated, truncated) == (0.0, False, True)
        assert info["crosscheck"] == "unjudged" and info["success"] is False
        assert info["unjudged"].startswith("the backend crashed and the step could not be "
                                           "judged: Chromium died")
        assert not any(info["live"].values())
        # Counted apart, in no metric.
        summary = summarize([step_result(info, OracleAgent().act(None, info))])
        assert summary["unjudged"] == 1 and summary["live"]["overall"]["n"] == 0
        assert summary["crosscheck"]["false_accept"] == 0
        # And the next episode is judged on a fresh browser.
        assert episode(env, 0)[0][:2] == (1.0, True)
    assert not below_us()


def test_kills_at_random_moments_never_become_a_verdict():
    """Chromium killed at a random moment of the step (during the gesture, the read-back,
    the capture) in 30 episodes: each is the undisturbed verdict, or unjudged."""
    rng = random.Random(46)
    with gym.make("FineState-Web-v0", component=["slider", "switch", "drag_reorder"]) as env:
        expected = {seed: verdicts(episode(env, seed)) for seed in range(30)}
        counts = {"recovered": 0, "unjudged": 0, "undisturbed": 0}
        for seed in range(30):
            delay = rng.uniform(0.0, 0.03)

            def fault(_, delay=delay):
                pids = below_us()
                threading.Timer(delay, kill, args=(pids,)).start()

            steps = episode(env, seed, fault=fault)
            time.sleep(0.1)  # the timer has fired: the next reset sees the kill, if late
            reward, terminated, truncated, state, crosscheck, recovered, unjudged = steps[0]
            if unjudged is not None:
                counts["unjudged"] += 1
                assert (crosscheck, truncated, terminated) == ("unjudged", True, False)
            else:
                assert verdicts(steps) == expected[seed], (seed, delay, steps)
                counts["recovered" if recovered else "undisturbed"] += 1
        assert counts["recovered"] >= 8, counts  # the kills reached work in flight
    assert not below_us()


def test_make_vec_recovers_each_env_on_its_own():
    """make_vec's envs each have a browser: killing one env's leaves the other untouched,
    and the killed one recovers; both verdicts are an undisturbed run's."""
    envs = gym.make_vec("FineState-Web-v0", num_envs=2, component="slider", scene="control")
    try:
        _, infos = envs.reset(seed=[0, 1])
        actions = {key: np.stack([OracleAgent().act(None, {"boxes": {"current": {
            name: infos["boxes"]["current"][name][i] for name in ("now", "goal")}}})[key]
            for i in range(2)]) for key in ("p0", "p1")}
        _, clean, *_ = envs.step(actions)
        _, infos = envs.reset(seed=[0, 1])
        first = envs.unwrapped.envs[0].unwrapped.backend
        kill(descendants(first._browser.process.pid) | {first._browser.process.pid})
        _, rewards, terminated, truncated, infos = envs.step(actions)
        assert list(rewards) == list(clean) == [1.0, 1.0]
        assert infos["recovered"][0] is not None and infos["recovered"][1] is None
    finally:
        envs.close()
