"""`finestate export-rl`: each row's image is, pixel for pixel, the env's render of its
ground truth; the prompt asks in the profile's convention; the files are the same for
the same arguments. (That TRL's, verl's and OpenRLHF's own loaders take the files as they
are is tests/examples/test_trainers.py's, in the trainers' venv.)"""

from __future__ import annotations

import io
import json
import subprocess
import sys

import gymnasium as gym
import numpy as np
import pyarrow.parquet as pq
import pytest
from PIL import Image

from finestate_env.rewards import GroundTruth
from finestate_env.rewards.export import export_rl, parquet_schema


def rows(path):
    return pq.read_table(path).to_pylist()


def assert_images_are_the_envs_renders(env_id, table_rows, **env_options):
    envs = {}
    try:
        for row in table_rows:
            truth = GroundTruth.read(row["reward_model"]["ground_truth"])
            size = truth.size
            if size not in envs:
                envs[size] = gym.make(env_id, viewport=size, **env_options).unwrapped
            obs, info = envs[size].reset(options={"instance": truth.instance})
            [image] = row["images"]
            pixels = np.asarray(Image.open(io.BytesIO(image["bytes"])).convert("RGB"))
            assert pixels.shape == (size[1], size[0], 3)
            assert np.array_equal(pixels, obs["screenshot"]), truth.instance.id
            # the boxes the row scores with are the ones the env measures on that screen
            assert truth.instance.boxes == envs[size].instance.boxes
    finally:
        for env in envs.values():
            env.close()


@pytest.fixture(scope="module")
def web_export(tmp_path_factory):
    out = tmp_path_factory.mktemp("export-web")
    result = export_rl(out, platform="web", n=6, test_n=2, seed=5, model="ui-tars-1.5-7b")
    return out, result


def test_web_rows_show_exactly_what_the_env_renders_from_their_ground_truth(web_export):
    out, result = web_export
    assert result.rows == {"train": 6, "test": 2}
    train = rows(out / "verl" / "train.parquet")
    test = rows(out / "verl" / "test.parquet")
    assert len(train) == 6 and len(test) == 2
    ids = [r["extra_info"]["id"] for r in train + test]
    assert len(set(ids)) == 8  # no instance twice, across the splits too
    assert_images_are_the_envs_renders("FineState-Web-v0", train + test)


def test_the_columns_trl_and_verl_read(web_export):
    out, _ = web_export
    assert pq.read_schema(out / "trl" / "train.parquet").equals(parquet_schema())
    verl, trl = rows(out / "verl" / "train.parquet"), rows(out / "trl" / "train.parquet")
    for v, t in zip(verl, trl, strict=True):
        assert v["data_source"] == t["data_source"] == "finestate/web"
        assert v["reward_model"] == t["reward_model"] and v["reward_model"]["style"] == "rule"
        assert v["images"] == t["images"] and v["extra_info"] == t["extra_info"]
        [verl_message], [trl_message] = v["prompt"], t["prompt"]
        assert verl_message["role"] == trl_message["role"] == "user"
        # verl marks the image's place in the text; TRL puts the image in front itself
        assert verl_message["content"] == "<image>" + trl_message["content"]
        truth = GroundTruth.read(v["reward_model"]["ground_truth"])
        assert truth.coords == "1000"  # UI-TARS's convention, asked for in the prompt
        assert "0-1000 grid" in trl_message["content"]
        assert truth.instance.instructions.interact in trl_message["content"]
        assert v["extra_info"]["component"] == truth.instance.component
    meta = json.loads((out / "export.json").read_text())
    assert meta["coords"] == "1000" and meta["rows"] == {"train": 6, "test": 2}


def test_openrlhfs_rows_are_verls_with_the_label_at_the_top(web_export):
    # OpenRLHF's --data.label_key names a top-level column and sends its value as it is
    out, result = web_export
    assert set(result.files) == {f"{t}/{s}" for t in ("trl", "verl", "openrlhf")
                                 for s in ("train", "test")}
    assert pq.read_schema(out / "openrlhf" / "train.parquet").equals(parquet_schema("openrlhf"))
    verl, openrlhf = rows(out / "verl" / "train.parquet"), rows(out / "openrlhf" / "train.parquet")
    for v, o in zip(verl, openrlhf, strict=True):
        assert o.pop("label") == v["reward_model"]["ground_truth"]
        assert o == v  # the <image> placeholder in the text, as OpenRLHF's dataset reads it


def test_qwen25vl_rows_ask_in_the_frame_its_processor_resizes_to(tmp_path):
    export_rl(tmp_path, platform="web", n=1, seed=0, trainers=["trl"], scene="control",
              component="switch")
    [row] = rows(tmp_path / "trl" / "train.parquet")
    truth = GroundTruth.read(row["reward_model"]["ground_truth"])
    assert (truth.coords, truth.frame.width, truth.frame.height) == ("pixel", 1288, 728)
    assert "(1288x728 pixels)" in row["prompt"][0]["content"]
    assert "x from 0 to 1287" in row["prompt"][0]["content"]


def test_the_same_arguments_write_the_same_bytes(tmp_path):
    for name in ("a", "b"):
        export_rl(tmp_path / name, platform="web", n=3, seed=11, trainers=["verl"],
                  scene="control")
    first = (tmp_path / "a" / "verl" / "train.parquet").read_bytes()
    assert first == (tmp_path / "b" / "verl" / "train.parquet").read_bytes()


def test_phone_rows_show_exactly_what_the_env_renders(tmp_path):
    export_rl(tmp_path, platform="mobile", n=3, seed=2, trainers=["verl"])
    table = rows(tmp_path / "verl" / "train.parquet")
    assert {r["data_source"] for r in table} == {"finestate/mobile"}
    assert_images_are_the_envs_renders("FineState-Mobile-v0", table)


def test_desktop_rows_show_exactly_what_the_env_renders(tmp_path):
    export_rl(tmp_path, platform="desktop", n=2, seed=4, trainers=["verl"], scene="control")
    assert_images_are_the_envs_renders("FineState-Desktop-v0",
                                       rows(tmp_path / "verl" / "train.parquet"),
                                       scene="control")


def test_the_command_refuses_bad_input_in_one_line(tmp_path):
    result = subprocess.run([sys.executable, "-m", "finestate_env.cli.main", "export-rl",
                             "--n", "2", "--out", str(tmp_path), "--trainer", "trl,openai"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "unknown trainer 'openai'" in result.stderr
    assert "Traceback" not in result.stderr
