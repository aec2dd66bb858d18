"""Group scoring on one render gives exactly what an episode per completion gives.

The scorer performs every completion of an instance on one render, restoring the
current state in the page between gestures (Backend.probe). These tests hold that
against the env itself: for points anywhere (on the control, beside it, on other
controls of the page), the state read back, the reward and the verdicts equal those of
a fresh episode of the same instance stepped with the same points."""

from __future__ import annotations

import json
import zlib

import gymnasium as gym
import numpy as np
import pytest

from finestate_env.core.coords import box_center
from finestate_env.rewards import RewardScorer, ground_truth
from finestate_env.rewards import scorer as scorer_module
from finestate_env.rewards.scorer import score_group


def spread_points(instance, rng, count: int) -> list[tuple[tuple[float, float], ...]]:
    """(p0, p1) pairs: the oracle's, then points in and around the control and anywhere
    on the screen, as a group of sampled completions would land."""
    current = instance.boxes.current
    width, height = instance.size.width, instance.size.height
    x1, y1, x2, y2 = current.loc
    near = np.array([max(0, x1 - 30), max(0, y1 - 30), min(width - 1, x2 + 30),
                     min(height - 1, y2 + 30)], float)
    pairs = [(box_center(current.now), box_center(current.goal)),
             (box_center(current.loc), box_center(current.core))]
    while len(pairs) < count:
        where = near if rng.random() < 0.75 else np.array([0, 0, width - 1, height - 1], float)
        p0, p1 = (tuple(float(v) for v in rng.uniform(where[:2], where[2:]).round(1))
                  for _ in range(2))
        pairs.append((p0, p1))
    return pairs


def episode_per_pair(env, instance, pairs):
    """What the env says of each pair, each in a fresh episode of `instance`."""
    results = []
    for p0, p1 in pairs:
        env.reset(options={"instance": instance})
        _, reward, _, _, info = env.step({"p0": np.array(p0, np.float32),
                                          "p1": np.array(p1, np.float32)})
        results.append((reward, info["state"], info["crosscheck"], info["static"]["sr_loc"],
                        info["static"]["sr_int"]))
    return results


def scored(scores):
    return [(s.reward, s.state, s.crosscheck, s.sr_loc, s.sr_int) for s in scores]


def as_completions(pairs):
    # float32, as the env's action space holds them
    return [json.dumps({"p0": [float(np.float32(v)) for v in p0],
                        "p1": [float(np.float32(v)) for v in p1]}) for p0, p1 in pairs]


def assert_group_equals_episodes(env, seed: int, rng, count: int) -> list:
    """Reset `env` on `seed`; a group of `count` completions on one render gives what an
    episode per completion gives. Returns the episodes' results."""
    env.reset(seed=seed)
    instance = env.instance
    pairs = spread_points(instance, rng, count)
    expected = episode_per_pair(env, instance, pairs)
    truth = ground_truth(instance, "pixel")
    assert scored(score_group(env.backend, truth, as_completions(pairs))) == expected
    return expected


def test_lone_controls_of_every_type(env_for, component):
    rng = np.random.default_rng(zlib.crc32(component.encode()))  # the same points every run
    expected = assert_group_equals_episodes(env_for(component), 101, rng, 6)
    assert expected[0][0] == 1.0  # the oracle's points reach the goal: the test can see both


@pytest.fixture(scope="module")
def page_env():
    env = gym.make("FineState-Web-v0").unwrapped  # the default scene: an app page
    yield env
    env.close()


@pytest.mark.parametrize("seed", range(6))
def test_app_pages(page_env, seed):
    assert_group_equals_episodes(page_env, 1000 + seed, np.random.default_rng(seed), 10)


@pytest.mark.parametrize("seed", range(2))
def test_phone_pages(seed):
    env = gym.make("FineState-Mobile-v0").unwrapped
    try:
        assert_group_equals_episodes(env, 2000 + seed, np.random.default_rng(seed), 6)
    finally:
        env.close()


def test_desktop_controls():
    env = gym.make("FineState-Desktop-v0", scene="control").unwrapped
    try:
        for seed in range(3):
            assert_group_equals_episodes(env, 3000 + seed, np.random.default_rng(seed), 5)
    finally:
        env.close()


