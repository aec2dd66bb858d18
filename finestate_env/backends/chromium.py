"""Finding and launching Debian's Chromium for Playwright (PLATFORM-NOTES.md).

Playwright's own browser download is not reachable on these machines, so the
system `chromium` is used; `FINESTATE_CHROMIUM` overrides the path.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import shutil
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, wait
from pathlib import Path
from typing import TypeVar

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Playwright, sync_playwright

from finestate_env.backends import parent_death
from finestate_env.backends.scratch import make_scratch_dir

try:  # where Playwright (1.4x-1.6x) decides which Node to start
    from playwright._impl._driver import compute_driver_executable
except ImportError:  # laid out otherwise: Node starts unwrapped
    compute_driver_executable = None

T = TypeVar("T")

# Quiet and offline-safe: no background traffic, no first-run UI, no GPU.
LAUNCH_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--disable-quic",
    "--hide-scrollbars",
    "--font-render-hinting=none",
    # Partial raster re-paints only damaged tiles, and a few anti-aliased pixels
    # (rounded corners) then depend on the page's history: the same seed would
    # not give the same pixels.
    "--disable-partial-raster",
    # Headless frames are paced at 60 Hz by default, and every input event and
    # screenshot waits for a frame: unpaced, an episode is ~20% faster.
    "--disable-gpu-vsync",
    "--disable-frame-rate-limit",
)


# Playwright (1.x, _impl/_driver.py) starts the Node executable this variable names.
NODE_VARIABLE = "PLAYWRIGHT_NODEJS_PATH"

DEBIAN_BINARY = "/usr/lib/chromium/chromium"
# Debian's chromium-headless-shell: the headless-only build Playwright itself
# prefers for headless runs. Measured here: screenshots ~28 ms instead of ~42,
# episodes ~20% faster, a third less memory.
DEBIAN_HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"


def find_chromium(headless: bool = True) -> str:
    """Path of the Chromium executable, or a clear error saying how to install one."""
    override = os.environ.get("FINESTATE_CHROMIUM")
    if override:
        if not os.access(override, os.X_OK):
            raise FileNotFoundError(f"FINESTATE_CHROMIUM={override!r} is not an executable file")
        return override
    if headless and os.access(DEBIAN_HEADLESS_SHELL, os.X_OK):
        return DEBIAN_HEADLESS_SHELL
    # Debian's /usr/bin/chromium is a shell wrapper that adds flags from
    # /etc/chromium.d (GPU rasterization among them): launch the binary itself.
    if os.access(DEBIAN_BINARY, os.X_OK):
        return DEBIAN_BINARY
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    raise FileNotFoundError(
        "no Chromium found on PATH (tried chromium, chromium-browser, google-chrome); "
        "install Debian's package with `apt-get install chromium` (make run does this) "
        "or point FINESTATE_CHROMIUM at an executable"
    )


def _start_playwright() -> Playwright:
    """Playwright's sync API, its Node driver started so that it dies with this process.

    Node gets SIGKILL when the thread starting it ends (parent_death.py), even when this
    process is SIGKILLed and a child forked from it still holds Node's stdin open; its
    Chromium then sees its DevTools pipe close and exits with all its processes.
    Playwright starts whatever PLAYWRIGHT_NODEJS_PATH names (its own Node, or the one
    that variable already named): for the start only, it names a wrapper that sets the
    signal and execs that Node.
    """
    driver = compute_driver_executable() if compute_driver_executable else None
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
    """One Playwright driver per process, shared by every backend in it.

    Playwright's sync API cannot start a second driver while one runs in the
    same process, and one driver serves many browsers; it stops when the last
    user releases it.

    The sync API also belongs to the thread that started the driver (its owner).
    Backends stepped from other threads (env/vector.py) talk to their pages over
    DevTools connections of their own, and hand their rare Playwright calls
    (start, close, a liveness check) to the owner through `call`, which the owner
    runs while it waits for those threads in `serve_until`.
    """

    def __init__(self) -> None:
        self._forget()
        # A forked child (Gymnasium's AsyncVectorEnv forks by default) inherits the
        # parent's driver object, whose pipes and event loop belong to the parent: using
        # it hangs. The child forgets it (never stops it) and starts its own.
        os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:
        self._lock = threading.Lock()
        self._playwright: Playwright | None = None
        self._users = 0
        self._owner: int | None = None
        self._serving = False
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()

    def acquire(self) -> Playwright:
        with self._lock:
            if self._playwright is None:
                self._playwright = _start_playwright()
                self._owner = threading.get_ident()
            self._users += 1
            return self._playwright

    def call(self, fn: Callable[[], T]) -> T:
        """`fn()`, run on the owner thread when it is serving other threads' calls."""
        if not self._serving or threading.get_ident() == self._owner:
            return fn()
        job: Future = Future()
        self._jobs.put((fn, job))
        return job.result()

    def serve_until(self, futures: Sequence[Future]) -> None:
        """On the owner thread: run the calls other threads hand over until `futures` end."""
        if threading.get_ident() != self._owner:
            wait(futures)  # no driver of ours here (or another owner): nothing to serve
            return
        for future in futures:
            future.add_done_callback(lambda _: self._jobs.put(None))  # wakes the loop
        self._serving = True
        try:
            while not all(future.done() for future in futures):
                item = self._jobs.get()
                if item is not None:
                    fn, job = item
                    try:
                        job.set_result(fn())
                    except BaseException as exc:  # the caller's to raise
                        job.set_exception(exc)
        finally:
            self._serving = False

    def release(self) -> None:
        with self._lock:
            self._users -= 1
            if self._users == 0 and self._playwright is not None:
                playwright, self._playwright = self._playwright, None
                playwright.stop()



