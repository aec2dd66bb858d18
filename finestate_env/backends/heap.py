"""Keeping the env's heap flat over long runs: glibc's malloc told to map large blocks.

A screenshot crosses the env's process as several large buffers (the DevTools reply, its
base64 text, the PNG, the decoded array; 1-8 MB each at 1280x720), allocated and freed
every episode, some on the pipe's reader thread. glibc serves a block above its mmap
threshold with a mapping of its own, given back to the kernel when freed; but each such
free *raises* the threshold (its "dynamic" threshold, up to 32 MiB), after which the
buffers come from the heaps instead, where they fragment: measured on app pages at
1280x720, the env's anonymous memory grew ~6 KB per episode (58.9 -> 61.8 MiB from
episode 200 to 500, and on) with the default, and stayed at 37.2-37.4 MiB from episode
200 to 1,000 with the threshold fixed at 128 KiB (issue #36).

`map_large_blocks()` fixes the threshold at glibc's own default (128 KiB), which also
turns the dynamic adjustment off, once per process; the same as starting Python with
MALLOC_MMAP_THRESHOLD_=131072. It is process-wide: FINESTATE_MALLOC_TUNING=0 leaves
malloc alone (a process that tunes malloc itself), and where the C library is not glibc
it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter number (malloc.h)
MMAP_THRESHOLD = 128 * 1024  # glibc's default threshold, kept fixed
_done = False
_lock = threading.Lock()


def map_large_blocks() -> bool:
    """Fix glibc's mmap threshold (the module docstring); True when it is set."""
    global _done
    with _lock:
        if _done:
            return True
        if os.environ.get("FINESTATE_MALLOC_TUNING", "1") == "0":
            return False
        if "MALLOC_MMAP_THRESHOLD_" in os.environ:  # the user set it already
            _done = True
            return True
        name = ctypes.util.find_library("c")
        try:
            libc = ctypes.CDLL(name)
            mallopt = libc.mallopt
        except (OSError, AttributeError, TypeError):  # not glibc: nothing to tune
            return False
        mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
        _done = mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1
        return _done
