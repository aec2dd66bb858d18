"""Finding and launching Debian's Chromium, one browser shared by the backends of a process.

Playwright's own browser download is not reachable on these machines, so the system
`chromium` is used (PLATFORM-NOTES.md); `FINESTATE_CHROMIUM` overrides the path.

The env starts Chromium itself and drives it over a DevTools pipe (cdp.py): Chromium
listens on no port, so no other user of the machine can attach to it. It is started as
Playwright 1.65 started it before (the switches of PLAYWRIGHT_ARGS, each page set up
with the same emulation commands: `SharedBrowser._set_up`), so that pages look and
behave as they did (tests/env/test_fixed_seeds.py holds pixels recorded then).

Chromium exits when its pipe closes: when the env closes it, or when the env's process
dies however it dies (the kernel closes the pipe). A process forked from the env drops
its copies of the pipe at once (cdp.py), so it cannot keep the browser alive.

"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import shutil
import signal
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from finestate_env.backends.cdp import CdpChannel, CdpConnectionLost, CdpError, CdpPipe
from finestate_env.backends.scratch import make_scratch_dir

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

# What Playwright 1.65 starts Chromium with before the caller's switches (its
# chromiumSwitches, then the headless ones; read from the command line it ran). Some
# change pixels or input (--force-color-profile=srgb, the hover and pointer types of
# --blink-settings, --hide-scrollbars), the rest keep the browser quiet.
PLAYWRIGHT_ARGS = (
    "--disable-field-trial-config",
    "--disable-background-networking",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-back-forward-cache",
    "--disable-breakpad",
    "--disable-component-extensions-with-background-pages",
    "--disable-component-update",
    "--no-default-browser-check",
    "--disable-default-apps",
    "--disable-dev-shm-usage",
    "--disable-edgeupdater",
    "--disable-extensions",
    "--disable-features=AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,"
    "HttpsUpgrades,HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,"
    "ThirdPartyStoragePartitioning,AvoidCorsURLLoaderRestartOnRedirect,TcpPortRandomizationWin,"
    "OptimizationHints,NetworkTimeServiceQuerying,AimEnabled,PreconnectToSearch,"
    "msForceBrowserSignIn,msEdgeUpdateLaunchServicesPreferredVersion",
    "--enable-features=CDPScreenshotNewSurface,SkipListAccountsWithoutGaiaCookies",
    "--allow-pre-commit-input",
    "--disable-hang-monitor",
    "--disable-ipc-flooding-protection",
    "--disable-popup-blocking",
    "--disable-prompt-on-repost",
    "--disable-renderer-backgrounding",
    "--disable-updater-scheduler",
    "--force-color-profile=srgb",
    "--metrics-recording-only",
    "--no-first-run",
    "--password-store=basic",
    "--use-mock-keychain",
    "--no-service-autorun",
    "--disable-search-engine-choice-screen",
    "--unsafely-disable-devtools-self-xss-warnings",
    "--enable-unsafe-swiftshader",
    "--edge-skip-compat-layer-relaunch",
    "--disable-stack-profiler",
    "--disable-infobars",
    "--disable-sync",
    "--do-not-de-elevate",
)
PLAYWRIGHT_HEADLESS_ARGS = (
    "--headless",
    "--hide-scrollbars",
    "--mute-audio",
    "--blink-settings=primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,"
    "availablePointerTypes=4",
)

# Each page's set-up, as Playwright's for a new page of a context: generic font
# families and media features are part of how a page looks.
FONT_FAMILIES = {"standard": "Times New Roman", "fixed": "Monospace", "serif": "Times New Roman",
                 "sansSerif": "Arial", "cursive": "Comic Sans MS", "fantasy": "Impact"}
MEDIA_FEATURES = [{"name": "prefers-color-scheme", "value": "light"},
                  {"name": "prefers-reduced-motion", "value": "no-preference"},
                  {"name": "forced-colors", "value": "none"},
                  {"name": "prefers-contrast", "value": "no-preference"}]
# Service workers are blocked (a page of ours registers none; none may run either).
BLOCK_SERVICE_WORKERS = ("if (self.ServiceWorkerContainer) ServiceWorkerContainer.prototype"
                         ".register = async () => {};")
# The pipe's own buffer (Linux's default is 64 KiB): a screenshot's reply is a few MiB.
PIPE_BYTES = 1 << 20
# How long a browser gets to exit once its pipe is closed, before it is killed.
EXIT_WAIT_S = 5.0
# How long a browser gets to answer its first command (Playwright's launch timeout): a
# loaded machine starts one in seconds.
LAUNCH_WAIT_S = 30.0

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


class BrowserDidNotStart(RuntimeError):
    """Chromium closed its DevTools pipe or did not answer as it started: killed as it
    came up, or refused its switches. The backends make this a BackendCrashed, which
    their callers retry (a reward server's browser killed again while it restarted)."""


class _Process:
    """A started browser process: its pid, and the one wait for its exit (reaped once)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._lock = threading.Lock()

    def wait(self, timeout_s: float) -> int | None:
        """Its exit status once it has exited within `timeout_s`, else None."""
        deadline = time.monotonic() + timeout_s
        while True:
            with self._lock:
                if self.returncode is None:
                    try:
                        pid, status = os.waitpid(self.pid, os.WNOHANG)
                    except ChildProcessError:  # reaped by someone else
                        pid, status = self.pid, 0
                    if pid:
                        self.returncode = os.waitstatus_to_exitcode(status)
                if self.returncode is not None:
                    return self.returncode
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.01)

    def stop(self, timeout_s: float = EXIT_WAIT_S) -> None:
        """Wait up to `timeout_s` for it to exit, then kill it; reaped either way."""
        if self.wait(timeout_s) is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            self.wait(EXIT_WAIT_S)


def launch_chromium(executable: str, args: Sequence[str], profile: str,
                    timeout_s: float) -> tuple[_Process, CdpPipe]:
    """Start `executable` with `args` on the profile folder `profile`, driven over a pipe
    (--remote-debugging-pipe: it reads our commands on its fd 3 and writes to its fd 4).

    It gets a session of its own, as Playwright gave it: a terminal's Ctrl-C reaches the
    env, whose close() ends the browser; its output goes to `profile`/chromium.log.
    """
    commands_read, commands_write = os.pipe()  # both close-on-exec, as are the copies below
    replies_read, replies_write = os.pipe()
    with contextlib.suppress(OSError):  # bigger is faster, not needed
        fcntl.fcntl(replies_read, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    log = os.open(os.path.join(profile, "chromium.log"),
                  os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o600)
    # Copies above the descriptors the child gets, so that no dup2 below overwrites one
    # it still has to copy (dup2 clears close-on-exec on the copy it makes).
    child_3, child_4, child_log = (fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
                                   for fd in (commands_read, replies_write, log))
    argv = [executable, *args, f"--user-data-dir={profile}", "--remote-debugging-pipe",
            "about:blank"]
    try:
        pid = os.posix_spawn(executable, argv, os.environ, setsid=True, file_actions=[
            (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_DUP2, child_log, 1), (os.POSIX_SPAWN_DUP2, child_log, 2),
            (os.POSIX_SPAWN_DUP2, child_3, 3), (os.POSIX_SPAWN_DUP2, child_4, 4)])
    except BaseException:
        for fd in (commands_write, replies_read):
            os.close(fd)
        raise
    finally:
        for fd in (commands_read, replies_write, log, child_3, child_4, child_log):
            os.close(fd)
    process = _Process(pid)
    pipe = CdpPipe(commands_write, replies_read, name=f"chromium-{pid}",
                   timeout=max(timeout_s, LAUNCH_WAIT_S))
    try:
        pipe.browser.send("Browser.getVersion")
        pipe.browser.timeout = timeout_s
    except (CdpConnectionLost, CdpError) as exc:
        pipe.close()
        process.stop(1.0)
        raise BrowserDidNotStart(f"Chromium ({executable}) did not start: {exc}; its output:\n"
                                 f"{_tail(os.path.join(profile, 'chromium.log'))}") from exc
    return process, pipe


def _tail(path: str, lines: int = 20) -> str:
    try:
        return "\n".join(Path(path).read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(none)"


class SharedBrowser:
    """One Chromium serving every backend of the process that asks for the same launch
    (executable, switches, screen): each backend has a page of its own.

    A page of its own is a renderer process of its own (Chromium never puts two
    browsing instances' pages in one process below its process limit), so the envs of a
    vector env run side by side while paying for the browser and GPU processes once.
    The browser's death ends every page: `crashed` says why, and each backend starts
    again on its next call (a new browser, shared by the backends that restart).

    `launch`: `executable`, `headless`, `args` (switches after PLAYWRIGHT_ARGS) and
    `page`, the screen each page emulates: `viewport` ({width, height} in CSS px),
    `device_scale_factor`, and `is_mobile` and `has_touch` (a phone); `begin_frames`
    (optional): each page is made under begin-frame control (draws only when asked,
    HeadlessExperimental.beginFrame; the browser needs --enable-begin-frame-control).
    """

    def __init__(self, key: str, launch: dict, timeout_s: float = 10.0) -> None:
        self.key = key
        self.users = 0
        self.crashed: str | None = None
        self.timeout_s = timeout_s
        self.page_options = dict(launch["page"])
        self.headless = bool(launch["headless"])
        self.begin_frames = bool(launch.get("begin_frames"))
        # One begin-frame request at a time per browser: its GPU process takes two pages'
        # overlapping requests for a bad message and exits ("Got overlapping
        # IssueExternalBeginFrame"; after six such exits the browser gives up).
        self.frame_lock = threading.Lock()
        self._attached: dict[str, CdpChannel] = {}  # page targets by id, as Chromium attaches
        self._attach = threading.Condition()
        self._first_tab: CdpChannel | None = None
        self._owner = os.getpid()
        self.profile = make_scratch_dir("finestate-chromium-")
        args = [*PLAYWRIGHT_ARGS, *(PLAYWRIGHT_HEADLESS_ARGS if launch["headless"] else ()),
                "--no-sandbox", *launch["args"]]
        try:
            self.process, self.pipe = launch_chromium(launch["executable"], args, self.profile,
                                                      timeout_s)
        except BaseException:
            shutil.rmtree(self.profile, ignore_errors=True)
            raise
        self.pipe.on_lost(self._died)
        if self.pipe.lost:  # before the callback was in place
            self._died(self.pipe.lost)
        try:
            browser = self.pipe.browser
            browser.on("Target.attachedToTarget", self._on_attached)
            # Every page is attached to as Chromium makes it, paused before it runs
            # anything, until _set_up has given it its screen (as Playwright does).
            browser.send("Target.setAutoAttach", {"autoAttach": True, "flatten": True,
                                                  "waitForDebuggerOnStart": True})
            with self._attach:  # the blank first tab (attached at once: it exists)
                if not self._attach.wait_for(lambda: self._attached, timeout_s):
                    raise RuntimeError("Chromium showed no first tab")
                self._first_tab = self._attached.pop(next(iter(self._attached)))
        except BaseException:
            self.close()
            raise

    def _died(self, why: str) -> None:
        self.crashed = self.crashed or f"browser disconnected: {why}"
        # Reaped here, on the pipe's reader thread: a killed browser leaves no zombie.
        threading.Thread(target=self.process.stop, daemon=True).start()

    def _on_attached(self, event: dict) -> None:
        params = event["params"]
        info, session = params["targetInfo"], params["sessionId"]
        if info.get("type") == "page" and not info.get("openerId"):
            channel = self.pipe.session(session, info["targetId"], self.timeout_s)
            with self._attach:
                self._attached[info["targetId"]] = channel
                self._attach.notify_all()
            return
        # Not a page of ours (a popup, a worker): let it run, unwatched.
        with contextlib.suppress(CdpConnectionLost):
            self.pipe.session(session, info["targetId"], self.timeout_s).notify(
                "Runtime.runIfWaitingForDebugger", {})
            self.pipe.browser.notify("Target.detachFromTarget", {"sessionId": session})

    def new_page(self) -> CdpChannel:
        """A blank page of its own, with the screen of `page_options`, running."""
        if self.crashed:
            raise CdpConnectionLost(self.crashed)
        # A phone's screen, or begin-frame control, cannot be given to a page that already
        # runs: the blank first tab then closes once there is another page.
        made_anew = bool(self.page_options.get("is_mobile")) or self.begin_frames
        with self._attach:
            first, self._first_tab = self._first_tab, None
        if first is not None and not made_anew:
            self._set_up(first)  # the blank first tab: the first page's (as Playwright)
            return first
        target = self.pipe.browser.send("Target.createTarget", {
            "url": "about:blank",
            **({"enableBeginFrameControl": True} if self.begin_frames else {})})["targetId"]
        with self._attach:
            if not self._attach.wait_for(lambda: target in self._attached, self.timeout_s):
                raise CdpConnectionLost(f"Chromium did not attach to its new page {target}")
            page = self._attached.pop(target)
        self._set_up(page)
        if first is not None:  # (Playwright replaces a phone's first tab likewise)
            self.close_page(first)
        return page

    def _set_up(self, page: CdpChannel) -> None:
        """The screen and settings Playwright gives a page of a context with these options,
        then let it run (it waited for us since Chromium made it)."""
        options = self.page_options
        width, height = options["viewport"]["width"], options["viewport"]["height"]
        mobile = bool(options.get("is_mobile"))
        if not mobile:
            orientation = {"angle": 0, "type": "landscapePrimary"}
        elif width > height:
            orientation = {"angle": 90, "type": "landscapePrimary"}
        else:
            orientation = {"angle": 0, "type": "portraitPrimary"}
        # A headed window's frame around the page (Playwright's figures for Linux and a
        # persistent context); a headless window is the page.
        frame = (0, 0) if self.headless else (8, 85 + 46)
        window = page.send("Browser.getWindowForTarget")["windowId"]
        page.send_pipelined([
            ("Page.enable", {}),
            ("Page.setLifecycleEventsEnabled", {"enabled": True}),
            ("Network.enable", {}),
            ("Inspector.enable", {}),  # Inspector.targetCrashed: cdp.py
            ("Emulation.setFocusEmulationEnabled", {"enabled": True}),
            ("Browser.setWindowBounds", {"windowId": window,
                                         "bounds": {"width": width + frame[0],
                                                    "height": height + frame[1]}}),
            ("Emulation.setDeviceMetricsOverride", {
                "mobile": mobile, "width": width, "height": height,
                "screenWidth": width, "screenHeight": height,
                "deviceScaleFactor": options.get("device_scale_factor", 1),
                "screenOrientation": orientation}),
            *([("Emulation.setTouchEmulationEnabled", {"enabled": True})]
              if options.get("has_touch") else []),
            ("Page.setFontFamilies", {"fontFamilies": FONT_FAMILIES}),
            ("Emulation.setEmulatedMedia", {"media": "", "features": MEDIA_FEATURES}),
            ("Page.addScriptToEvaluateOnNewDocument", {"source": BLOCK_SERVICE_WORKERS,
                                                       "runImmediately": True}),
            # Every request goes through the backend's handler, none comes from a cache.
            ("Network.setCacheDisabled", {"cacheDisabled": True}),
            ("Runtime.runIfWaitingForDebugger", {}),
        ])

    def close_page(self, page: CdpChannel) -> None:
        """Close `page` (its renderer process exits); nothing if the browser is gone."""
        page.close()
        if not self.crashed:
            with contextlib.suppress(CdpConnectionLost, CdpError):
                self.pipe.browser.send("Target.closeTarget", {"targetId": page.target_id})

    def close(self) -> None:
        if os.getpid() != self._owner:  # a forked child's copy: the browser is the parent's
            return
        if not self.crashed:
            with contextlib.suppress(CdpConnectionLost, CdpError):
                # It answers, then exits; the pipe closing below ends it anyway.
                self.pipe.browser.send("Browser.close")
        self.pipe.close()
        self.process.stop()
        shutil.rmtree(self.profile, ignore_errors=True)


class _BrowserPool:
    """The process's shared browsers by launch; a browser closes with its last user."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._browsers: dict[str, SharedBrowser] = {}
        # A forked child (Gymnasium's AsyncVectorEnv forks by default) inherits the
        # parent's browsers, whose pipes it has dropped (cdp.py): it starts its own.
        os.register_at_fork(after_in_child=self._forget)

    def _forget(self) -> None:
        self._lock = threading.Lock()
        self._browsers = {}

    def acquire(self, launch: dict, private: bool = False,
                timeout_s: float = 10.0) -> SharedBrowser:
        """A running browser for `launch` (SharedBrowser's), started when none runs or the
        last one died; `private`: one nobody else gets."""
        key = json.dumps(launch, sort_keys=True)
        with self._lock:
            browser = None if private else self._browsers.get(key)
            # A browser killed a moment ago may not have closed its pipe yet: its exit
            # tells first.
            if browser is None or browser.crashed or browser.process.wait(0) is not None:
                browser = SharedBrowser(key, launch, timeout_s)
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