DRIVER = _Driver()


class SharedBrowser:
    """One Chromium, a persistent context, serving every backend of the process that asks
    for the same launch (executable, flags, screen): each backend has a page of its own.

    A page of its own is a renderer process of its own (Chromium never puts two
    browsing instances' pages in one process below its process limit), so the envs of a
    vector env run side by side while paying for the browser and GPU processes once.
    The browser's death ends every page: `crashed` says why, and each backend starts
    again on its next call (a new browser, shared by the backends that restart).
    """

    def __init__(self, key: str, launch: dict) -> None:
        self.key = key
        self.users = 0
        self.crashed: str | None = None
        self._spare_pages: list = []
        self._port: str | None = None
        self._playwright = DRIVER.acquire()
        # A persistent context, so that the profile folder, and in it the port Chromium
        # picked for the backends' own DevTools connections, is known.
        self.profile = make_scratch_dir("finestate-chromium-")
        try:
            self.context = self._playwright.chromium.launch_persistent_context(
                self.profile, **launch)
        except BaseException:
            DRIVER.release()
            shutil.rmtree(self.profile, ignore_errors=True)
            raise
        self.context.on("close", lambda _: self._died("browser disconnected"))
        self._spare_pages = list(self.context.pages)  # the blank first tab: the first user's

    def _died(self, why: str) -> None:
        self.crashed = self.crashed or why

    def new_page(self):
        return self._spare_pages.pop() if self._spare_pages else self.context.new_page()

    def devtools_port(self, timeout_s: float) -> str:
        """The loopback port Chromium listens on for DevTools (written to the profile)."""
        if self._port is None:
            port_file = Path(self.profile) / "DevToolsActivePort"
            deadline = time.monotonic() + timeout_s
            while not port_file.is_file() or len(port_file.read_text().split()) < 2:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"Chromium wrote no DevTools port to {port_file}")
                time.sleep(0.01)
            self._port = port_file.read_text().split()[0]
        return self._port

    def close(self) -> None:
        try:
            self.context.close()
        except PlaywrightError:  # already dead: closing must still finish
            pass
        DRIVER.release()
        shutil.rmtree(self.profile, ignore_errors=True)


class _BrowserPool:
    """The process's shared browsers by launch; a browser closes with its last user."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._browsers: dict[str, SharedBrowser] = {}
        os.register_at_fork(after_in_child=self._forget)  # as _Driver: the parent's, not ours

    def _forget(self) -> None:
        self._lock = threading.Lock()
        self._browsers = {}

    def acquire(self, launch: dict, private: bool = False) -> SharedBrowser:
        """A running browser for `launch` (Playwright's launch_persistent_context options),
        started when none runs or the last one died; `private`: one nobody else gets."""
        key = json.dumps(launch, sort_keys=True)
        with self._lock:
            browser = None if private else self._browsers.get(key)
            if browser is None or browser.crashed:
                browser = SharedBrowser(key, launch)
                if not private:
                    self._browsers[key] = browser
            browser.users += 1
            return browser

    def release(self, browser: SharedBrowser) -> None:
        with self._lock:
            browser.users -= 1
            if browser.users > 0:
                return
            if self._browsers.get(browser.key) is browser:
                del self._browsers[browser.key]
        browser.close()

    def running(self) -> int:
        """How many shared browsers this process has open (for tests and the bench)."""
        with self._lock:
            return len(self._browsers)


BROWSERS = _BrowserPool()


class _DeadDriverNoise(logging.Filter):
    """Drops asyncio's "Future exception was never retrieved" for a dead Playwright driver.

    When the driver process dies (killed with its env's process group, say), Playwright
    keeps "Connection closed while reading from the driver" in a future that nothing
    awaits once the driver has started, and asyncio logs it to stderr when the future is
    collected. By then the env has already reported the crash (BackendCrashed, then a
    new driver), so the line is noise; any other asyncio error still shows.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not (record.getMessage().startswith("Future exception was never retrieved")
                    and "Connection closed while reading from the driver" in str(error))


logging.getLogger("asyncio").addFilter(_DeadDriverNoise())

