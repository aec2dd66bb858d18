"""One request rate for every Ray actor that calls an endpoint (`eval --ray --rate-limit`).

The limit is one small Ray actor (`Spacing`) handing out send times `1/rate` apart:
a caller on any node asks for its slot and sleeps until then, so N requests through
one limit span at least (N-1)/rate seconds, however many actors send them. The
driver creates the limit (so it lives and dies with the run) and hands it to the
workers inside their factories; `RateLimit` pickles as the actor's handle.
"""

from __future__ import annotations

import time

from finestate_env.core.errors import UsageError

SLOT_TIMEOUT_S = 60.0  # the limit actor answering; it only does arithmetic


class Spacing:
    """Send times `interval` apart, first come first served (a Ray actor's calls run one
    at a time, in arrival order)."""

    def __init__(self, per_second: float) -> None:
        self._interval = 1.0 / per_second
        self._next = 0.0

    def reserve(self) -> float:
        """Seconds until the caller may send."""
        now = time.monotonic()  # one clock, the limit's own: callers' clocks never mix
        slot = max(now, self._next)
        self._next = slot + self._interval
        return slot - now


class RateLimit:
    """Callable: waits for the next send slot of one endpoint's limit. Needs Ray running."""

    def __init__(self, endpoint: str, per_second: float) -> None:
        import ray

        if not per_second > 0:
            raise UsageError(f"a rate limit must be positive requests/s, got {per_second}")
        self.endpoint, self.per_second = endpoint, per_second
        # No CPU: it only does arithmetic, and must not take an actor's place.
        self._spacing = ray.remote(Spacing).options(num_cpus=0).remote(per_second)

    def __call__(self) -> None:
        import ray

        time.sleep(ray.get(self._spacing.reserve.remote(), timeout=SLOT_TIMEOUT_S))

    def close(self) -> None:
        import ray

        ray.kill(self._spacing)
