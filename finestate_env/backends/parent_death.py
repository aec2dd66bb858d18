"""Children that die with the process that started them: Linux's parent-death signal.

A killed env (SIGKILL, an OOM kill, a Ray actor torn down) runs no cleanup, so what it
started must end by itself. `die_with_parent` asks the kernel to send a signal to the
calling process when its parent dies (prctl PR_SET_PDEATHSIG); it is kept across exec.
The desktop backend runs it between fork and exec of Xvfb and the Qt app (preexec_fn).

A program that takes no preexec_fn can still be made to start through
`wrapper_script`: a small shell script that runs this file as a script, which sets the
signal and then execs the program itself (same pid, nothing left in between). The
tests' Playwright driver starts its Node so (tests/support/playwright_driver.py).
Chromium needs neither: the env drives it over a DevTools pipe, and it exits when the
env's process, however it dies, leaves the pipe closed (chromium.py).

The kernel sends the signal when the *thread* that started the child ends, not only
the process: a backend started from a short-lived thread loses its child with the
thread. The desktop backend starts its processes on the env's thread.

Run as a script it imports nothing but the standard library (`python -I -S` starts in
~10 ms):  parent_death.py PARENT_PID SIGNAL EXECUTABLE [ARGS ...]
"""

from __future__ import annotations

import ctypes
import os
import shlex
import signal
import sys

PR_SET_PDEATHSIG = 1


def die_with_parent(sig: int = signal.SIGTERM, parent: int | None = None) -> None:
    """In the child: the kernel sends `sig` to it when the process that started it dies.

    `parent` (the starter's pid, known before the fork) closes the race where the parent
    dies before the prctl: then the child sends `sig` to itself at once.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, int(sig)) != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"prctl(PR_SET_PDEATHSIG): {os.strerror(errno)}")
    if parent is not None and os.getppid() != parent:
        os.kill(os.getpid(), sig)


def supported() -> bool:
    """Whether this system has the parent-death signal (Linux)."""
    return sys.platform.startswith("linux")


def wrapper_script(executable: str, sig: int = signal.SIGKILL) -> str:
    """The text of a shell script that starts `executable` with the script's own arguments
    so that it gets `sig` when the calling process dies (the caller is the parent: it
    must run the script itself, as Playwright does with PLAYWRIGHT_NODEJS_PATH)."""
    command = [sys.executable, "-I", "-S", os.path.abspath(__file__), str(os.getpid()),
               str(int(sig)), executable]
    return f"#!/bin/sh\nexec {shlex.join(command)} \"$@\"\n"


def _main(argv: list[str]) -> None:
    parent, sig, executable, *args = argv
    die_with_parent(int(sig), int(parent))
    os.execv(executable, [executable, *args])


if __name__ == "__main__":
    _main(sys.argv[1:])
