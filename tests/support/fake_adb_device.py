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

usage: python fake_adb_device.py PORT [--no-browser | --frozen-browser]
(--no-browser: no browser package; --frozen-browser: it is there but never opens a page)
It prints "ready" once it listens.
"""

from __future__ import annotations

import asyncio
import base64
import io
import shlex
import struct
import sys
import time

import numpy as np
from PIL import Image
from playwright.async_api import async_playwright

A_CNXN, A_OPEN, A_OKAY = 0x4E584E43, 0x4E45504F, 0x59414B4F
A_CLSE, A_WRTE = 0x45534C43, 0x45545257
VERSION = 0x01000001  # no checksums
SCREEN = (1080, 2400)
STATUS_BAR = 120  # pixels above the page: the backend must find the page's offset
SCALE = 3
PAGE_CSS = (SCREEN[0] // SCALE, (SCREEN[1] - STATUS_BAR) // SCALE)
BANNER = b"device::ro.product.name=finestate_fake;ro.product.model=FineStateFake;" \
         b"ro.product.device=finestate_fake;features=cmd"


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


class FakeDevice:
    def __init__(self, browser_installed: bool = True, browser_opens: bool = True) -> None:
        self.browser_installed = browser_installed
        self.browser_opens = browser_opens
        self.writer: asyncio.StreamWriter | None = None
        self.streams: dict[int, Stream] = {}
        self.next_id = 1
        self.max_payload = 4096
        self.reverse: dict[int, int] = {}  # device port -> host port
        self.page = None
        self.cdp = None

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
        if args[:2] == ["pm", "path"]:
            return b"package:/data/app/browser/base.apk\n" if self.browser_installed else b""
        if args[:3] == ["settings", "put", "global"]:
            return b""
        if args[:2] == ["am", "start"]:
            url = args[args.index("-d") + 1]
            if self.browser_installed and self.browser_opens:
                asyncio.create_task(self.page.goto(url))
            return b"Starting: Intent { act=android.intent.action.VIEW }\n"
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

    async def touch(self, screen_points: list[tuple[float, float]], seconds: float) -> None:
        points = [(x / SCALE, (y - STATUS_BAR) / SCALE) for x, y in screen_points]
        t0 = time.time() - seconds - 0.1
        step = seconds / max(1, len(points) - 1)
        events = [("touchStart", points[0], t0)]
        events += [("touchMove", p, t0 + i * step) for i, p in enumerate(points[1:], 1)]
        events.append(("touchEnd", None, t0 + seconds + 0.1))
        for kind, point, stamp in events:
            touch_points = [] if point is None else [{"x": point[0], "y": point[1], "id": 0}]
            await self.cdp.send("Input.dispatchTouchEvent", {
                "type": kind, "touchPoints": touch_points, "timestamp": stamp})

    async def screencap(self) -> bytes:
        shot = await self.cdp.send("Page.captureScreenshot", {"format": "png"})
        page = np.asarray(Image.open(io.BytesIO(base64.b64decode(shot["data"]))).convert("RGB"))
        screen = np.full((SCREEN[1], SCREEN[0], 3), 60, np.uint8)  # the status bar
        screen[STATUS_BAR:STATUS_BAR + page.shape[0], :page.shape[1]] = page
        out = io.BytesIO()
        Image.fromarray(screen).save(out, format="PNG", compress_level=1)
        return out.getvalue()

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


async def main(port: int, browser_installed: bool, browser_opens: bool) -> None:
    device = FakeDevice(browser_installed, browser_opens)
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
        server = await asyncio.start_server(device.serve, "127.0.0.1", port)
        print("ready", flush=True)
        async with server:
            await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), "--no-browser" not in sys.argv[2:],
                     "--frozen-browser" not in sys.argv[2:]))
