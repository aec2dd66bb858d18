"""Nothing left behind when an AsyncVectorEnv worker dies (issue #28): the dead worker's
browser dies with it, and close() returns and leaves no process, with our AsyncVectorEnv
(env/async_vector.py) at once, with Gymnasium's own after close(terminate=True).

Only this test's own descendants are looked at (other tests run beside it under xdist),
and only the processes it started (a session fixture may keep a browser of its own)."""

from __future__ import annotations

import os
import signal
import time
import warnings
from functools import partial

import gymnasium as gym
import pytest

from finestate_env.backends.processes import descendants, process_kind, start_time
from finestate_env.env.async_vector import AsyncVectorEnv, WorkerDiedWarning

KWARGS = {"component": "switch", "scene": "control", "viewport": (400, 320)}


def _snapshot(pids: set[int]) -> dict[int, int]:
    """pid -> start time, so that a pid the kernel hands out again is not mistaken."""
    return {pid: t for pid in pids if (t := start_time(pid)) is not None}


def _living(snapshot: dict[int, int]) -> list[tuple[int, str]]:
    return sorted((pid, process_kind(pid)) for pid, t in snapshot.items() if start_time(pid) == t)


def _wait_until_gone(snapshot: dict[int, int], within_s: float) -> list[tuple[int, str]]:
    deadline = time.monotonic() + within_s
    while _living(snapshot) and time.monotonic() < deadline:
        time.sleep(0.05)
    return _living(snapshot)


@pytest.mark.parametrize("kind", ["finestate", "gymnasium"])
def test_close_after_a_worker_is_killed_returns_and_leaves_no_process(kind):
    mine = os.getpid()
    before = descendants(mine)
    if kind == "finestate":
        vec = AsyncVectorEnv([partial(gym.make, "FineState-Web-v0", **KWARGS)] * 2)
    else:
        vec = gym.make_vec("FineState-Web-v0", num_envs=2, vectorization_mode="async", **KWARGS)
    try:
        vec.reset(seed=0)
        workers = [process.pid for process in vec.unwrapped.processes]
        started = _snapshot(descendants(mine) - before)
        worker_0_tree = _snapshot(descendants(workers[0]) | {workers[0]})
        kinds = {process_kind(pid) for pid in started}
        # Each worker: a python, Chromium's browser and its children.
        assert {"python", "browser", "renderer"} <= kinds, kinds
        assert len(worker_0_tree) >= 4

        os.kill(workers[0], signal.SIGKILL)
        # The dead worker's browser dies with it, the other worker lives on.
        assert _wait_until_gone(worker_0_tree, 3.0) == []
        assert vec.unwrapped.processes[1].is_alive()

        closing = time.monotonic()
        if kind == "finestate":
            with pytest.warns(WorkerDiedWarning, match=rf"worker 0 \(pid {workers[0]}\).*SIGKILL"):
                vec.close()
        else:
            # Gymnasium (1.2-1.4) stops at the dead worker's pipe; terminating is its answer.
            with pytest.raises(BrokenPipeError):
                vec.close()
            assert vec.unwrapped.processes[1].is_alive()  # never told to close
            vec.close(terminate=True)
        assert time.monotonic() - closing < 15
        assert vec.unwrapped.closed
        assert _wait_until_gone(started, 3.0) == []
        assert descendants(mine) - before == set()
    finally:
        for process in vec.unwrapped.processes:
            if process.is_alive():
                process.kill()
                process.join()


def test_close_waits_for_living_workers_and_warns_about_nobody():
    before = descendants(os.getpid())
    vec = AsyncVectorEnv([partial(gym.make, "FineState-Web-v0", **KWARGS)] * 2)
    vec.reset(seed=0)
    started = _snapshot(descendants(os.getpid()) - before)
    assert "browser" in {process_kind(pid) for pid in started}
    with warnings.catch_warnings():
        warnings.simplefilter("error", WorkerDiedWarning)
        vec.close(timeout=30)
    assert [process.exitcode for process in vec.processes] == [0, 0]  # closed, not killed
    assert _wait_until_gone(started, 3.0) == []
