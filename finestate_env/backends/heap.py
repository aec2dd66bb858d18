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

With several threads the trim is not enough: glibc gives each thread that allocates at
once an arena of its own (up to 8 per core), and make_vec's four env threads each decode
their screenshots into theirs, so the freed space of four arenas fragments apart. Over
10,000 episodes of make_vec of 4 the env's memory swung over ~15 MiB between samples and
crept +10 MiB (1.03 KiB an episode); over 4,000 episodes with MALLOC_ARENA_MAX=2 it
crept 0.85 KiB an episode, with 1 it sat ~15 MiB lower and crept 0.32. So the process's
threads share one arena (mallopt M_ARENA_MAX = ARENAS, set at import; a thread that
already has an arena keeps it). The env's Python allocates under the GIL, one thread at a time, so
the arenas' locks cost it nothing measurable; a process with native threads of its own
that allocate at once may want them back (FINESTATE_MALLOC_TUNING=0).

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


# The arenas the process's threads share (glibc's M_ARENA_MAX; the module docstring).
ARENAS = 1
_M_ARENA_MAX = -8  # mallopt's parameter, from glibc's malloc.h


def _glibc() -> ctypes.CDLL | None:
    """The C library when malloc may be tuned: glibc, FINESTATE_MALLOC_TUNING not 0."""
    if os.environ.get("FINESTATE_MALLOC_TUNING", "1") == "0":
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"))
        libc.malloc_trim, libc.mallopt  # noqa: B018 (glibc's own: absent elsewhere)
    except (OSError, AttributeError, TypeError):  # not glibc: nothing to tune this way
        return None
    return libc


def _malloc_trim(libc: ctypes.CDLL | None) -> Callable[[], object] | None:
    """glibc's malloc_trim(0), or None where malloc is not tuned."""
    if libc is None:
        return None
    trim = libc.malloc_trim
    trim.argtypes, trim.restype = (ctypes.c_size_t,), ctypes.c_int
    return lambda: trim(0)


def limit_arenas(libc: ctypes.CDLL | None, arenas: int = ARENAS) -> bool:
    """Let the process's threads share at most `arenas` malloc arenas from now on."""
    if libc is None:
        return False
    libc.mallopt.argtypes, libc.mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(libc.mallopt(_M_ARENA_MAX, arenas))


class HeapTrimmer:
    """Counts the bytes large buffers carried and trims the heaps every `every` bytes."""

    def __init__(self, every: int = TRIM_EVERY_BYTES,
                 libc: ctypes.CDLL | None = None) -> None:
        self.every = every
        self.trims = 0
        self._received = 0
        self._lock = threading.Lock()
        self._trim = _malloc_trim(libc)  # libc's function, looked up once

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


_LIBC = _glibc()
HEAP = HeapTrimmer(libc=_LIBC)  # the process's: every DevTools pipe counts into it
ARENAS_LIMITED = limit_arenas(_LIBC)  # before the envs' threads allocate
