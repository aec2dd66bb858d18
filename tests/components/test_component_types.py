"""The component definitions on their own (no browser): sampling, equality, wording."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from finestate_env import components
from finestate_env.env.spaces import INSTRUCTION_CHARSET, INSTRUCTION_MAX_LENGTH

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
