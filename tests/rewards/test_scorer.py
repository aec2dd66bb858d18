"""RewardScorer's contract on the fake backend (backends/fake.py): modes, one render per
instance, retries, honest None, the bounded queue. The live truth of the states is
tests/rewards/test_scorer_live.py's, on real Chromium."""

from __future__ import annotations

import json
import threading

import gymnasium as gym
import pytest

import finestate_env  # noqa: F401  (registers the ids)
from finestate_env.backends import BackendCrashed
from finestate_env.backends.fake import FakeBackend
from finestate_env.components import COMPONENTS
from finestate_env.core.coords import box_center
from finestate_env.rewards import Overloaded, RewardScorer, ground_truth
from finestate_env.rewards.scorer import score_group

pytestmark = pytest.mark.fast


def answer(p0, p1) -> str:
    return json.dumps({"p0": list(p0), "p1": list(p1)})


@pytest.fixture(scope="module")
def truths():
    """Ground truths of a few fake-rendered page instances, pixel convention."""
    env = gym.make("FineState-Web-v0", backend="fake").unwrapped
    found = []
    for seed in range(6):
        env.reset(seed=seed)
        found.append(ground_truth(env.instance, "pixel"))
    env.close()
    return found


def right(truth) -> str:
    boxes = truth.instance.boxes.current
    return answer(box_center(boxes.now), box_center(boxes.goal))


def wrong(truth) -> str:
    x1, y1, _, _ = truth.instance.boxes.current.loc
    return answer((x1, y1), (1, 1))


def test_exact_rewards_the_goal_state_and_nothing_else(truths):
    with RewardScorer("exact", workers=2, backend="fake") as scorer:
        rows = [(t, c) for t in truths for c in (right(t), wrong(t), "no points", "click(-5, 3)")]
        scores = scorer.score([t for t, _ in rows], [c for _, c in rows])
        assert [s.reward for s in scores] == [1.0, 0.0, 0.0, 0.0] * len(truths)
        assert all(s.live_exact for s in scores[::4])
        assert scores[2].parse_error and scores[2].live_exact is False
        assert "off screen" in scores[3].action_error
        # one render per instance, whatever the group's size
        assert scorer.status()["renders"] == len(truths)
        assert scorer.status()["completions"] == len(rows)


def test_box_mode_is_the_static_point_in_box_and_needs_no_backend(truths):
    truth = truths[0]
    goal = truth.instance.boxes.current.goal
    inside, outside = answer((0, 0), (goal[0], goal[1])), answer((0, 0), (goal[0] - 1, goal[1]))
    scores = score_group(None, truth, [inside, outside], mode="box")
    assert [s.reward for s in scores] == [1.0, 0.0]
    assert scores[0].live_exact is None and scores[0].crosscheck is None  # not judged live
    scorer = RewardScorer("box", workers=1)  # no backend is ever made: the fast tier refuses one
    assert [s.reward for s in scorer.score([truth.text()] * 2, [inside, outside])] == [1.0, 0.0]
    scorer.close()


def test_box_now_pays_p0_on_now_and_p1_in_goal_only(truths):
    truth = truths[0]
    boxes = truth.instance.boxes.current
    goal, now = boxes.goal, boxes.now
    paid = answer((now[2], now[3]), (goal[0], goal[1]))  # corners: edges are paid
    off_now = answer((now[0] - 1, now[1]), (goal[0], goal[1]))
    off_goal = answer(box_center(now), (goal[2] + 1, goal[3]))
    anywhere = answer((0, 0), box_center(goal))  # what `box` pays
    scores = score_group(None, truth, [paid, off_now, off_goal, anywhere], mode="box_now")
    assert [s.reward for s in scores] == [1.0, 0.0, 0.0, 0.0]
    assert [s.reward for s in score_group(None, truth, [anywhere], mode="box")] == [1.0]
    assert scores[0].live_exact is None  # from the row alone
    with RewardScorer("box_now", workers=1, backend="fake", crosscheck=True) as scorer:
        [score] = scorer.score([truth], [right(truth)])
    assert score.reward == 1.0 and score.live_exact is True


