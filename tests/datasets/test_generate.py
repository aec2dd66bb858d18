"""`finestate generate` against real Chromium: the family mix, byte-identical output for a
seed, instances that rebuild to the same pixels, and generate -> export -> import -> score
giving the same metrics."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from finestate_env import components
from finestate_env.core import coords
from finestate_env.core.schema import Prediction
from finestate_env.core.static_scoring import score
from finestate_env.datasets import formats
from finestate_env.datasets.generate import FAMILY_SHARES, generate, plan

TYPES = ["slider", "switch", "date_picker", "drag_reorder", "list_box", "tabs"]


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> tuple[Path, Path]:
    first = tmp_path_factory.mktemp("gen-a")
    second = tmp_path_factory.mktemp("gen-b")
    for folder in (first, second):
        path = generate(folder, n=12, seed=7, component=TYPES, fmt="finestate")
        assert path == folder / "finestate-bench.jsonl"
    return first, second


@pytest.mark.fast
def test_plan_follows_the_paper_family_shares_evenly_over_types():
    types = plan(1000, seed=3)
    assert len(types) == 1000
    by_family = Counter(components.COMPONENTS[t].family for t in types)
    assert by_family == {family: round(share * 1000) for family, share in FAMILY_SHARES.items()}
    counts = Counter(types)
    for family in FAMILY_SHARES:
        members = [counts[name] for name in components.resolve(family=family)]
        assert max(members) - min(members) <= 1, family
    assert plan(1000, seed=3) == types and plan(1000, seed=4) != types
    # Restricted mixes renormalise the shares: 28.9 : 21.4 of 100.
    restricted = Counter(components.COMPONENTS[t].family
                         for t in plan(503, seed=0, family=["numeric_range", "specific_data"]))
    assert restricted == {"numeric_range": 289, "specific_data": 214}
    assert Counter(plan(7, seed=1, component="knob")) == {"knob": 7}
    with pytest.raises(ValueError, match="at least 1"):
        plan(0, seed=0)


def test_same_seed_same_files_byte_for_byte(generated):
    first, second = generated
    tree = _tree(first)
    assert tree == _tree(second)
    assert set(tree) >= {"instances.jsonl", "finestate-bench.jsonl"}
    assert sum(name.startswith("images/") for name in tree) == 12


def test_instances_carry_live_blocks_and_their_screenshots(generated, env_for):
    folder = generated[0]
    read = formats.read_instances(folder / "instances.jsonl")
    assert read.layout == "finestate-env" and len(read.items) == 12
    assert {i.component for i in read.items} <= set(TYPES)
    assert len({i.id for i in read.items}) == 12
    for instance in read.items:
        assert instance.live is not None and instance.image == f"images/{instance.id}.png"
        with Image.open(folder / instance.image) as image:
            assert image.size == (instance.size.width, instance.size.height)
    # The live block rebuilds the instance: same boxes, same pixels as the file's PNG.
    instance = read.items[0]
    env = env_for(instance.component)
    obs, info = env.reset(options={"instance": instance.model_dump(mode="json")})
    assert env.instance.boxes == instance.boxes
    with Image.open(folder / instance.image) as image:
        assert np.array_equal(np.asarray(image.convert("RGB")), obs["screenshot"])


def _predictions(instances) -> list[Prediction]:
    """Oracle points, points on and just beyond box edges, and points outside everything."""
    predictions = []
    for index, instance in enumerate(instances):
        boxes = instance.boxes.current
        gx1, gy1, gx2, gy2 = boxes.goal
        choices = [
            (coords.box_center(boxes.now), coords.box_center(boxes.goal)),
            (boxes.loc[:2], (gx2, gy2)),
            (boxes.loc[2:], (gx2 + 0.5, gy1)),
            ((boxes.loc[0] - 1, boxes.loc[1]), boxes.core[:2]),
        ]
        p0, p1 = choices[index % len(choices)]
        predictions.append(Prediction(id=instance.id, p0=p0, p1=p1, coords="pixel"))
    return predictions


def test_generate_export_import_score_gives_the_same_metrics(generated):
    folder = generated[0]
    native = formats.read_instances(folder / "instances.jsonl").items
    exported = formats.read_instances(folder / "finestate-bench.jsonl")
    assert exported.layout == "finestate-bench-web"
    assert [i.id for i in exported.items] == [i.id for i in native]
    assert [(i.family, i.gesture, i.instructions) for i in exported.items] == [
        (i.family, i.gesture, i.instructions) for i in native]
    pixel = _predictions(native)
    normalised = [p.model_copy(update={
        "p0": coords.convert_point(p.p0, "pixel", "normalized", (i.size.width, i.size.height)),
        "p1": coords.convert_point(p.p1, "pixel", "normalized", (i.size.width, i.size.height)),
        "coords": "normalized"}) for p, i in zip(pixel, native, strict=True)]
    for mode in ("stagewise", "release"):
        records, summary = score(native, pixel, mode)
        assert 0 < summary["overall"]["sr_loc"] < 1  # the points are not all hits or misses
        assert score(exported.items, pixel, mode)[1] == summary
        assert score(exported.items, normalised, mode)[1] == summary
        assert score(native, normalised, mode)[1] == summary
    # The oracle's points (every 4th prediction) hit all four stage-wise stages.
    records, _ = score(native, pixel, "stagewise")
    assert all(r.verdicts.es_sr_int for r in records[::4])
    # ScreenSpot export: the locate task's box is loc, the interact task's is goal.
    formats.export(native, folder / "ss.jsonl", "screenspot")
    screenspot = formats.read_instances(folder / "ss.jsonl")
    assert screenspot.layout == "screenspot-xyxy"
    for instance, locate, interact in zip(native, screenspot.items[::2], screenspot.items[1::2],
                                          strict=True):
        assert locate.boxes.current.loc == instance.boxes.current.loc
        assert interact.boxes.current.loc == instance.boxes.current.goal


def finestate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "finestate_env.cli", *args],
                          capture_output=True, text=True, timeout=300)


def test_generate_command(tmp_path):
    out = tmp_path / "set"
    result = finestate("generate", "--n", "3", "--seed", "1", "--component", "slider,switch",
                       "--format", "screenspot", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "instances/s" in result.stdout
    assert len((out / "instances.jsonl").read_text().splitlines()) == 3
    records = [json.loads(line) for line in (out / "screenspot.jsonl").read_text().splitlines()]
    assert len(records) == 6 and {r["bbox_format"] for r in records} == {"xyxy"}
    for bad, message in ((["--component", "nope"], "unknown component ['nope']"),
                         (["--n", "0"], "n must be at least 1")):
        args = ["generate", "--n", "2", "--out", str(tmp_path / "bad"), *bad]
        result = finestate(*args)
        assert result.returncode == 2 and message in result.stderr, result.stderr
        assert "Traceback" not in result.stderr
