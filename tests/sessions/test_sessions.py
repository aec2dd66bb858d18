"""Live multi-turn sessions (#41): a task opens the same screen every time, gestures are
performed as real input turn by turn, the reward is the exact state at the end with the
page's other controls unchanged, and a pool bounds, reaps and spreads sessions. Real
Chromium throughout."""

from __future__ import annotations

import asyncio
import os
import signal
import threading

import gymnasium as gym
import pytest

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.core.coords import box_center
from finestate_env.core.states import encode_state
from finestate_env.rewards import ground_truth
from finestate_env.sessions import (
    BadTask,
    PoolFull,
    SessionEnded,
    SessionError,
    SessionPool,
    SessionTask,
)

MISS = ([4, 4], [4, 4])  # a click in the page's corner: on no control


@pytest.fixture(scope="module")
def pool():
    with SessionPool(max_sessions=6, idle_timeout_s=None, browsers=2) as pool:
        yield pool


@pytest.fixture(scope="module")
def slider_truth():
    """An exported row's ground truth: a page with a slider, answers on a 0-1000 grid."""
    with gym.make("FineState-Web-v0", component="slider") as env:
        env.reset(seed=3)
        return ground_truth(env.unwrapped.instance, "1000")


def right_gesture(session):
    """The one gesture that reaches a one-gesture goal, in the session's convention."""
    boxes = session.instance.boxes.current
    (w, h), scale = session.size, {"1000": 1000.0, "normalized": 1.0}.get(session.coords)
    p0, p1 = box_center(boxes.now), box_center(boxes.goal)
    if scale is None:
        return list(p0), list(p1)
    return ([p0[0] * scale / w, p0[1] * scale / h], [p1[0] * scale / w, p1[1] * scale / h])


def test_a_group_starts_from_one_screen_and_goes_through_the_same_states(pool, slider_truth):
    task = SessionTask(ground_truth=slider_truth, max_actions=3).text()
    group = [pool.open(task) for _ in range(4)]
    try:
        first = [s.observe().pixels.tobytes() for s in group]
        assert len(set(first)) == 1
        states = []
        for session in group:
            p0, p1 = right_gesture(session)
            turns = [session.act([p0[0], p0[1] + 300], [p1[0] - 90, p1[1]]), session.act(p0, p1)]
            states.append([(t.state, t.screen.pixels.tobytes()) for t in turns])
        assert all(s == states[0] for s in states)
        assert states[0][0][0] != states[0][1][0]
    finally:
        for session in group:
            session.close()


def test_the_agent_ends_the_episode_and_is_paid_the_exact_state(pool, slider_truth):
    with pool.open(SessionTask(ground_truth=slider_truth, max_actions=4)) as session:
        goal = session.instance.goal_state
        missed = session.act(*MISS)
        assert (missed.number, missed.done, missed.action_error) == (1, False, None)
        assert session.result().reward == 0.0
        reached = session.act(*right_gesture(session))
        # ends="agent": reaching the goal is not announced, nothing ends the episode
        assert reached.done is False and reached.feedback == ""
        assert reached.state == encode_state(goal)
        result = session.finish()
        assert (result.reward, result.at_goal, result.collateral, result.turns,
                result.ended) == (1.0, True, (), 2, "agent")
        with pytest.raises(SessionEnded):
            session.act(*MISS)


def test_a_gesture_after_the_goal_can_undo_it(pool, slider_truth):
    with pool.open(SessionTask(ground_truth=slider_truth, max_actions=2)) as session:
        p0, p1 = right_gesture(session)
        session.act(p0, p1)
        last = session.act(p1, [p1[0] - 120, p1[1]])  # drags the thumb off the goal again
        assert last.done and last.ended == "actions" and "No gestures are left" in last.feedback
        assert session.result().reward == 0.0 and session.result().at_goal is False


def test_a_task_may_end_at_the_goal_and_feed_the_state_back(pool):
    task = SessionTask(seed=3, component="slider", max_actions=3, ends="goal",
                       feedback="state")
    with pool.open(task) as session:
        assert session.coords == "pixel" and session.frame == session.size == (1280, 720)
        missed = session.act(*MISS)
        assert f"The control now shows {missed.state}." in missed.feedback
        turn = session.act(*right_gesture(session))
        assert (turn.done, turn.ended) == (True, "goal")
        assert session.result().reward == 1.0


