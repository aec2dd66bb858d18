"""The noisy oracle and the precision curve, live in Chromium."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from finestate_env.agents.episodes import run_episodes
from finestate_env.agents.scripted import NoisyOracleAgent, OracleAgent
from finestate_env.replay.curve import precision_curve, write_curve

SEEDS = range(4)


@pytest.mark.parametrize("kind", ["slider", "date_picker", "drag_reorder"])
def test_noisy_oracle_at_sigma_zero_is_the_oracle(env_for, kind):
    env = env_for(kind)
    noisy, oracle = NoisyOracleAgent(0.0, 0.0, seed=7), OracleAgent()
    for seed in SEEDS:
        obs, info = env.reset(seed=seed)
        expected, got = oracle.act(obs, info), noisy.act(obs, info)
        assert all(np.array_equal(expected[k], got[k]) for k in ("p0", "p1"))
    same_seeds = [run_episodes(env, agent, len(SEEDS), seed=0)
                  for agent in (NoisyOracleAgent(0.0, 0.0, seed=7), OracleAgent())]
    assert [(r.success, r.state, r.p0, r.p1) for r in same_seeds[0]] == [
        (r.success, r.state, r.p0, r.p1) for r in same_seeds[1]]
    assert all(r.success for r in same_seeds[0])


def test_noise_is_seeded_per_point_and_scales_one_direction(env_for):
    env = env_for("slider")
    obs, info = env.reset(seed=3)
    oracle = OracleAgent().act(obs, info)
    small = NoisyOracleAgent(sigma_p1=2.0, seed=11).act(obs, info)
    large = NoisyOracleAgent(sigma_p1=8.0, sigma_p0=5.0, seed=11).act(obs, info)
    assert np.array_equal(small["p0"], oracle["p0"])  # no sigma on p0: untouched
    assert not np.array_equal(large["p0"], oracle["p0"])
    # The same unit noise at both sigmas: 4x the offset (up to float32 rounding of the point).
    np.testing.assert_allclose(large["p1"] - oracle["p1"], 4 * (small["p1"] - oracle["p1"]),
                               atol=1e-3)
    again = NoisyOracleAgent(sigma_p1=8.0, sigma_p0=5.0, seed=11).act(obs, info)
    assert all(np.array_equal(large[k], again[k]) for k in ("p0", "p1"))
    with pytest.raises(ValueError, match="sigma_p1 must be a finite number >= 0"):
        NoisyOracleAgent(sigma_p1=-1.0)


def test_curve_falls_monotonically_from_certain_success(tmp_path):
    curve = precision_curve([0, 2, 8, 32], ["slider", "switch", "date_picker"],
                            episodes_per_type=3, seed=0)
    assert curve["sigmas"] == [0.0, 2.0, 8.0, 32.0]
    assert set(curve["by_component"]) == {"slider", "switch", "date_picker"}
    for name, row in curve["by_component"].items():
        live = row["live"]
        assert live[0] == 1.0, name  # sigma 0 is the oracle: every goal reached
        # Common random numbers: each episode's point moves outwards along one direction
        # as sigma grows, so on these convex goal regions success can only fall.
        assert all(b <= a for a, b in zip(live, live[1:], strict=False)), (name, live)
        assert live[-1] < 1.0, (name, live)  # 32 px of noise leaves every one of these
    json_path, png_path = write_curve(curve, tmp_path)
    assert json.loads(json_path.read_text()) == curve
    with Image.open(png_path) as image:
        assert image.format == "PNG" and image.size[0] > 800


def test_curve_command_writes_json_and_png(tmp_path):
    result = subprocess.run(
        [sys.executable, "-m", "finestate_env.cli", "curve", "--sigmas", "0,64",
         "--episodes-per-type", "2", "--component", "switch", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    curve = json.loads((tmp_path / "curve.json").read_text())
    assert curve["by_component"]["switch"]["live"][0] == 1.0
    assert (tmp_path / "curve.png").stat().st_size > 0
    bad = subprocess.run([sys.executable, "-m", "finestate_env.cli", "curve", "--sigmas", "4,1",
                          "--out", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "increasing" in bad.stderr
