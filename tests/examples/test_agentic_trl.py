"""TRL's multi-turn `environment_factory` over live sessions (finestate_env/agentic/trl.py,
#41): the adapter driven as TRL drives it, here with real Chromium, then TRL's own
GRPOTrainer in the trainers' venv (examples/trl_agentic.py --smoke: a tiny random
Qwen3-VL, scripted tool calls), its JSON summary checked here."""

from __future__ import annotations

import inspect
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import train_venv
from PIL import Image

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.agentic.trl import FineStateTRLEnv, finestate_trl_env
from finestate_env.agents.vlm_prompt import session_prompt
from finestate_env.core.coords import box_center
from finestate_env.core.errors import UsageError
from finestate_env.rewards import ground_truth
from finestate_env.sessions import SessionTask, close_shared_pools

ROOT = Path(__file__).resolve().parents[2]
MISS = {"x0": 4, "y0": 4, "x1": 4, "y1": 4}  # a click in the page's corner: on no control


def trl_tools(env_class: type) -> list[str]:
    """The tools TRL 1.16 makes of an environment class (grpo_trainer.py: every public
    function of the class but reset and get_reward)."""
    return [name for name, _ in inspect.getmembers(env_class, predicate=inspect.isfunction)
            if name not in ("reset", "get_reward") and not name.startswith("_")]


@pytest.mark.fast
def test_trl_finds_the_gesture_and_done_tools_and_nothing_else():
    env_class = finestate_trl_env(max_side=256, max_sessions=3, model="qwen3-vl")
    assert trl_tools(env_class) == trl_tools(FineStateTRLEnv) == ["done", "gesture"]
    assert issubclass(env_class, FineStateTRLEnv) and env_class.__name__ == "FineStateTRLEnv"
    assert (env_class.max_side, env_class.max_sessions, env_class.model) == (256, 3, "qwen3-vl")
    gesture = inspect.signature(env_class.gesture)
    assert [(p.name, p.annotation) for p in gesture.parameters.values()][1:] == [
        ("x0", "int"), ("y0", "int"), ("x1", "int"), ("y1", "int")]
    assert "Args:" in env_class.gesture.__doc__ and "Returns:" in env_class.done.__doc__
    with pytest.raises(UsageError, match="max_side"):
        finestate_trl_env(max_side=0)


@pytest.fixture(scope="module")
def truth():
    """A slider on the stage alone, its answers on Qwen3-VL's 0-1000 grid."""
    with gym.make("FineState-Web-v0", component="slider", scene="control") as env:
        env.reset(seed=3)
        yield ground_truth(env.unwrapped.instance, "1000")
    close_shared_pools()


def right_gesture(truth) -> dict[str, int]:
    size, boxes = truth.instance.size, truth.instance.boxes.current
    (x0, y0), (x1, y1) = box_center(boxes.now), box_center(boxes.goal)
    return {"x0": round(x0 * 1000 / size.width), "y0": round(y0 * 1000 / size.height),
            "x1": round(x1 * 1000 / size.width), "y1": round(y1 * 1000 / size.height)}


