"""Every documented command does what its page says (#50): the commands as a user runs them,
on the project's sample files."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).parents[2]
DATA = ROOT / "tests" / "data"


def finestate(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "finestate_env.cli", *args],
                          capture_output=True, text=True, timeout=300, env=env)


def imported(folder: Path) -> Path:
    """The released web sample imported beside its images: FOLDER/instances.jsonl."""
    shutil.copy(DATA / "finestate_bench_web.jsonl", folder)
    shutil.copytree(DATA / "images", folder / "images")
    done = finestate("import", str(folder / "finestate_bench_web.jsonl"), "--out", str(folder))
    assert done.returncode == 0, done.stderr
    return folder / "instances.jsonl"


def refusal(done: subprocess.CompletedProcess) -> str:
    """The one line a refused command says (exit 2, no traceback)."""
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("finestate: "), done.stderr
    return lines[0]


# -- 1. replaying imported (static) records; 5a: repeated and unknown ids ----------------------

@pytest.mark.fast
def test_replaying_imported_records_prints_the_table_and_writes_summary_and_report(tmp_path):
    instances = imported(tmp_path)
    out = tmp_path / "live"
    # predictions_web.jsonl: 6 lines, one id unknown, one id repeated (its second line after).
    done = finestate("replay", "--instances", str(instances), "--predictions",
                     str(DATA / "predictions_web.jsonl"), "--out", str(out), "--report",
                     "--quiet")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    na = f"{'n/a':>10}"
    assert lines[2] == f"{'overall':<22}{4:>5}  " + "  ".join(
        f"{static:>9.3f}{na}" for static in (0.75, 0.5, 0.25, 0.5))
    assert lines[3] == f"{'  carousel':<22}{1:>5}  " + "  ".join(
        f"{static:>9.3f}{na}" for static in (0.0, 1.0, 0.0, 1.0))
    assert lines[7] == "not replayable (no live block: static only, in no live rate): 4"
    assert "4 predictions (not_replayable 4)" in done.stdout
    assert done.stderr.splitlines() == [
        "1 prediction ids name no instance (ignored; first: 'images/nope.png')",
        "1 prediction ids repeat an id (ignored; first: 'images/web_a.png')"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["counts"] == {"predictions": 6, "unknown_ids": ["images/nope.png"],
                                 "duplicate_ids": ["images/web_a.png"]}
    assert summary["outcomes"]["not_replayable"] == 4 and summary["live"]["overall"]["n"] == 0
    assert summary["live"]["by_component"] == {}
    assert summary["static"]["overall"]["n"] == 4
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    # The first prediction of the repeated id: (0.22, 0.2) of a 200x100 image.
    assert [r["p0"] for r in records if r["id"] == "images/web_a.png"] == [[44.0, 20.0]]
    assert len(records) == 4
    assert "<table" in (out / "report.html").read_text()


def test_a_mixed_file_prints_live_rates_only_where_something_was_replayable(tmp_path):
    from finestate_env.core.coords import box_center

    done = finestate("generate", "--n", "1", "--component", "slider", "--scene", "control",
                     "--seed", "5", "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    (tmp_path / "imported").mkdir()
    generated = (tmp_path / "instances.jsonl").read_text()
    static = []
    for line in imported(tmp_path / "imported").read_text().splitlines():
        record = json.loads(line)
        record["image"] = "imported/" + record["image"]
        static.append(json.dumps(record))
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text(generated + "\n".join(static) + "\n")
    live = json.loads(generated)
    boxes = live["boxes"]["current"]
    rows = [{"id": live["id"], "p0": list(box_center(boxes["now"])),
             "p1": list(box_center(boxes["goal"])), "coords": "pixel"}]
    rows += [json.loads(line) for line in (DATA / "predictions_web.jsonl").read_text()
             .splitlines()[:4]]
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text("".join(json.dumps(row) + "\n" for row in rows))
    done = finestate("replay", "--instances", str(mixed), "--predictions", str(predictions),
                     "--out", str(tmp_path / "live"), "--quiet")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    na = f"{'n/a':>10}"
    # The switch is only among the imported records: n/a live; the slider has its live row.
    assert lines[6] == f"{'  switch':<22}{1:>5}  " + "  ".join(
        f"{static:>9.3f}{na}" for static in (1.0, 0.0, 0.0, 0.0))
    assert lines[5] == f"{'  slider':<22}{2:>5}  " + "  ".join(
        f"{1.0:>9.3f}{1.0:>10.3f}" for _ in range(4))
    assert lines[7] == "not replayable (no live block: static only, in no live rate): 4"
    summary = json.loads((tmp_path / "live" / "summary.json").read_text())
    assert summary["live"]["overall"]["n"] == 1 and summary["live"]["overall"]["es_sr_int"] == 1
    assert list(summary["live"]["by_component"]) == ["slider"]


# -- 5b: a null point counts in `missing` ------------------------------------------------------

@pytest.mark.fast
def test_score_counts_a_prediction_with_a_null_or_unparseable_point_as_missing(tmp_path):
    instances = imported(tmp_path)
    done = finestate("score", "--instances", str(instances), "--predictions",
                     str(DATA / "predictions_web.jsonl"), "--out", str(tmp_path / "scored"))
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "scored" / "summary.json").read_text())
    # web_b.png#2 has p0 null, web_b.png an unparseable p1: each also a miss on its stages.
    assert summary["overall"]["missing"] == 2
    assert {name: rates["missing"] for name, rates in summary["by_component"].items()} == {
        "carousel": 1, "date_picker": 1, "slider": 0, "switch": 0}
    assert (summary["counts"]["missing_point"], summary["counts"]["wrong_format"]) == (1, 1)
    overall = next(line for line in done.stdout.splitlines() if line.startswith("overall"))
    assert overall.split()[-1] == "2"


# -- 2 and 4: the gallery --------------------------------------------------------------------

GALLERY_PICTURES = re.compile(r"\]\((gallery[\w-]*\.png)\)")
GALLERY_COMMAND = re.compile(r"`(finestate gallery[^`]*)`")


def documented_galleries() -> list[tuple[str, str, str]]:
    """(page, picture, command): each gallery picture of docs/ and the command its page
    gives for it (the first in the picture's next 400 characters)."""
    found = []
    for page in sorted((ROOT / "docs").glob("*.md")):
        text = page.read_text()
        for match in GALLERY_PICTURES.finditer(text):
            command = GALLERY_COMMAND.search(text, match.end(), match.end() + 400)
            if command is not None:
                found.append((page.name, match.group(1), command.group(1)))
    return found


def test_the_pages_give_a_gallery_command_for_each_picture():
    assert {(page, picture) for page, picture, _ in documented_galleries()} == {
        ("desktop.md", "gallery-desktop.png"), ("environments.md", "gallery.png"),
        ("mobile.md", "gallery-mobile.png"), ("pages.md", "gallery-pages-desktop.png"),
        ("pages.md", "gallery-pages-mobile.png")}


@pytest.mark.parametrize("page, picture, command", documented_galleries())
def test_each_documented_gallery_command_draws_the_sheet_its_picture_shows(
        page, picture, command, tmp_path):
    """The command as the page writes it (one type, to keep it short) draws a sheet as wide
    as the page's picture: the same columns, themes or page templates."""
    words = command.split()[2:]
    if "--out" in words:
        del words[words.index("--out"):words.index("--out") + 2]
    out = tmp_path / "sheet.png"
    done = finestate("gallery", *words, "--component", "slider", "--out", str(out))
    assert done.returncode == 0, done.stderr
    with Image.open(out) as drawn, Image.open(ROOT / "docs" / picture) as shown:
        assert drawn.width == shown.width, (page, command)


def test_gallery_draws_the_desktop_page_sheet(tmp_path):
    from finestate_env.components import scenes
    from finestate_env.replay.gallery import HEADER, PAGE_SHEETS

    out = tmp_path / "pages.png"
    done = finestate("gallery", "--platform", "desktop", "--component", "switch",
                     "--out", str(out))
    assert done.returncode == 0, done.stderr
    (width, height), columns, _ = PAGE_SHEETS["desktop"]
    rows = -(-len(scenes.templates("desktop")) // columns)
    with Image.open(out) as image:
        assert image.size == (width * columns, (height + HEADER) * rows) == (1920, 1164)


@pytest.mark.fast
def test_every_platform_has_a_page_sheet():
    from finestate_env.cli.options import PLATFORMS
    from finestate_env.replay.gallery import PAGE_SHEETS

    assert set(PAGE_SHEETS) == set(PLATFORMS)


@pytest.mark.fast
def test_gallery_help_says_what_each_scene_draws():
    done = finestate("gallery", "--help")
    assert done.returncode == 0
    help_text = " ".join(done.stdout.split())
    assert ("--scene {control,page} page (default): one whole page per page template of the "
            "platform, the target's boxes drawn and its distractors outlined; control: every "
            "type in every theme of the platform, each control alone, one row per type"
            in help_text)
    done = finestate("--help")
    assert ("gallery one PNG with the measured boxes drawn on: one page per page template "
            "(default), or every type in every theme (--scene control)"
            in " ".join(done.stdout.split()))


# -- 3. export-rl's model names ----------------------------------------------------------------

@pytest.mark.fast
def test_export_rl_refuses_a_model_no_profile_knows(tmp_path):
    from finestate_env.agents.vlm_prompt import known_models

    out = tmp_path / "rl"
    line = refusal(finestate("export-rl", "--model", "nosuchmodel", "--n", "1",
                             "--out", str(out)))
    assert line == (f"finestate: --model 'nosuchmodel' matches no model profile; known: "
                    f"{known_models()}; for another model give --coords pixel|normalized|1000")
    assert known_models().startswith("qwen2.5-vl (pixel); qwen3-vl (1000); qwen2-vl, qwen-vl "
                                     "(1000); ui-tars (1000);")
    assert not out.exists()


@pytest.mark.fast
def test_export_rl_api_refuses_a_model_no_profile_knows(tmp_path):
    from finestate_env.core.errors import UsageError
    from finestate_env.rewards.export import export_rl

    with pytest.raises(UsageError, match=r"^model 'nosuchmodel' matches no model profile"):
        export_rl(tmp_path / "rl", n=1, model="nosuchmodel")
    assert not (tmp_path / "rl").exists()


def test_export_rl_reads_qwen25vl_as_qwen2_5_vl_and_says_so(tmp_path):
    out = tmp_path / "rl"
    done = finestate("export-rl", "--model", "qwen25vl", "--n", "1", "--component", "slider",
                     "--scene", "control", "--trainer", "trl", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == ("model qwen25vl: profile qwen2.5-vl, answers in "
                                            "pixel coordinates of a 1288x728 frame")
    manifest = json.loads((out / "export.json").read_text())
    assert (manifest["coords"], manifest["frames"]) == ("pixel", [[1288, 728]])


# -- 5c: reset options -------------------------------------------------------------------------

@pytest.mark.fast
def test_a_misspelt_reset_option_is_refused_naming_it_and_the_accepted_ones():
    import gymnasium as gym

    import finestate_env  # noqa: F401 (registers the ids)

    env = gym.make("FineState-Web-v0", backend="fake", scene="control")
    try:
        with pytest.raises(ValueError) as caught:
            env.reset(seed=0, options={"componnet": "slider"})
        assert str(caught.value) == ("unknown reset option 'componnet'; expected some of "
                                     "['component', 'instance', 'capture_scale']")
        with pytest.raises(ValueError, match=r"^unknown reset options 'a', 'b'; "):
            env.reset(seed=0, options={"b": 1, "a": 2, "component": "slider"})
        _, info = env.reset(seed=0, options={"component": "slider"})  # and the env goes on
        assert info["component"] == "slider"
        _, info = env.reset(seed=0, options={})
        assert info["component"] in finestate_env.components.COMPONENTS
    finally:
        env.close()


# -- 5d: a run Ray refuses writes nothing ------------------------------------------------------

@pytest.mark.parametrize("command", ["replay", "audit", "generate", "eval"])
def test_a_run_ray_refuses_does_not_create_its_out_folder(command, tmp_path):
    from two_node_cluster import RAY_ENV

    instances = imported(tmp_path)
    out = tmp_path / "never"
    args = {"replay": ["--instances", str(instances), "--predictions",
                       str(DATA / "predictions_web.jsonl"), "--quiet"],
            "audit": ["--instances", str(instances), "--quiet"],
            "generate": ["--n", "2"],
            "eval": ["--instances", str(instances), "--model", "gpt-4o", "--base-url",
                     "http://127.0.0.1:9/v1"]}[command]
    done = finestate(command, *args, "--out", str(out), "--ray", "--workers", "64",
                     env={**RAY_ENV, "OPENAI_API_KEY": "unused"})
    assert refusal(done).startswith("finestate: 64 Ray actors of 1 CPU and 600 MiB do not fit "
                                    "the cluster (")
    assert done.stdout == ""
    assert not out.exists()


# -- 5e: --skip-invalid on eval and report -----------------------------------------------------

@pytest.mark.fast
def test_eval_skips_malformed_instance_lines_when_asked(tmp_path):
    bad = tmp_path / "instances.jsonl"
    bad.write_text("{not json\n")
    args = ("eval", "--model", "gpt-4o", "--instances", str(bad), "--out", str(tmp_path / "o"))
    line = refusal(finestate(*args))
    assert line.startswith(f"finestate: {bad}:1: ")
    done = finestate(*args, "--skip-invalid")
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"finestate: skipped 1 invalid lines of {bad} (first: {bad}:1: "
        f"{done.stderr.split(f'{bad}:1: ', 1)[1].splitlines()[0]}",
        f"finestate: {bad}: no instances"]


@pytest.mark.fast
def test_report_reads_the_run_instances_as_skip_invalid_says(tmp_path):
    instances = imported(tmp_path)
    out = tmp_path / "live"
    done = finestate("replay", "--instances", str(instances), "--predictions",
                     str(DATA / "predictions_web.jsonl"), "--out", str(out), "--quiet")
    assert done.returncode == 0, done.stderr
    with open(instances, "a") as f:
        f.write("{not json\n")
    line = refusal(finestate("report", str(out)))
    assert line.startswith(f"finestate: {instances}:5: ")
    done = finestate("report", str(out), "--skip-invalid")
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"wrote {out / 'report.html'}\n"
