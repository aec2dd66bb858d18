"""`make android`'s set-up: the Debian packages it installs provide what android/build.py runs,
the Docker image installs the same ones, and `make test` builds the APK first."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _android_packages() -> list[str]:
    text = (REPO / "Makefile").read_text().replace("\\\n", " ")
    return re.search(r"^ANDROID_PACKAGES := (.*)$", text, re.MULTILINE).group(1).split()


def _owner(path: str) -> str:
    out = subprocess.run(["dpkg", "-S", os.path.realpath(path)], capture_output=True, text=True,
                         timeout=30, check=True).stdout
    return out.split(":")[0]


@pytest.mark.parametrize("tool", ["aapt", "zipalign", "apksigner", "dexdump"])
def test_each_build_tool_comes_from_a_listed_package(tool):
    assert _owner(shutil.which(tool)) in _android_packages()


def test_framework_res_guava_and_org_json_come_from_listed_packages():
    for path in ("/usr/share/android-framework-res/framework-res.apk", "/usr/share/java/guava.jar",
                 "/usr/share/java/com.android.json.jar"):
        assert _owner(path) in _android_packages(), path


def test_the_image_installs_the_same_packages():
    dockerfile = (REPO / "docker" / "Dockerfile").read_text()
    missing = [p for p in _android_packages() if not re.search(rf"\s{re.escape(p)}\s", dockerfile)]
    assert not missing, f"docker/Dockerfile does not install {missing}"
    assert "make android" in dockerfile


def test_make_test_builds_the_apk_first():
    plan = subprocess.run(["make", "-n", "test", "VENV=/nonexistent"], cwd=REPO,
                          capture_output=True, text=True, timeout=60, check=True).stdout
    lines = plan.splitlines()
    build = next(i for i, line in enumerate(lines) if "android/build.py" in line)
    tests = next(i for i, line in enumerate(lines) if "-m pytest" in line)
    assert build < tests