def test_an_episode_as_trl_drives_it(truth):
    env_class = finestate_trl_env(max_side=256, max_sessions=3, idle_timeout_s=None)
    task = SessionTask(ground_truth=truth, max_actions=3).text()
    env = env_class()
    image, text = env.reset(task=task, prompt=[{"role": "user", "content": ""}])
    assert image["type"] == "image" and image["image"].size == (256, 144)  # shrunk, 16:9
    assert text == {"type": "text", "text": session_prompt(
        truth.instance.instructions.interact, "1000", (1280, 720), 3, tool=True)}
    first = env.session

    missed = env.gesture(**MISS)
    assert [block["type"] for block in missed] == ["image", "text"]
    assert missed[1]["text"] == "The screen after your gesture."
    assert np.array_equal(np.asarray(missed[0]["image"]), np.asarray(image["image"]))
    unreadable = env.gesture(x0="left", y0=1, x1=2, y1=3)  # what a model may write
    assert [block["type"] for block in unreadable] == ["text"]  # no gesture: no new screen
    assert unreadable[0]["text"].startswith("Nothing was performed: points must be")
    moved = env.gesture(**right_gesture(truth))  # the last of the 3 gestures
    assert not np.array_equal(np.asarray(moved[0]["image"]), np.asarray(image["image"]))
    assert moved[1]["text"] == "The screen after your gesture.\nNo gestures are left."
    refused = env.gesture(**MISS)
    assert refused == [{"type": "text", "text": "The episode has ended (no gestures are "
                                                "left): nothing was performed."}]
    assert env.done() == "The episode is over."
    assert env.get_reward() == 1.0
    assert (env.result.ended, env.result.turns, env.result.action_errors) == ("actions", 3, 1)
    assert first.closed is not None  # its env is back in the pool

    # TRL reuses the instance: the next reset opens a new session on the same first screen
    again, _ = env.reset(task=task)
    assert env.session is not first
    assert np.array_equal(np.asarray(again["image"]), np.asarray(image["image"]))
    assert env.gesture(**right_gesture(truth))[0]["type"] == "image"
    assert env.done() == "The episode is over."
    assert env.gesture(**MISS) == [{"type": "text", "text": "The episode has ended (done "
                                                            "was called): nothing was "
                                                            "performed."}]
    assert env.get_reward() == 1.0 and env.result.ended == "agent"

    # a model that stops calling tools without done: finished by get_reward, paid 0.0
    other = env_class()
    other.reset(task=task)
    other.gesture(**MISS)
    assert other.get_reward() == 0.0 and other.result.ended == "agent"


def test_rows_in_the_shapes_trainers_carry_them(truth):
    env_class = finestate_trl_env(max_side=256, max_sessions=3, idle_timeout_s=None)
    env = env_class()
    # export-rl's multi-turn rows show the first turn themselves: reset adds nothing
    exported = {"task": SessionTask(ground_truth=truth, max_actions=2).text(),
                "images": [Image.new("RGB", (1280, 720))],
                "prompt": [{"role": "user", "content": "the session's text"}]}
    assert env.reset(**exported) is None
    assert env.session is not None and env.session.task.max_actions == 2
    # a bare ground truth, as a single-turn export's reward_model column holds it
    shown = env.reset(reward_model={"style": "rule", "ground_truth": truth.text()},
                      images=[])
    assert [block["type"] for block in shown] == ["image", "text"]
    assert env.session.task.max_actions == 5  # a bare ground truth: the defaults
    env.get_reward()
    with pytest.raises(UsageError, match=r"one of the columns \['task', 'reward_model', "
                                         r"'ground_truth'\].*it has \['prompt'\]"):
        env.reset(prompt=[])


def test_a_task_in_another_convention_is_refused(truth):
    qwen = finestate_trl_env(max_sessions=3, idle_timeout_s=None, model="Qwen/Qwen3-VL-4B")()
    in_pixels = ground_truth(truth.instance, "pixel")
    with pytest.raises(UsageError, match="read in 'pixel', but Qwen/Qwen3-VL-4B answers in "
                                         "'1000'"):
        qwen.reset(task=SessionTask(ground_truth=in_pixels).text())
    assert qwen.session is None
    with pytest.raises(UsageError, match="whole numbers"):
        finestate_trl_env(max_sessions=3, idle_timeout_s=None)().reset(
            task=SessionTask(ground_truth=ground_truth(truth.instance, "normalized")).text())


# -- TRL's own trainer ----------------------------------------------------------------------

def _smoke() -> tuple[dict, float]:
    return train_venv.smoke("trl_agentic.py")


