"""The stand-in Android device, connected to an adb server of its own.

Used by tests/backends/test_adb.py and test_adb_native.py, and by `make bench`
to time the adb backend's host side (adbutils, the adb server, reverse
forwarding, the page driver): run
`python tests/support/adb_standin.py [--tall] -- COMMAND ...`, and every `{serial}`
and `{adb_port}` in COMMAND is replaced by the stand-in's; `--tall` gives it the
taller screen a phone page needs (fake_adb_device.py). The figures are not a
real device's: its screen is Chromium on this machine.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import adbutils

FAKE_DEVICE = Path(__file__).with_name("fake_adb_device.py")
ADB = adbutils.adb_path()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Device:
    """A fake device process, connected to the test's own adb server."""

    def __init__(self, server_port: int, *flags: str) -> None:
        self.port = free_port()
        self.serial = f"127.0.0.1:{self.port}"
        self.server_port = server_port
        self.process = subprocess.Popen([sys.executable, str(FAKE_DEVICE), str(self.port), *flags],
                                        stdout=subprocess.PIPE, text=True)
        assert self.process.stdout.readline().strip() == "ready"
        out = subprocess.run([ADB, "-P", str(server_port), "connect", self.serial],
                             capture_output=True, text=True, timeout=20).stdout
        assert f"connected to {self.serial}" in out, out
        deadline = time.monotonic() + 10
        while self.state() != "device":
            assert time.monotonic() < deadline, f"{self.serial} never came online"
            time.sleep(0.1)

    def state(self) -> str:
        return subprocess.run([ADB, "-P", str(self.server_port), "-s", self.serial, "get-state"],
                              capture_output=True, text=True, timeout=10).stdout.strip()

    def options(self, **extra) -> dict:
        return {"adb_port": self.server_port, "serial": self.serial, **extra}

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


def start_server() -> int:
    """An adb server of our own on a free port (the user's, on 5037, is left alone)."""
    port = free_port()
    subprocess.run([ADB, "-P", str(port), "start-server"], check=True, capture_output=True)
    return port


def kill_server(port: int) -> None:
    subprocess.run([ADB, "-P", str(port), "kill-server"], capture_output=True)


def main(argv: list[str]) -> int:
    flags = argv[:argv.index("--")] if "--" in argv else None
    if flags is None or any(flag != "--tall" for flag in flags):
        print("usage: adb_standin.py [--tall] -- COMMAND ... ({serial} and {adb_port} are "
              "filled in)", file=sys.stderr)
        return 2
    command = argv[argv.index("--") + 1:]
    port = start_server()
    device = None
    try:
        device = Device(port, *flags)
        filled = [part.replace("{serial}", device.serial).replace("{adb_port}", str(port))
                  for part in command]
        return subprocess.run(filled).returncode
    finally:
        if device is not None:
            device.stop()
        kill_server(port)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
