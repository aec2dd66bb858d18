"""The `finestate` command as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys

from PIL import Image

from finestate_env.components.themes import THEMES


def finestate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "finestate_env.cli", *args],
                          capture_output=True, text=True, timeout=300)


def test_run_prints_metrics_and_writes_results(tmp_path):
    result = finestate("run", "--agent", "oracle", "--episodes", "4", "--component",
                       "slider,switch", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "ES-SR@Int" in result.stdout and "false accept 0" in result.stdout
    lines = (tmp_path / "results.jsonl").read_text().splitlines()
    assert len(lines) == 4
    assert all(json.loads(line)["success"] for line in lines)
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert set(summary) >= {"static", "live", "crosscheck"}
    assert set(summary["live"]) == {"overall", "by_platform", "by_family", "by_component"}
    assert summary["live"]["overall"]["es_sr_int"] == 1.0 and summary["live"]["overall"]["n"] == 4
    assert summary["crosscheck"]["agree"] == 4


def test_run_rejects_unknown_options_clearly():
    result = finestate("run", "--episodes", "1", "--component", "no_such_type")
    assert result.returncode == 2
    assert "unknown component ['no_such_type']" in result.stderr
    assert "Traceback" not in result.stderr
    result = finestate("run", "--episodes", "0")
    assert result.returncode == 2 and "at least 1" in result.stderr


def test_gallery_draws_every_theme(tmp_path):
    out = tmp_path / "gallery.png"
    result = finestate("gallery", "--out", str(out), "--component", "switch")
    assert result.returncode == 0, result.stderr
    with Image.open(out) as image:
        from finestate_env.replay.gallery import HEADER, LABEL_WIDTH, TILE

        assert image.size == (LABEL_WIDTH + TILE[0] * len(THEMES), HEADER + TILE[1])
