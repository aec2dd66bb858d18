"""The org.json stubs the app compiles against, checked member by member (javap) against
Android 10's own org.json (Debian's libandroid-json-java, built from AOSP's libcore): a stub
method the device lacks would fail there at run time. No Debian package carries the android.*
classes, so those stubs are checked only on a device (android/README.md)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
STUBS = REPO / "android" / "stubs"
ANDROID_JSON = Path("/usr/share/java/com.android.json.jar")


def _members(classpath: Path, names: list[str]) -> dict[str, set[str]]:
    """Public members of each class, as javap prints them (without their throws clauses)."""
    out = subprocess.run(["javap", "-public", "-cp", str(classpath), *names], capture_output=True,
                         text=True, timeout=60, check=True).stdout
    members: dict[str, set[str]] = {}
    current = None
    for line in out.splitlines():
        header = re.match(r"public (?:final |abstract )*class ([\w.]+)", line)
        if header:
            current = members.setdefault(header.group(1), set())
        elif current is not None and line.startswith("  "):
            current.add(re.sub(r" throws .*$", "", line.strip().rstrip(";")))
    return members


@pytest.fixture(scope="module")
def stub_classes(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("stubs")
    sources = sorted(str(p) for p in (STUBS / "org" / "json").glob("*.java"))
    subprocess.run(["javac", "--release", "7", "-nowarn", "-Xlint:-options", "-d", str(out),
                    *sources], check=True, timeout=120, capture_output=True)
    return out


NAMES = ["org.json.JSONObject", "org.json.JSONArray", "org.json.JSONException"]


def test_every_stub_member_exists_in_androids_org_json(stub_classes):
    stubs = _members(stub_classes, NAMES)
    real = _members(ANDROID_JSON, NAMES)
    assert set(stubs) == set(NAMES) and all(stubs.values())
    for name in NAMES:
        lacking = sorted(stubs[name] - real[name])
        assert not lacking, f"not in Android's {name}: {lacking}"


def test_the_check_sees_a_member_android_lacks(tmp_path):
    (tmp_path / "org" / "json").mkdir(parents=True)
    (tmp_path / "org" / "json" / "JSONObject.java").write_text(
        "package org.json;\npublic class JSONObject {\n"
        "    public int optInteger(String name) { return 0; }\n}\n")
    subprocess.run(["javac", "-d", str(tmp_path), str(tmp_path / "org/json/JSONObject.java")],
                   check=True, timeout=120, capture_output=True)
    fake = _members(tmp_path, ["org.json.JSONObject"])["org.json.JSONObject"]
    real = _members(ANDROID_JSON, ["org.json.JSONObject"])["org.json.JSONObject"]
    assert fake - real == {"public int optInteger(java.lang.String)"}
