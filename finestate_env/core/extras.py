"""The optional parts of the install, and the error that names the one a feature needs.

The core install (`pip install finestate-env`) is what the web and phone-emulation envs
need: Gymnasium, NumPy, Pillow, pydantic, pyspng, and Debian's Chromium. Everything else
is an extra, installed by name (`pip install 'finestate-env[desktop]'`): reaching a
feature whose extra is missing raises MissingExtra, which says the command to run.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from finestate_env.core.errors import UsageError

# extra -> what it brings (pyproject.toml's optional-dependencies, by purpose)
EXTRAS = {
    "desktop": "the desktop env: native Qt controls (PySide6) in Xvfb, input by pyautogui",
    "android": "the adb backend: a real Android device or emulator (adbutils)",
    "agents": "VLM agents behind an OpenAI-compatible endpoint (openai)",
    "report": "HTML reports and plots (jinja2, matplotlib)",
    "rewards": "export-rl's Parquet and the reward server (pyarrow, FastAPI, uvicorn)",
    "rl": "the RL examples: Stable-Baselines3, RLlib, TorchRL",
    "ray": "--ray runs on a Ray cluster",
}


class MissingExtra(UsageError, ImportError):
    """A feature's optional dependency is not installed: the message names the extra."""


def require(module: str, extra: str, feature: str) -> ModuleType:
    """Import `module`, or raise MissingExtra saying that `feature` needs `extra`."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise _missing(module, extra, feature) from exc


def require_installed(modules: tuple[str, ...], extra: str, feature: str) -> None:
    """Check that `modules` are installed without importing them (Qt must not be imported
    by the env's own process: the desktop backend runs it in a child), or raise
    MissingExtra."""
    for module in modules:
        if importlib.util.find_spec(module) is None:
            raise _missing(module, extra, feature)


def _missing(module: str, extra: str, feature: str) -> MissingExtra:
    return MissingExtra(f"{feature} needs {module.split('.')[0]}, which is not installed: "
                        f"pip install 'finestate-env[{extra}]'")
