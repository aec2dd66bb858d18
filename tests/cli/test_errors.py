"""What `finestate` does on bad input (one line, exit 2) and on a bug (its traceback)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from finestate_env.core.errors import UsageError
from finestate_env.datasets.formats import FormatError

# Needs no browser, X display, device or JDK: the fast tier (make test-fast).
pytestmark = pytest.mark.fast


def finestate(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "finestate_env.cli", *args],
                          capture_output=True, text=True, timeout=120, cwd=cwd)


def said_once(result: subprocess.CompletedProcess, message: str) -> None:
    """Exit 2, and stderr is the one line `finestate: MESSAGE...`, no traceback."""
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.startswith(f"finestate: {message}"), result.stderr


@pytest.mark.parametrize("args, message", [
    # A file that cannot be read, by every command that reads one.
    (["replay", "--instances", "missing.jsonl", "--predictions", "missing.jsonl", "--out", "r"],
     "cannot read missing.jsonl: No such file or directory"),
    (["audit", "--instances", "missing.jsonl", "--out", "a"],
     "cannot read missing.jsonl: No such file or directory"),
    (["eval", "--model", "m", "--instances", "missing.jsonl", "--out", "e"],
     "cannot read missing.jsonl: No such file or directory"),
    (["score", "--instances", "missing.jsonl", "--predictions", "missing.jsonl"],
     "cannot read missing.jsonl: No such file or directory"),
    # A malformed file: FILE:LINE: FIELD: expected ..., got ...
    (["export", "bad.jsonl", "--format", "screenspot", "--out", "x.jsonl"],
     "bad.jsonl:1: record: expected a finestate-env instance"),
    # Values the env judges, refused where the command builds it from the options.
    (["run", "--env", "NoSuchEnv-v0"], "Environment `NoSuchEnv` doesn't exist"),
    (["run", "--viewport", "10x10"], "viewport 10x10 is outside"),
    (["curve", "--component", "no_such_type", "--out", "c"], "unknown component"),
    (["generate", "--n", "1", "--viewport", "wide", "--out", "g"],
     "viewport 'wide' is not 'WIDTHxHEIGHT'"),
    (["gallery", "--component", "no_such_type"], "unknown component"),
    # Values the library judges itself (UsageError where it raises).
    (["run", "--agent", "noisy-oracle", "--sigma-p0", "-1"], "sigma_p0 must be a finite"),
    (["generate", "--n", "0", "--out", "g"], "n must be at least 1, got 0"),
    (["report", "nowhere"], "nowhere has neither results.jsonl nor audit_summary.json"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    (tmp_path / "bad.jsonl").write_text('{"id": 1}\n')
    said_once(finestate(*args, cwd=tmp_path), message)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.jsonl"]  # nothing written


BUG = textwrap.dedent("""
    import sys

    from finestate_env.cli import main
    from finestate_env.cli.commands import {module}

    def broken(args):
        {raises}

    {module}.run = broken
    sys.exit(main.main({argv!r}))
""")


@pytest.mark.parametrize("raises, last_line", [
    ("raise ValueError('bug')", "ValueError: bug"),
    # A library error that is also a ValueError, but no usage error: still a bug.
    ("int('x')", "ValueError: invalid literal for int() with base 10: 'x'"),
    ("raise KeyError('bug')", "KeyError: 'bug'"),
])
def test_a_bug_keeps_its_traceback_and_is_not_exit_2(tmp_path, raises, last_line):
    code = BUG.format(module="report", raises=raises, argv=["report", str(tmp_path)])
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith("Traceback (most recent call last):"), result.stderr
    assert "in broken" in result.stderr
    assert result.stderr.splitlines()[-1] == last_line
    assert "finestate: " not in result.stderr


def test_a_usage_error_raised_by_a_command_is_said_in_one_line(tmp_path):
    code = BUG.format(module="score", raises="raise UsageError('--mode: no such mode')",
                      argv=["score", "--instances", "a", "--predictions", "b"])
    code = code.replace("import sys\n", "import sys\n\nfrom finestate_env.core.errors import "
                        "UsageError\n", 1)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)
    assert (result.returncode, result.stderr) == (2, "finestate: --mode: no such mode\n")


def test_a_usage_error_is_a_value_error():
    # Code that catches ValueError (Gymnasium's convention for bad arguments) still does.
    assert issubclass(UsageError, ValueError) and issubclass(FormatError, UsageError)
