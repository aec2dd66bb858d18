"""`make soak`'s episodes as it runs them: a failed episode is recorded with what it takes
to look at it again, and one that raises does not end the soak (the soak figures of the
bench come from the long runs; their timing is not tested here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import pytest

from benchmarks import soak
from finestate_env import decode_state
from finestate_env.agents.scripted import OracleAgent

ROOT = Path(__file__).parents[2]  # make soak runs the tool from the repository's root


@pytest.fixture(scope="module")
def env():
    env = gym.make("FineState-Web-v0", component="switch", scene="control")
    yield env
    env.close()


class MissingAgent:
    """Taps the screen's top-left corner, away from the lone control."""

    def act(self, obs, info):
        return {"p0": [1.0, 1.0], "p1": [1.0, 1.0]}


class BrokenAgent:
    def act(self, obs, info):
        raise RuntimeError("the agent's model is gone")


def test_the_oracle_episode_is_no_failure(env):
    assert soak._episode_failure(env, OracleAgent(), seed=3) is None


def test_a_missed_goal_is_recorded_with_its_seed_state_and_goal(env):
    failure = soak._episode_failure(env, MissingAgent(), seed=3)
    obs, info = env.reset(seed=3)
    assert failure["seed"] == 3 and failure["component"] == "switch"
    assert failure["action_error"] is None
    assert failure["goal_state"] == info["goal_state"]
    assert decode_state(failure["state"]) == decode_state(info["current_state"])


def test_an_episode_that_raises_is_recorded_and_the_soak_goes_on(env):
    failure = soak._episode_failure(env, BrokenAgent(), seed=4)
    assert failure == {"episode": 4, "seed": 4,
                       "error": "RuntimeError: the agent's model is gone"}
    assert soak._episode_failure(env, OracleAgent(), seed=5) is None


def test_the_soak_writes_its_samples_and_checks(tmp_path):
    # In a process of its own, as make soak runs it: the processes it counts as left
    # behind are its own env's (this module's env shares its browser).
    out = tmp_path / "soak.json"
    result = subprocess.run([sys.executable, "-m", "benchmarks.soak", "--episodes", "4",
                             "--every", "2", "--settle", "2", "--out", str(out)],
                            capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    report = json.loads(out.read_text())
    assert [s["episode"] for s in report["samples"]] == [2, 4]
    # The env's own pages: a browser's worth, and no more than its share of everything.
    assert all(0 < s["uss_mib"] <= s["pss_mib"] for s in report["samples"])
    by_process = report["samples"][-1]["pss_by_process_mib"]
    assert {"env", "browser", "renderer", "gpu-process"} <= set(by_process)
    # One reading of each process: the kinds add up to the total, up to their rounding.
    assert sum(by_process.values()) == pytest.approx(report["samples"][-1]["pss_mib"],
                                                     abs=0.05 * (len(by_process) + 1))
    assert report["failures"] == [] and report["processes_left"] == []
