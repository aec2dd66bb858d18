"""The component definitions on their own (no browser): sampling, equality, wording."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from finestate_env import components
from finestate_env.env.spaces import INSTRUCTION_CHARSET, INSTRUCTION_MAX_LENGTH

# Needs no browser, X display, device or JDK: the fast tier (make test-fast).
pytestmark = pytest.mark.fast

VIEWPORTS = [(1280, 720), (320, 320), (390, 844)]


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_sampling_is_seeded_and_goals_are_exact(component, viewport):
    definition = components.COMPONENTS[component]
    for seed in range(40):
        sample = definition.sample(np.random.default_rng(seed), viewport)
        again = definition.sample(np.random.default_rng(seed), viewport)
        assert sample == again, "the same seed must give the same instance"
        params = json.loads(json.dumps(sample.params))  # JSON-ready, and as a replay reads it
        current = json.loads(json.dumps(sample.current_state))
        goal = json.loads(json.dumps(sample.goal_state))
        assert definition.states_equal(current, sample.current_state, params)
        assert definition.states_equal(goal, sample.goal_state, params)
        assert not definition.states_equal(current, goal, params), f"seed {seed}: goal == current"


def test_malformed_states_are_never_equal(component):
    definition = components.COMPONENTS[component]
    sample = definition.sample(np.random.default_rng(0), (1280, 720))
    # (None, [], True and [1, 2] are real states of some types: nothing open,
    # nothing checked, a switch on, a pan offset.)
    for bad in (math.nan, math.inf, "", {}, "not a state", [None]):
        assert not definition.states_equal(bad, bad, sample.params), bad
        assert not definition.states_equal(bad, sample.goal_state, sample.params), bad
        assert not definition.states_equal(sample.goal_state, bad, sample.params), bad


def test_instructions_name_the_goal_in_allowed_characters(component):
    definition = components.COMPONENTS[component]
    wordings = set()
    for seed in range(60):
        rng = np.random.default_rng(seed)
        sample = definition.sample(rng, (1280, 720))
        instructions = definition.instructions(rng, sample)
        for text in (instructions.locate, instructions.interact):
            assert 0 < len(text) <= INSTRUCTION_MAX_LENGTH
            assert set(text) <= set(INSTRUCTION_CHARSET), set(text) - set(INSTRUCTION_CHARSET)
        wordings.add(instructions.interact.split()[0])
    assert len(wordings) >= 2, f"one wording only: {wordings}"


def test_every_family_has_its_types():
    families = {}
    for name, definition in components.COMPONENTS.items():
        families.setdefault(definition.family, []).append(name)
    assert {f: len(n) for f, n in families.items()} == {
        "numeric_range": 5, "toggle_option": 6, "specific_data": 5, "view_manipulation": 7}


def test_a_coarsened_slider_step_is_written_with_its_own_decimals():
    """On a narrow screen the slider takes every n-th value: the new step is
    0.3, not 0.1 * 3 = 0.30000000000000004 (which the control would print)."""
    import numpy as np

    slider = components.COMPONENTS["slider"]
    for seed in range(200):
        params = slider.sample(np.random.default_rng(seed), (360, 800)).params
        assert repr(params["step"]) == repr(round(params["step"], 10)), params


def test_distance_is_zero_exactly_at_the_goal_and_within_0_and_1(component):
    definition = components.COMPONENTS[component]
    seen = set()
    for seed in range(50):
        sample = definition.sample(np.random.default_rng(seed), (1280, 720))
        params = json.loads(json.dumps(sample.params))
        current = json.loads(json.dumps(sample.current_state))
        goal = json.loads(json.dumps(sample.goal_state))
        assert definition.distance(goal, goal, params) == 0.0
        apart = definition.distance(current, goal, params)
        assert isinstance(apart, float) and 0.0 < apart <= 1.0, (seed, apart)
        seen.add(apart)
        for bad in (math.nan, "", {}, "not a state", [None]):
            assert definition.distance(bad, goal, params) == 1.0, bad
    if definition.distance.__func__ is not components.base.ComponentType.distance:
        assert len(seen) > 1, "an ordered type's distance says more than equal or not"


@pytest.mark.parametrize(("name", "state", "goal", "params", "expected"), [
    ("slider", 3.0, 5.0, {"min": 0, "max": 10, "step": 0.5}, 0.2),
    ("date_picker", "2026-12-25", "2026-12-01", {}, 24 / 366),
    ("date_picker", "2024-01-01", "2026-01-01", {}, 1.0),
    ("time_picker", "23:50", "00:20", {}, 30 / 720),
    ("drag_reorder", ["b", "a", "c"], ["a", "b", "c"], {"item": "a"}, 1 / 3),
    ("drag_reorder", ["c", "b", "a"], ["a", "b", "c"], {"item": "a"}, 1.0),
    ("checkbox", ["x"], ["y"], {"labels": ["x", "y", "z", "w"]}, 0.5),
    ("list_box", "b", "d", {"options": ["a", "b", "c", "d", "e"]}, 0.5),
    ("switch", True, False, {}, 1.0),
])
def test_distance_formulas(name, state, goal, params, expected):
    assert components.COMPONENTS[name].distance(state, goal, params) == pytest.approx(
        expected, abs=1e-12)
