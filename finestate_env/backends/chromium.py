"""Finding and launching Debian's Chromium for Playwright (PLATFORM-NOTES.md).

Playwright's own browser download is not reachable on these machines, so the
system `chromium` is used; `FINESTATE_CHROMIUM` overrides the path.
"""

from __future__ import annotations

import os
import shutil

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
)


def find_chromium() -> str:
    """Path of the Chromium executable, or a clear error saying how to install one."""
    override = os.environ.get("FINESTATE_CHROMIUM")
    if override:
        if not os.access(override, os.X_OK):
            raise FileNotFoundError(f"FINESTATE_CHROMIUM={override!r} is not an executable file")
        return override
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    raise FileNotFoundError(
        "no Chromium found on PATH (tried chromium, chromium-browser, google-chrome); "
        "install Debian's package with `apt-get install chromium` (make run does this) "
        "or point FINESTATE_CHROMIUM at an executable"
    )
