"""A stand-in Android device for tests: it speaks the adb protocol, its screen is Chromium.

No Android system can run on these machines (PLATFORM-NOTES.md), so the adb
backend is tested against this process instead: the real adb server connects
to it (`adb connect 127.0.0.1:PORT`) and adbutils talks to that server, so
everything on the host side is the real code. The device answers the shell
commands the backend uses (`wm size`, `dumpsys display`, `pm path`,
`settings put`, `am start`, `input tap|swipe`, `screencap -p`) and
`adb reverse`: a page request to 127.0.0.1:P on the device travels back
through an adb stream the device opens to the host (`tcp:Q`), as on Android.

The screen: 1080x2400 pixels, a 120-pixel grey status bar on top, and under it
a Chromium page in mobile emulation (360x760 CSS px at scale 3). `input`
becomes touch events on that page, `screencap -p` returns the composite PNG.

The project's app (org.finestate.views, android/): the device also speaks
what the native-views backend (finestate_env/backends/adb_native.py) uses:
the sync service (STAT, SEND/DATA/DONE) that `adb push` and adbutils' push
use, `pm install` (it refuses `am start` of the app until an APK, any zip with
an AndroidManifest.xml, was installed through it), `pm path` / `pm list
packages`, `am start -W` of the app, `am broadcast` of its report, `input
keyevent` (HOME sends the app to the back), `uiautomator dump` and `cat`.
Each prints what AOSP prints (cited where it is made). Its "app" is NOT the
app: it renders the instance with the project's own HTML controls in a second
Chromium page under the status bar and reports their state and boxes in
screen pixels, and the reach of a far goal (its page's `FineState.measure`), in the
app's reply protocol. It proves the host side (install,
render, report parsing, input, capture, errors), not the app's native Views.

usage: python fake_adb_device.py PORT [--no-browser | --frozen-browser | --app-covered |
                                      --app-late=SECONDS | --no-reach]
(--no-browser: no browser package; --frozen-browser: it is there but never opens a page;
--app-covered: a system dialog stays in front of the app; --app-late: the app takes each
render's intent SECONDS after `am start` returned; --no-reach: its report lacks
"reach", as an app built before the report carried it)
It prints "ready" once it listens.
"""

from __future__ import annotations

import asyncio
import base64
import io
import json
import shlex
import struct
import sys
import time
import zipfile
from xml.sax.saxutils import quoteattr

import numpy as np
from PIL import Image
from playwright.async_api import async_playwright

