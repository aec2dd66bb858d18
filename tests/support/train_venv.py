"""Running an example in the trainers' venv from this venv's pytest.

TRL, verl, OpenRLHF's client and verifiers live in a venv of their own (`make
install-train`: .venv-train, or the python FINESTATE_TRAIN_PYTHON names), apart from the
project's because verl pins tensordict<=0.10. A test runs an example there by subprocess
and reads the JSON summary the example prints as its last line."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
TRAIN_PYTHON = Path(os.environ.get("FINESTATE_TRAIN_PYTHON",
                                   ROOT / ".venv-train" / "bin" / "python"))


def train_python() -> Path:
    if not TRAIN_PYTHON.exists():
        pytest.fail(f"no trainers' venv at {TRAIN_PYTHON}: run `make install-train` (or set "
                    "FINESTATE_TRAIN_PYTHON to a python with trl, verl, openrlhf and verifiers)")
    return TRAIN_PYTHON


def run_in_train_venv(*command: str, timeout: int = 300,
                      unset: tuple[str, ...] = ()) -> tuple[dict, float]:
    """(the JSON summary the command prints last, its seconds); offline, one thread a
    library; `unset`: variables of this process the command must not see."""
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1",
           "TOKENIZERS_PARALLELISM": "false"}
    for name in unset:
        env.pop(name, None)
    started = time.monotonic()
    result = subprocess.run([str(train_python()), *command], capture_output=True, text=True,
                            timeout=timeout, env=env, cwd=ROOT)
    elapsed = time.monotonic() - started
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    return json.loads(result.stdout.strip().splitlines()[-1]), elapsed


def smoke(script: str, **options) -> tuple[dict, float]:
    """examples/`script` --smoke in the trainers' venv."""
    return run_in_train_venv(str(EXAMPLES / script), "--smoke", **options)
