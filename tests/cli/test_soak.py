"""`make soak`'s episodes as it runs them: a failed episode is recorded with what it takes
to look at it again, and one that raises does not end the soak; how it judges memory: a
slope per kind of process after the warm-up, the renderer by its cycles' means, a creep
like issue #36's (the env's Python, ~2.7-7 KB per episode) failing where the whole tree's
end against its start did not, on synthetic samples (fast) and on a real soak whose env
is made to keep 256 KiB an episode (the soak figures of the bench come from the long
runs; their timing is not tested here)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap
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
    # Two samples: too few for a slope, so nothing is judged (and nothing fails).
    assert {v["verdict"] for v in report["judged"].values()} == {"unjudged"}


# -- judging memory, on synthetic samples (no browser) ---------------------------------
def synthetic(episodes: int, *, env_kib: float = 0.0, renderer_kib: float = 0.0,
              every: int = 25, cycle: int = 250, renewed: bool = True, seed: int = 0) -> list:
    """Samples as sample_memory writes them, of a soak whose env's Python grows `env_kib`
    KiB per episode and whose renderer's cycles grow `renderer_kib`, each
    reading moved by noise as a real one is: the env's Python by +-0.3 MiB, the browser
    and the GPU process by +-1. The renderer climbs 214 -> 238 MiB over each `cycle`
    episodes, a new process each cycle where `renewed`, as a renewed page's does."""
    rng = random.Random(seed)
    samples = []
    for episode in range(every, episodes + 1, every):
        cycle_no, phase = divmod(episode - 1, cycle) if renewed else (0, episode - 1)
        renderer = 214 + 24 * phase / cycle + renderer_kib * episode / 1024
        by_kind = {"env": 81 + env_kib * episode / 1024 + rng.uniform(-0.3, 0.3),
                   "browser": 50 + rng.uniform(-1, 1),
                   "gpu-process": 48 + rng.uniform(-1, 1), "renderer": renderer}
        samples.append({
            "episode": episode,
            "by_process_mib": {kind: {"pss": mib + 40, "uss": mib, "pss_anon": mib}
                               for kind, mib in by_kind.items()},
            "cycled_mib": {"renderer": {f"{1000 + cycle_no}:1": {"pss": renderer + 40,
                                                                "pss_anon": renderer}}}})
    return samples



@pytest.mark.fast
def test_the_least_squares_slope_of_a_line_is_its_slope():
    assert soak.least_squares([(0, 1.0), (10, 6.0), (20, 11.0)]) == 0.5
    assert soak.least_squares([(100, 3.0), (200, 3.0), (300, 3.0)]) == 0.0


@pytest.mark.fast
def test_flat_memory_passes_every_process_over_10000_episodes():
    judged = soak.judge(synthetic(10_000), settle=500)
    assert {kind: v["verdict"] for kind, v in judged.items()} == dict.fromkeys(
        ("browser", "env", "gpu-process", "renderer"), "flat")
    # The renderer swings 24 MiB within each cycle, but its cycles are flat: 37 seen whole
    # after the warm-up (episodes 501-750 to 9,501-9,750; the one at the settle point and
    # the one still running at the end are not).
    assert judged["renderer"]["method"] == "cycle means"
    assert judged["renderer"]["points"] == 37
    assert abs(judged["renderer"]["slope_kib_per_episode"]) < 0.1
    assert abs(judged["env"]["growth_mib"]) < 0.5


@pytest.mark.fast
def test_a_creep_like_the_old_one_fails_on_the_env_alone():
    # Issue #36: the env's Python went 81 -> 107 MiB over 10,000 episodes, ~2.7 KB each.
    samples = synthetic(10_000, env_kib=2.7)
    judged = soak.judge(samples, settle=500)
    env = judged["env"]
    assert env["verdict"] == "grows"
    assert env["slope_kib_per_episode"] == pytest.approx(2.7, abs=0.05)
    assert env["growth_mib"] == pytest.approx(2.7 * 9_500 / 1024, abs=0.5)  # 25 MiB
    assert [k for k, v in judged.items() if v["verdict"] == "grows"] == ["env"]
    # What the soak checked before: the whole tree's PSS at the end against the settle
    # point, within 50 MiB. The creep stays inside it.
    total = [sum(m["pss"] for m in s["by_process_mib"].values()) for s in samples]
    settle = next(i for i, s in enumerate(samples) if s["episode"] >= 500)
    assert total[-1] - total[settle] < 50


@pytest.mark.fast
def test_a_short_run_shows_a_creep_as_measured_without_the_malloc_tuning():
    # Without heap.py's tuning the env's anonymous memory grew ~6-8 KB per episode on app
    # pages: 1,000 episodes after the warm-up show it, and the same run flat passes.
    judged = soak.judge(synthetic(1_500, env_kib=7.0), settle=500)
    assert judged["env"]["verdict"] == "grows"
    assert judged["env"]["slope_kib_per_episode"] == pytest.approx(7.0, abs=0.5)
    flat = soak.judge(synthetic(1_500), settle=500)
    assert {v["verdict"] for v in flat.values()} == {"flat"}
    # A slope too small to leave the noise within the run is not a failure (0.5 KiB over
    # 1,000 episodes: 0.5 MiB, though 4.9 MiB projected over 10,000).
    assert soak.judge(synthetic(1_500, env_kib=0.5), settle=500)["env"]["verdict"] == "flat"


