"""Nothing left behind: an env killed outright leaves no scratch folder once the next env
starts, a killed browser leaves no noise on stderr, and close() after a crash leaves no
process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from finestate_env.backends.processes import alive, descendants, process_kind, start_time
from finestate_env.backends.scratch import make_scratch_dir, sweep_stale

ENV_FOR_PREFIX = {"finestate-chromium-": "FineState-Web-v0",
                  "finestate-desktop-": "FineState-Desktop-v0"}


def _folders(prefix: str, pid: int) -> list[Path]:
    return [p for p in Path(tempfile.gettempdir()).glob(f"{prefix}{pid}-*") if p.is_dir()]


@pytest.mark.parametrize("prefix", list(ENV_FOR_PREFIX))
def test_a_killed_env_leaves_no_folder_once_the_next_env_starts(prefix):
    env_id = ENV_FOR_PREFIX[prefix]
    code = textwrap.dedent(f"""
        import sys, gymnasium as gym, finestate_env
        env = gym.make({env_id!r}, component="switch")
        env.reset(seed=0)
        print("ready", flush=True)
        sys.stdin.read()
    """)
    # Its own session, so that the kill takes the browser or display with it, as a kill
    # of a Ray actor's process group or an OOM kill of the whole tree would.
    victim = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, start_new_session=True)
    try:
        assert victim.stdout.readline().strip() == b"ready"
        assert len(_folders(prefix, victim.pid)) == 1
    finally:
        os.killpg(victim.pid, signal.SIGKILL)
        victim.wait()
    assert len(_folders(prefix, victim.pid)) == 1  # nobody could clean up
    next_one = subprocess.run(
        [sys.executable, "-c", f"import gymnasium as gym, finestate_env; "
                               f"env = gym.make({env_id!r}, component='switch'); "
                               "env.reset(seed=0); env.close()"],
        capture_output=True, text=True, timeout=120)
    assert next_one.returncode == 0, next_one.stderr
    assert _folders(prefix, victim.pid) == []


@pytest.mark.fast
def test_the_sweep_spares_living_owners_and_old_names(tmp_path):
    mine = Path(make_scratch_dir("finestate-test-"))
    try:
        dead = tmp_path / f"finestate-test-{os.getpid()}-{start_time(os.getpid()) - 1}-x"
        reused_pid = tmp_path / "finestate-test-999999999-5-y"
        old_style = tmp_path / "finestate-test-abc"
        living = tmp_path / f"finestate-test-{os.getpid()}-{start_time(os.getpid())}-z"
        for folder in (dead, reused_pid, old_style, living):
            folder.mkdir()
        removed = sweep_stale("finestate-test-", root=str(tmp_path))
        assert sorted(removed) == sorted([str(dead), str(reused_pid)])
        assert old_style.is_dir() and living.is_dir()
        assert mine.is_dir() and mine.name.startswith(f"finestate-test-{os.getpid()}-")
    finally:
        mine.rmdir()


def test_a_killed_browser_leaves_no_noise_and_no_process():
    code = textwrap.dedent("""
        import os, signal, time, gymnasium as gym, numpy as np, finestate_env
        from finestate_env.backends.processes import descendants
        env = gym.make("FineState-Web-v0", component="switch")
        env.reset(seed=0)
        for pid in descendants(os.getpid()):  # the browser and its children
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.3)
        point = np.array([10, 10], np.float32)
        print(env.step({"p0": point, "p1": point})[4]["recovered"] is not None)
        env.reset(seed=1)  # a new browser
        env.close()
        import gc; gc.collect()
        print(sorted(descendants(os.getpid())))
    """)
    result = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["True", "[]"]
    assert result.stderr == ""


def test_close_after_a_crash_leaves_no_process():
    import gymnasium as gym

    env = gym.make("FineState-Desktop-v0", component="switch").unwrapped
    env.reset(seed=0)
    started = {env.backend.app.pid, env.backend.xvfb.pid}
    os.kill(env.backend.app.pid, signal.SIGKILL)
    env.close()
    deadline = time.monotonic() + 5
    while alive(started) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert alive(started) == set()


def test_a_killed_owner_takes_its_browser_along_even_when_a_fork_inherited_its_pipe():
    # The env's process forks after its browser started (an AsyncVectorEnv or a DataLoader
    # worker would): a child that kept the DevTools pipe open would keep Chromium from
    # reading EOF. The child drops its copies at the fork (backends/cdp.py), so the owner,
    # killed outright, still takes Chromium along: it exits when its pipe closes.
    code = textwrap.dedent("""
        import os, sys, gymnasium as gym, finestate_env
        env = gym.make("FineState-Web-v0", component="switch", scene="control")
        env.reset(seed=0)
        if os.fork() == 0:  # the child outlives the owner until the test closes stdin
            sys.stdin.read()
            os._exit(0)
        print("ready", flush=True)
        sys.stdin.read()
    """)
    victim = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE)
    browser: dict[int, int | None] = {}

    def left() -> list[tuple[int, str]]:  # start times: a pid handed out again is not ours
        return sorted((pid, process_kind(pid)) for pid, t in browser.items()
                      if start_time(pid) == t)

    try:
        assert victim.stdout.readline().strip() == b"ready"
        tree = descendants(victim.pid)
        browser = {pid: start_time(pid) for pid in tree if process_kind(pid) != "python"}
        assert {process_kind(pid) for pid in browser} >= {"browser", "renderer"}
        assert len(tree) == len(browser) + 1  # and the forked child
        os.kill(victim.pid, signal.SIGKILL)
        victim.wait()
        # On a loaded machine a Chromium process can take seconds to finish exiting (seen:
        # one with its memory already gone, its cmdline unreadable, still there after 2 s).
        deadline = time.monotonic() + 10
        while left() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert left() == []
    finally:
        victim.kill()
        victim.wait()
        victim.stdout.close()
        victim.stdin.close()  # the forked child reads EOF and exits
        for pid, _ in left():
            os.kill(pid, signal.SIGKILL)
