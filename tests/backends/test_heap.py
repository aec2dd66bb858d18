"""backends/heap.py: freed screenshot-sized buffers go back to the kernel (issue #36).

With glibc's dynamic mmap threshold, a large block freed once makes the next ones come
from the heap, where they stay resident after they are freed: the env's memory crept by
~5-13 KB per page episode. Each case runs in a process of its own (malloc's state is
process-wide), allocating and freeing buffers of a 1280x720 screenshot's sizes while
the bytes are counted as the DevTools pipe counts what it reads."""

from __future__ import annotations

import os
import subprocess
import sys

import gymnasium as gym
import pytest

from finestate_env.backends.heap import ARENAS, HEAP, TRIM_EVERY_BYTES

SCRIPT = """
from finestate_env.backends.heap import ARENAS, HEAP, TRIM_EVERY_BYTES
def anon_kib():
    for line in open("/proc/self/status"):
        if line.startswith("RssAnon"):
            return int(line.split()[1])
before = anon_kib()
kept = []
for i in range(8):
    buffer = b"x" * (6 << 20)  # freed once: the threshold rises above it
    small = b"y" * 4096  # a small block after it keeps the freed space below the top
    del buffer
    kept.append(small)
grown = anon_kib() - before
HEAP.received(TRIM_EVERY_BYTES // 2)  # not yet
middle = anon_kib() - before
HEAP.received(TRIM_EVERY_BYTES // 2)  # now
print(HEAP.enabled, HEAP.trims, grown, middle, anon_kib() - before)
"""


def run(**env: str) -> tuple[bool, int, int, int, int]:
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                            timeout=60, env={**os.environ, **env}, check=True)
    enabled, trims, grown, middle, after = (int(v) if v.isdigit() or v.startswith("-")
                                            else v == "True" for v in result.stdout.split())
    return enabled, trims, grown, middle, after


@pytest.mark.fast
def test_freed_large_blocks_stay_resident_until_enough_bytes_came_in_then_go_back():
    enabled, trims, grown, middle, after = run()
    assert enabled and trims == 1
    assert grown >= 6 * 1024 - 256  # what the trim is for: freed, still resident
    assert middle >= 6 * 1024 - 256  # half the bytes: no trim yet
    assert after < 1024


@pytest.mark.fast
def test_turned_off_they_stay_resident():
    """FINESTATE_MALLOC_TUNING=0: malloc left alone."""
    enabled, trims, grown, _, after = run(FINESTATE_MALLOC_TUNING="0")
    assert not enabled and trims == 0
    assert after >= 6 * 1024 - 256


def test_an_env_trims_its_heap_as_its_screenshots_come_in():
    """A page episode at 1280x720 brings in ~370 KB through the DevTools pipe, which
    counts them: with a 64 KiB period here (8 MiB by default, about 22 episodes), one
    episode trims the env's heaps."""
    env = gym.make("FineState-Web-v0")
    HEAP.every = 64 << 10
    try:
        before = HEAP.trims
        env.reset(seed=0)
        env.step(env.action_space.sample())
        assert HEAP.trims > before
    finally:
        HEAP.every = TRIM_EVERY_BYTES
        env.close()


ARENAS_SCRIPT = """
import ctypes, threading
from finestate_env.backends import heap
def work():
    kept = [bytes(100_000) for _ in range(4)]  # above pymalloc's sizes: the thread's arena
    done.wait()
done = threading.Event()
threads = [threading.Thread(target=work) for _ in range(6)]
for thread in threads:
    thread.start()
ctypes.CDLL(None).malloc_stats()  # one "Arena n:" block per arena, on stderr
done.set()
for thread in threads:
    thread.join()
print(heap.ARENAS_LIMITED)
"""


@pytest.mark.fast
@pytest.mark.parametrize("tuning", ["1", "0"])
def test_threads_share_a_few_arenas(tuning):
    # make_vec's env threads each decoded screenshots into an arena of its own, and the
    # four fragmented apart: +10 MiB over 10,000 episodes (heap.py's docstring).
    result = subprocess.run([sys.executable, "-c", ARENAS_SCRIPT], capture_output=True,
                            text=True, timeout=60, check=True,
                            env={**os.environ, "FINESTATE_MALLOC_TUNING": tuning})
    arenas = result.stderr.count("Arena ")
    if tuning == "1":
        assert result.stdout.split() == ["True"] and 1 <= arenas <= ARENAS, result.stderr
    else:
        assert result.stdout.split() == ["False"] and arenas >= 7, result.stderr
