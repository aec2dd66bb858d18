"""Every type's params model (components/params.py) and `check_live` (components/domain.py):
everything the samplers draw, on every platform and scene and curriculum path, is accepted,
and a value that no sampler draws is refused naming its field. No browser."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from finestate_env.components import COMPONENTS, scenes
from finestate_env.components.base import Sample
from finestate_env.components.domain import InvalidLive, check_live
from finestate_env.components.params import MAX_TEXT
from finestate_env.components.themes import themes_for
from finestate_env.core.schema import LiveSpec, Size
from finestate_env.env import curriculum

pytestmark = pytest.mark.fast

# (platform, layout viewport in CSS px, touch): the env's defaults and a few others users pick.
LAYOUTS = [("web", (1280, 720), False), ("web", (1920, 1080), False),
           ("web", (1366, 768), False), ("web", (640, 480), False),
           ("mobile", (360, 800), True), ("mobile", (412, 915), True),
           ("desktop", (1280, 720), False), ("desktop", (1440, 900), False)]
SEEDS = range(12)


def live_of(name: str, sample: Sample, platform: str, viewport, scene=None) -> LiveSpec:
    return LiveSpec(component=name, params=sample.params, current_state=sample.current_state,
                    goal_state=sample.goal_state, theme=themes_for(platform)[0],
                    viewport=Size(width=viewport[0], height=viewport[1]), seed=0, scene=scene)


def drawn(name: str, platform: str, viewport, touch: bool, seed: int):
    """What the env and generate draw for `name`: (label, LiveSpec) on every path."""
    kind = COMPONENTS[name]
    rng = np.random.default_rng(seed)
    sample = kind.sample(rng, viewport, touch=touch)
    yield "control", live_of(name, sample, platform, viewport)
    yield "resampled", live_of(name, kind.resample_states(rng, sample), platform, viewport)
    for reach in (2, 3, 5):
        yield f"far goal {reach}", live_of(name, kind.far_goal(rng, sample, reach), platform,
                                           viewport)
    yield "level 0", live_of(name, curriculum.fixed_sample(rng, name, viewport, touch),
                             platform, viewport)
    if scenes.page_viewport_problem(viewport, platform) is None:
        page, spec = scenes.sample_page(np.random.default_rng(seed), platform, name, viewport,
                                        touch=touch)
        yield "page", live_of(name, page, platform, viewport, spec)


@pytest.mark.parametrize("name", list(COMPONENTS))
def test_everything_the_samplers_draw_is_accepted(name):
    for platform, viewport, touch in LAYOUTS:
        for seed in SEEDS:
            for path, live in drawn(name, platform, viewport, touch, seed):
                try:
                    check_live(live, platform)
                except InvalidLive as exc:
                    pytest.fail(f"{platform} {viewport} seed {seed} {path}: {exc}")


def one_live(name: str) -> LiveSpec:
    sample = COMPONENTS[name].sample(np.random.default_rng(0), (1280, 720))
    return live_of(name, sample, "web", (1280, 720))


def refused(live: LiveSpec, field: str) -> str:
    with pytest.raises(InvalidLive) as caught:
        check_live(live, "web")
    message = str(caught.value)
    assert message.startswith(field), message
    return message


def with_params(live: LiveSpec, params) -> LiveSpec:
    return live.model_copy(update={"params": params})


@pytest.mark.parametrize("name", list(COMPONENTS))
def test_params_of_the_wrong_kind_or_size_are_refused_by_field(name):
    live = one_live(name)
    model = COMPONENTS[name].params_model
    params = live.params
    refused(with_params(live, {**params, "onload": 1}), "live.params.onload")
    for key, value in params.items():
        if model.model_fields[key].is_required():
            refused(with_params(live, {k: v for k, v in params.items() if k != key}),
                    f"live.params.{key}")
        if isinstance(value, bool):
            continue
        if isinstance(value, int | float):  # a number written as text: never a number
            refused(with_params(live, {**params, key: str(value)}), f"live.params.{key}")
            refused(with_params(live, {**params, key: float("nan")}), f"live.params.{key}")
            refused(with_params(live, {**params, key: 1e300}), f"live.params.{key}")
        elif isinstance(value, str):
            refused(with_params(live, {**params, key: "x" * (MAX_TEXT + 1)}),
                    f"live.params.{key}")
            refused(with_params(live, {**params, key: ["<b>"]}), f"live.params.{key}")
        elif isinstance(value, list) and value:
            refused(with_params(live, {**params, key: value * 1000}), f"live.params.{key}")
            refused(with_params(live, {**params, key: json.dumps(value)}),
                    f"live.params.{key}")


@pytest.mark.parametrize("name", list(COMPONENTS))
def test_states_the_control_cannot_hold_are_refused(name):
    live = one_live(name)
    for bad in (None, "<img src=x onerror=alert(1)>", 1e9, {"a": 1}, [[[]]], float("nan")):
        for field in ("current_state", "goal_state"):
            if COMPONENTS[name].state_code(bad, live.params) is not None:
                continue  # a state this control can hold (an accordion's None: all closed)
            message = refused(live.model_copy(update={field: bad}), f"live.{field}")
            assert f"this {name} can hold" in message


def test_unknown_types_themes_templates_and_blocks_are_refused():
    live = one_live("slider")
    assert "expected one of ['slider'" in refused(live.model_copy(update={"component": "sldr"}),
                                                 "live.component")
    refused(live.model_copy(update={"theme": "neon"}), "live.theme")
    refused(live.model_copy(update={"viewport": Size(width=100_000, height=10)}),
            "live.viewport")
    page, spec = scenes.sample_page(np.random.default_rng(0), "web", "rating", (1280, 720))
    paged = live_of("rating", page, "web", (1280, 720), spec)
    check_live(paged, "web")
    refused(paged.model_copy(update={"scene": spec.model_copy(update={"template": "x"})}),
            "live.scene.template")
    # The injection of issue #48: a number of a drawn block written as markup.
    blocks = copy.deepcopy(spec.blocks)
    blocks[-1]["rect"][2] = '608"><img src=x onerror="window.hacked=1">'
    message = refused(paged.model_copy(update={"scene": spec.model_copy(
        update={"blocks": blocks})}), f"live.scene.blocks[{len(blocks) - 1}].rect[2]")
    assert "valid integer" in message
    blocks = copy.deepcopy(spec.blocks)
    blocks[0]["kind"] = "script"
    refused(paged.model_copy(update={"scene": spec.model_copy(update={"blocks": blocks})}),
            "live.scene.blocks[0].kind")
    distractors = list(spec.distractors)
    distractors[0] = distractors[0].model_copy(update={"state": "<svg onload=x>"})
    refused(paged.model_copy(update={"scene": spec.model_copy(
        update={"distractors": distractors})}), "live.scene.distractors[0].state")
