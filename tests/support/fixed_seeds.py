"""What a fixed list of (platform, type, seed) renders: the instance id and the screenshot's
sha256. tests/data/fixed_seeds.json holds them as recorded before the package moved to one
import root (issue #13); tests/env/test_fixed_seeds.py compares with what the code gives now.

Regenerate only when a change is meant to alter instances or pixels, and say so in the commit:
    .venv/bin/python tests/support/fixed_seeds.py tests/data/fixed_seeds.json
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from importlib.metadata import version

import gymnasium as gym

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.components import COMPONENTS

ENV_IDS = {"web": "FineState-Web-v0", "mobile": "FineState-Mobile-v0",
           "desktop": "FineState-Desktop-v0"}
FIRST_SEED = 1000  # type i of COMPONENTS is drawn with seed FIRST_SEED + i


def renderer_versions() -> dict[str, str]:
    """What the pixels depend on beyond the code: the browser and Qt."""
    def deb(package: str) -> str:
        return subprocess.run(["dpkg-query", "-W", "-f=${Version}", package],
                              capture_output=True, text=True).stdout.strip() or "absent"
    return {"web": deb("chromium-headless-shell"), "mobile": deb("chromium-headless-shell"),
            "desktop": f"PySide6 {version('PySide6-Essentials')}"}


def fingerprints(platform: str) -> list[dict]:
    # The control alone: what was recorded before pages were the default (issue #16).
    env = gym.make(ENV_IDS[platform], scene="control").unwrapped
    try:
        cases = []
        for i, component in enumerate(COMPONENTS):
            seed = FIRST_SEED + i
            obs, info = env.reset(seed=seed, options={"component": component})
            cases.append({"platform": platform, "component": component, "seed": seed,
                          "id": env.instance.id,
                          "sha256": hashlib.sha256(obs["screenshot"].tobytes()).hexdigest()})
        return cases
    finally:
        env.close()


if __name__ == "__main__":
    record = {"renderers": renderer_versions(),
              "cases": [case for platform in ENV_IDS for case in fingerprints(platform)]}
    with open(sys.argv[1], "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