@pytest.mark.fast
def test_a_renderer_whose_cycles_creep_fails_and_one_never_renewed_is_judged_by_sample():
    judged = soak.judge(synthetic(10_000, renderer_kib=2.0), settle=500)
    assert judged["renderer"]["verdict"] == "grows"
    assert judged["renderer"]["slope_kib_per_episode"] == pytest.approx(2.0, abs=0.1)
    # Without renewal (renew_every=0) the renderer climbs for good: judged by its samples.
    never = soak.judge(synthetic(2_000, renewed=False), settle=500)
    assert never["renderer"]["method"] == "samples" and never["renderer"]["verdict"] == "grows"
    # A run shorter than a cycle sees only the cycle's own climb: not judged.
    short = soak.judge(synthetic(700), settle=500, cycle=250)
    assert short["renderer"]["verdict"] == "unjudged"
    assert short["env"]["verdict"] == "flat"


@pytest.mark.fast
def test_too_few_samples_are_not_judged_and_a_grown_process_fails_the_soak():
    # Episodes 500 and 525: two readings a kind.
    assert {v["verdict"] for v in soak.judge(synthetic(525), settle=500).values()} == {
        "unjudged"}
    report = {"judged": soak.judge(synthetic(10_000, env_kib=2.7), settle=500),
              "failures": [], "processes_left": []}
    assert soak.growing(report) == ["env"] and not soak.passed(report)
    assert soak.passed({**report, "judged": soak.judge(synthetic(10_000), settle=500)})


# -- a real soak made to creep ---------------------------------------------------------
LEAKY = textwrap.dedent("""
    import sys
    from benchmarks import soak
    kept = []
    real_round = soak.EnvPath.round
    def leaky_round(self, first):
        kept.append(b"x" * (256 * 1024))  # 256 KiB the env's process keeps every episode
        return real_round(self, first)
    soak.EnvPath.round = leaky_round
    raise SystemExit(soak.main(sys.argv[1:]))
""")


def test_a_real_soak_whose_env_keeps_memory_fails_on_the_env_alone(tmp_path):
    # The RL path (a lone slider at 84x84, quick), 60 episodes, judged from the 10th.
    out = tmp_path / "soak.json"
    result = subprocess.run([sys.executable, "-c", LEAKY, "--path", "rl", "--episodes", "60",
                             "--every", "5", "--settle", "10", "--out", str(out)],
                            capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 1, result.stdout[-2000:] + result.stderr[-2000:]
    report = json.loads(out.read_text())
    env = report["judged"]["env"]
    # 256 KiB a bytes object, and its page-rounded mapping: the slope reads it.
    assert env["verdict"] == "grows", env
    assert 250 < env["slope_kib_per_episode"] < 275, env
    assert [kind for kind, v in report["judged"].items() if v["verdict"] == "grows"] == ["env"]
    assert "env's Python grows" in result.stdout
    assert report["failures"] == [] and report["processes_left"] == []
    assert [s["episode"] for s in report["samples"]] == list(range(5, 61, 5))


@pytest.mark.fast
def test_make_benchs_summary_gives_the_soaks_slope_and_verdict(tmp_path):
    from benchmarks.bench_summary import main as summary

    judged = soak.judge(synthetic(1_500, env_kib=7.0), settle=500)
    (tmp_path / "bench-soak.json").write_text(json.dumps(
        {"episodes": 1500, "judged": judged, "failures": [], "processes_left": []}))
    assert summary(["--dir", str(tmp_path)]) == 0
    rows = {row["figure"]: row for row in
            json.loads((tmp_path / "bench-summary.json").read_text())["figures"]}
    slope = rows["web soak, 1500 episodes: the env's Python's slope after the warm-up"]
    assert slope["measured"] == judged["env"]["slope_kib_per_episode"]
    growing = rows["web soak, 1500 episodes: processes growing past their limit"]
    assert growing["measured"] == 1 and growing["target"] == 0 and growing["met"] is False
    assert rows["  failed episodes"]["met"] is True


@pytest.mark.fast
def test_make_vec_is_judged_after_its_browsers_warm_up():
    # Each of make_vec's envs has a browser of its own, which warms up over its own quarter
    # of the episodes: the vec4 path waits longer before judging, unless told.
    assert soak.default_settle("vec4", 10_000) == soak.VECTOR_SETTLE == 2000
    assert soak.default_settle("default", 10_000) == soak.SETTLE == 500
    assert soak.default_settle("vec4", 1_000) == 1_000  # never past the run's end
