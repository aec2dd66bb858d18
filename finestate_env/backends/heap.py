"""Keeping the env's heap flat over long runs: freed screenshot buffers given back.

A screenshot crosses the env's process as several large buffers (the DevTools reply, its
base64 text, the PNG, the decoded array; 1-8 MB each at 1280x720, more on a phone),
allocated and freed every episode, some on the pipe's reader thread. glibc serves a
block above its mmap threshold with a mapping of its own, given back when freed; but
each such free *raises* the threshold (its "dynamic" threshold, up to 32 MiB), after
which the buffers come from the heaps, where freed pages stay resident as the heaps
fragment: on app pages at 1280x720 the env's anonymous memory grew 4.6-13 KB per episode
(issue #36).

Fixing the threshold at 128 KiB (mallopt) stopped the growth but mapped and faulted in
every large buffer anew: 12 ms more of the env's CPU per phone episode (16.5 -> 29 ms,
1080x2400) and ~1 ms on the web. Instead, `HEAP.received(n)` counts the bytes the
DevTools pipes bring in (the screenshots among them), and every TRIM_EVERY_BYTES of them
malloc_trim(0) gives the heaps' free pages back (~2 ms a call; on the web's default path
about once per 22 episodes). Measured over 1,400 page episodes with a trim every 45: the
env's RssAnon moved between 40.3 and 46.2 MiB from episode 200 on, with no trend, where
without it it grew from 58.9 (episode 200) to 75.6 MiB (1,500); the Python CPU per
episode as without it (10.8 ms on the web, 17.7 on a phone).

FINESTATE_MALLOC_TUNING=0, set before finestate_env is imported, leaves malloc alone (a
process that tunes malloc itself); where the C library is not glibc nothing is done.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
from collections.abc import Callable

# Bytes received between two trims: ~22 episodes of app pages at 1280x720 (an episode's
# two PNG captures and replies come to ~370 KB; each decodes to a 2.7 MB array), fewer on
# a phone, rarely on the RL path, whose captures are small.
TRIM_EVERY_BYTES = 8 << 20


def _malloc_trim() -> Callable[[], object] | None:
    """glibc's malloc_trim(0), or None where it is missing or turned off."""
    if os.environ.get("FINESTATE_MALLOC_TUNING", "1") == "0":
        return None
    try:
        trim = ctypes.CDLL(ctypes.util.find_library("c")).malloc_trim
    except (OSError, AttributeError, TypeError):  # not glibc: nothing to give back this way
        return None
    trim.argtypes, trim.restype = (ctypes.c_size_t,), ctypes.c_int
    return lambda: trim(0)


class HeapTrimmer:
    """Counts the bytes large buffers carried and trims the heaps every `every` bytes."""

    def __init__(self, every: int = TRIM_EVERY_BYTES) -> None:
        self.every = every
        self.trims = 0
        self._received = 0
        self._lock = threading.Lock()
        self._trim = _malloc_trim()  # libc's function, looked up once

    @property
    def enabled(self) -> bool:
        return self._trim is not None

    def received(self, nbytes: int) -> None:
        """`nbytes` more came in (and will be freed): trim when enough have."""
        with self._lock:
            self._received += nbytes
            if self._received < self.every:
                return
            self._received = 0
        self.trim()

    def trim(self) -> bool:
        """Give the heaps' free pages back now; False where that cannot be done."""
        if self._trim is None:
            return False
        self._trim()
        self.trims += 1
        return True


HEAP = HeapTrimmer()  # the process's: every DevTools pipe counts into it
