"""Every registered type has every part of its definition (docs/adding-a-type.md), offline.

A type is registered by its name in `components.TYPE_NAMES`; from that name are found its
module and class (with its facts), its web script and stylesheet, its Qt renderer, its
Android view and its rows in the docs' tables (the user docs', docs/design.md's and
android/README.md's). These tests fail for a type that lacks one
of them, and for a part under a name that no type registers.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from finestate_env import components
from finestate_env.components import COMPONENTS, TYPE_NAMES, measures, scenes
from finestate_env.components.base import ComponentType, Grab, Slot
from finestate_env.components.params import Params
from finestate_env.core.schema import FAMILIES

ROOT = Path(__file__).parents[2]
PACKAGE = Path(components.__file__).parent
WEB = PACKAGE / "web"
QT = PACKAGE / "qt" / "renderers"
ANDROID = ROOT / "android" / "src" / "org" / "finestate" / "views"
PLATFORMS = ("web", "mobile", "desktop")
# What is in those folders and is no type's: the modules every type uses, the stage and
# the page around the controls, the Qt modules several types share (qt/renderers/__init__.py).
NOT_TYPES = {
    "modules": {"__init__", "base", "measures", "themes", "params", "domain"},
    "scripts": {"stage", "scene", "measures"},
    "styles": {"stage", "scene", "scene_mobile"},
    "qt": {"__init__", "ranges", "check_buttons", "pickers", "tables"},
}


def _camel(name: str) -> str:
    return "".join(word.capitalize() for word in name.split("_"))


def _folded(value: str) -> str:  # as datasets/formats/imported.py folds an imported name
    return re.sub(r"[^0-9a-z]+", "", value.lower())


def test_the_registry_is_the_type_modules():
    modules = {p.stem for p in PACKAGE.glob("*.py")} - NOT_TYPES["modules"]
    assert modules == set(TYPE_NAMES), "a module of components/ that is no registered type " \
        "(add its name to TYPE_NAMES), or a registered name without its module"
    assert list(COMPONENTS) == list(TYPE_NAMES)
    assert len(set(TYPE_NAMES)) == len(TYPE_NAMES)


def test_the_type_declares_its_facts(component):
    kind = COMPONENTS[component]
    cls = type(kind)
    assert cls.__module__ == f"finestate_env.components.{component}"
    assert kind.name == component
    # Its params model, in its own module (components/params.py, components/domain.py)
    assert issubclass(cls.params_model, Params)
    assert cls.params_model.__module__ == cls.__module__
    assert kind.family in FAMILIES
    assert kind.gesture in ("tap", "drag")
    for fact in ("name", "family", "gesture", "aliases", "slots"):
        assert fact in vars(cls), f"{cls.__name__} does not declare `{fact}` in its own body"
    assert cls.label is not ComponentType.label
    module_doc = __import__(cls.__module__, fromlist=["_"]).__doc__
    assert module_doc, f"{component}.py has no docstring saying what its one action is"


def test_aliases_name_one_type_each():
    owner: dict[str, str] = {}
    for name, kind in COMPONENTS.items():
        assert isinstance(kind.aliases, tuple), f"{name}.aliases must be a tuple of names"
        for alias in (name, *kind.aliases):
            key = _folded(alias)
            assert key, f"{name}: the alias {alias!r} has no letters or digits"
            assert owner.setdefault(key, name) == name, (
                f"{alias!r} names both {owner[key]} and {name}")
        assert _folded(name) not in map(_folded, kind.aliases), (
            f"{name}: an alias that is the type's own name needs no entry")


def test_slots_seat_the_type_on_every_platform(component):
    slots = COMPONENTS[component].slots
    assert set(slots) == set(PLATFORMS), f"{component}.slots needs {PLATFORMS}"
    for platform, slot in slots.items():
        where = f"{component}.slots[{platform!r}]"
        assert isinstance(slot, Slot), where
        assert slot.target > 0, where
        if slot.distractor is not None:
            assert slot.distractor > 0 and slot.min_width, (
                f"{where}: a distractor slot needs its height and its min_width")
        else:
            assert slot.min_width is None, f"{where}: min_width without a distractor slot"
    phone = slots["mobile"]
    assert not phone.narrow and phone.pad == (0, 0), (
        f"{component}: a phone page has one column and samples for the whole slot")


def test_every_template_pool_names_types_seated_as_distractors():
    for platform in PLATFORMS:
        for template in scenes.templates(platform).values():
            for name in template.pool:
                assert COMPONENTS[name].slots[platform].distractor is not None, (
                    f"{platform} template {template.name!r} pools {name}, which has no "
                    f"distractor slot there")


def test_label_is_the_name_the_instructions_use(component):
    kind = COMPONENTS[component]
    for seed in range(10):
        for viewport, touch in (((1280, 720), False), ((360, 640), True)):
            sample = kind.sample(np.random.default_rng(seed), viewport, touch=touch)
            label = kind.label(sample.params)
            assert isinstance(label, str) and label.strip(), (component, seed, label)
            if kind.siblings:  # its siblings on a page are told apart by the label alone
                rng = np.random.default_rng(seed)
                for _ in range(12):
                    interact = kind.instructions(rng, sample).interact
                    assert label in interact, (
                        f"{component}.siblings is True, but {interact!r} does not name "
                        f"{label!r}")


def test_the_disagreement_facts_fit_the_gesture(component):
    kind = COMPONENTS[component]
    if kind.gesture == "drag":
        assert (kind.grab is not None) != kind.relative_drag, (
            f"{component} is a drag: say what its press must grab (`grab`), or that it "
            "moves the state by p1 - p0 (`relative_drag`)")
        if kind.grab is not None:
            assert isinstance(kind.grab, Grab) and kind.grab.box in ("core", "now")
            assert kind.grab.noun.startswith("the "), "a noun for 'p0 was outside <noun>'"
    else:
        assert kind.grab is None and not kind.relative_drag, f"{component} is a tap"
    assert (kind.goal_region is not None) == (not kind.goal_box_is_region), (
        f"{component}: a goal box that is not the goal region needs the region's shape "
        "(`goal_region`), and only then")


def test_web_renderer(component):
    script, style = WEB / f"{component}.js", WEB / f"{component}.css"
    assert script.is_file() and style.is_file(), f"web/{component}.js and .css"
    assert f'FineState.define("{component}",' in script.read_text()


def test_qt_renderer(component):
    module = QT / f"{component}.py"
    assert module.is_file(), f"qt/renderers/{component}.py"
    assert re.search(r"^CONTROL = \w+", module.read_text(), re.M), (
        f"qt/renderers/{component}.py must end with CONTROL = <its Control>")


def test_android_view(component):
    view = _camel(component) + "Control"
    assert (ANDROID / f"{view}.java").is_file(), f"android/src/.../{view}.java"
    assert f'case "{component}": return new {view}(' in (ANDROID / "Controls.java").read_text()


def test_no_renderer_without_a_type():
    types = set(TYPE_NAMES)
    assert {p.stem for p in WEB.glob("*.js")} - NOT_TYPES["scripts"] == types
    assert {p.stem for p in WEB.glob("*.css")} - NOT_TYPES["styles"] == types
    assert {p.stem for p in QT.glob("*.py")} - NOT_TYPES["qt"] == types
    cases = re.findall(r'case "(\w+)": return new', (ANDROID / "Controls.java").read_text())
    assert sorted(cases) == sorted(types)


def test_the_docs_list_the_type(component):
    kind = COMPONENTS[component]
    family = kind.family.replace("_", "( / | )")  # "numeric range", "toggle / option"
    user_docs = "\n".join(p.read_text() for p in [ROOT / "README.md",
                                                   *sorted((ROOT / "docs").glob("*.md"))])
    assert re.search(rf"^\| {component} \| {family} \| {kind.gesture} \| .+ \|$", user_docs,
                     re.M), f"the user docs' table of the types has no row for {component}"
    design = (ROOT / "docs" / "design.md").read_text()
    row = re.search(rf"^\| {kind.family} \| (.+) \|$", design, re.M)
    assert row and component in row.group(1).split(", "), (
        f"docs/design.md §2 does not list {component} under {kind.family}")
    android = (ROOT / "android" / "README.md").read_text()
    assert re.search(rf"^\| {component} \| .+ \| .+ \|$", android, re.M), (
        f"android/README.md's table of the types has no row for {component}")


def test_shared_measures_are_read_on_both_sides():
    python = "\n".join(p.read_text() for p in PACKAGE.rglob("*.py"))
    for group, numbers in measures.MEASURES.items():
        assert group == "stage" or group in COMPONENTS, f"measures.js: {group} is no type"
        script = (WEB / f"{group}.js").read_text()
        assert f"FineStateMeasures.{group}" in script, f"web/{group}.js never reads {group}"
        for name in numbers:
            assert f'measure("{group}", "{name}")' in python, (
                f"measures.js: {group}.{name} is read by no Python module")
            assert re.search(rf"\.{name}\b", script), f"web/{group}.js never reads {name}"


def test_a_measure_missing_from_the_source_names_what_there_is():
    with pytest.raises(KeyError, match="slider"):
        measures.measure("slider", "no_such_number")
