"""verifiers 0.4's own eval playing live sessions through FineStateEnv
(finestate_env/agentic/verifiers.py, packaged as examples/agentic/finestate_verifiers):
examples/verifiers_agentic_smoke.py runs in the trainers' venv (`make install-train`
installs verifiers, uv and the package there) against a scripted OpenAI-compatible model
on loopback, and its JSON summary is checked here."""

from __future__ import annotations

from pathlib import Path

import pytest
import train_venv

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "examples" / "verifiers_agentic_smoke.py"
PROMPT_TAIL = ("You have at most 3 gestures.\nReply with only a JSON object for each gesture: "
               '{"p0": [x0, y0], "p1": [x1, y1]}. When the control shows exactly what the '
               "task asks, reply with only the word done.")


@pytest.fixture(scope="module")
def smoke() -> tuple[dict, float]:
    return train_venv.smoke("verifiers_agentic_smoke.py")


def _rollouts(summary: dict) -> dict[str, list[tuple[dict, dict, dict]]]:
    """Per task kind: (episode, trace, what the scripted model saw of it) of each rollout,
    joined on the trace id (verifiers' X-Session-ID header)."""
    kinds = {task["id"]: task["kind"] for task in summary["tasks"]}
    sessions = summary["server"]["sessions"]
    rollouts: dict[str, list] = {"judged": [], "crash": []}
    for episode in summary["episodes"]:
        [trace] = episode["traces"]
        rollouts[kinds[episode["task"]]].append((episode, trace, sessions[trace["id"]]))
    return rollouts


def test_verifiers_eval_pays_the_exact_state_of_live_sessions(smoke):
    summary, elapsed = smoke
    assert summary["verifiers"] == "0.4.0"
    # verifiers' loader found the installed package by the taskset id, with its two exports
    package = summary["package"]
    assert package["module"] == "finestate_verifiers"
    assert sorted(package["exports"]) == ["FineStateEnv", "FineStateTaskset"]
    assert Path(package["file"]).is_relative_to(ROOT / "examples" / "agentic")
    assert summary["server"]["unexpected"] == []
    rollouts = _rollouts(summary)
    assert len(rollouts["judged"]) == len(rollouts["crash"]) == 2  # -r 2 per task
    for _, trace, seen in rollouts["judged"] + rollouts["crash"]:
        assert (trace["agent"], trace["harness"]) == ("player", "null")
        assert trace["num_turns"] == len(seen["requests"])  # every model call was ours
    screens = {task["kind"]: task["screen_sha256"] for task in summary["tasks"]}
    assert screens["judged"] != screens["crash"]

    by_script = {seen["script"]: (episode, trace, seen)
                 for episode, trace, seen in rollouts["judged"]}
    assert sorted(by_script) == ["never", "right"]
    for script, reward in (("right", 1.0), ("never", 0.0)):
        episode, trace, seen = by_script[script]
        assert episode["ok"] is True and episode["errors"] == []
        assert trace["ok"] is True and trace["errors"] == []
        assert trace["rewards"] == {"exact_state": [reward, 1.0]}, script
        assert trace["reward"] == reward
        metrics = trace["metrics"]
        assert (metrics["at_goal"], metrics["turns"], metrics["unjudged"]) == \
            (reward, 2.0, 0.0), script
        assert trace["info"]["session_ended"] == "agent"  # the model said done
        # three model calls: the first screen, then one more screen per gesture; the
        # harness sends the whole conversation, so call n carries n screenshots
        requests = seen["requests"]
        assert [r["images"] for r in requests] == [1, 2, 3]
        first = requests[0]["image_sha256"][0]
        assert first == screens["judged"]  # the screen of an earlier session of the task
        for before, after in zip(requests, requests[1:], strict=False):
            assert after["image_sha256"][:-1] == before["image_sha256"]
        assert requests[0]["last_text"].endswith(PROMPT_TAIL)
        assert "Task: " in requests[0]["last_text"]
        assert [r["last_text"] for r in requests[1:]] == ["The screen after your gesture."] * 2
    right = by_script["right"][2]["requests"][-1]["image_sha256"]
    assert right[1] == right[0] != right[2]  # the miss changed nothing, the gesture did
    never = by_script["never"][2]["requests"][-1]["image_sha256"]
    assert never[1] != never[0]  # the near miss moved the slider, off the goal

    # a session that could not be judged fails the rollout; its reward is None, never 0.0
    for episode, trace, seen in rollouts["crash"]:
        assert episode["ok"] is False and episode["errors"] == ["UnjudgedError"]
        assert trace["ok"] is False and trace["errors"] == ["UnjudgedError"]
        assert trace["stop_condition"] == "unjudged_error"
        assert trace["rewards"] == {"exact_state": None}
        assert "could not be judged" in trace["error_messages"][0]
        assert trace["metrics"]["unjudged"] == 1.0
        assert trace["info"]["session_ended"] == "unjudged"
        assert [r["images"] for r in seen["requests"]] == [1]
        assert seen["requests"][0]["image_sha256"] == [screens["crash"]]
    assert summary["seconds"] < 90 and elapsed < 120  # ~37 s on 2 idle cores


def test_the_taskset_reads_session_tasks_rows_and_seeds(smoke):
    summary, _ = smoke
    reading = summary["taskset"]
    jsonl = reading["jsonl"]
    assert [task["type"] for task in jsonl] == ["FineStateTask"] * 3  # the blank line skipped
    assert all(task["prompt"] is None for task in jsonl)  # the env opens the conversation
    # a session task keeps its gestures, a bare ground truth takes the taskset's, an
    # export-rl row's `task` column is read before its ground truth
    assert [task["session_task"].get("max_actions", 5) for task in jsonl] == [2, 4, 3]
    assert all("ground_truth" in task["session_task"] for task in jsonl)
    assert jsonl[2]["id"] == "row-3"
    assert jsonl[0]["name"].startswith("slider:")
    seeds = reading["seeds"]
    assert [task["session_task"] for task in seeds] == [
        {"format": "finestate-session/1", "seed": seed, "component": "switch",
         "coords": "1000"} for seed in (1, 2)]
    assert reading["bad_line"].startswith("BadTask: ")
    assert "bad.jsonl:2: task: seed:" in reading["bad_line"]
