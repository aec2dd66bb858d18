"""Gymnasium's AsyncVectorEnv, with a `close()` that survives workers that died.

Gymnasium's own `close()` sends "close" to every worker in turn and raises
BrokenPipeError at the first dead one (killed by pid, by the OOM killer, crashed in C):
the workers after it are never told to close and stay alive, each with its browser,
until the vector env is garbage-collected or the program exits. This subclass sends
"close" to every worker whose pipe still works, waits for each to exit (within
`timeout`, when given), terminates and then kills what is left, and warns naming each
worker that had died and how.

`gym.make_vec(id, vectorization_mode="async")` builds `gymnasium.vector.AsyncVectorEnv`
by that name and offers no hook for another class, so this one is built directly, with
the same arguments:

    from functools import partial
    from finestate_env.env.async_vector import AsyncVectorEnv
    vec = AsyncVectorEnv([partial(gym.make, "FineState-Web-v0", component="switch")] * 4)

With Gymnasium's class, `close(terminate=True)` after the BrokenPipeError ends the
remaining workers. Either way a dead worker leaves no browser: each worker's Chromium
exits when the worker's end of its DevTools pipe closes, as it does however the worker
dies (backends/chromium.py).
"""

from __future__ import annotations

import signal
import time
import warnings

import gymnasium
from gymnasium.vector.async_vector_env import AsyncState

# How long a terminated (SIGTERM) worker has to exit before it is killed.
TERMINATE_GRACE_S = 2.0


class WorkerDiedWarning(RuntimeWarning):
    """A worker of an AsyncVectorEnv was found dead (or had to be killed) at close()."""


def _how(exitcode: int | None) -> str:
    if exitcode is None:
        return "still running"
    if exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit code {exitcode}"


class AsyncVectorEnv(gymnasium.vector.AsyncVectorEnv):
    """`gymnasium.vector.AsyncVectorEnv` whose `close()` returns, and leaves no worker
    process, when some of its workers have died."""

    def close_extras(self, timeout: float | None = None, terminate: bool = False) -> None:
        """Close every living worker, wait for all to exit, warn about the dead ones.

        timeout: seconds the living workers have to close and exit (None: no limit);
        after it they are terminated, as with `terminate=True` at once.
        """
        dead = {i: process.exitcode for i, process in enumerate(self.processes)
                if not process.is_alive()}
        if dead:
            warnings.warn("AsyncVectorEnv: " + "; ".join(
                f"worker {i} (pid {self.processes[i].pid}) had died before close(), "
                f"{_how(code)}" for i, code in dead.items())
                + "; the other workers were closed", WorkerDiedWarning, stacklevel=3)
        if self._state != AsyncState.DEFAULT:
            gymnasium.logger.warn(f"Calling `close` while waiting for a pending call to "
                                  f"`{self._state.value}` to complete: its results are dropped.")
            self._state = AsyncState.DEFAULT
        deadline = None if timeout is None else time.monotonic() + (0 if terminate else timeout)
        closing = [] if terminate else [i for i in range(self.num_envs) if i not in dead
                                        and self._send_close(i)]
        for i in closing:
            self._drain_until_exit(i, deadline)
        late = [i for i, process in enumerate(self.processes) if process.is_alive()]
        for i in late:
            self.processes[i].terminate()
        for pipe in self.parent_pipes:
            if pipe is not None:
                pipe.close()
        for i in late:
            self.processes[i].join(TERMINATE_GRACE_S)
            if self.processes[i].is_alive():
                self.processes[i].kill()
        for process in self.processes:
            process.join()
        if late and not terminate:
            warnings.warn("AsyncVectorEnv: " + ", ".join(
                f"worker {i} (pid {self.processes[i].pid})" for i in late)
                + f" did not close within {timeout} s and were terminated",
                WorkerDiedWarning, stacklevel=3)

    def _send_close(self, i: int) -> bool:
        pipe = self.parent_pipes[i]
        if pipe is None or pipe.closed:
            return False
        try:
            pipe.send(("close", None))
        except OSError:  # BrokenPipeError, ConnectionResetError: it died meanwhile
            return False
        return True

    def _drain_until_exit(self, i: int, deadline: float | None) -> None:
        """Read (and drop) what worker i still sends, a pending call's results and the
        answer to "close", until it exits or the deadline passes: a worker blocked on a
        full pipe would never exit."""
        pipe, process = self.parent_pipes[i], self.processes[i]
        while process.is_alive():
            wait = 0.05 if deadline is None else min(0.05, deadline - time.monotonic())
            if wait <= 0:
                return
            try:
                if pipe.poll(wait):
                    pipe.recv()
            except Exception:  # EOFError: it closed its end, it is exiting or dead
                break
        process.join(None if deadline is None else max(0.0, deadline - time.monotonic()))