def test_box_mode_with_crosscheck_judges_live_too(truths):
    with RewardScorer("box", workers=1, backend="fake", crosscheck=True) as scorer:
        [score] = scorer.score([truths[0]], [right(truths[0])])
    assert score.reward == 1.0 and score.live_exact is True and score.crosscheck == "agree"


def test_shaped_is_one_minus_the_types_distance(truths):
    truth = truths[1]
    instance = truth.instance
    distance = COMPONENTS[instance.component].distance(instance.current_state,
                                                       instance.goal_state, instance.live.params)
    with RewardScorer("shaped", workers=1, backend="fake") as scorer:
        scores = scorer.score([truth] * 3, [right(truth), wrong(truth), "?"])
    assert [s.reward for s in scores] == [1.0, 1.0 - distance, 0.0]


def test_a_group_whose_renderer_dies_once_is_retried(truths, monkeypatch):
    real = FakeBackend.probe
    calls = []

    def dies_once(self, *args):
        calls.append(1)
        if len(calls) == 1:
            raise BackendCrashed("the fake renderer died")
        return real(self, *args)

    monkeypatch.setattr(FakeBackend, "probe", dies_once)
    with RewardScorer(workers=1, backend="fake") as scorer:
        [score] = scorer.score([truths[0]], [right(truths[0])])
        assert score.reward == 1.0 and scorer.status()["retried"] == 1


def test_a_completion_that_cannot_be_judged_is_none_never_zero(truths, monkeypatch):
    def dies(self, *args):
        raise BackendCrashed("the fake renderer died")

    monkeypatch.setattr(FakeBackend, "probe", dies)
    with RewardScorer(workers=1, backend="fake") as scorer:
        scores = scorer.score([truths[0]] * 2, [right(truths[0]), wrong(truths[0])])
    assert [s.reward for s in scores] == [None, None]
    assert all("not judged after 2 tries" in s.unjudged for s in scores)
    assert scores[0].metrics()["unjudged"] == 1.0


def test_the_queue_is_bounded_and_merges_waiting_completions_by_instance(truths, monkeypatch):
    real = FakeBackend.probe
    gate, entered = threading.Event(), threading.Event()

    def waits(self, *args):
        entered.set()
        gate.wait(10)
        return real(self, *args)

    monkeypatch.setattr(FakeBackend, "probe", waits)
    scorer = RewardScorer(workers=1, backend="fake", max_pending=5)
    try:
        first = scorer.submit(truths[0], [right(truths[0])])
        assert entered.wait(10)  # the only worker is busy with it
        waiting = [scorer.submit(truths[1], [right(truths[1])]) for _ in range(4)]
        with pytest.raises(Overloaded, match="the most this scorer holds is 5"):
            scorer.submit(truths[2], [right(truths[2])] * 2)
        assert scorer.status()["pending"] == 4
        gate.set()
        assert first.result(10)[0].reward == 1.0
        assert [f.result(10)[0].reward for f in waiting] == [1.0] * 4
        # the four waiting submissions of one instance were scored on one render
        assert scorer.status()["renders"] == 2
    finally:
        gate.set()
        scorer.close()


def test_a_caller_that_gave_up_does_not_stop_the_workers(truths):
    with RewardScorer(workers=1, backend="fake") as scorer:
        cancelled = scorer.submit(truths[0], [right(truths[0])])
        cancelled.cancel()
        assert scorer.submit(truths[1], [right(truths[1])]).result(10)[0].reward == 1.0


def test_truths_and_completions_must_pair_up(truths):
    with RewardScorer(workers=1, backend="fake") as scorer, \
            pytest.raises(ValueError, match="2 ground truths for 1 completions"):
        scorer.score([truths[0]] * 2, [right(truths[0])])
