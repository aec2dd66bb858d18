"""The VLM trainers' own code calling our rewards (docs/training-vlms.md): each example's
smoke runs in the trainers' venv (`make install-train`: TRL, verl, OpenRLHF's client,
apart from this venv because verl pins tensordict<=0.10), and its JSON summary is checked
here, the rewards scored again by a RewardScorer of this process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import train_venv

from finestate_env.rewards import GroundTruth, RewardScorer

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
ORACLE_SHAPES = ("oracle", "fenced", "labelled", "answer_block")


def _run(*command: str, timeout: int = 300) -> tuple[dict, float]:
    return train_venv.run_in_train_venv(*command, timeout=timeout)


def _smoke(script: str) -> tuple[dict, float]:
    return train_venv.smoke(script)


@pytest.fixture(scope="module")
def scorer():
    with RewardScorer("exact", workers=1) as scorer:
        yield scorer


def _frame(ground_truth: str) -> tuple[int, int]:
    truth = GroundTruth.read(ground_truth)
    return truth.frame.height, truth.frame.width


def test_trl_grpo_trains_on_live_rewards_with_a_tiny_vlm(scorer):
    summary, elapsed = _smoke("trl_grpo.py")
    assert summary["steps"] == 2
    truths = {row["id"]: row["ground_truth"] for row in summary["rows"]}
    calls = summary["calls"]
    # each step: both reward functions, called once with the B x G = 2 x 4 completions
    assert len(calls) == 4
    assert sorted(call["func"] for call in calls) == ["finestate_box"] * 2 + ["finestate_exact"] * 2
    parsed = 0
    for step, logged in enumerate(summary["logged"]):
        assert logged["step"] == step + 1
        step_calls = {call["func"]: call for call in calls[2 * step: 2 * step + 2]}
        assert step_calls["finestate_exact"]["completions"] == \
            step_calls["finestate_box"]["completions"]
        for name, mode in (("finestate_exact", "exact"), ("finestate_box", "box")):
            call = step_calls[name]
            assert len(call["rewards"]) == len(call["completions"]) == len(call["rows"]) == 8
            assert sorted(call["rows"].count(row) for row in set(call["rows"])) == [4, 4]
            # what TRL got back is what a RewardScorer of this process gives the same
            # completions against their rows' ground truths
            scores = scorer.score([truths[row] for row in call["rows"]], call["completions"],
                                  mode)
            assert call["rewards"] == [score.reward for score in scores]
            # and what TRL logged for the step is the mean of exactly those rewards
            assert logged[f"rewards/{name}/mean"] == sum(call["rewards"]) / 8
            if mode == "exact":
                assert logged["finestate/live_exact"] == sum(s.live_exact for s in scores) / 8
                parsed += sum(s.parse_error is None for s in scores)
        assert logged["reward"] == logged["rewards/finestate_exact/mean"]  # box weighs 0
    assert parsed > 0  # the warm start makes the tiny model write readable answers
    # the screenshots reached the vision tower at the size the prompts' pixels refer to
    frames = {_frame(truth) for truth in truths.values()}
    assert len(frames) == 1
    [(height, width)] = frames
    assert summary["vision_tower"]
    for seen in summary["vision_tower"]:
        assert all(grid == [1, height // 14, width // 14] for grid in seen["grid_thw"])
        assert seen["pixel_rows"] == len(seen["grid_thw"]) * (height // 14) * (width // 14)
    assert elapsed < 240  # ~80 s on 2 idle cores: imports, 100 warm-start steps, 2 GRPO steps


def test_verl_reward_managers_and_the_trainer_path_call_compute_score(scorer):
    summary, elapsed = _smoke("verl_reward_smoke.py")
    kinds, completions = summary["kinds"], summary["completions"]
    rows = summary["rows"]
    assert summary["batch_size"] == len(completions) == len(kinds) == 8 * len(rows)
    # GRPO's repeat(interleave=True): each row's samples together
    truths = [row["ground_truth"] for row in rows for _ in range(8)]
    expected = {mode: [s.reward for s in scorer.score(truths, completions, mode)]
                for mode in ("exact", "box")}
    assert summary["direct"] == expected
    managers = summary["managers"]
    for name, mode in (("naive", "exact"), ("batch", "exact"), ("trainer_exact", "exact"),
                       ("trainer_box", "box")):
        assert managers[name]["rewards"] == expected[mode], name
        assert managers[name]["on_last_token"] is True, name
        assert {"score", "sr_loc", "sr_int", "static_exact", "parse_error"} <= set(
            managers[name]["extra_keys"]), name
    assert "live_exact" in managers["naive"]["extra_keys"]
    trainer = managers["trainer_exact"]
    assert trainer["manager"] == "verl.experimental.reward_loop.reward_manager.naive." \
                                 "NaiveRewardManager"
    assert (trainer["compute_score"], trainer["reward_kwargs"]) == ("compute_score_async",
                                                                    {"mode": "exact"})
    assert trainer["live_exact"] == expected["exact"]
    assert managers["trainer_box"]["reward_kwargs"] == {"mode": "box"}
    # the overrides of examples/verl_grpo.sh composed with verl's own config
    overrides = summary["overrides"]
    assert f"reward.custom_reward_function.path={EXAMPLES / 'verl_reward.py'}" in overrides
    assert "algorithm.adv_estimator=grpo" in overrides
    # verl 0.9's trainer scores per sample: docs/training-vlms.md says it has no batch manager
    assert "naive" in summary["trainer_reward_managers"]
    assert "batch" not in summary["trainer_reward_managers"]
    # and that the top-level custom_reward_function of older scripts no longer reaches it
    assert summary["legacy_key_reaches_reward"] is False
    _check_kinds(kinds, [row["component"] for row in rows for _ in range(8)], expected)
    for grids, frame in zip(summary["image_grids"], summary["frames"], strict=True):
        assert grids == [[1, frame[0] // 14, frame[1] // 14]]
    assert elapsed < 120


def test_openrlhf_client_against_finestate_serve_and_its_reward_func_loader(scorer):
    summary, elapsed = _smoke("openrlhf_client_smoke.py")
    assert summary["script_flags"]["undeclared"] == []
    assert "--reward.remote_url" in summary["script_flags"]["used"]
    samples = summary["samples"]
    labels = [summary["labels"][i] for i in summary["label_of"]]
    completions = [sample["completion"] for sample in samples]
    assert len(samples) == 8 * len(summary["labels"])
    expected = {mode: [s.reward for s in scorer.score(labels, completions, mode)]
                for mode in ("exact", "box")}
    assert summary["direct"] == expected
    answers = summary["http"]["answers"]
    assert [answer["rewards"] for answer in answers] == [[r] for r in expected["exact"]]
    assert all(answer["scores"] == answer["rewards"] for answer in answers)
    assert [answer["extra_logs"]["live_exact"] for answer in answers] == \
        [[float(live)] for live in summary["direct_live_exact"]]
    for mode in ("exact", "box"):
        assert [a["rewards"] for a in summary["reward_func"][mode]] == [[r] for r in
                                                                        expected[mode]]
    health = summary["http"]["health"]
    assert health["completions"] == len(samples) and health["unjudged"] == 0
    # 8 single-sample requests per instance at once: merged onto fewer renders
    assert health["renders"] < health["completions"]
    assert summary["server_exit"] == 0
    components = [json.loads(label)["instance"]["component"] for label in labels]
    _check_kinds([sample["kind"] for sample in samples], components, expected)
    for sample, label in zip(samples, labels, strict=True):
        height, width = _frame(label)
        assert sample["image_tokens"] == (height // 28) * (width // 28)
    assert elapsed < 120


def _check_kinds(kinds: list[str], components: list[str], rewards: dict) -> None:
    """What each chosen completion (examples/chosen_answers.py) must get."""
    for i, (kind, component) in enumerate(zip(kinds, components, strict=True)):
        exact, box = rewards["exact"][i], rewards["box"][i]
        if kind in ORACLE_SHAPES:  # the boxes' promise, in every shape a model writes it
            assert (exact, box) == (1.0, 1.0), (kind, component)
        elif kind == "box_only":
            # p1 in the goal box, p0 on a blank corner: a drag grabs nothing (the box
            # lies), a tap only hovers there first
            assert (exact, box) == ((0.0, 1.0) if component == "slider" else (1.0, 1.0)), \
                component
        else:  # blank_click, no_points, off_screen
            assert (exact, box) == (0.0, 0.0), (kind, component)
    assert "slider" in components  # the case where the box lies


def test_qwen_smart_resize_is_transformers_own():
    """agents/vlm_prompt.qwen_smart_resize (the frame export-rl asks Qwen2.5-VL for)
    against transformers' smart_resize, on many sizes and pixel budgets."""
    code = """
import itertools, json
from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import smart_resize
from finestate_env.agents.vlm_prompt import qwen_smart_resize
sides = sorted({*range(28, 3000, 37), 56, 720, 728, 1080, 1280, 1288, 2400, 2408, 2560, 3840})
budgets = [(56 * 56, 12_845_056), (56 * 56, 1_003_520), (56 * 56, 100_352), (200_704, 401_408)]
checked, wrong = 0, []
for (h, w), (low, high) in itertools.product(itertools.product(sides, sides), budgets):
    if max(h, w) / min(h, w) > 200:
        continue
    ours = qwen_smart_resize(h, w, min_pixels=low, max_pixels=high)
    theirs = smart_resize(h, w, factor=28, min_pixels=low, max_pixels=high)
    checked += 1
    if tuple(ours) != tuple(theirs):
        wrong.append([h, w, low, high, list(ours), list(theirs)])
print(json.dumps({"checked": checked, "wrong": wrong[:10]}))
"""
    summary, _ = _run("-c", code, timeout=120)
    assert summary["wrong"] == []
    assert summary["checked"] > 20_000
