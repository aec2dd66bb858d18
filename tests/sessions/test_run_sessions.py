"""`finestate run --agent openai --max-actions K` (#41): a chat model plays multi-turn
sessions turn by turn, as the agentic trainers run them, against a loopback double of an
OpenAI-compatible API; the report shows each turn's screen, gesture and state."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from fake_chat_api import FakeChatAPI

import finestate_env  # noqa: F401
from finestate_env.core.coords import box_center
from finestate_env.sessions import SessionPool, SessionTask


@pytest.fixture()
def api():
    server = FakeChatAPI()
    yield server
    server.close()


def right_answer(seed: int) -> str:
    """The gesture that reaches the goal of seed `seed`'s slider session, on a 0-1000 grid
    (Qwen3-VL's convention), read from the session's own boxes."""
    with SessionPool(max_sessions=1, idle_timeout_s=None) as pool:
        with pool.open(SessionTask(seed=seed, component="slider", max_actions=3)) as s:
            boxes, (w, h) = s.instance.boxes.current, s.size
    (x0, y0), (x1, y1) = box_center(boxes.now), box_center(boxes.goal)
    return json.dumps({"p0": [x0 * 1000 / w, y0 * 1000 / h], "p1": [x1 * 1000 / w, y1 * 1000 / h]})


def test_a_model_corrects_itself_over_turns_and_says_done(api, tmp_path):
    answers = {0: right_answer(0), 1: right_answer(1)}
    requests = []

    def reply(body):
        """Episode 0: a miss, the right gesture, done. Episode 1: misses until the end."""
        messages = body["messages"]
        requests.append(messages)
        task = re.search(r"Task: (.*)", messages[0]["content"][1]["text"]).group(1)
        turn = sum(m["role"] == "assistant" for m in messages)
        episode = episodes.setdefault(task, len(episodes))
        if episode == 0:
            return ['{"p0": [2, 2], "p1": [2, 2]}', answers[0], "done"][turn]
        return '{"p0": [2, 2], "p1": [2, 2]}'

    episodes: dict[str, int] = {}
    api.reply = reply
    out = tmp_path / "run"
    result = subprocess.run(
        [sys.executable, "-m", "finestate_env.cli", "run", "--agent", "openai", "--model",
         "qwen3-vl-4b", "--base-url", api.url, "--component", "slider", "--episodes", "2",
         "--seed", "0", "--max-actions", "3", "--out", str(out), "--report"],
        capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "episode success 0.500 (1/2)" in result.stdout
    trajectories = [json.loads(line) for line in (out / "trajectories.jsonl").open()]
    first, second = trajectories
    assert (first["reward"], first["said_done"], first["turns"][-1]["number"]) == (1.0, True, 2)
    assert (second["reward"], second["said_done"], second["ended"]) == (0.0, False, "actions")
    assert len(second["turns"]) == 3
    # each later request holds the whole conversation: every screen so far, as images
    images = [sum(isinstance(m["content"], list) and any(p.get("type") == "image_url"
                                                         for p in m["content"])
                  for m in messages) for messages in requests]
    assert images == [1, 2, 3, 1, 2, 3]
    assert "gesture" in requests[0][0]["content"][1]["text"]
    assert "0-1000 grid" in requests[0][0]["content"][1]["text"]
    report = (out / "report.html").read_text()
    assert report.count("<section>") == 2 and "the model said done" in report
    assert (out / "screens" / "0-2.png").exists() and (out / "screens" / "1-3.png").exists()
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["successes"], summary["said_done"], summary["episodes"]) == (1, 1, 2)