def test_unreadable_answers_perform_nothing_and_use_the_turn(pool):
    with pool.open(SessionTask(seed=5, component="switch", max_actions=2)) as session:
        shown = session.observe().pixels.tobytes()
        turn = session.act_text("I would click the switch")
        assert turn.action_error.startswith("no gesture read:") and turn.number == 1
        assert turn.screen.pixels.tobytes() == shown
        off = session.act([float("nan"), 3], [5, 5])
        assert "finite" in off.action_error or "nan" in off.action_error.lower()
        assert off.done and session.result().action_errors == 2
        assert session.result().reward == 0.0


def test_changing_another_control_of_the_page_costs_the_reward(pool):
    """Collateral: the target (a switch) at its goal, but a slider beside it moved on the
    way, by a click at the end of its rail (as tests/components/test_scenes_live.py)."""
    for seed in range(50):
        session = pool.open(SessionTask(seed=seed, component="switch", max_actions=3))
        sliders = [(i, d) for i, d in enumerate(session.instance.live.scene.distractors)
                   if d.component == "slider"]
        if sliders:
            break
        session.close()
    else:
        pytest.fail("no page with a slider beside a switch in 50 seeds")
    with session:
        i, slider = sliders[0]
        rail = session._env.backend.evaluate(
            """i => { const r = document.querySelectorAll('#stage > .fs-control')[1 + i]
                       .querySelector('.fs-slider-rail').getBoundingClientRect();
                     return [r.left, r.top, r.right, r.bottom]; }""", i)
        end = rail[0] + 1 if slider.state > slider.params["min"] else rail[2] - 1
        point = [end, (rail[1] + rail[3]) / 2]
        session.act(point, point)
        session.act(*right_gesture(session))
        result = session.finish()
        label = session.instance.scene.distractors[i].label
        assert result.at_goal and result.collateral == (label,)
        assert result.reward == 0.0


def test_a_bad_task_is_refused_by_name():
    with pytest.raises(BadTask, match="max_actions"):
        SessionTask.read({"seed": 1, "max_actions": 0})
    with pytest.raises(BadTask, match="a ground_truth .* or a seed"):
        SessionTask.read({"component": "slider"})
    with pytest.raises(BadTask, match="not JSON"):
        SessionTask.read("{")
    with pytest.raises(BadTask, match="instance"):
        SessionTask.read({"ground_truth": {"coords": "1000"}})


def test_a_task_survives_its_text(slider_truth):
    task = SessionTask(ground_truth=slider_truth, max_actions=4, feedback="state")
    assert SessionTask.read(task.text()) == task
    assert SessionTask.read(slider_truth.text()).ground_truth == slider_truth  # bare truth


def test_the_pool_is_bounded_reaps_idle_sessions_and_reuses_pages():
    with SessionPool(max_sessions=2, idle_timeout_s=3.0, browsers=1) as pool:
        task = SessionTask(seed=2, component="checkbox", max_actions=2)
        a, b = pool.open(task), pool.open(task)
        with pytest.raises(PoolFull, match="max_sessions=2"):
            pool.open(task)
        b.close()
        c = pool.open(task)  # b's page, rendered again
        assert c.observe().pixels.tobytes() == a.observe().pixels.tobytes()
        for _ in range(80):
            if a.closed and c.closed:
                break
            threading.Event().wait(0.1)
        assert a.closed.startswith("idle for more than")
        with pytest.raises(SessionError, match="closed"):
            a.act(*MISS)
        assert pool.open_sessions == 0


def test_async_sessions_of_a_group_run_side_by_side(pool, slider_truth):
    async def rollout(wrong_first: bool):
        session = await pool.aopen(SessionTask(ground_truth=slider_truth, max_actions=2))
        try:
            p0, p1 = right_gesture(session.session)
            if wrong_first:
                await session.act(*MISS)
            else:
                await session.act(p0, p1)
            return (await session.finish()).reward
        finally:
            await session.close()

    async def group():
        return await asyncio.gather(*(rollout(i % 2 == 0) for i in range(4)))

    assert asyncio.run(group()) == [0.0, 1.0, 0.0, 1.0]


def test_a_killed_browser_ends_no_other_session_and_gives_no_wrong_reward(slider_truth):
    with SessionPool(max_sessions=2, idle_timeout_s=None, browsers=2) as pool:
        task = SessionTask(ground_truth=slider_truth, max_actions=2)
        victim, other = pool.open(task), pool.open(task)
        victim_pid = victim._env.backend._browser.process.pid
        assert other._env.backend._browser.process.pid != victim_pid  # spread over two
        os.kill(victim_pid, signal.SIGKILL)
        for session in (victim, other):
            turn = session.act(*right_gesture(session))
            assert turn.unjudged is None
            assert session.finish().reward == 1.0  # the victim's episode was restored
