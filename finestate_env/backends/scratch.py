"""Scratch folders that a killed env does not leave behind.

A backend keeps files in a temporary folder while it runs (Chromium's profile, the
desktop display's Xauthority and sockets) and removes it on close. A process that is
killed (SIGKILL, an OOM kill, a Ray actor torn down) cannot, so every folder is named
after its owner, `<prefix><pid>-<start time>-<random>`, and creating one first removes
the folders of the same prefix whose owner is gone: the next env started on the
machine cleans up after the dead one.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

from finestate_env.backends.processes import start_time

_OWNER = re.compile(r"(\d+)-(\d+)-")


def make_scratch_dir(prefix: str) -> str:
    """A new private folder in the temp directory, after removing stale ones of `prefix`."""
    sweep_stale(prefix)
    pid = os.getpid()
    return tempfile.mkdtemp(prefix=f"{prefix}{pid}-{start_time(pid)}-")


def sweep_stale(prefix: str, root: str | None = None) -> list[str]:
    """Remove the folders of `prefix` whose owning process no longer runs; returns them.

    A folder whose name does not say its owner (made by an older version) is left alone.
    """
    removed = []
    for path in Path(root or tempfile.gettempdir()).glob(f"{prefix}*"):
        owner = _OWNER.match(path.name[len(prefix):])
        if owner is None or not path.is_dir():
            continue
        pid, started = int(owner[1]), int(owner[2])
        if start_time(pid) != started:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(str(path))
    return removed
