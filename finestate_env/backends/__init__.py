"""Backends: where a control is rendered, operated and read back (docs/design.md §7).

The env, the vector env, the scoring and the replay code see only `Backend`
(backends/base.py), whose members are everything they use: what a backend is
(`platform`, the `components` it renders, whether it `renders_pages`, whether its
envs may step from threads: `concurrent_steps`), and what it does (`start`,
`ensure_alive`, `render`, `render_current`, `screenshot`, `screenshot_scaled`,
`perform`, `read_state`, `read_distractors`, `read_state_and_distractors`,
`measure`, `probe`, `close`). Nothing outside this package asks a
backend's class or looks for an attribute it might lack.

`make_backend` picks the implementation by name:

- "web": headless Chromium, started by the env and driven over its DevTools pipe
  (backends/web.py, chromium.py, cdp.py); "mobile": the same with a phone's touch and
  device scale (backends/mobile.py);
- "adb": a real Android device or emulator, its browser (backends/adb.py) or, with
  `views="native"`, the project's app (backends/adb_native.py);
- "desktop": native Qt controls in Xvfb (backends/desktop.py);
- "fake": no renderer at all, a Python stand-in for the env's contract and fast
  tests of it, never for a control's truth (backends/fake.py says what it simulates).
"""

from __future__ import annotations

from typing import Any

from finestate_env.backends.base import Backend, BackendCrashed, Measured, Rendered

# What renders each platform unless the user names a backend ("adb" is the mobile option).
DEFAULT_BACKEND: dict[str, str] = {"web": "web", "mobile": "mobile", "desktop": "desktop"}


def make_backend(name: str, viewport: tuple[int, int], *, platform: str | None = None,
                 **options: Any) -> Backend:
    """The backend called `name` for a screen of `viewport` (width, height) pixels, given
    `options` (the env's `backend_options`). `platform` is the platform it is to show:
    the fake takes it (default "web"); every other backend shows its own (its
    `platform`) and needs none."""
    if name == "fake":
        from finestate_env.backends.fake import FakeBackend

        return FakeBackend(viewport=viewport, platform=platform or "web", **options)
    if name == "web":
        from finestate_env.backends.web import WebBackend

        return WebBackend(viewport=viewport, **options)
    if name == "mobile":
        from finestate_env.backends.mobile import MobileBackend

        return MobileBackend(viewport=viewport, **options)
    if name == "adb":
        views = options.pop("views", "web")
        if views == "native":
            from finestate_env.backends.adb_native import NativeViewsBackend

            return NativeViewsBackend(viewport=viewport, **options)
        if views != "web":
            raise ValueError(f"backend 'adb': views must be 'web' (the HTML controls in the "
                             f"device's browser) or 'native' (the app's Android views), "
                             f"got {views!r}")
        from finestate_env.backends.adb import AdbBackend

        return AdbBackend(viewport=viewport, **options)
    if name == "desktop":
        from finestate_env.backends.desktop import DesktopBackend

        return DesktopBackend(viewport=viewport, **options)
    raise ValueError(f"unknown backend {name!r}; available: 'web', 'mobile', 'adb', 'desktop', "
                     "'fake'")


__all__ = ["DEFAULT_BACKEND", "Backend", "BackendCrashed", "Measured", "Rendered",
           "make_backend"]
