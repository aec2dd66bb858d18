"""`make bench`'s learning result as it runs, in miniature: the CLI trains, evaluates on
held-out seeds and writes its JSON and plot (the result itself is a figure of `make
bench`, not a test: a short run learns nothing worth asserting)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]  # make bench runs the tool from the repository's root


def test_the_learning_bench_trains_evaluates_and_writes_json_and_plot(tmp_path):
    out = tmp_path / "bench-learn-level0.json"  # the name make bench gives it
    result = subprocess.run(
        [sys.executable, "-m", "benchmarks.learn_bench", "--component", "switch",
         "--steps", "48", "--learning-starts", "16", "--eval-seeds", "6", "--out", str(out)],
        capture_output=True, text=True, timeout=240, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures["steps"] == 48 and figures["level"] == 0
    assert figures["actions"] == 32 * 18  # 640x360 in 20 px cells
    assert figures["eval_first_seed"] == 1_000_000 and figures["eval_seeds"] == 6
    for rate in figures["held_out"].values():  # each a share of the 6 held-out episodes
        assert rate * 6 == round(rate * 6)
    assert out.with_suffix(".png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "success on 6 held-out seeds" in result.stdout

    from benchmarks.bench_summary import main as summary

    assert summary(["--dir", str(tmp_path)]) == 0
    rows = {row["figure"]: row for row in
            json.loads((tmp_path / "bench-summary.json").read_text())["figures"]}
    after = rows["learning, level 0: DQN success after 48 steps (6 held-out seeds)"]
    assert after["measured"] == 100 * figures["held_out"]["after"] and after["target"] == 50.0
    assert rows["  a random tap"]["measured"] == 100 * figures["held_out"]["random"]
