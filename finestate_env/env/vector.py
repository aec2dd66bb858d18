"""The web and phone envs' own vector env: N envs of one process stepped at the same time.

`gym.make_vec("FineState-Web-v0", num_envs=N)` builds it (the ids' `vector_entry_point`).
Each env has a page and so a renderer process of its own (backends/chromium.py,
SharedBrowser), and the pages are spread over `browsers` browsers; unlike
`vectorization_mode="sync"`, a step sends every env's gesture at once, one thread per
env, so that one env's renderer draws while another's screenshot is decoded and a third's
gesture is handled.

How many browsers: a browser draws the frames of all its pages in one display pipeline,
so one browser keeps only so many cores busy, however many pages it holds (measured on a
16-core machine, issue #34: 2.8 cores on app pages, 4.4 on lone controls, while 12 of 16
idled). By default the envs are spread over one browser per CORES_PER_BROWSER cores this
process may run on (at least one, at most one per env): one browser on a machine of up to
five cores, as before, four on sixteen. Pages drawn under begin-frame control (the web's
default capture, backends/web.py) are another matter: their browser asks for one frame at
a time (its GPU process exits on overlapping requests), so its pages wait for each
other's captures and leave cores idle; they get a browser each (measured on 2 cores,
make_vec of 4: app pages 21.4 episodes/s with a browser each against 15.9 in one browser,
and 18.2 for one browser drawing on its own before; the RL path 67.4 against 53.7; ~44 MiB
more PSS per env). `browsers=k` sets it; backend_options with
`shared_browser=False` gives every env a browser of its own. Each env
talks to its page over a DevTools session of its own on the browser's pipe
(backends/cdp.py), whose blocking reads release the GIL. The vector env knows none of
this: a backend declares whether its envs may step from threads
(`Backend.concurrent_steps`; the Chromium ones do, any other steps its envs one after
the other, as sync does), and a backend that is not running, or whose renderer died,
(re)starts on the thread that made the vector env (`Backend.ensure_alive`).

Everything else is what `gymnasium.vector.SyncVectorEnv` does, which this subclasses:
the same batched spaces, infos, autoreset modes (NEXT_STEP by default, SAME_STEP and
DISABLED), `reset_mask`, `call`, `get_attr` and `set_attr`, and env i of it gives what
a single env made with the same arguments and seed i gives (tests/env/test_vector_env.py).
"""

from __future__ import annotations

import os
from concurrent.futures import Future, ThreadPoolExecutor, wait
from copy import deepcopy
from functools import partial
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.vector.utils import concatenate, iterate

from finestate_env.env.make import make_env

# Cores one browser keeps busy at most (the module docstring): 2.8 on app pages, 4.4 on
# lone controls, measured with 16 envs in one browser on a 16-core machine.
CORES_PER_BROWSER = 3
# The backends whose pages can be spread over browsers (WebBackend's browser_group).
_BROWSER_BACKENDS = (None, "web", "mobile")


