"""The app's logic on the host JVM, against the Python types. Grid and Json use no Android class:
the numbers the app reports for the range types are checked as they are. The 23 controls run
over fakes of the android.* classes they call (tests/android/jvm/fakes, the other stubs made
inert): built in a sampled state they must read it back in the Python type's exact form. What
needs Android (layout, touch, the boxes) only a device can show (`make android-device-test`)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from finestate_env.components import COMPONENTS, TYPE_NAMES
from finestate_env.components.base import step_decimals

REPO = Path(__file__).resolve().parents[2]
SOURCES = REPO / "android" / "src" / "org" / "finestate" / "views"
STUBS = REPO / "android" / "stubs"
FAKES = Path(__file__).parent / "jvm" / "fakes"
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


_INERT = re.compile(r"(\)\s*)\{ throw new RuntimeException\(\); \}")
_RETURNS = re.compile(r"^\s*(?:public|protected)\s+(?:(?:static|final|synchronized|abstract)\s+)*"
                      r"([\w.<>\[\]]+)\s+\w+\(")


def _inert(line: str) -> str:
    """A stub's throwing body as a harmless default: {} or a return of 0, false or null."""
    if not _INERT.search(line):
        return line
    kind = _RETURNS.match(line)
    value = None if kind is None else {"void": None, "boolean": "false", "int": "0", "long": "0",
                                       "float": "0", "double": "0"}.get(kind.group(1), "null")
    body = "{}" if value is None else f"{{ return {value}; }}"
    return _INERT.sub(lambda m: m.group(1) + body, line)


