"""verl's own agent-loop worker running `finestate_gui` episodes on live sessions
(finestate_env/agentic/verl.py): examples/verl_agentic_smoke.py runs in the trainers' venv
(verl pins tensordict<=0.10, apart from this venv), and its JSON summary is checked here.

verl's code does everything but generate: Hydra's config, RLHFDataset's rows, the GRPO
repeat, AgentLoopWorker loading the loop from the YAML and instantiating it per sample,
the samples gathered on one event loop, and the padding, image re-processing and rm_scores
of the batch its trainer trains on. The model is a scripted `generate`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import train_venv

ROOT = Path(__file__).resolve().parents[2]
VERDICTS = ["at_goal", "collateral", "turns", "action_errors", "oracle_actions", "unjudged"]
# What the loop adds after a gesture, mask 0: Qwen's newline after the model's end of turn
# (the Continuous Token builder's), then a user turn with the screen and turn_prompt("").
SCREEN_TURN = re.compile(r"\n<\|im_start\|>user\n<\|vision_start\|>(?:<\|image_pad\|>)+"
                         r"<\|vision_end\|>The screen after your gesture\.<\|im_end\|>\n"
                         r"<\|im_start\|>assistant\n")


@pytest.fixture(scope="module")
def smoke() -> tuple[dict, float]:
    return train_venv.smoke("verl_agentic_smoke.py")


def test_a_group_is_paid_the_exact_state_its_gestures_left(smoke):
    summary, elapsed = smoke
    samples = summary["samples"]
    assert summary["group"] == 3 and len(samples) == 6  # two rows, repeated interleaved
    # per row: a miss, the right gesture, done | never right | right again (row 2: at once)
    assert [s["reward_score"] for s in samples] == [1.0, 0.0, 1.0, 1.0, 0.0, 1.0]
    # verl's batch: the reward on each sample's last response token, nowhere else
    for s in samples:
        assert s["rm_score"] == s["reward_score"]
        assert s["rm_at"] == ([s["response_tokens"] - 1] if s["reward_score"] else [])
    # why each episode ended: the model said done; the task's 3 gestures were used up;
    # verl's multi_turn.max_assistant_turns (3) stopped a model that never says done
    assert [s["stop"] for s in samples] == ["done", "actions", "done", "done",
                                            "max_assistant_turns", "done"]
    assert [s["verdicts"]["turns"] for s in samples] == [2, 3, 2, 2, 3, 1]
    assert all(s["verdicts"]["collateral"] == 0 and s["verdicts"]["action_errors"] == 0
               for s in samples)
    assert [s["verdicts"]["at_goal"] for s in samples] == [s["reward_score"] for s in samples]
    # the verdicts reach verl's logs as its reward_extra_info, and the stop reasons as columns
    assert summary["reward_extra_keys"] == VERDICTS
    assert {"finestate_stop", "finestate_ended", "finestate_first_screen",
            *VERDICTS} <= set(summary["non_tensor_keys"])
    assert summary["open_sessions_after"] == 0  # every session closed
    assert elapsed < 90  # ~30 s here: imports, a tiny model, 9 episodes, Chromium


def test_the_mask_is_one_on_the_model_tokens_and_zero_on_the_screens(smoke):
    summary, _ = smoke
    for s in summary["samples"]:
        # the stretches of mask 1 are exactly the tokens the model generated, turn by turn
        assert s["model_stretches_are_the_replies"], s["priority"]
        assert s["logprobs_follow_the_mask"], s["priority"]  # its log-probs; 0.0 elsewhere
        # the stretches of mask 0 are exactly the screens the loop showed after gestures
        assert len(s["env_stretches"]) == len(s["images"]) - 1
        assert all(SCREEN_TURN.fullmatch(env) for env in s["env_stretches"]), s["priority"]
        # verl padded the mask as the loop made it, and the prompt on the left
        assert s["padded_mask_is_the_mask"] and s["prompt_row_left_padded"]


def test_every_screen_shown_is_an_image_of_the_episode(smoke):
    summary, _ = smoke
    for s in summary["samples"]:
        turns = int(s["verdicts"]["turns"])
        # the first screen, then the screen after each gesture, except one that ended the
        # episode (nothing more is generated after it)
        assert len(s["images"]) == 1 + turns - (s["stop"] != "done")
        # each generate call got the images its prompt shows, one more per turn
        assert s["calls_see_their_images"] == [True] * len(s["replies"])
        assert s["images_per_call"] == list(range(1, len(s["replies"]) + 1))
        # verl's processor, re-run on all the images, expands them to the tokens the loop
        # built (the placeholders and the pixels agree)
        assert s["image_tokens"] == s["processor_image_tokens"] > 0


def test_a_group_starts_from_one_screen(smoke):
    summary, _ = smoke
    samples = summary["samples"]
    slider, checkbox = samples[:3], samples[3:]
    for group in (slider, checkbox):
        assert len({s["first_screen"] for s in group}) == 1  # the sessions' own pixels
        assert len({s["images"][0] for s in group}) == 1  # the first image the model saw
    assert slider[0]["first_screen"] != checkbox[0]["first_screen"]
    # the two samples that made the same gestures saw the same screens
    assert slider[0]["images"] == slider[2]["images"]
    # a miss leaves the screen as it was; the right gesture, written either way, gives one
    assert checkbox[0]["images"][1] == checkbox[0]["images"][0]
    assert checkbox[0]["images"][2] == checkbox[2]["images"][1] != checkbox[2]["images"][0]
    # the slider row carries its screenshot (as export-rl writes it): the session's pixels
    assert {s["row_image"] for s in slider} == {"same"}
    assert "at most 3 gestures" in slider[0]["prompt_text"]  # the row's own prompt
    # the checkbox row holds a bare ground truth: the loop showed the first screen and the
    # session's prompt (5 gestures, the default task), after the row's system message
    assert {s["row_image"] for s in checkbox} == {"none"}
    prompt = checkbox[0]["prompt_text"]
    assert prompt.startswith("<|im_start|>system\nYou are a careful GUI agent.<|im_end|>\n")
    assert "at most 5 gestures" in prompt and "FineState GUI session" not in prompt
    assert [row["has_task"] for row in summary["rows"]] == [True, False]


def test_the_response_budget_ends_an_episode(smoke):
    summary, _ = smoke
    performed, cut = summary["budget_samples"]
    budget = summary["tight_response_length"]
    # the right gesture was performed; the screen after it did not fit, so it ends there
    assert (performed["stop"], performed["reward_score"], performed["rm_score"]) == (
        "response_length", 1.0, 1.0)
    assert performed["verdicts"]["turns"] == 2 and len(performed["images"]) == 2
    assert performed["response_tokens"] < budget
    # a reply longer than the budget is cut there and not performed
    assert (cut["stop"], cut["reward_score"], cut["verdicts"]["turns"]) == (
        "response_length", 0.0, 0)
    assert cut["response_tokens"] == budget and len(cut["images"]) == 1


def test_an_unjudged_session_raises_through_verl_and_closes(smoke):
    summary, _ = smoke
    unjudged = summary["unjudged"]
    # no reward (not 0.0): verl's worker lets the error through to its trainer
    assert unjudged["raised"]["type"] == "SessionUnjudged"
    assert "renderer could not be restored" in unjudged["raised"]["message"]
    assert unjudged["calls"] == 2  # the episode ran to its end first
    assert unjudged["open_sessions_after"] == 0
