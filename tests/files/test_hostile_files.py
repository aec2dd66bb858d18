"""Files in, files out (#49): a hostile or careless dataset never reads outside its folder,
never destroys data, never stops a run. Every case runs the real `finestate` command over
files made here, and checks: no traceback, one `finestate:` line where it refuses, no file
outside `--out` touched, no file outside the dataset read, the valid lines' results as
they are without the bad ones."""

from __future__ import annotations

import base64
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from finestate_env.core import files
from finestate_env.core.errors import UsageError
from finestate_env.runs.jobs import read_records

FINESTATE = [sys.executable, "-m", "finestate_env.cli"]


def cli(*args: str, cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([*FINESTATE, *args], capture_output=True, text=True, timeout=timeout,
                          cwd=cwd)


def refused(done: subprocess.CompletedProcess, *words: str) -> None:
    """Exit 2 and one `finestate:` line naming `words`; no traceback."""
    assert done.returncode == 2, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert line.startswith("finestate: "), done.stderr
    for word in words:
        assert word in line, (word, line)


def png_header(width: int, height: int) -> bytes:
    """A tiny PNG whose header says width x height (a decompression bomb's shape)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + chunk(b"IEND", b""))


@pytest.fixture(scope="module")
def dataset(tmp_path_factory) -> Path:
    """Four generated lone sliders and checkboxes: the folder (instances.jsonl, images/)."""
    folder = tmp_path_factory.mktemp("hostile") / "data"
    done = cli("generate", "--n", "4", "--seed", "1", "--component", "slider,checkbox",
               "--scene", "control", "--out", str(folder))
    assert done.returncode == 0, done.stderr
    return folder


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def copy_dataset(dataset: Path, to: Path) -> Path:
    shutil.copytree(dataset, to)
    return to / "instances.jsonl"


def oracle(instances: list[dict]) -> list[dict]:
    rows = []
    for instance in instances:
        boxes = instance["boxes"]["current"]
        centre = lambda box: [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2]  # noqa: E731
        rows.append({"id": instance["id"], "p0": centre(boxes["now"]),
                     "p1": centre(boxes["goal"]), "coords": "pixel"})
    return rows


def write_lines(path: Path, rows: list) -> Path:
    path.write_text("".join((row if isinstance(row, str) else json.dumps(row)) + "\n"
                            for row in rows))
    return path


# -- Reads stay inside ----------------------------------------------------------------------

@pytest.mark.parametrize("image", ["/etc/hostname", "../secret.png", "images/../../secret.png"])
def test_an_image_path_out_of_the_dataset_is_a_bad_line_naming_it(dataset, tmp_path, image):
    path = copy_dataset(dataset, tmp_path / "data")
    rows = lines_of(path)
    rows[1]["image"] = image
    write_lines(path, rows)
    (tmp_path / "secret.png").write_bytes(png_header(4, 4))
    predictions = write_lines(tmp_path / "p.jsonl", oracle(rows))
    done = cli("replay", "--instances", str(path), "--predictions", str(predictions),
               "--out", str(tmp_path / "r"), "--quiet")
    refused(done, f"{path}:2: image:", "--trusted-paths")
    assert not (tmp_path / "r").exists()
    # --skip-invalid leaves that line out and replays the others; --trusted-paths reads it.
    done = cli("replay", "--instances", str(path), "--predictions", str(predictions),
               "--out", str(tmp_path / "skip"), "--quiet", "--skip-invalid")
    assert done.returncode == 0, done.stderr
    assert "skipped 1 invalid lines" in done.stderr
    assert len(read_records(tmp_path / "skip" / "results.jsonl")) == len(rows) - 1


def test_a_link_out_of_the_dataset_is_never_drawn_into_the_report(dataset, tmp_path):
    path = copy_dataset(dataset, tmp_path / "data")
    rows = [row for row in lines_of(path) if row["component"] == "slider"]
    assert len(rows) >= 2
    secret = tmp_path / "secret.png"
    shutil.copyfile(dataset / rows[0]["image"], secret)
    secret.write_bytes(secret.read_bytes() + b"SECRET-MARKER")  # trailing bytes still decode
    (tmp_path / "data" / rows[0]["image"]).unlink()
    (tmp_path / "data" / rows[0]["image"]).symlink_to(secret)
    grabs_nothing = oracle(rows)
    for row in grabs_nothing:
        row["p0"] = [3.0, 3.0]  # p1 in the goal box, the thumb never grabbed: a card each
    predictions = write_lines(tmp_path / "p.jsonl", grabs_nothing)
    done = cli("replay", "--instances", str(path), "--predictions", str(predictions),
               "--out", str(tmp_path / "r"), "--quiet", "--report")
    assert done.returncode == 0, done.stderr
    html = (tmp_path / "r" / "report.html").read_text()
    assert "is a link out of the dataset&#39;s folder" in html
    assert html.count('alt="screenshot of') == len(rows) - 1
    # The linked file's bytes are nowhere in the report, raw or as a picture's data.
    assert "SECRET-MARKER" not in html
    assert base64.b64encode(secret.read_bytes()[:48]).decode()[:60] not in html


def test_only_regular_files_are_read(dataset, tmp_path):
    path = copy_dataset(dataset, tmp_path / "data")
    fifo = tmp_path / "predictions.fifo"
    os.mkfifo(fifo)
    # A FIFO would block forever, /dev/zero never ends: both refused at once.
    refused(cli("score", "--instances", str(path), "--predictions", str(fifo), "--out",
                str(tmp_path / "s"), timeout=30), "a FIFO", "regular files")
    refused(cli("score", "--instances", str(path), "--predictions", "/dev/zero", "--out",
                str(tmp_path / "z"), timeout=30), "a character device")
    refused(cli("replay", "--instances", "/dev/zero", "--predictions", str(path), "--out",
                str(tmp_path / "z2"), timeout=30), "a character device")
    with pytest.raises(UsageError, match="a FIFO"):
        files.read_bounded(fifo, 10, "an image file")


def test_images_are_bounded_before_they_are_decoded(tmp_path):
    bomb = tmp_path / "bomb.png"
    bomb.write_bytes(png_header(50000, 50000))
    assert bomb.stat().st_size < 200
    with pytest.raises(UsageError, match="the limit is 67,108,864 pixels"):
        files.read_image(bomb)
    big = tmp_path / "big.png"
    with open(big, "wb") as f:  # sparse: nothing is read before the size is refused
        f.truncate(files.MAX_IMAGE_BYTES + 1)
    with pytest.raises(UsageError, match="the limit is 67,108,864"):
        files.read_bounded(big, files.MAX_IMAGE_BYTES, "an image file")
    text = tmp_path / "not-an-image.png"
    text.write_text("hello")
    with pytest.raises(UsageError, match="not an image"):
        files.read_image(text)


def test_resolve_inside_by_hand(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "a.png").write_bytes(b"x")
    (tmp_path / "images" / "in.png").symlink_to(tmp_path / "images" / "a.png")
    (tmp_path / "images" / "out.png").symlink_to("/etc/hostname")
    assert files.resolve_inside(tmp_path, "images/a.png") == tmp_path / "images" / "a.png"
    assert files.resolve_inside(tmp_path, "images\\in.png") == tmp_path / "images" / "a.png"
    assert files.resolve_inside(tmp_path, "images/../images/a.png").name == "a.png"
    for name in ("/etc/hostname", "C:/x.png", "../x.png", "images/out.png"):
        with pytest.raises(UsageError):
            files.resolve_inside(tmp_path, name)
    assert files.resolve_inside(tmp_path, "images/out.png", trusted=True) == \
        Path("/etc/hostname").resolve()


# -- Writes never destroy ---------------------------------------------------------------------

def test_reading_a_run_folder_changes_nothing_in_it(dataset, tmp_path):
    path = copy_dataset(dataset, tmp_path / "data")
    rows = lines_of(path)
    predictions = write_lines(tmp_path / "p.jsonl", oracle(rows))
    run = tmp_path / "r"
    assert cli("replay", "--instances", str(path), "--predictions", str(predictions),
               "--out", str(run), "--quiet").returncode == 0
    # results.jsonl a link to a file of the user's whose last line is cut short.
    kept = tmp_path / "elsewhere.jsonl"
    kept.write_bytes((run / "results.jsonl").read_bytes() + b'{"key": "half')
    before = kept.read_bytes()
    (run / "results.jsonl").unlink()
    (run / "results.jsonl").symlink_to(kept)
    done = cli("report", str(run))
    assert done.returncode == 0, done.stderr
    assert kept.read_bytes() == before


def test_an_audit_never_writes_through_a_link(dataset, tmp_path):
    path = copy_dataset(dataset, tmp_path / "data")
    out = tmp_path / "audit"
    out.mkdir()
    target = tmp_path / "precious.txt"
    target.write_text("mine\n")
    (out / "audit.jsonl").symlink_to(target)
    refused(cli("audit", "--instances", str(path), "--out", str(out), "--density", "2",
                "--gestures", "2", "--quiet"), "symbolic link")
    assert target.read_text() == "mine\n"


def test_generate_never_leaves_a_mixed_dataset(dataset, tmp_path):
    out = copy_dataset(dataset, tmp_path / "data").parent
    mine = out / "images" / "my-notes.txt"
    mine.write_text("keep me")
    refused(cli("generate", "--n", "2", "--seed", "5", "--component", "slider", "--scene",
                "control", "--out", str(out)), "holds a dataset already", "--overwrite")
    assert len(lines_of(out / "instances.jsonl")) == 4
    done = cli("generate", "--n", "2", "--seed", "5", "--component", "slider", "--scene",
               "control", "--out", str(out), "--overwrite")
    assert done.returncode == 0, done.stderr
    images = {row["image"] for row in lines_of(out / "instances.jsonl")}
    assert len(images) == 2
    assert {f"images/{p.name}" for p in (out / "images").glob("*.png")} == images
    assert mine.read_text() == "keep me"


def test_export_onto_its_own_input_is_refused(dataset, tmp_path):
    path = copy_dataset(dataset, tmp_path / "data")
    before = path.read_bytes()
    refused(cli("export", str(path), "--format", "finestate", "--out", str(path)),
            "is the instances file it reads")
    assert path.read_bytes() == before


def test_a_replay_into_a_folder_of_other_predictions_is_refused(dataset, tmp_path):
    path = copy_dataset(dataset, tmp_path / "data")
    rows = lines_of(path)
    first = write_lines(tmp_path / "a.jsonl", oracle(rows))
    other = oracle(rows)
    other[0]["p1"] = [1.0, 1.0]
    second = write_lines(tmp_path / "b.jsonl", other)
    out = tmp_path / "r"
    assert cli("replay", "--instances", str(path), "--predictions", str(first), "--out",
               str(out), "--quiet").returncode == 0
    results = (out / "results.jsonl").read_bytes()
    refused(cli("replay", "--instances", str(path), "--predictions", str(second), "--out",
                str(out), "--quiet"), "other predictions", str(first.resolve()))
    assert (out / "results.jsonl").read_bytes() == results
    assert json.loads((out / "run.json").read_text())["predictions"] == str(first.resolve())
    # The same inputs continue it (nothing left to do).
    assert cli("replay", "--instances", str(path), "--predictions", str(first), "--out",
               str(out), "--quiet").returncode == 0


def test_run_out_removes_only_the_cases_it_wrote(tmp_path):
    mine = tmp_path / "out" / "cases" / "notes.txt"
    args = ("run", "--agent", "noisy-oracle", "--sigma-p0", "6", "--sigma-p1", "2",
            "--episodes", "20", "--seed", "0", "--component", "slider", "--out", "out")
    assert cli(*args, cwd=tmp_path).returncode == 0
    mine.write_text("mine")
    written = sorted(p.name for p in (tmp_path / "out" / "cases" / "images").iterdir())
    assert written, "the noisy oracle should leave cases"
    assert cli(*args, cwd=tmp_path).returncode == 0
    assert mine.read_text() == "mine"
    assert sorted(p.name for p in (tmp_path / "out" / "cases" / "images").iterdir()) == written


def test_picture_names_of_different_ids_differ():
    long = "x" * 130
    assert files.file_name(long + "a") != files.file_name(long + "b")
    assert files.file_name("a/b") != files.file_name("a_b")


# -- One bad line is one bad line -------------------------------------------------------------

BAD_LINES = {
    "deep": "[" * 100_000 + "]" * 100_000,
    "huge integer": '{"id": "x", "p0": [' + "9" * 5000 + ", 1]}",
    "overflowing point": '{"id": "ID", "p0": [' + "9" * 400 + ", 1], \"p1\": [1, 2]}",
}


def test_bad_lines_are_skipped_and_named_and_the_rest_scored_the_same(dataset, tmp_path):
    path = copy_dataset(dataset, tmp_path / "data")
    rows = oracle(lines_of(path))
    good = write_lines(tmp_path / "good.jsonl", rows)
    hostile = tmp_path / "hostile.jsonl"
    with open(hostile, "wb") as f:
        for row in rows[:2]:
            f.write(json.dumps(row).encode() + b"\n")
        f.write(b'{"id": "\xff\xfe"}\n')  # not UTF-8
        f.write(BAD_LINES["deep"].encode() + b"\n")
        f.write(BAD_LINES["huge integer"].encode() + b"\n")
        for row in rows[2:]:
            f.write(json.dumps(row).encode() + b"\n")
    for command in ("score", "replay"):
        extra = ["--quiet"] if command == "replay" else []
        strict = cli(command, "--instances", str(path), "--predictions", str(hostile), "--out",
                     str(tmp_path / f"{command}-strict"), *extra)
        refused(strict, f"{hostile}:3: line:", "not UTF-8")
        done = cli(command, "--instances", str(path), "--predictions", str(hostile), "--out",
                   str(tmp_path / command), "--skip-invalid", *extra)
        assert done.returncode == 0, done.stderr
        assert "skipped 3 invalid lines" in done.stderr
        clean = cli(command, "--instances", str(path), "--predictions", str(good), "--out",
                    str(tmp_path / f"{command}-clean"), *extra)
        assert clean.returncode == 0, clean.stderr
        strip = lambda r: {k: v for k, v in r.items() if k != "timings"}  # noqa: E731
        assert [strip(r) for r in lines_of(tmp_path / command / "results.jsonl")] == \
            [strip(r) for r in lines_of(tmp_path / f"{command}-clean" / "results.jsonl")]


def test_a_point_that_overflows_in_pixels_is_an_action_error_not_a_crash(dataset, tmp_path):
    path = copy_dataset(dataset, tmp_path / "data")
    rows = oracle(lines_of(path))
    rows[0] = {"id": rows[0]["id"], "p0": [1.7e308, 1.7e308], "p1": [-1.7e308, 5],
               "coords": "normalized"}
    predictions = write_lines(tmp_path / "p.jsonl", rows)
    done = cli("replay", "--instances", str(path), "--predictions", str(predictions),
               "--out", str(tmp_path / "r"), "--quiet")
    assert done.returncode == 0, done.stderr
    first = read_records(tmp_path / "r" / "results.jsonl")
    by_id = {r["id"]: r for r in first}
    assert "is not finite" in by_id[rows[0]["id"]]["action_error"]
    assert by_id[rows[0]["id"]]["p0"] is None and by_id[rows[0]["id"]]["live_exact"] is False
    assert all(by_id[row["id"]]["live_exact"] for row in rows[1:])


def test_ids_reach_the_terminal_as_text(dataset, tmp_path):
    path = copy_dataset(dataset, tmp_path / "data")
    fake = "\x1b]0;owned\x07\x1b[2J\rfinestate: all good\x9b31m"
    rows = oracle(lines_of(path))
    rows.append({"id": fake, "p0": [1, 1], "p1": [2, 2], "coords": "pixel"})
    predictions = write_lines(tmp_path / "p.jsonl", rows)
    done = cli("score", "--instances", str(path), "--predictions", str(predictions), "--out",
               str(tmp_path / "s"))
    assert done.returncode == 0, done.stderr
    for stream in (done.stdout, done.stderr):
        assert not any(ord(c) < 32 and c not in "\n\t" or 0x7F <= ord(c) < 0xA0
                       for c in stream), repr(stream)
    assert "\\x1b]0;owned" in done.stdout + done.stderr


@pytest.mark.parametrize("command", [
    ["score", "--instances", "data/instances.jsonl", "--predictions", "p.jsonl"],
    ["replay", "--instances", "data/instances.jsonl", "--predictions", "p.jsonl"],
    ["audit", "--instances", "data/instances.jsonl"],
    ["generate", "--n", "1"],
    ["curve", "--episodes", "200"],
    ["import", "data/instances.jsonl"],
])
def test_an_out_that_cannot_be_written_is_refused_before_any_work(tmp_path, command):
    (tmp_path / "a-file").write_text("mine")
    for out, words in (("a-file", "is a file;"), ("a-file/sub", "a-file is a file, not a folder")):
        refused(cli(*command, "--out", out, cwd=tmp_path, timeout=30), f"--out {out}", words)
    assert (tmp_path / "a-file").read_text() == "mine"


def test_a_state_no_file_can_hold_is_a_bad_line(dataset, tmp_path):
    path = copy_dataset(dataset, tmp_path / "data")
    rows = lines_of(path)
    text = [json.dumps(row) for row in rows]
    text[0] = text[0].replace(f'"goal_state": {json.dumps(rows[0]["goal_state"])}',
                              '"goal_state": NaN', 1)
    text[1] = text[1].replace(f'"id": "{rows[1]["id"]}"', '"id": "\\ud800"', 1)
    write_lines(path, text)
    out = tmp_path / "exported.jsonl"
    refused(cli("export", str(path), "--format", "finestate-env", "--out", str(out)),
            f"{path}:1: goal_state:", "NaN")
    done = cli("export", str(path), "--format", "finestate-env", "--out", str(out),
               "--skip-invalid")
    assert done.returncode == 0, done.stderr
    assert "skipped 2 invalid lines" in done.stderr
    assert [row["id"] for row in lines_of(out)] == [row["id"] for row in rows[2:]]
    assert not list(tmp_path.glob("**/*.partial"))


def test_a_nan_state_in_a_released_record_is_a_bad_line(tmp_path):
    source = Path(__file__).parents[1] / "data" / "finestate_bench_web.jsonl"
    first, *rest = source.read_text().splitlines()
    record = json.loads(first)
    record["component"]["target_state"] = float("nan")
    path = write_lines(tmp_path / "web.jsonl", [json.dumps(record), *rest])
    shutil.copytree(source.parent / "images", tmp_path / "images")
    refused(cli("import", str(path), "--out", str(tmp_path / "out")),
            f"{path}:1: component.target_state:", "NaN")
    done = cli("import", str(path), "--out", str(tmp_path / "out"), "--skip-invalid")
    assert done.returncode == 0, done.stderr
    clean = cli("import", str(source), "--out", str(tmp_path / "clean"), "--skip-invalid")
    assert clean.returncode == 0, clean.stderr
    imported = lines_of(tmp_path / "out" / "instances.jsonl")
    assert len(imported) == len(lines_of(tmp_path / "clean" / "instances.jsonl")) - 1