@pytest.fixture(scope="module")
def state_check(tmp_path_factory) -> Path:
    """The app's sources and StateCheck, compiled over the fakes (and the inert stubs)."""
    work = tmp_path_factory.mktemp("fakes")
    android = work / "src"
    shutil.copytree(STUBS / "android", android / "android")
    for stub in (android / "android").rglob("*.java"):
        stub.write_text("\n".join(_inert(line) for line in stub.read_text().splitlines()) + "\n")
    shutil.copytree(FAKES / "android", android / "android", dirs_exist_ok=True)
    sources = [*sorted((android / "android").rglob("*.java")), *sorted(SOURCES.glob("*.java")),
               Path(__file__).parent / "jvm" / "CheckLines.java",
               Path(__file__).parent / "jvm" / "StateCheck.java",
               Path(__file__).parent / "jvm" / "DragCheck.java",
               Path(__file__).parent / "jvm" / "RouteCheck.java"]
    out = work / "classes"
    done = subprocess.run(["javac", "--release", "8", "-nowarn", "-Xlint:-options",
                           "-cp", str(ANDROID_JSON), "-d", str(out), *map(str, sources)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return out


def test_every_control_reads_back_the_state_it_was_built_in(state_check):
    """For every type, 12 instances sampled for a phone: the control built in the current state,
    and one built in the goal, read their state back equal to it (the type's states_equal) and
    in its JSON form, and the card fits the phone; a drag type's probing copy put back into the
    other state reads that."""
    lines, cases = [], []
    for name in TYPE_NAMES:
        kind = COMPONENTS[name]
        for seed in range(12):
            viewport = (360, 760) if seed % 2 else (412, 915)
            sample = kind.sample(np.random.default_rng(seed), viewport, touch=True)
            for state, other in ((sample.current_state, sample.goal_state),
                                 (sample.goal_state, sample.current_state)):
                lines.append("\t".join([name, json.dumps(sample.params), json.dumps(state),
                                        json.dumps(other)]))
                cases.append((name, sample.params, state, other, viewport))
    done = subprocess.run(["java", "-cp", f"{state_check}:{ANDROID_JSON}",
                           "org.finestate.views.StateCheck"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=300, check=True)
    results = done.stdout.splitlines()
    assert len(results) == len(cases)
    for (name, params, state, other, viewport), result in zip(cases, results, strict=True):
        shown, applied, *width = result.split("\t")
        assert shown != "ERROR", f"{name}: {applied} for {json.dumps(params)[:300]}"
        # Laid out by the fakes (text at a nominal size), the card fits the phone's width at
        # density 3 inside the stage's 8 dp margins.
        assert int(width[0]) <= (viewport[0] - 2 * 8) * 3, (name, width, viewport, params)
        read = json.loads(shown)
        kind = COMPONENTS[name]
        assert kind.states_equal(read, state, params), (name, state, read)
        assert read == state or isinstance(state, float), (name, state, read)
        if applied != "-":
            assert kind.states_equal(json.loads(applied), other, params), (name, other, applied)


# The types whose touch handling is the app's own (custom Views, and click listeners on plain
# Views): the native widgets' is Android's, which no fake here can stand for.
OWN_TOUCH = ["knob", "time_picker", "chart_point", "drag_reorder", "zoom_pan", "resizable_pane",
             "table_column", "scrollbar", "stepper", "date_picker", "color_picker", "carousel",
             "tree_view"]


def _json_check(classes: Path, program: str, lines: list[str], cases: list) -> list[dict]:
    """Run check `program` (tests/android/jvm) on `lines`, one per case: its JSON answers,
    none of them an error."""
    done = subprocess.run(["java", "-cp", f"{classes}:{ANDROID_JSON}",
                           f"org.finestate.views.{program}"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=300, check=True)
    results = done.stdout.splitlines()
    assert len(results) == len(cases)
    for (name, _), line in zip(cases, results, strict=True):
        assert not line.startswith("ERROR"), f"{name}: {line}"
    return [json.loads(line) for line in results]


def test_own_touch_types_reach_the_goal_by_the_oracles_gesture(state_check):
    """The app's own geometry and touch handling, over the fakes (their simple layout places
    views by their layout params): for 10 phone instances of each type, the goal box lies in
    `core`, the card fits the phone's width, the oracle's gesture (a drag from the centre of
    `now` to the centre of `goal`, a tap at the latter) reaches exactly the goal, and a release
    one pixel beyond a probed band's end inside `core` does not (the band is the whole run)."""
    lines, cases = [], []
    for name in OWN_TOUCH:
        kind = COMPONENTS[name]
        for seed in range(10):
            sample = kind.sample(np.random.default_rng(100 + seed), (360, 760), touch=True)
            lines.append("\t".join([name, json.dumps(sample.params),
                                    json.dumps(sample.current_state),
                                    json.dumps(sample.goal_state), kind.gesture]))
            cases.append((name, sample))
    for (name, sample), result in zip(cases, _json_check(state_check, "DragCheck", lines, cases),
                                      strict=True):
        kind, goal = COMPONENTS[name], sample.goal_state
        core, aim = result["boxes"]["core"], result["boxes"]["goal"]
        # The card fits a 360 dp phone (at density 3) inside the stage's 8 dp margins.
        loc = result["boxes"]["loc"]
        assert loc[2] - loc[0] + 1 <= (360 - 2 * 8) * 3, (name, loc)
        assert core[0] <= aim[0] <= aim[2] <= core[2] and core[1] <= aim[1] <= aim[3] <= core[3], \
            (name, result["boxes"])
        assert kind.states_equal(result["state"], goal, sample.params), (name, goal, result)
        along_x = aim[1] == core[1] and aim[3] == core[3]
        inner = [aim[0] > core[0], aim[2] < core[2]] if along_x else [aim[1] > core[1],
                                                                      aim[3] < core[3]]
        for state, strictly_inside in zip(result["outside"], inner, strict=False):
            if strictly_inside:
                assert not kind.states_equal(state, goal, sample.params), (name, result)


FAR_TYPES = ["stepper", "date_picker", "list_box", "tree_view"]


def _inside(box, outer) -> bool:
    return outer[0] <= box[0] <= box[2] <= outer[2] and outer[1] <= box[1] <= box[3] <= outer[3]


def test_far_goals_are_reached_a_tap_at_a_time_as_the_reach_counts(state_check):
    """Far goals (episodes of several gestures) in the app's own geometry, over the fakes: for 15
    phone instances of each of the four types (40 trees) with a goal up to 5 gestures away
    (far_goal), the app's reach is first the oracle's plan (oracle_actions) and falls by exactly
    one at each tap on the centre of the goal box the app measures, to 0 with the goal's state.
    While the goal is more than a tap away, a date picker's and a list's goal box is the arrow
    toward it, outside `core`; the last tap's lies in `core`. (A list whose goal is a tap away
    is a native ListView, left out: its touch handling is Android's.)"""
    lines, cases = [], []
    for name in FAR_TYPES:
        kind = COMPONENTS[name]
        for seed in range(40 if name == "tree_view" else 15):  # a fifth of trees have chains
            rng = np.random.default_rng(200 + seed)
            sample = kind.far_goal(rng, kind.sample(rng, (360, 760), touch=True), 5)
            if name == "list_box" and "page" not in sample.params:
                continue  # a goal one tap away: the native ListView, whose touch is Android's
            lines.append("\t".join([name, json.dumps(sample.params),
                                    json.dumps(sample.current_state),
                                    json.dumps(sample.goal_state)]))
            cases.append((name, sample))
    far = dict.fromkeys(FAR_TYPES, 0)
    for (name, sample), result in zip(cases, _json_check(state_check, "RouteCheck", lines, cases),
                                      strict=True):
        kind = COMPONENTS[name]
        planned = kind.oracle_actions(sample.params, sample.current_state, sample.goal_state)
        far[name] += planned > 1
        assert result["reaches"] == list(range(planned, -1, -1)), (name, sample, result)
        assert kind.states_equal(result["state"], sample.goal_state, sample.params), \
            (name, sample.goal_state, result["state"])
        for reach, boxes in zip(result["reaches"][:-1], result["boxes"], strict=False):
            assert _inside(boxes["goal"], boxes["loc"]), (name, boxes)
            away = reach > 1 and name in ("date_picker", "list_box")
            disjoint = boxes["goal"][3] < boxes["core"][1] or boxes["goal"][1] > boxes["core"][3]
            assert disjoint if away else _inside(boxes["goal"], boxes["core"]), (name, reach, boxes)
        if name == "stepper":  # at the goal no button moves toward it: the value display
            assert result["boxes"][-1]["goal"] == result["boxes"][-1]["now"], result["boxes"][-1]
    # Most goals are far; a tree's chains are as deep as its folders allow.
    assert all(count >= 3 for count in far.values()), far
