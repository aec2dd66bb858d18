"""The side-by-side bench's worker, as make bench runs it (our side; MiniWoB++'s venv is
made by make bench itself, and timing belongs in the bench, not here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from finestate_env.cli.peer_bench import WORKER
from finestate_env.cli.peer_worker import tree_cpu_ms


def test_the_worker_times_real_episodes_of_ours():
    result = subprocess.run([sys.executable, str(WORKER), "--peer", "finestate",
                             "--episodes", "3"], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["peer"] == "finestate" and report["episodes"] == 3
    assert report["episodes_per_s"] > 0
    # The browser's CPU is counted: a Chromium episode costs well over a millisecond.
    assert report["cpu_ms_per_episode"] > 5


def test_tree_cpu_counts_children():
    child = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        before = tree_cpu_ms(os.getpid())
        time.sleep(0.5)
        assert tree_cpu_ms(os.getpid()) - before >= 200  # the busy child's time is ours
    finally:
        child.kill()
        child.wait()
