"""The scripted agents that need no browser: what they click, in the env's frame."""

from __future__ import annotations

import json

import numpy as np
import pytest

from finestate_env.agents.scripted import AnyControlAgent
from finestate_env.core.scoring import point_in_box

# Needs no browser, X display, device or JDK: the fast tier (make test-fast).
pytestmark = pytest.mark.fast


def test_any_control_agent_clicks_one_of_the_controls_on_screen_in_the_envs_frame():
    target = (100.0, 100.0, 200.0, 140.0)
    distractors = [(400.0, 300.0, 500.0, 360.0), (10.0, 600.0, 90.0, 700.0)]
    instance = {"size": {"width": 1280, "height": 720},
                "scene": {"distractors": [{"loc": list(b)} for b in distractors]}}
    for mode, scale in (("pixel", (1.0, 1.0)), ("normalized", (1 / 1280, 1 / 720))):
        def frame(box, scale=scale):
            return (box[0] * scale[0], box[1] * scale[1], box[2] * scale[0], box[3] * scale[1])
        info = {"instance": json.dumps(instance), "boxes": {"current": {"loc": frame(target)}}}
        agent, hits = AnyControlAgent(mode, seed=0), [0, 0, 0]
        for _ in range(300):
            action = agent.act(None, info)
            assert np.array_equal(action["p0"], action["p1"])
            inside = [point_in_box(tuple(action["p0"]), frame(b))
                      for b in (target, *distractors)]
            assert sum(inside) == 1
            hits[inside.index(True)] += 1
        assert min(hits) > 60  # each of the three controls is drawn, about a third each