def test_grpo_trainer_runs_live_episodes_through_its_tool_loop():
    summary, elapsed = _smoke()
    assert summary["steps"] == 2 and summary["model"] == "Qwen3VLForConditionalGeneration"
    # TRL found the tools and built their schemas from the type hints and docstrings
    assert summary["tools"] == ["done", "gesture"]
    gesture = next(s["function"] for s in summary["tool_schemas"]
                   if s["function"]["name"] == "gesture")
    assert gesture["parameters"]["required"] == ["x0", "y0", "x1", "y1"]
    assert {p["type"] for p in gesture["parameters"]["properties"].values()} == {"integer"}

    episodes = summary["episodes"]  # in TRL's batch order: 2 tasks x 2 samples, 2 steps
    assert len(episodes) == 8
    for episode in episodes:
        # the solver: a miss, the right gesture, done; the misser: a miss, unreadable
        # points, a miss (no gestures left), the right gesture refused, and it stops
        solver = episode["reward"] == 1.0
        assert (episode["ended"], episode["turns"], episode["action_errors"]) == (
            ("agent", 2, 0) if solver else ("actions", 3, 1)), episode
        assert episode["images"] == 3 and episode["first_screen_size"] == [256, 144]
    for step in (0, 1):
        batch = [e for e in episodes if e["step"] == step]
        assert [e["reward"] for e in batch] == [1.0, 0.0, 1.0, 0.0]
        assert sorted(e["task"] for e in batch) == [0, 0, 1, 1]
        for task in (0, 1):  # a group starts from one screen, pixel for pixel
            group = {e["first_screen"] for e in batch if e["task"] == task}
            assert len(group) == 1
        assert len({e["first_screen"] for e in batch}) == 2
        assert len({e["session"] for e in batch}) == 4
    # what the environments returned is what TRL logged, exactly
    assert summary["trl_rewards"] == [e["reward"] for e in episodes]
    for step, logged in enumerate(summary["logged"]):
        rewards = [e["reward"] for e in episodes if e["step"] == step]
        assert logged["step"] == step + 1
        assert logged["rewards/FineStateTRLEnv/mean"] == logged["reward"] == sum(rewards) / 4
        assert logged["tools/call_frequency"] == (3 + 4) / 2  # done counts; no failure
        assert logged["tools/failure_frequency"] == 0.0

    # every turn's screenshot reached the model: in generation, each sample's context
    # holds its episode's screens so far, and nothing else ...
    calls = summary["generate_calls"]
    assert len(calls) == 10  # per step: 4 turns of the 4 samples, a 5th of the missers
    for call in calls:
        assert len(call["grids"]) == sum(call["images_in_text"]) == len(call["images"])
        assert call["image_pads"] == sum(t * h * w // 4 for t, h, w in call["grids"])
    assert summary["generation_images_shown"] == [True] * len(calls)
    assert [call["images_in_text"] for call in calls[:5]] == [
        [1, 1, 1, 1], [2, 2, 2, 2], [3, 2, 3, 2], [3, 3, 3, 3], [3, 3]]
    # the tools' words reached it too, in the tool message after each call
    said = {}
    for call in calls:
        for sample, response in zip(call["samples"], call["last_tool_response"], strict=True):
            role, turn = sample.split("@")[0], int(sample.rsplit(":", 1)[1])
            said.setdefault((role, turn), set()).add(response)
    assert said == {
        ("solver", 0): {None}, ("misser", 0): {None},
        ("solver", 1): {"<image>The screen after your gesture."},
        ("solver", 2): {"<image>The screen after your gesture."},
        ("solver", 3): {"The episode is over."},
        ("misser", 1): {"<image>The screen after your gesture."},
        ("misser", 2): {"Nothing was performed: points must be two numbers each: could not "
                        "convert string to float: 'left'"},
        ("misser", 3): {"<image>The screen after your gesture.\nNo gestures are left."},
        ("misser", 4): {"The episode has ended (no gestures are left): nothing was "
                        "performed."}}
    # ... and in the loss: the vision tower got every episode's images, each episode's
    # in its order (TRL shuffles the samples of a batch before the loss)
    vision = summary["vision_tower"]
    assert [call["step"] for call in vision] == [0, 1]
    for call in vision:
        assert call["images"] == 12 and call["episodes_in_some_order"] is True
        # 256x144 screenshots, resized by Qwen3-VL's processor to 256x128 (multiples of
        # 32): 8 x 16 patches of 16 px
        assert all(grid == [1, 8, 16] for grid in call["grid_thw"])
    assert elapsed < 150  # ~40 s on 2 shared cores: imports, 2 GRPO steps, 16 live episodes
