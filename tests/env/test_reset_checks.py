"""An instance given to `reset(options={"instance": ...})` (an export row, a replayed line,
a client's task) is checked against its type's own domain before anything is rendered
(#44, #48): a bad value is the package's usage error naming the field, and the env goes on."""

from __future__ import annotations

import copy
import json

import gymnasium as gym
import pytest

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.components.domain import InvalidLive
from finestate_env.core.errors import UsageError

pytestmark = pytest.mark.fast


@pytest.mark.parametrize("change, field", [
    (lambda i: i["live"]["params"].update(track="300"), "options['instance'].live.params.track"),
    (lambda i: i["live"].update(goal_state="<img src=x onerror=alert(1)>"),
     "options['instance'].live.goal_state"),
    (lambda i: i["live"].update(theme="</style><script>"), "options['instance'].live.theme"),
    (lambda i: i.update(goal_state=i["current_state"]), "options['instance'].goal_state"),
])
def test_a_bad_instance_is_refused_by_field_before_it_is_rendered(change, field):
    env = gym.make("FineState-Web-v0", backend="fake", component="slider", scene="control")
    try:
        _, info = env.reset(seed=3)
        good = json.loads(info["instance"])
        bad = copy.deepcopy(good)
        change(bad)
        shown = env.unwrapped.backend._spec  # what the fake renderer was last handed
        with pytest.raises(InvalidLive) as caught:
            env.reset(options={"instance": json.dumps(bad)})
        assert isinstance(caught.value, UsageError) and str(caught.value).startswith(field)
        assert env.unwrapped.backend._spec is shown  # nothing reached the renderer
        _, again = env.reset(options={"instance": good})  # and the env goes on
        assert again["goal_state"] == info["goal_state"]
    finally:
        env.close()
