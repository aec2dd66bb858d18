"""`finestate export-rl --max-actions K` (#41): rows for multi-turn sessions. Each row's
task opens a session whose first screen is the row's image pixel for pixel; goals lie up
to K gestures away where the type allows (the oracle's count in extra_info); the prompt
states the gesture, the turn budget and how to end (TRL's: the tools); verl's rows name
the agent loop and OpenRLHF's label is the task."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import numpy as np
import pyarrow.parquet as pq
import pytest
from PIL import Image

from finestate_env.sessions import SessionPool, SessionTask

K = 4


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    out = tmp_path_factory.mktemp("export-multi")
    # steppers and date pickers draw goals several gestures away; a slider never needs two
    subprocess.run([sys.executable, "-m", "finestate_env.cli", "export-rl", "--n", "4",
                    "--seed", "2", "--model", "qwen3-vl", "--max-actions", str(K),
                    "--component", "stepper,date_picker", "--out", str(out)],
                   check=True, capture_output=True, text=True)
    return out


def test_each_rows_task_opens_its_first_screen_pixel_for_pixel(export):
    rows = pq.read_table(export / "verl" / "train.parquet").to_pylist()
    assert len(rows) == 4
    with SessionPool(max_sessions=2, idle_timeout_s=None) as pool:
        for row in rows:
            task = SessionTask.read(row["extra_info"]["task"])
            assert task.max_actions == K and task.ends == "agent"
            assert task.ground_truth.text() == row["reward_model"]["ground_truth"]
            with pool.open(row["extra_info"]["task"]) as session:
                [image] = row["images"]
                pixels = np.asarray(Image.open(io.BytesIO(image["bytes"])).convert("RGB"))
                assert np.array_equal(pixels, session.observe().pixels), row["extra_info"]["id"]
    reach = [row["extra_info"]["oracle_actions"] for row in rows]
    assert all(1 <= r <= K for r in reach) and max(reach) > 1  # far goals were drawn


def test_the_columns_each_trainer_reads(export):
    verl = pq.read_table(export / "verl" / "train.parquet").to_pylist()
    trl = pq.read_table(export / "trl" / "train.parquet").to_pylist()
    openrlhf = pq.read_table(export / "openrlhf" / "train.parquet").to_pylist()
    for v, t, o in zip(verl, trl, openrlhf, strict=True):
        assert v["agent_name"] == "finestate_gui"
        assert v["task"] == t["task"] == o["task"] == o["label"] == v["extra_info"]["task"]
        assert SessionTask.read(v["task"]).text() == v["task"]  # the task's own text
        verl_text, trl_text = v["prompt"][0]["content"], t["prompt"][0]["content"]
        assert verl_text.startswith("<image>") and not trl_text.startswith("<image>")
        assert f"at most {K} gestures" in verl_text and "0-1000 grid" in verl_text
        assert "reply with only the word done" in verl_text
        assert "gesture tool" in trl_text and "done tool" in trl_text
    manifest = json.loads((export / "export.json").read_text())
    assert manifest["max_actions"] == K


def test_single_turn_rows_are_unchanged_by_the_option(tmp_path):
    from finestate_env.rewards.export import export_rl

    export_rl(tmp_path / "a", n=2, seed=1, model="qwen3-vl", trainers=["verl"])
    export_rl(tmp_path / "b", n=2, seed=1, model="qwen3-vl", trainers=["verl"], max_actions=1)
    a, b = (pq.read_table(tmp_path / d / "verl" / "train.parquet") for d in "ab")
    assert a.equals(b) and "task" not in a.column_names
