"""OpenRLHF's own multi-turn executor playing live sessions through our agent file
(finestate_env/agentic/openrlhf.py, examples/agentic/openrlhf_agent_func.py).

examples/openrlhf_agentic_smoke.py runs in the trainers' venv (`make install-train`) and
prints what OpenRLHF's code returned: its loader made our AgentExecutor, its
`generate_responses` gathered the samples of one prompt, its `MultiTurnAgentExecutor.execute`
ran each over a live session in Chromium, with a scripted engine in vLLM's place. The
checks are here."""

from __future__ import annotations

from pathlib import Path

import pytest
import train_venv

ROOT = Path(__file__).resolve().parents[2]
TURN_TEXT = "The screen after your gesture."  # agents/vlm_prompt.py turn_prompt("")
QWEN_TURN = ("\n<|im_start|>user\n<|vision_start|><|image_pad|><|vision_end|>" + TURN_TEXT
             + "<|im_end|>\n<|im_start|>assistant\n")


@pytest.fixture(scope="module")
def smoke() -> tuple[dict, float]:
    return train_venv.smoke("openrlhf_agentic_smoke.py",
                            unset=("FINESTATE_OPENRLHF_MAX_SESSIONS",))


def test_openrlhf_loads_our_agent_file_as_its_multi_turn_executor(smoke):
    summary, _ = smoke
    assert summary["version"] == "0.11.2"
    assert summary["engine_code"].endswith("openrlhf/trainer/ray/vllm_engine.py")
    assert summary["is_openrlhf_executor"] is True
    assert summary["executor_mro"][:3] == [
        "agent_module.AgentExecutor",  # the module name OpenRLHF's loader gives the file
        "finestate_env.agentic.openrlhf.FineStateAgentExecutor",
        "openrlhf.utils.agent.MultiTurnAgentExecutor"]
    # the user turn read from the model's chat template is OpenRLHF's Qwen example's
    assert summary["feedback"] == QWEN_TURN


def test_a_gathered_group_pays_each_episode_its_exact_reward_once(smoke):
    summary, elapsed = smoke
    # the scripts' right gesture is one drag: the exported goal is one gesture away
    assert summary["oracle_actions"] == 1
    group = {sample["script"]: sample for sample in summary["group"]}
    assert sorted(group) == ["never_right", "right_done", "unreadable_then_out",
                             "wrong_right_done"]
    expected = {"wrong_right_done": (1.0, 2, 1.0), "right_done": (1.0, 1, 1.0),
                "never_right": (0.0, 2, 1.0), "unreadable_then_out": (0.0, 3, 0.0)}
    for name, (reward, turns, said_done) in expected.items():
        sample = group[name]
        assert sample["replies"] == sample["expected_replies"], name
        # OpenRLHF summed the steps' rewards: 0 on each step, the exact reward at the end
        assert sample["reward"] == reward and sample["scores"] == reward, name
        logs = sample["extra_logs"]
        assert logs["at_goal"] == reward and logs["turns"] == turns, name
        assert logs["said_done"] == said_done and logs["cut_by_length"] == 0.0, name
        assert logs["unjudged_reruns"] == 0.0 and logs["collateral"] == 0.0, name
        assert logs["action_errors"] == (1.0 if name == "unreadable_then_out" else 0.0)
        assert sample["truncated"] is False and sample["label_echoed"] is True
    # every sample logs the same metrics (OpenRLHF batches them by key)
    assert len({tuple(sorted(s["extra_logs"])) for s in summary["group"]}) == 1
    assert summary["open_after_group"] == 0  # every session closed
    assert summary["max_sessions"] == 4
    assert elapsed < 90  # ~25 s on 2 idle cores: imports, one export row, 4 live sessions


def test_the_screenshots_reach_the_engine_one_placeholder_each(smoke):
    summary, _ = smoke
    for sample in summary["group"]:
        turns = len(sample["replies"])
        # the row's image, then one screenshot after each reply but the last
        assert sample["images_in_inputs"] == sample["placeholders"] == turns
        assert sample["image_pad_tokens"] == sample["image_pad_expected"] > 0
        # the tokens are the chat template's rendering of the same conversation: one
        # <|im_end|> after each reply (vLLM's stop token), the user turns as Qwen writes them
        assert sample["chat_template_equal"] is True, sample["script"]
        assert sample["replies_end_with_eos"] is True
        assert sample["logprobs_aligned"] is True and sample["logprob_sum_ok"] is True
        assert len(sample["feedback"]) == turns - 1
        for index, text in enumerate(sample["turn_texts"]):
            if sample["script"] == "unreadable_then_out" and index == 0:
                assert text.startswith(TURN_TEXT + "\nNothing was performed: no gesture read")
            else:
                assert text == TURN_TEXT
    calls = summary["calls"]
    assert len(calls) == sum(len(s["replies"]) for s in summary["group"])
    for call in calls:
        assert call["images"] == call["placeholders"] == call["turn"] + 1
        assert all(size == [1280, 720] for size in call["sizes"])
    screens = summary["screens"]
    # the row's image is the session's first screen, pixel for pixel, in every sample
    assert screens["row_image"] == screens["first"]
    assert {call["digests"][0] for call in calls} == {screens["first"]}
    # after the right drag the engine saw the screen a session shows after it
    assert screens["engine_saw"] == [screens["first"], screens["after_right"]]
    assert screens["after_right"] != screens["first"]


def test_an_episode_cut_by_the_length_budget_is_judged_and_closed(smoke):
    summary, _ = smoke
    cut = summary["cut"]
    assert cut["calls"] == 1  # OpenRLHF's loop stopped after the first reply
    assert cut["reward"] == 1.0 and cut["scores"] == 1.0  # the right drag, judged as it stands
    assert cut["extra_logs"]["cut_by_length"] == 1.0
    assert cut["extra_logs"]["said_done"] == 0.0 and cut["extra_logs"]["turns"] == 1.0


def test_a_row_whose_image_is_not_its_labels_screen_is_refused(smoke):
    summary, _ = smoke
    refused = summary["refused"]
    assert refused["pixels"] and "differs from the session's first screen" in refused["pixels"]
    assert refused["size"] and "640x360" in refused["size"] and "1280x720" in refused["size"]
    assert summary["open_after_refused"] == 0


def test_an_unjudged_episode_is_run_again_never_paid_zero(smoke):
    summary, _ = smoke
    once = summary["unjudged"]["crashes_1_reruns_2"]
    assert once["sessions_opened"] == 2 and once["open_after"] == 0
    assert once["reward"] == 0.0 and once["extra_logs"]["unjudged_reruns"] == 1.0
    assert once["extra_logs"]["said_done"] == 1.0
    assert once["engine_calls"] == 3  # the crashed gesture, then a whole new episode
    always = summary["unjudged"]["crashes_2_reruns_1"]
    assert "reward" not in always
    assert "could not be judged" in always["error"] and "unjudged 2 times" in always["error"]
    assert always["sessions_opened"] == 2 and always["open_after"] == 0
    assert summary["open_at_end"] == 0