def test_the_scorer_reads_each_rows_convention_and_renders_once_per_instance(page_env):
    """Through RewardScorer and its own browsers: rows of two instances in the 0-1000
    convention, interleaved as a trainer's batch is, score as the same points given in
    pixels do on the env's backend (and those equal episodes: the tests above)."""
    rows = []
    for seed in (7, 8):
        page_env.reset(seed=seed)
        instance = page_env.instance
        grid_truth, pixel_truth = ground_truth(instance, "1000"), ground_truth(instance, "pixel")
        rng = np.random.default_rng(seed)
        x1, y1, x2, y2 = instance.boxes.current.loc
        width, height = instance.size.width, instance.size.height
        grid = [[int(rng.integers(x1 * 1000 // width, x2 * 1000 // width + 2)),
                 int(rng.integers(y1 * 1000 // height, y2 * 1000 // height + 2))]
                for _ in range(8)]
        completions = [json.dumps({"p0": grid[i], "p1": grid[i + 4]}) for i in range(4)]
        in_pixels = [json.dumps({"p0": grid_truth.to_pixels(grid[i]),
                                 "p1": grid_truth.to_pixels(grid[i + 4])}) for i in range(4)]
        expected = score_group(page_env.backend, pixel_truth, in_pixels)
        rows += [(grid_truth.text(), c, e) for c, e in zip(completions, expected, strict=True)]
    order = [0, 4, 1, 5, 2, 6, 3, 7]
    with RewardScorer(workers=2) as scorer:
        scores = scorer.score([rows[i][0] for i in order], [rows[i][1] for i in order])
        assert scored(scores) == scored([rows[i][2] for i in order])
        assert scorer.status()["renders"] == 2


def test_a_browser_that_dies_as_it_starts_leaves_the_group_unjudged(page_env, tmp_path):
    """A browser that closes its pipe as it starts (the reward server's, SIGKILLed again
    while it restarted) is a crash like any other: retried once, then every completion's
    reward is None with the reason, not an error that fails the whole request."""
    dies = tmp_path / "chromium"
    dies.write_text("#!/bin/sh\nexit 3\n")
    dies.chmod(0o755)
    page_env.reset(seed=7)
    truth = ground_truth(page_env.instance, "pixel")
    center = box_center(page_env.instance.boxes.current.loc)
    completion = json.dumps({"p0": list(center), "p1": list(center)})
    with RewardScorer(workers=1, backend_options={"chromium": str(dies)}) as scorer:
        scores = scorer.score([truth, truth], [completion, completion])
        assert [s.reward for s in scores] == [None, None]
        assert all("did not start" in s.unjudged for s in scores), scores[0].unjudged
        assert scorer.status()["retried"] == 1 and scorer.status()["unjudged"] == 2


def test_a_fault_in_one_completions_judgement_is_its_own(page_env, monkeypatch, caplog):
    """A fault injected into one completion's judgement, in a batch merged from three
    requests for one instance: that completion alone is unjudged, the error named and
    logged once with the instance and the completion; every other completion, of its
    request and of the others, gets exactly the reward it gets without the fault."""
    page_env.reset(seed=9)
    truth = ground_truth(page_env.instance, "pixel")
    completions = as_completions(spread_points(page_env.instance, np.random.default_rng(9), 9))
    expected = score_group(page_env.backend, truth, completions)
    assert {s.reward for s in expected} == {0.0, 1.0}
    poisoned = completions[4]
    real = scorer_module.read_answer

    def faulty(completion, row):
        if completion == poisoned:
            raise RuntimeError("injected fault")
        return real(completion, row)

    monkeypatch.setattr(scorer_module, "read_answer", faulty)
    page_env.reset(seed=10)
    other = ground_truth(page_env.instance, "pixel")
    with RewardScorer(workers=1) as scorer, caplog.at_level("ERROR", "finestate.rewards"):
        busy = scorer.submit(other, completions[:1])  # the worker renders another page
        requests = [scorer.submit(truth, completions[i:i + 3]) for i in (0, 3, 6)]
        busy.result()
        got = [score for request in requests for score in request.result()]
        status = scorer.status()
    fault = got[4]
    assert fault.reward is None
    assert fault.unjudged == "scoring this completion failed: RuntimeError: injected fault"
    assert got[:4] + got[5:] == expected[:4] + expected[5:]
    assert status["faults"] == 1 and status["unjudged"] == 1
    logged = [r for r in caplog.records if "scoring a completion of" in r.getMessage()]
    assert len(logged) == 1 and truth.key in logged[0].getMessage()
    assert poisoned[:40] in logged[0].getMessage()


def test_a_batch_larger_than_the_queue_waits_for_room_in_process(env_for):
    """A trainer's batch of more completions than max_pending is scored in turns, never
    Overloaded: the queue's bound is for the server's clients."""
    env = env_for("switch")
    env.reset(seed=5)
    truth = ground_truth(env.instance, "pixel")
    completions = as_completions(spread_points(env.instance, np.random.default_rng(5), 11))
    expected = score_group(env.backend, truth, completions)
    with RewardScorer(workers=1, max_pending=4) as scorer:
        assert scored(scorer.score([truth] * 11, completions)) == scored(expected)
