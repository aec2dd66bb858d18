"""backends/heap.py: freed screenshot-sized buffers go back to the kernel (issue #36).

With glibc's dynamic mmap threshold, a large block freed once makes the next ones come
from the heap, where they stay resident after they are freed: the env's memory crept by
~6-13 KB per page episode. Each case runs in a process of its own (the setting is
process-wide), allocating and freeing buffers of a 1280x720 screenshot's sizes."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.fast

SCRIPT = """
from finestate_env.backends import heap
def anon_kib():
    for line in open("/proc/self/status"):
        if line.startswith("RssAnon"):
            return int(line.split()[1])
tuned = heap.map_large_blocks()
before = anon_kib()
for _ in range(4):
    buffer = b"x" * (6 << 20)
    del buffer
print(tuned, anon_kib() - before)
"""


def run(**env: str) -> tuple[bool, int]:
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                            timeout=60, env={**os.environ, **env}, check=True)
    tuned, grown = result.stdout.split()
    return tuned == "True", int(grown)


def test_large_blocks_are_given_back_once_tuned():
    tuned, grown_kib = run()
    assert tuned
    assert grown_kib < 1024


def test_without_the_tuning_they_stay_resident():
    """What the tuning prevents (and so what the test above can tell apart)."""
    tuned, grown_kib = run(FINESTATE_MALLOC_TUNING="0")
    assert not tuned
    assert grown_kib >= 6 * 1024 - 256
