"""Curriculum level 0's new states (each type's `resample_states`), without a browser.

Level 0 shows one fixed control per type (`curriculum.fixed_control`) and draws only its
current and goal states per episode: they must be states the control holds, one gesture
apart, drawn from the episode's rng alone, and the control itself must stay as it was
(its params, but for those the type names in `goal_params`).
"""

from __future__ import annotations

from copy import deepcopy

import numpy as np
import pytest

from finestate_env.components import COMPONENTS, ComponentType, Sample
from finestate_env.env import curriculum

# Needs no browser, X display, device or JDK: the fast tier (make test-fast).
pytestmark = pytest.mark.fast

SEEDS = range(30)
VIEWPORTS = [(1280, 720), (360, 800)]  # a desktop's and a phone's layout viewports


@pytest.mark.parametrize("touch", [False, True])
@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("name", list(COMPONENTS))
def test_new_states_of_the_fixed_control(name, viewport, touch):
    kind = COMPONENTS[name]
    control = curriculum.fixed_control(name, viewport, touch)
    given = deepcopy(control.params)
    goals = []
    for seed in SEEDS:
        sample = kind.resample_states(np.random.default_rng(seed), control)
        params, current, goal = sample.params, sample.current_state, sample.goal_state
        assert control.params == given, f"seed {seed}: the given sample's params changed"
        changed = {k for k in params.keys() | given.keys() if params.get(k) != given.get(k)}
        assert changed <= set(kind.goal_params), f"seed {seed}: kept params changed: {changed}"
        for state in (current, goal):
            assert kind.states_equal(state, state, params), f"seed {seed}: {state!r} invalid"
            assert kind.state_code(state, params) is not None, f"seed {seed}: {state!r}"
        assert not kind.states_equal(current, goal, params), f"seed {seed}: goal is current"
        assert kind.oracle_actions(params, current, goal) == 1, f"seed {seed}"
        assert kind.resample_states(np.random.default_rng(seed), control) == sample
        goals.append(repr(goal))
    assert len(set(goals)) > 1, f"one goal for all {len(SEEDS)} seeds: {goals[0]}"


@pytest.mark.parametrize("name", list(COMPONENTS))
def test_goal_params_are_params(name):
    """Every name in goal_params is a param of the type's samples."""
    control = curriculum.fixed_control(name, VIEWPORTS[0], False)
    assert set(COMPONENTS[name].goal_params) <= set(control.params)


def test_a_type_without_resample_states_cannot_be_made():
    class Partial(ComponentType):  # everything but resample_states
        name = "partial"

        def sample(self, rng, viewport, touch=False):
            return Sample({}, 0, 1)

        def states_equal(self, a, b, params):
            return a == b

        def code(self, state, params):
            return [float(state)]

        def instructions(self, rng, sample):
            raise NotImplementedError

    with pytest.raises(TypeError, match="resample_states"):
        Partial()
