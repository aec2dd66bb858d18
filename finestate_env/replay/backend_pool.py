"""One live backend per (platform, screen size), started on first use and kept for a run."""

from __future__ import annotations

from typing import Any

from finestate_env.backends import DEFAULT_BACKEND, Backend, make_backend
from finestate_env.core.schema import Instance


class BackendPool:
    def __init__(self, backend_options: dict[str, Any] | None = None,
                 backend: str | None = None) -> None:
        """`backend`: the backend's name for every platform (e.g. "adb"), or None for
        each platform's default."""
        self.backend_options = backend_options or {}
        self.backend = backend
        self._backends: dict[tuple[str, int, int], Backend] = {}

    def for_instance(self, instance: Instance) -> Backend:
        """The backend that can show `instance` (its platform, its screenshot size)."""
        key = (instance.platform, instance.size.width, instance.size.height)
        if key not in self._backends:
            name = self.backend or DEFAULT_BACKEND.get(instance.platform)
            if name is None:
                raise ValueError(f"instance {instance.id!r}: platform {instance.platform!r} "
                                 "has no live backend here")
            self._backends[key] = make_backend(name, key[1:], platform=instance.platform,
                                               **self.backend_options)
        return self._backends[key]

    def close(self) -> None:
        for backend in self._backends.values():
            backend.close()
        self._backends.clear()
