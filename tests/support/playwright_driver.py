"""Playwright's own driver, for the tests that drive a browser of their own through
Playwright's API (tests/replay/test_replay.py); the envs do not use Playwright at all: they
drive Chromium over its DevTools pipe (finestate_env/backends/chromium.py, cdp.py)."""

from __future__ import annotations

import os
import shutil
import signal
import threading

from playwright.sync_api import Playwright

from finestate_env.backends import parent_death
from finestate_env.backends.scratch import make_scratch_dir

# Playwright (1.x, _impl/_driver.py) starts the Node executable this variable names.
NODE_VARIABLE = "PLAYWRIGHT_NODEJS_PATH"


def _start_playwright() -> Playwright:
    """Playwright's sync API, its Node driver started so that it dies with this process.

    Node gets SIGKILL when the thread starting it ends (parent_death.py), even when this
    process is SIGKILLed and a child forked from it still holds Node's stdin open; its
    Chromium then sees its DevTools pipe close and exits with all its processes.
    Playwright starts whatever PLAYWRIGHT_NODEJS_PATH names (its own Node, or the one
    that variable already named): for the start only, it names a wrapper that sets the
    signal and execs that Node.
    """
    from playwright.sync_api import sync_playwright

    try:  # where Playwright (1.4x-1.6x) decides which Node to start
        from playwright._impl._driver import compute_driver_executable
    except ImportError:  # laid out otherwise: Node starts unwrapped
        return sync_playwright().start()
    driver = compute_driver_executable()
    if not (parent_death.supported() and isinstance(driver, tuple) and len(driver) == 2):
        return sync_playwright().start()
    node = str(driver[0])
    folder = make_scratch_dir("finestate-driver-")  # a start killed half-way: swept later
    wrapper = os.path.join(folder, "node")
    saved = os.environ.get(NODE_VARIABLE)
    try:
        with open(wrapper, "w") as f:
            f.write(parent_death.wrapper_script(node, signal.SIGKILL))
        os.chmod(wrapper, 0o700)
        if not os.access(wrapper, os.X_OK):  # a temp folder mounted noexec
            return sync_playwright().start()
        os.environ[NODE_VARIABLE] = wrapper
        return sync_playwright().start()
    finally:
        if saved is None:
            os.environ.pop(NODE_VARIABLE, None)
        else:
            os.environ[NODE_VARIABLE] = saved
        shutil.rmtree(folder, ignore_errors=True)


class _Driver:
    """One Playwright driver per process, for the tests and tools that drive a browser of
    their own through Playwright (the envs do not: SharedBrowser).

    Playwright's sync API cannot start a second driver while one runs in the same
    process, and one driver serves many browsers; it stops when the last user releases
    it. The sync API belongs to the thread that started the driver.
    """

    def __init__(self) -> None:
        self._forget()
        # A forked child inherits the parent's driver object, whose pipes and event loop
        # belong to the parent: using it hangs. The child forgets it (never stops it).
        os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:
        self._lock = threading.Lock()
        self._playwright: Playwright | None = None
        self._users = 0

    def acquire(self) -> Playwright:
        with self._lock:
            if self._playwright is None:
                self._playwright = _start_playwright()
            self._users += 1
            return self._playwright

    def release(self) -> None:
        with self._lock:
            self._users -= 1
            if self._users == 0 and self._playwright is not None:
                playwright, self._playwright = self._playwright, None
                playwright.stop()


DRIVER = _Driver()
