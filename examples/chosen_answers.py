"""Completions chosen for the trainer smokes (examples/verl_reward_smoke.py,
examples/openrlhf_client_smoke.py, the warm start of examples/trl_grpo.py), in a row's
answer frame, so that the rewards the trainers get back mean something."""

from __future__ import annotations

import json

from finestate_env.core.coords import box_center
from finestate_env.rewards import GroundTruth

# oracle: the boxes' centres (p0 on the thumb or item, p1 in the goal box), as JSON;
# fenced / labelled / answer_block: the same points in the other shapes models write;
# box_only: p0 on a blank corner, p1 in the goal box: the box reward pays it, but a drag
# that grabs nothing moves nothing; blank_click: a click on a blank corner;
# no_points: no readable answer; off_screen: points off the screenshot.
KINDS = ("oracle", "fenced", "labelled", "answer_block", "box_only", "blank_click",
         "no_points", "off_screen")


def frame_point(truth: GroundTruth, point: tuple[float, float]) -> list[int]:
    """A screenshot pixel as the row's answer frame has it (Qwen2.5-VL's resized image)."""
    (w, h), (fw, fh) = truth.size, (truth.frame.width, truth.frame.height)
    return [round(point[0] * fw / w), round(point[1] * fh / h)]


def oracle_answer(truth: GroundTruth) -> str:
    """The answer the boxes promise (the oracle agent's points), in the row's frame."""
    boxes = truth.instance.boxes.current
    return json.dumps({"p0": frame_point(truth, box_center(boxes.now)),
                       "p1": frame_point(truth, box_center(boxes.goal))})


def answers(truth: GroundTruth) -> dict[str, str]:
    """One completion of each of KINDS for the row of `truth`."""
    boxes = truth.instance.boxes.current
    now, goal = frame_point(truth, box_center(boxes.now)), frame_point(truth,
                                                                       box_center(boxes.goal))
    fw, fh = truth.frame.width, truth.frame.height
    return {"oracle": oracle_answer(truth),
            "fenced": f"Here it is:\n```json\n{oracle_answer(truth)}\n```",
            "labelled": f"p0: ({now[0]}, {now[1]})\np1: ({goal[0]}, {goal[1]})",
            "answer_block": (f"<think>the control is at {now}</think>"
                             f"<answer>drag({now[0]}, {now[1]}, {goal[0]}, {goal[1]})</answer>"),
            "box_only": json.dumps({"p0": [2, 2], "p1": goal}),
            "blank_click": f"click({fw - 3}, {fh - 3})",
            "no_points": "I can't tell where the control is.",
            "off_screen": json.dumps({"p0": [fw * 4, 10], "p1": [fw * 4, 10]})}