def default_browsers(num_envs: int, cores: int | None = None) -> int:
    """The browsers make_vec spreads `num_envs` envs over: one per CORES_PER_BROWSER of
    `cores` (default: the cores this process may run on), at least one, at most one per env."""
    if cores is None:
        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
            os.cpu_count() or 1)
    return max(1, min(int(num_envs), cores // CORES_PER_BROWSER))


def _spreadable(env_kwargs: dict[str, Any]) -> bool:
    """Whether make_vec may spread these envs over browsers: a browser's backend, and the
    caller chose no browser grouping of their own."""
    options = env_kwargs.get("backend_options") or {}
    return (env_kwargs.get("backend") in _BROWSER_BACKENDS and "browser_group" not in options
            and options.get("shared_browser") is not False)


def browser_kwargs(env_kwargs: dict[str, Any], index: int, browsers: int) -> dict[str, Any]:
    """Env `index`'s keyword arguments with its browser group (index mod `browsers`), where
    its backend is a browser's and the caller left the browsers to make_vec."""
    if browsers <= 1 or not _spreadable(env_kwargs):
        return env_kwargs
    options = dict(env_kwargs.get("backend_options") or {})
    options["browser_group"] = index % browsers
    return {**env_kwargs, "backend_options": options}


class ConcurrentVectorEnv(SyncVectorEnv):
    """N envs of one process (each as `gym.make` makes it: env/make.py) whose resets and
    steps run concurrently."""

    def __init__(self, num_envs: int, *,
                 autoreset_mode: str | AutoresetMode = AutoresetMode.NEXT_STEP,
                 copy: bool = True, browsers: int | None = None, **env_kwargs: Any) -> None:
        self.closed = True  # until built: a refused argument leaves nothing to close
        if int(num_envs) < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs!r}")
        chosen = browsers
        if browsers is None:
            browsers = default_browsers(num_envs)
        elif isinstance(browsers, bool) or not isinstance(browsers, int) or browsers < 1:
            raise ValueError(f"browsers must be a whole number >= 1, got {browsers!r}")
        self.browsers = min(int(browsers), int(num_envs))
        super().__init__([partial(make_env, **browser_kwargs(env_kwargs, i, self.browsers))
                          for i in range(int(num_envs))], copy=copy,
                         autoreset_mode=autoreset_mode)
        self.closed = False
        backends = [env.unwrapped.backend for env in self.envs]
        if (chosen is None and self.browsers < self.num_envs and _spreadable(env_kwargs)
                and all(backend.begin_frames for backend in backends)):
            # Frames asked for one at a time per browser (the module docstring): a browser
            # each. Not started yet, so each starts in its own group.
            for index, backend in enumerate(backends):
                backend.browser_group = index
            self.browsers = self.num_envs
        # Only backends that declare it (Backend.concurrent_steps: the Chromium ones) are
        # driven from threads; any other (adb, say) steps its envs one after the other,
        # as sync does.
        self.concurrent = all(env.unwrapped.backend.concurrent_steps for env in self.envs)
        self._threads = ThreadPoolExecutor(self.num_envs, thread_name_prefix="finestate-env")
        self._start_backends()

    def _start_backends(self) -> None:
        # The browser starts once, here, before the envs' threads share it.
        for env in self.envs:
            env.unwrapped.backend.ensure_alive()

    def _each(self, work: list) -> list:
        """Run work[i]() for every env i at once (None: nothing for env i); their results.

        Waits for every env before raising the first error, so that no env is left
        half-way through a step.
        """
        if not self.concurrent:
            return [None if fn is None else fn() for fn in work]
        # No restart here of a browser that died: an env mid-episode would act on a blank
        # page. Its step meets the death (action_error) and its reset, in its own thread,
        # starts a new browser (the DevTools pipe belongs to no thread).
        futures: dict[int, Future] = {i: self._threads.submit(fn) for i, fn in enumerate(work)
                                      if fn is not None}
        wait(list(futures.values()))
        return [futures[i].result() if i in futures else None for i in range(self.num_envs)]

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None):
        if seed is None:
            seed = [None] * self.num_envs
        elif isinstance(seed, int):
            seed = [seed + i for i in range(self.num_envs)]
        if len(seed) != self.num_envs:
            raise ValueError(f"{len(seed)} seeds for {self.num_envs} envs")
        options = dict(options or {})
        mask = options.pop("reset_mask", None)
        if mask is None:
            mask = np.ones(self.num_envs, dtype=np.bool_)
        elif not (isinstance(mask, np.ndarray) and mask.shape == (self.num_envs,)
                  and mask.dtype == np.bool_ and mask.any()):
            raise ValueError(f"options['reset_mask'] must be a bool array of shape "
                             f"({self.num_envs},) with at least one True, got {mask!r}")
        self._terminations[mask] = False
        self._truncations[mask] = False
        self._autoreset_envs[mask] = False
        results = self._each([partial(env.reset, seed=s, options=options or None) if m else None
                              for env, s, m in zip(self.envs, seed, mask, strict=True)])
        infos: dict[str, Any] = {}
        for i, result in enumerate(results):
            if result is not None:
                self._env_obs[i], env_info = result
                infos = self._add_info(infos, env_info, i)
        self._observations = concatenate(self.single_observation_space, self._env_obs,
                                         self._observations)
        return deepcopy(self._observations) if self.copy else self._observations, infos

    def step(self, actions):
        actions = list(iterate(self.action_space, actions))
        if len(actions) != self.num_envs:
            raise ValueError(f"{len(actions)} actions for {self.num_envs} envs")
        results = self._each([partial(self._step_one, i, action)
                              for i, action in enumerate(actions)])
        infos: dict[str, Any] = {}
        for i, (obs, reward, terminated, truncated, env_info, final) in enumerate(results):
            self._env_obs[i] = obs
            self._rewards[i], self._terminations[i], self._truncations[i] = (
                reward, terminated, truncated)
            if final is not None:
                infos = self._add_info(infos, final, i)
            infos = self._add_info(infos, env_info, i)
        self._observations = concatenate(self.single_observation_space, self._env_obs,
                                         self._observations)
        self._autoreset_envs = np.logical_or(self._terminations, self._truncations)
        return (deepcopy(self._observations) if self.copy else self._observations,
                np.copy(self._rewards), np.copy(self._terminations),
                np.copy(self._truncations), infos)

    def _step_one(self, i: int, action: Any) -> tuple:
        """What SyncVectorEnv.step does for env i, in env i's thread."""
        env = self.envs[i]
        if self.autoreset_mode == AutoresetMode.NEXT_STEP and self._autoreset_envs[i]:
            obs, info = env.reset()
            return obs, 0.0, False, False, info, None
        if self.autoreset_mode == AutoresetMode.DISABLED and self._autoreset_envs[i]:
            raise RuntimeError(f"env {i} ended its episode: with autoreset_mode DISABLED, "
                               "reset it (options={'reset_mask': ...}) before stepping it")
        obs, reward, terminated, truncated, info = env.step(action)
        final = None
        if self.autoreset_mode == AutoresetMode.SAME_STEP and (terminated or truncated):
            final = {"final_obs": obs, "final_info": info}
            obs, info = env.reset()
        return obs, reward, terminated, truncated, info, final

    def close_extras(self, **kwargs: Any) -> None:
        self._threads.shutdown(wait=True)
        super().close_extras(**kwargs)


def make_vector_env(num_envs: int = 1, **kwargs: Any) -> ConcurrentVectorEnv:
    """The ids' `vector_entry_point`: `gym.make_vec(ID, num_envs, **kwargs)` lands here, with
    the id's own kwargs (its platform) and the caller's; `autoreset_mode`, `copy` and
    `browsers` are the vector env's, the rest each env's."""
    return ConcurrentVectorEnv(num_envs, **kwargs)
