"""Register the FineState ids whenever `gymnasium` is imported.

Gymnasium 1.x no longer loads the `gymnasium.envs` entry point group, so
`gym.make("FineState-Web-v0")` without importing this package would fail.
`finestate_env_gymnasium.pth` imports this module at interpreter start; it adds
a one-shot meta-path finder that waits for `gymnasium` to be imported and then
registers the ids. It imports nothing heavy and never imports gymnasium itself.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys


class _RegisterAfterGymnasium(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname != "gymnasium":
            return None
        sys.meta_path.remove(self)  # one shot: find the real spec without us
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        original_exec = loader.exec_module

        def exec_module(module):
            original_exec(module)
            try:
                from finestate_env.registration import register_envs

                register_envs()
            except Exception as exc:  # never break `import gymnasium` for the user
                print(f"finestate_env: could not register envs: {exc!r}", file=sys.stderr)

        loader.exec_module = exec_module
        return spec


if "gymnasium" not in sys.modules and not any(
    isinstance(f, _RegisterAfterGymnasium) for f in sys.meta_path
):
    sys.meta_path.insert(0, _RegisterAfterGymnasium())
