"""examples/trl_openenv.py --smoke (#42): TRL's environment_factory shape over OpenEnv.
The example's factory class, each instance holding a FineStateEnvClient session, plays GRPO
groups against a live `finestate serve-env` (a subprocess, tasks from a real export-rl
folder through the server's task routes), its methods called as TRL's tool loop calls
them: the exact rewards, the screens each tool returned, one first screen per group."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "trl_openenv.py"


def test_the_factory_class_plays_groups_against_a_live_serve_env():
    result = subprocess.run([sys.executable, str(EXAMPLE), "--smoke"], capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["rows"] == 2
    episodes = summary["episodes"]
    # per row: the member that corrects itself and says done is paid 1.0, the other 0.0
    assert summary["rewards"] == [1.0, 0.0, 1.0, 0.0]
    assert [e["component"] for e in episodes] == ["slider", "slider", "checkbox", "checkbox"]
    for episode in episodes:
        assert episode["step_count"] == 2  # two gestures reached the server, done did not
        assert episode["images"] == [1, 1]  # each gesture answered with the new screen
        [(width, height, _)] = episode["first_screen"]
        assert (width, height) == (256, 144)  # shrunk to max_side, the aspect kept
        assert "0-1000 grid" in episode["first_text"]
        assert "at most 3 gestures" in episode["first_text"]
    for a, b in zip(episodes[::2], episodes[1::2], strict=True):
        assert a["first_screen"] == b["first_screen"]  # a GRPO group shares one start
    assert episodes[0]["first_screen"] != episodes[2]["first_screen"]
