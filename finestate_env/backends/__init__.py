"""Backends: where a control is rendered, operated and read back (docs/design.md §7).

The env, the scoring and the replay code see only `Backend`; `make_backend`
picks the implementation by name.
"""

from __future__ import annotations

from typing import Any

from finestate_env.backends.base import Backend, BackendCrashed, Measured, Rendered

# What renders each platform unless the user names a backend ("adb" is the mobile option).
DEFAULT_BACKEND: dict[str, str] = {"web": "web", "mobile": "mobile", "desktop": "desktop"}


def make_backend(name: str, viewport: tuple[int, int], **options: Any) -> Backend:
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
    raise ValueError(f"unknown backend {name!r}; available: 'web', 'mobile', 'adb', 'desktop'")


__all__ = ["DEFAULT_BACKEND", "Backend", "BackendCrashed", "Measured", "Rendered",
           "make_backend"]
