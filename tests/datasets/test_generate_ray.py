"""`generate --ray`: Ray actors write the files a local run writes, byte for byte (issue #19).

On a real local Ray, every actor driving a real Chromium. A repeat of an earlier
instance takes the next episode seed, so each seed depends on the repeats before it:
the driver must walk the seeds in plan order whatever order the actors answer in.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from two_node_cluster import RAY_ENV, two_node_cluster

from finestate_env.datasets import generate as generating

FINESTATE = [sys.executable, "-m", "finestate_env.cli"]


def files(folder: Path) -> dict[str, bytes]:
    return {str(path.relative_to(folder)): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


ARGS = [*FINESTATE, "generate", "--n", "10", "--seed", "7", "--format", "screenspot"]


def run(*more: str) -> subprocess.CompletedProcess:
    return subprocess.run([*ARGS, *more], capture_output=True, text=True, timeout=300,
                          env=RAY_ENV)


@pytest.fixture(scope="module")
def local_files(tmp_path_factory) -> dict[str, bytes]:
    out = tmp_path_factory.mktemp("generate-local")
    done = run("--out", str(out))
    assert done.returncode == 0, done.stderr
    made = files(out)
    assert len([name for name in made if name.startswith("images/")]) == 10
    return made


def test_generate_on_ray_writes_the_local_files_byte_for_byte(tmp_path, local_files):
    done = run("--out", str(tmp_path), "--ray", "--workers", "2", "--batch-size", "2")
    assert done.returncode == 0, done.stderr
    assert "ray: 2 actors (1 CPU, 600 MiB each) on 1 nodes" in done.stderr
    assert files(tmp_path) == local_files


def test_generate_on_two_nodes_writes_the_local_files_byte_for_byte(tmp_path, local_files):
    with two_node_cluster() as cluster:
        done = run("--out", str(tmp_path), "--ray", cluster.address, "--batch-size", "2")
    assert done.returncode == 0, done.stderr
    assert "ray: 2 actors (1 CPU, 600 MiB each) on 2 nodes" in done.stderr
    assert files(tmp_path) == local_files


def test_generate_refuses_local_workers():
    done = subprocess.run([*FINESTATE, "generate", "--n", "2", "--out", "unused",
                           "--workers", "2"], capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "--workers 2: generate runs in one browser here" in done.stderr


class RepeatingSeeds(generating.SeedStream):
    """The real stream with earlier seeds drawn again: seeds 0, 0, 1, 0, 2, 1, 3, 2, ...
    of it. The same type and seed make the same instance, so repeats come for sure."""

    drawn: list[int] = []  # every seed position asked for, over all streams

    def at(self, index: int) -> int:
        RepeatingSeeds.drawn.append(index)
        return super().at(index // 2 if index % 2 == 0 else max(0, index // 2 - 1))


@pytest.fixture
def local_ray(monkeypatch):
    import ray

    monkeypatch.setenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    ray.init(address="local", num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.1",
             configure_logging=True, logging_level="warning")
    yield ray
    ray.shutdown()


def test_repeats_take_the_same_next_seeds_on_ray_as_locally(tmp_path, monkeypatch, local_ray):
    from finestate_env.runs.ray_jobs import RaySpec

    monkeypatch.setattr(generating, "SeedStream", RepeatingSeeds)
    options = {"n": 6, "seed": 2, "component": "switch", "scene": "control"}
    generating.generate(tmp_path / "local", **options)
    local_positions = max(RepeatingSeeds.drawn) + 1
    # One type, six instances: seeds 0, 0(repeat), 1, 0(repeat), 2, 1(repeat), 3, ...
    assert local_positions > 6, "the stream gave no repeat: nothing was tested"
    RepeatingSeeds.drawn = []
    generating.generate(tmp_path / "ray", **options, ray=RaySpec(actors=2, batch_size=1))
    expected = files(tmp_path / "local")
    ids = [json.loads(line)["id"] for line in expected["instances.jsonl"].splitlines()]
    assert len(ids) == len(set(ids)) == 6
    assert files(tmp_path / "ray") == expected