A_CNXN, A_OPEN, A_OKAY = 0x4E584E43, 0x4E45504F, 0x59414B4F
A_CLSE, A_WRTE = 0x45534C43, 0x45545257
VERSION = 0x01000001  # no checksums
# A phone 2400 pixels tall; started with --tall, 2640 (840 CSS px of page: a phone page's
# 800 fit, where the default's 760 take a lone control only).
TALL_SCREEN = (1080, 2640)
SCREEN = TALL_SCREEN if __name__ == "__main__" and "--tall" in sys.argv[2:] else (1080, 2400)
STATUS_BAR = 120  # pixels above the page: the backend must find the page's offset
SCALE = 3
PAGE_CSS = (SCREEN[0] // SCALE, (SCREEN[1] - STATUS_BAR) // SCALE)
DENSITY = 160 * SCALE  # dpi: 1 dp is SCALE pixels
BANNER = b"device::ro.product.name=finestate_fake;ro.product.model=FineStateFake;" \
         b"ro.product.device=finestate_fake;features=cmd"
BROWSER = "com.android.chrome"
LAUNCHER = "com.android.launcher3"
SYSTEM_UI = "com.android.systemui"  # a dialog or the notification shade over the app
APP = "org.finestate.views"
APP_ACTIVITY = f"{APP}/.MainActivity"
STAGE_ORIGIN = "http://finestate.invalid"  # where the app page loads the project's controls
# Three frames: what input changed is handled and painted before a report or a screenshot.
SETTLE = ("new Promise(done => { let n = 3; const tick = () => (n-- <= 0 ? done() : "
          "requestAnimationFrame(tick)); tick(); })")


def packet(command: int, arg0: int, arg1: int, data: bytes = b"") -> bytes:
    return struct.pack("<6I", command, arg0, arg1, len(data), 0,
                       command ^ 0xFFFFFFFF) + data


class Stream:
    """One adb stream: our id, the host's id, and what the host sent."""

    def __init__(self, device: FakeDevice, local: int, remote: int) -> None:
        self.device, self.local, self.remote = device, local, remote
        self.acked = asyncio.Event()
        self.acked.set()
        self.incoming: asyncio.Queue = asyncio.Queue()
        self.buffer = bytearray()
        self.opened = asyncio.get_running_loop().create_future()

    async def write(self, data: bytes) -> None:
        for start in range(0, len(data), self.device.max_payload):
            await self.acked.wait()
            self.acked.clear()
            self.device.send(packet(A_WRTE, self.local, self.remote,
                                    data[start:start + self.device.max_payload]))
        await self.acked.wait()

    def close(self) -> None:
        self.device.streams.pop(self.local, None)
        self.device.send(packet(A_CLSE, self.local, self.remote))

    async def read(self, n: int) -> bytes | None:
        """Exactly n bytes the host sent, or None once it closed the stream."""
        while len(self.buffer) < n:
            chunk = await self.incoming.get()
            if chunk is None:
                return None
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return bytes(data)


class FakeDevice:
    def __init__(self, browser_installed: bool = True, browser_opens: bool = True,
                 app_covered: bool = False, app_late: float = 0.0,
                 app_reaches: bool = True) -> None:
        self.app_covered = app_covered
        self.app_reaches = app_reaches  # --no-reach: the report has no "reach" field
        self.app_late = app_late
        self.browser_installed = browser_installed
        self.browser_opens = browser_opens
        self.writer: asyncio.StreamWriter | None = None
        self.streams: dict[int, Stream] = {}
        self.next_id = 1
        self.max_payload = 4096
        self.reverse: dict[int, int] = {}  # device port -> host port
        self.page = None
        self.cdp = None
        self.files: dict[str, tuple[int, bytes]] = {}  # path -> (mode, content)
        self.packages = {LAUNCHER} | ({BROWSER} if browser_installed else set())
        self.front = LAUNCHER  # the package whose window is in front
        self.app_page = None
        self.app_cdp = None
        self.app_running = False
        self.app_lock = asyncio.Lock()
        # The app's last render: the reply protocol's fields.
        self.app = {"seq": 0, "ready": False, "component": "", "boxes": None, "error": None,
                    "goal": None}

    def send(self, data: bytes) -> None:
        if self.writer is not None:
            self.writer.write(data)

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        try:
            while True:
                header = await reader.readexactly(24)
                command, arg0, arg1, length, _, _ = struct.unpack("<6I", header)
                data = await reader.readexactly(length) if length else b""
                await self.handle(command, arg0, arg1, data)
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.writer = None
            self.streams.clear()

    async def handle(self, command: int, arg0: int, arg1: int, data: bytes) -> None:
        if command == A_CNXN:
            self.max_payload = min(arg1, 256 * 1024)
            self.send(packet(A_CNXN, VERSION, 256 * 1024, BANNER))
        elif command == A_OPEN:
            local = self.new_id()
            stream = Stream(self, local, arg0)
            self.streams[local] = stream
            self.send(packet(A_OKAY, local, arg0))
            asyncio.create_task(self.service(stream, data.rstrip(b"\0").decode()))
        elif command == A_OKAY:
            stream = self.streams.get(arg1)
            if stream is not None:
                stream.remote = arg0
                if not stream.opened.done():
                    stream.opened.set_result(True)
                stream.acked.set()
        elif command == A_WRTE:
            stream = self.streams.get(arg1)
            if stream is not None:
                stream.incoming.put_nowait(data)
                self.send(packet(A_OKAY, arg1, arg0))
        elif command == A_CLSE:
            stream = self.streams.pop(arg1, None)
            if stream is not None:
                if not stream.opened.done():
                    stream.opened.set_result(False)
                stream.incoming.put_nowait(None)

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    # -- services ----------------------------------------------------------
    async def service(self, stream: Stream, name: str) -> None:
        try:
            if name.startswith("shell:"):
                await stream.write(await self.shell(name[len("shell:"):]))
            elif name == "sync:":
                await self.sync(stream)
            elif name.startswith("reverse:forward:"):
                spec = name.split(":", 2)[2].replace("norebind:", "")
                remote, local = spec.split(";")
                self.reverse[int(remote.split(":")[1])] = int(local.split(":")[1])
                await stream.write(b"OKAY")
            elif name.startswith("reverse:killforward:"):
                self.reverse.pop(int(name.rsplit(":", 1)[1]), None)
                await stream.write(b"OKAY")
            else:
                await stream.write(b"FAIL" + f"{len(name):04x}".encode() + name.encode())
        finally:
            stream.close()

    async def shell(self, command: str) -> bytes:
        args = shlex.split(command)
        if command == "wm size":
            return f"Physical size: {SCREEN[0]}x{SCREEN[1]}\n".encode()
        if command.startswith("dumpsys display"):
            return (b"DISPLAY MANAGER (dumpsys display)\n  mDisplayId=0\n"
                    b"  DisplayInfo{\"Built-in Screen\", displayId 0, real 1080 x 2400, "
                    b"rotation 0, orientation=0}\n")
        if command == "wm density":
            return f"Physical density: {DENSITY}\n".encode()
        if args[:2] == ["pm", "path"]:
            name = args[2] if len(args) > 2 else ""
            return (f"package:/data/app/~~fake==/{name}-fake==/base.apk\n".encode()
                    if name in self.packages else b"")
        if args[:3] == ["pm", "list", "packages"]:
            wanted = args[3] if len(args) > 3 else ""
            return "".join(f"package:{name}\n" for name in sorted(self.packages)
                           if wanted in name).encode()
        if args[:2] == ["pm", "install"]:
            return self.pm_install(args[-1])
        if args[:1] == ["rm"]:
            for path in args[1:]:
                if not path.startswith("-"):
                    self.files.pop(path, None)
            return b""
        if args[:1] == ["cat"]:
            if args[1] not in self.files:
                return f"cat: {args[1]}: No such file or directory\n".encode()
            return self.files[args[1]][1]
        if args[:3] == ["settings", "put", "global"]:
            return b""
        if args[:2] == ["am", "start"] and "-n" in args:
            return await self.start_app(args)
        if args[:2] == ["am", "start"]:
            url = args[args.index("-d") + 1]
            if self.browser_installed and self.browser_opens:
                self.front = BROWSER
                asyncio.create_task(self.page.goto(url))
            return b"Starting: Intent { act=android.intent.action.VIEW }\n"
        if args[:2] == ["am", "broadcast"]:
            return await self.broadcast(args)
        if args[:2] == ["input", "keyevent"]:
            if args[2] in ("3", "KEYCODE_HOME"):
                self.front = LAUNCHER
            return b""
        if args[:2] == ["uiautomator", "dump"]:
            return self.uiautomator_dump(args[2] if len(args) > 2 else "/sdcard/window_dump.xml")
        if args[:2] == ["input", "tap"]:
            await self.touch([(float(args[2]), float(args[3]))], 0.05)
            return b""
        if args[:2] == ["input", "swipe"]:
            x1, y1, x2, y2 = (float(v) for v in args[2:6])
            ms = int(args[6]) if len(args) > 6 else 300
            steps = 8
            points = [(x1 + (x2 - x1) * i / steps, y1 + (y2 - y1) * i / steps)
                      for i in range(steps + 1)]
            await self.touch(points, ms / 1000)
            return b""
        if command == "screencap -p":
            return await self.screencap()
        return f"/system/bin/sh: {args[0] if args else ''}: not found\n".encode()

    def front_cdp(self):
        """The DevTools session of the page in front, or None (the home screen)."""
        return {BROWSER: self.cdp, APP: self.app_cdp}.get(self.front)

    async def touch(self, screen_points: list[tuple[float, float]], seconds: float) -> None:
        cdp = self.front_cdp()
        if cdp is None:
            return  # the home screen: nothing of ours takes the touch
        points = [(x / SCALE, (y - STATUS_BAR) / SCALE) for x, y in screen_points]
        t0 = time.time() - seconds - 0.1
        step = seconds / max(1, len(points) - 1)
        events = [("touchStart", points[0], t0)]
        events += [("touchMove", p, t0 + i * step) for i, p in enumerate(points[1:], 1)]
        events.append(("touchEnd", None, t0 + seconds + 0.1))
        for kind, point, stamp in events:
            touch_points = [] if point is None else [{"x": point[0], "y": point[1], "id": 0}]
            await cdp.send("Input.dispatchTouchEvent", {
                "type": kind, "touchPoints": touch_points, "timestamp": stamp})

    async def screencap(self) -> bytes:
        screen = np.full((SCREEN[1], SCREEN[0], 3), 60, np.uint8)  # the status bar
        cdp = self.front_cdp()
        if cdp is None:
            screen[STATUS_BAR:] = (20, 30, 50)  # the home screen's wallpaper
        else:
            shot = await cdp.send("Page.captureScreenshot", {"format": "png"})
            page = np.asarray(Image.open(io.BytesIO(base64.b64decode(shot["data"])))
                              .convert("RGB"))
            screen[STATUS_BAR:STATUS_BAR + page.shape[0], :page.shape[1]] = page
        out = io.BytesIO()
        Image.fromarray(screen).save(out, format="PNG", compress_level=1)
        return out.getvalue()

    # -- the sync service (adb push) ----------------------------------------
    async def sync(self, stream: Stream) -> None:
        """AOSP adbd's file_sync_service: requests of an id and a little-endian length,
        STAT answered with mode/size/mtime (zeros for a missing file), SEND followed by
        DATA chunks and DONE (mtime), answered OKAY with a zero length."""
        while (header := await stream.read(8)) is not None:
            request, length = header[:4], struct.unpack("<I", header[4:])[0]
            argument = (await stream.read(length) or b"").decode()
            if request == b"STAT":
                mode, content = self.files.get(argument, (0, b""))
                mtime = int(time.time()) if argument in self.files else 0
                await stream.write(b"STAT" + struct.pack("<III", mode, len(content), mtime))
            elif request == b"SEND":
                path, _, mode = argument.rpartition(",")
                chunks = []
                while (chunk := await stream.read(8)) is not None:
                    kind, size = chunk[:4], struct.unpack("<I", chunk[4:])[0]
                    if kind == b"DONE":  # `size` is the file's mtime here
                        break
                    chunks.append(await stream.read(size) or b"")
                self.files[path] = (int(mode), b"".join(chunks))
                await stream.write(b"OKAY" + struct.pack("<I", 0))
            elif request == b"QUIT":
                return
            else:
                message = f"unknown sync request {request!r}".encode()
                await stream.write(b"FAIL" + struct.pack("<I", len(message)) + message)
                return

    def pm_install(self, path: str) -> bytes:
        # `pm install` prints "Success", or "Failure [CODE]" / "Failure [CODE: message]"
        # (PackageManagerShellCommand); the codes are Android's, the messages the stand-in's.
        if path not in self.files:
            return b"Failure [INSTALL_FAILED_INVALID_URI]\n"
        try:
            with zipfile.ZipFile(io.BytesIO(self.files[path][1])) as apk:
                apk.getinfo("AndroidManifest.xml")
        except (zipfile.BadZipFile, KeyError):
            return (b"Failure [INSTALL_PARSE_FAILED_NOT_APK: Failed to parse " + path.encode()
                    + b": no AndroidManifest.xml]\n")
        self.packages.add(APP)
        return b"Success\n"

    # -- the "app": the project's HTML controls, answering the app's protocol
    async def start_app(self, args: list[str]) -> bytes:
        # ActivityManagerShellCommand.runStartActivity (aosp-mirror/platform_frameworks_base,
        # services/core/java/com/android/server/am/ActivityManagerShellCommand.java): it
        # prints "Starting: " + intent (Intent.toString: act, cmp, "(has extras)"), a
        # warning or error line, and with -W: Status, LaunchState, Activity, TotalTime,
        # WaitTime, Complete.
        component = args[args.index("-n") + 1]
        action = args[args.index("-a") + 1] if "-a" in args else None
        extras = "--ei" in args or "--es" in args
        intent = "Intent { " + " ".join(
            part for part in (f"act={action}" if action else "", f"cmp={component}",
                              "(has extras)" if extras else "") if part) + " }"
        lines = [f"Starting: {intent}"]
        if component != APP_ACTIVITY or APP not in self.packages:
            package, _, activity = component.partition("/")
            full = package + activity if activity.startswith(".") else activity
            lines += ["Error type 3", f"Error: Activity class {{{package}/{full}}} does not "
                      "exist."]
            return ("\n".join(lines) + "\n").encode()
        started = time.monotonic()
        seq = int(args[args.index("seq", args.index("--ei")) + 1])
        spec_b64 = args[args.index("spec", args.index("--es")) + 1]
        self.front = SYSTEM_UI if self.app_covered else APP
        asyncio.create_task(self.take_intent(seq, spec_b64))
        cold = not self.app_running
        self.app_running = True
        if not cold:
            lines.append("Warning: Activity not started, intent has been delivered to "
                         "currently running top-most instance.")
        if "-W" not in args:
            return ("\n".join(lines) + "\n").encode()
        wait_ms = int((time.monotonic() - started) * 1000) + 1
        lines += ["Status: ok", f"LaunchState: {'COLD' if cold else 'UNKNOWN (0)'}",
                  f"Activity: {APP_ACTIVITY}", f"TotalTime: {wait_ms if cold else 0}",
                  f"WaitTime: {wait_ms}", "Complete"]
        return ("\n".join(lines) + "\n").encode()

    async def take_intent(self, seq: int, spec_b64: str) -> None:
        # An intent delivered to the running activity reaches onNewIntent on its main
        # thread, possibly after `am start -W` returned: --app-late=S delays it S seconds.
        await asyncio.sleep(self.app_late)
        self.app.update(seq=seq, ready=False, component="", boxes=None, error=None)
        await self.render_app(seq, spec_b64)

    async def render_app(self, seq: int, spec_b64: str) -> None:
        from finestate_env.core.schema import LiveSpec

        async with self.app_lock:
            if seq != self.app["seq"]:
                return  # a newer render came in meanwhile
            try:
                spec = LiveSpec.model_validate_json(base64.b64decode(spec_b64, validate=True))
                result = await self.app_page.evaluate(
                    "spec => FineState.prepare(spec)", spec.renderer_spec())
                await self.app_page.evaluate(SETTLE)
                update = {"component": spec.component, "error": None, "goal": spec.goal_state,
                          "boxes": {"current": result["current"], "target": result["target"]}}
            except Exception as exc:  # noqa: BLE001 (the app reports what went wrong)
                update = {"error": f"{type(exc).__name__}: {exc}".splitlines()[0]}
            if seq == self.app["seq"]:
                self.app.update(update, ready=True)

    async def broadcast(self, args: list[str]) -> bytes:
        # runSendBroadcast: "Broadcasting: " + intent (FLAG_RECEIVER_FROM_SHELL is
        # flg=0x400000), then IntentReceiver.performReceive: "Broadcast completed:
        # result=" + code, then `, data="` + data + `"` when there is data, unescaped.
        action = args[args.index("-a") + 1]
        package = args[args.index("-p") + 1] if "-p" in args else None
        head = (f"Broadcasting: Intent {{ act={action} flg=0x400000"
                + (f" pkg={package}" if package else "") + " }\n")
        if action != f"{APP}.REPORT" or not self.app_running:
            return (head + "Broadcast completed: result=0\n").encode()
        report = {key: self.app[key] for key in ("seq", "ready", "component", "boxes", "error")}
        report["state"] = None
        report["reach"] = None
        if report["ready"] and report["error"] is None:
            # As the app: state, current boxes and reach read from the control now, the
            # target's boxes as measured at the render.
            now = await self.app_page.evaluate(
                f"goal => ({SETTLE}).then(() => ({{state: FineState.state(), "
                "...FineState.measure(goal)}))", self.app["goal"])
            report["state"] = now["state"]
            report["boxes"] = {**report["boxes"], "current": now["boxes"]}
            report["reach"] = now["reach"]
        if not self.app_reaches:
            del report["reach"]  # an app built before the report carried it
        data = json.dumps(report, separators=(",", ":"))
        return (head + f'Broadcast completed: result=-1, data="{data}"\n').encode()

    def uiautomator_dump(self, path: str) -> bytes:
        # AOSP's DumpCommand and AccessibilityNodeInfoDumper (aosp-mirror/
        # platform_frameworks_base, cmds/uiautomator/...): Xml.newSerializer's
        # declaration, <hierarchy rotation="R">, each node's attributes in the dumper's
        # order, children inline; then "UI hierchary dumped to: PATH" (their typo).
        def node(index: int, cls: str, bounds: tuple[int, int, int, int],
                 children: str = "", clickable: bool = False) -> str:
            x1, y1, x2, y2 = bounds
            attrs = [("index", str(index)), ("text", ""), ("resource-id", ""), ("class", cls),
                     ("package", self.front), ("content-desc", ""), ("checkable", "false"),
                     ("checked", "false"), ("clickable", str(clickable).lower()),
                     ("enabled", "true"), ("focusable", str(clickable).lower()),
                     ("focused", "false"), ("scrollable", "false"),
                     ("long-clickable", "false"), ("password", "false"),
                     ("selected", "false"), ("bounds", f"[{x1},{y1}][{x2},{y2}]")]
            text = " ".join(f"{name}={quoteattr(value)}" for name, value in attrs)
            return f"<node {text}>{children}</node>" if children else f"<node {text} />"

        screen = (0, 0, SCREEN[0], SCREEN[1])
        inner = ""
        if self.front == APP and self.app["boxes"] is not None:
            x1, y1, x2, y2 = (round(v) for v in self.app["boxes"]["current"]["loc"])
            inner = node(0, "android.view.View", (x1, y1, x2 + 1, y2 + 1), clickable=True)
        content = node(0, "android.widget.FrameLayout", (0, STATUS_BAR, *SCREEN), inner)
        xml = ("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
               f'<hierarchy rotation="0">{node(0, "android.widget.FrameLayout", screen, content)}'
               "</hierarchy>")
        self.files[path] = (0o100660, xml.encode())
        return f"UI hierchary dumped to: {path}\n".encode()

    async def serve_stage(self, route) -> None:
        """The app page's own files: the project's controls, nothing from the network."""
        from finestate_env.backends.web import CONTENT_TYPES, WEB_ROOT, stage_html

        name = route.request.url[len(STAGE_ORIGIN) + 1:].split("?")[0]
        path = (WEB_ROOT / name).resolve()
        if path.parent != WEB_ROOT.resolve() or not path.is_file():
            await route.abort("blockedbyclient")
            return
        body = stage_html().encode() if name == "stage.html" else path.read_bytes()
        await route.fulfill(status=200, body=body,
                            content_type=CONTENT_TYPES.get(path.suffix, "text/plain"))

    # -- the device's network: 127.0.0.1 reaches the host only through adb reverse
    async def route(self, route) -> None:
        request = route.request
        port = int(request.url.split("/")[2].split(":")[1])
        host_port = self.reverse.get(port)
        if host_port is None:
            await route.abort("connectionrefused")
            return
        path = "/" + request.url.split("/", 3)[3]
        body = request.post_data_buffer or b""
        raw = (f"{request.method} {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n"
               f"Content-Type: {request.headers.get('content-type', 'text/plain')}\r\n"
               f"Content-Length: {len(body)}\r\n\r\n").encode() + body
        local = self.new_id()
        stream = Stream(self, local, 0)
        self.streams[local] = stream
        self.send(packet(A_OPEN, local, 0, f"tcp:{host_port}\0".encode()))
        if not await stream.opened:
            await route.abort("connectionrefused")
            return
        await stream.write(raw)
        chunks = []
        while (chunk := await stream.incoming.get()) is not None:
            chunks.append(chunk)
        response = b"".join(chunks)
        head, _, content = response.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
        await route.fulfill(status=status, body=content,
                            content_type=headers.get("content-type", "text/plain"))


async def main(port: int, browser_installed: bool, browser_opens: bool,
               app_covered: bool, app_late: float, app_reaches: bool) -> None:
    device = FakeDevice(browser_installed, browser_opens, app_covered, app_late, app_reaches)
    async with async_playwright() as playwright:
        from finestate_env.backends.chromium import LAUNCH_ARGS, find_chromium

        browser = await playwright.chromium.launch(
            executable_path=find_chromium(True), headless=True,
            args=[*LAUNCH_ARGS, f"--force-device-scale-factor={SCALE}"])
        context = await browser.new_context(
            viewport={"width": PAGE_CSS[0], "height": PAGE_CSS[1]},
            device_scale_factor=SCALE, is_mobile=True, has_touch=True)
        await context.route(lambda url: url.startswith("http://127.0.0.1:"), device.route)
        device.page = await context.new_page()
        device.cdp = await context.new_cdp_session(device.page)
        await context.route(lambda url: url.startswith(STAGE_ORIGIN + "/"), device.serve_stage)
        device.app_page = await context.new_page()
        device.app_cdp = await context.new_cdp_session(device.app_page)
        await device.app_page.goto(f"{STAGE_ORIGIN}/stage.html", wait_until="load")
        # The app's window sits under the status bar; it measures in screen pixels.
        await device.app_page.evaluate(f"FineState.setFrame({SCALE}, 0, {STATUS_BAR})")
        server = await asyncio.start_server(device.serve, "127.0.0.1", port)
        print("ready", flush=True)
        async with server:
            await server.serve_forever()


if __name__ == "__main__":
    late = [float(a.split("=", 1)[1]) for a in sys.argv[2:] if a.startswith("--app-late=")]
    asyncio.run(main(int(sys.argv[1]), "--no-browser" not in sys.argv[2:],
                     "--frozen-browser" not in sys.argv[2:], "--app-covered" in sys.argv[2:],
                     late[0] if late else 0.0, "--no-reach" not in sys.argv[2:]))
