"""Every documented `gym.make` option gives, seed for seed and action for action, what it
gave before the learner options moved from the env class into wrappers (issue #35): the
spaces, observations, rewards, terminated and truncated, infos, render(), a goal env's
compute_reward, the spec, make_vec's batches and the messages of bad options, on the fake
backend (tests/support/option_episodes.py records them; tests/data/option_episodes_fake.json
is the record made on the tree before the change, recorded again when step info gained
`unjudged` and `recovered` (#46), after a comparison with those two keys left out found
no other difference)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from option_episodes import compact, compare, count, record

pytestmark = pytest.mark.fast

RECORDED = json.loads((Path(__file__).parents[1] / "data" / "option_episodes_fake.json")
                      .read_text())


def test_every_option_gives_what_it_gave_before():
    now = compact(record("fake"))
    assert count(now) == count(RECORDED) == (40, 114, 142)  # cases, resets, steps
    assert compare(RECORDED["cases"], now["cases"]) == []
    assert compare(RECORDED["bad_options"], now["bad_options"], ".bad_options") == []
