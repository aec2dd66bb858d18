"""A dataset line whose live block holds what no renderer may be handed is refused where it
is read, naming its file, line and field (#48: the photo block's rect written as markup);
with --skip-invalid the other lines are read as ever."""

from __future__ import annotations

import json

import gymnasium as gym
import pytest

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.datasets.formats import FormatError, read_instances

pytestmark = pytest.mark.fast


def page_instances(count: int) -> list[dict]:
    env = gym.make("FineState-Web-v0", backend="fake")  # app pages, the default scene
    try:
        return [json.loads(env.reset(seed=seed)[1]["instance"]) for seed in range(count)]
    finally:
        env.close()


def test_markup_in_a_page_block_is_refused_naming_the_line_and_field(tmp_path):
    clean, crafted = page_instances(2)
    block = len(crafted["live"]["scene"]["blocks"]) - 1
    crafted["live"]["scene"]["blocks"][block]["rect"][2] = (
        '608"><img src=x onerror="Promise.resolve=()=>({then:f=>f(30.5)})">')
    path = tmp_path / "instances.jsonl"
    path.write_text(json.dumps(crafted) + "\n" + json.dumps(clean) + "\n")
    with pytest.raises(FormatError) as caught:
        read_instances(path)
    assert str(caught.value).startswith(
        f"{path}:1: live.scene.blocks[{block}].rect[2]: Input should be a valid integer")
    read = read_instances(path, skip_invalid=True)
    assert [i.id for i in read.items] == [clean["id"]] and len(read.skipped) == 1
