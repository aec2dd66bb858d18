"""The `finestate` command as a user runs it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from finestate_env.components.themes import THEMES

ROOT = Path(__file__).parents[2]


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


@pytest.mark.fast
def test_run_rejects_unknown_options_clearly():
    result = finestate("run", "--episodes", "1", "--component", "no_such_type")
    assert result.returncode == 2
    assert "unknown component ['no_such_type']" in result.stderr
    assert "Traceback" not in result.stderr
    result = finestate("run", "--episodes", "0")
    assert result.returncode == 2 and "at least 1" in result.stderr


def test_gallery_draws_every_theme(tmp_path):
    out = tmp_path / "gallery.png"
    result = finestate("gallery", "--out", str(out), "--component", "switch", "--scene", "control")
    assert result.returncode == 0, result.stderr
    with Image.open(out) as image:
        from finestate_env.replay.gallery import HEADER, LABEL_WIDTH, TILE

        assert image.size == (LABEL_WIDTH + TILE[0] * len(THEMES), HEADER + TILE[1])


def test_a_noisy_run_explains_where_the_boxes_and_the_control_disagree(tmp_path):
    out = tmp_path / "noisy"
    result = finestate("run", "--agent", "noisy-oracle", "--sigma-p0", "6", "--sigma-p1", "2",
                       "--episodes", "12", "--seed", "100", "--component",
                       "table_column,time_picker", "--scene", "control", "--out", str(out),
                       "--report")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "agent noisy-oracle (σ p0 6 px, σ p1 2 px) · 12 episodes from seed 100" in lines[0]
    assert ("cross-check (static vs live exact): agree 8, false accept 2, false reject 2"
            in lines)
    start = lines.index("type              gesture   false accept  false reject")
    assert lines[start - 1].startswith("Where the box proxy and the control disagree, by type.")
    table = lines[start + 1:start + 5]
    assert table[0] == "table_column      drag                 2             0"
    assert re.fullmatch(r"    false accept 2: p1 was in the goal box, but p0 was \d+\.\d-\d+\.\d "
                        r"px outside the column's resize handle \(`now`\), so the drag moved "
                        r"nothing", table[1]), table[1]
    assert table[2] == "time_picker       tap                  0             2"
    assert re.fullmatch(r"    false reject 2: p1 was 0\.\d-0\.\d px outside the goal box but "
                        r"inside the ring sector that reaches the goal \(the box is the largest "
                        r"rectangle inside it\)", table[3]), table[3]
    # The per-type counts are in the table, not repeated under the cross-check line.
    assert not any(line.startswith("  table_column: false accept") for line in lines)
    assert lines[-1] == f"wrote {out / 'report.html'}"
    # The disagreements' instances and screenshots, named in run.json for the report.
    cases = [json.loads(line) for line in
             (out / "cases" / "instances.jsonl").read_text().splitlines()]
    assert sorted(c["component"] for c in cases) == ["table_column"] * 2 + ["time_picker"] * 2
    assert all((out / "cases" / c["image"]).is_file() for c in cases)
    assert json.loads((out / "run.json").read_text())["instances"] == str(
        (out / "cases" / "instances.jsonl").resolve())
    html = (out / "report.html").read_text()
    assert html.count('<div class="card"') == 4 and html.count("why: p1 was") == 4
    assert '<table id="why">' in html and html.count('alt="screenshot of') == 4
    # `finestate report` reads a run's folder as it reads a replay's.
    (out / "report.html").unlink()
    again = finestate("report", str(out))
    assert again.returncode == 0, again.stderr
    assert (out / "report.html").read_text().count("why: p1 was") == 4
    # An oracle run writes no cases, and --report needs --out.
    refused = finestate("run", "--episodes", "1", "--report")
    assert refused.returncode == 2
    assert "--report writes OUT/report.html: it needs --out OUT" in refused.stderr


def _make_run_commands() -> list[list[str]]:
    """The `finestate` commands of the Makefile's `run` target, variables filled in."""
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    variables = dict(re.findall(r"^(\w+) \?= (.*)$", text, re.MULTILINE))
    recipe = re.search(r"^run: .*\n((?:\t.*\n)+)", text, re.MULTILINE).group(1)
    commands = []
    for line in recipe.splitlines():
        if line.strip().startswith("#"):
            continue
        line = re.sub(r"\$\((\w+)\)", lambda m: variables.get(m.group(1), m.group(0)), line)
        words = [word for word in line.split() if word != ">/dev/null"]
        assert words[0] == f"{variables['VENV']}/bin/finestate", line
        commands.append(words[1:])
    return commands


def test_make_run_ends_with_the_two_point_audit_in_one_line(tmp_path):
    commands = _make_run_commands()
    assert [c[0] for c in commands[3:]] == ["generate", "audit"]
    generate, audit = commands[3], commands[4]
    generate[generate.index("--n") + 1] = "23"  # `make run AUDIT_INSTANCES=23`: every family
    for command in (generate, audit):
        result = subprocess.run([sys.executable, "-m", "finestate_env.cli", *command],
                                capture_output=True, text=True, timeout=600, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
    [line] = result.stdout.splitlines()
    assert re.fullmatch(r"two-point audit, share of gestures each static rule pays in full that "
                        r"reach the goal live: drags stagewise \d+% \[\d+-\d+\], release .*; "
                        r"taps stagewise 100% \[\d+-100\], .* \(pictures: "
                        r"out/audit/report.html\)", line), line
    assert (tmp_path / "out" / "audit" / "report.html").is_file()


def test_make_run_ends_with_a_noisy_agent_whose_disagreements_are_explained(tmp_path):
    commands = _make_run_commands()
    assert [c[:3] for c in commands[:3]] == [["run", "--agent", "oracle"],
                                             ["run", "--agent", "random"],
                                             ["run", "--agent", "noisy-oracle"]]
    result = subprocess.run([sys.executable, "-m", "finestate_env.cli", *commands[2]],
                            capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    counts = re.search(r"false accept (\d+), false reject (\d+)", result.stdout)
    assert int(counts.group(1)) > 0 and int(counts.group(2)) > 0, result.stdout
    assert "Where the box proxy and the control disagree, by type." in result.stdout
    assert result.stdout.splitlines()[-1] == "wrote out/noisy-oracle/report.html"
    assert (tmp_path / "out" / "noisy-oracle" / "report.html").is_file()
