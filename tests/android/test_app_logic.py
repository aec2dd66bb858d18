"""The app's number handling, run on the host JVM: Grid and Json use no Android class, so the
states the app reports for the range types can be checked against the Python types here. What
needs Android (views, touch, layout) only a device can show (`make android-device-test`)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from finestate_env.components import COMPONENTS
from finestate_env.components.base import step_decimals

REPO = Path(__file__).resolve().parents[2]
SOURCES = REPO / "android" / "src" / "org" / "finestate" / "views"
# Android 10's own org.json (Debian's libandroid-json-java): Json.java runs against the real one.
ANDROID_JSON = Path("/usr/share/java/com.android.json.jar")


def _grid_of(name: str, params: dict) -> tuple[float, float, float]:
    if name == "stepper":
        field = params["fields"][params["target"]]
        return field["min"], field["step"], field["max"]
    if name == "rating":
        return 0, params["step"], params["stars"]
    if name == "seek_bar":
        return 0, params["step"], params["duration"]
    return params["min"], params["step"], params["max"]


@pytest.fixture(scope="module")
def grid_check(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("jvm")
    sources = [SOURCES / "Grid.java", SOURCES / "Json.java",
               Path(__file__).parent / "jvm" / "GridCheck.java"]
    subprocess.run(["javac", "--release", "7", "-nowarn", "-Xlint:-options",
                    "-cp", str(ANDROID_JSON), "-d", str(out), *map(str, sources)],
                   check=True, timeout=120, capture_output=True)
    return out


@pytest.mark.parametrize("name", ["slider", "knob", "stepper", "seek_bar", "chart_point",
                                  "rating"])
def test_app_reports_range_states_python_accepts(name, grid_check):
    """For 60 sampled instances (web and phone): every value the app can report is written with
    the step's decimals and is on the type's grid at its own index, and the sampled current and
    goal states are each exactly one of them."""
    kind = COMPONENTS[name]
    samples, lines = [], []
    for seed in range(60):
        sample = kind.sample(np.random.default_rng(seed), (360, 760) if seed % 2 else (1280, 800),
                             touch=bool(seed % 2))
        grid = _grid_of(name, sample.params)
        samples.append((sample, grid))
        lines.append(" ".join(repr(float(v)) for v in grid))
    done = subprocess.run(["java", "-cp", f"{grid_check}:{ANDROID_JSON}",
                           "org.finestate.views.GridCheck"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=120, check=True)
    blocks = done.stdout.split("--\n")[:-1]
    assert len(blocks) == len(samples)
    for (sample, (lo, step, _)), block in zip(samples, blocks, strict=True):
        texts = block.splitlines()
        # Written with the step's decimals at most: -1.8, never -1.8000000000000003.
        assert all(len(t.partition(".")[2]) <= step_decimals(step) for t in texts), texts
        reported = [json.loads(text) for text in texts]
        for k, value in enumerate(reported):
            assert abs(value - (lo + k * step)) < step / 1000, (sample.params, k, value)
            assert kind.states_equal(value, round(lo + k * step, 10), sample.params)
        for state in (sample.current_state, sample.goal_state):
            hits = [v for v in reported if kind.states_equal(v, state, sample.params)]
            assert len(hits) == 1, (name, state, hits)
