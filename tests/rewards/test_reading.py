"""Reading what trainers hand the reward: ground truths, completions in their shapes, the
coordinate conventions and frames, the answer shapes models write. No browser."""

from __future__ import annotations

import json

import pytest

from finestate_env.agents.answers import parse_points
from finestate_env.agents.vlm_prompt import profile_for, qwen_smart_resize
from finestate_env.core.schema import Boxes, BoxSet, Instance, Instructions, LiveSpec, Size
from finestate_env.rewards import BadGroundTruth, GroundTruth, ground_truth
from finestate_env.rewards.completions import completion_text, read_answer, response_of

pytestmark = pytest.mark.fast


def make_instance(width: int = 1280, height: int = 720) -> Instance:
    boxes = Boxes(loc=(100, 100, 300, 140), core=(110, 110, 290, 130),
                  goal=(200, 110, 203, 130), now=(120, 110, 130, 130))
    return Instance(
        id="web-slider-test", platform="web", component="slider", family="numeric_range",
        gesture="drag", instructions=Instructions(locate="the slider", interact="set it to 50"),
        current_state=10.0, goal_state=50.0, size=Size(width=width, height=height),
        boxes=BoxSet(current=boxes, target=boxes),
        live=LiveSpec(component="slider", params={"label": "Volume", "min": 0, "max": 100,
                                                  "step": 1, "unit": "%", "track": 500,
                                                  "anchor": [0.5, 0.5]},
                      current_state=10.0, goal_state=50.0, theme="classic-light",
                      viewport=Size(width=width, height=height), seed=3))


def test_a_ground_truth_round_trips_through_its_text_and_verls_dict():
    truth = ground_truth(make_instance(), "1000")
    text = truth.text()
    assert GroundTruth.read(text) == truth
    assert GroundTruth.read({"style": "rule", "ground_truth": text}) == truth
    assert GroundTruth.read(json.loads(text)) == truth
    assert truth.key == GroundTruth.read(text).key
    assert truth.key != ground_truth(make_instance(), "pixel").key  # judged apart


@pytest.mark.parametrize("value, field", [
    ("not json", "(the whole value)"),
    ('{"instance": {}, "coords": "pixel", "frame": {"width": 1, "height": 1}}', "instance"),
    (None, None),
])
def test_a_bad_ground_truth_names_what_is_wrong(value, field):
    with pytest.raises(BadGroundTruth) as caught:
        GroundTruth.read(value)
    if field:
        assert field in str(caught.value)


def test_a_ground_truth_needs_the_live_block_that_renders_it_again():
    static = make_instance().model_copy(update={"live": None})
    text = json.dumps({"instance": json.loads(static.model_dump_json()), "coords": "pixel",
                       "frame": {"width": 1280, "height": 720}})
    with pytest.raises(BadGroundTruth, match="no live block"):
        GroundTruth.read(text)


@pytest.mark.parametrize("coords, point, pixels", [
    ("pixel", (640, 360), (640, 360)),
    ("normalized", (0.5, 0.25), (640, 180)),
    ("1000", (500, 250), (640, 180)),
])
def test_points_map_from_the_rows_convention_to_screenshot_pixels(coords, point, pixels):
    assert ground_truth(make_instance(), coords).to_pixels(point) == pytest.approx(pixels)


def test_qwen25vl_answers_in_the_pixels_of_its_resized_image():
    # transformers' Qwen2VLImageProcessor resizes 1280x720 to 1288x728, a phone's
    # 1080x2400 to 1092x2408 (tests/examples/test_trainers.py checks the arithmetic
    # against transformers' own smart_resize)
    assert qwen_smart_resize(720, 1280) == (728, 1288)
    assert qwen_smart_resize(2400, 1080) == (2408, 1092)
    profile = profile_for("Qwen/Qwen2.5-VL-3B-Instruct")
    assert profile.answer_frame((1280, 720)) == (1288, 728)
    assert profile.answer_frame((1280, 720), max_pixels=401_408) == (840, 448)
    assert profile_for("ui-tars-1.5-7b").answer_frame((1280, 720)) == (1280, 720)
    truth = ground_truth(make_instance(), "pixel", (1288, 728))
    assert truth.to_pixels((1288, 728)) == pytest.approx((1280, 720))


@pytest.mark.parametrize("completion", [
    '{"p0": [1, 2], "p1": [3, 4]}',
    [{"role": "assistant", "content": '{"p0": [1, 2], "p1": [3, 4]}'}],
    [{"role": "assistant", "content": [{"type": "text", "text": '{"p0": [1, 2], '},
                                       {"type": "text", "text": '"p1": [3, 4]}'}]}],
    {"role": "assistant", "content": "drag(1, 2, 3, 4)"},
])
def test_completions_are_read_in_every_trainers_shape(completion):
    text = completion_text(completion)
    assert parse_points(text).p0 == (1.0, 2.0) and parse_points(text).p1 == (3.0, 4.0)


@pytest.mark.parametrize("text, p0, p1", [
    ("click(5, 6)", (5.0, 6.0), (5.0, 6.0)),
    ("drag(10, 20, 30.5, 40)", (10.0, 20.0), (30.5, 40.0)),
    ("<think>the thumb is at (1, 2), the goal at (3, 4)</think>"
     '<answer>{"p0": [7, 8], "p1": [9, 10]}</answer>', (7.0, 8.0), (9.0, 10.0)),
    ("<think>(1, 2) then (3, 4)</think>click(start_box='(55,66)')", (55.0, 66.0), (55.0, 66.0)),
    ('{"name": "computer_use", "arguments": {"action": "left_click_drag", '
     '"start_coordinate": [1, 2], "coordinate": [3, 4]}}', (1.0, 2.0), (3.0, 4.0)),
])
def test_the_answer_shapes_models_write(text, p0, p1):
    parsed = parse_points(text)
    assert (parsed.p0, parsed.p1, parsed.error) == (p0, p1, None)


def test_an_empty_answer_block_is_a_parse_error():
    assert parse_points("<answer> </answer>").error == "the answer block is empty"


def test_openrlhfs_query_is_read_after_its_prompt():
    prompt = ('<|im_start|>user\nReply with only a JSON object: {"p0": [x, y], "p1": [x, y]}.'
              '<|im_end|>\n<|im_start|>assistant\n')
    query = prompt + '{"p0": [1, 2], "p1": [3, 4]}<|im_end|>'
    assert parse_points(response_of(query, prompt)).p1 == (3.0, 4.0)
    # a prompt decoded with other whitespace: after the last assistant header
    assert parse_points(response_of(query, prompt.replace("\n", " "))).p1 == (3.0, 4.0)


def test_answers_off_the_screen_or_unreadable_are_told_apart():
    truth = ground_truth(make_instance(), "1000")
    assert read_answer("no idea", truth).parse_error is not None
    off = read_answer('{"p0": [500, 500], "p1": [1200, 500]}', truth)
    assert off.parse_error is None and "off screen" in off.action_error
    edge = read_answer('{"p0": [0, 0], "p1": [1000, 1000]}', truth)
    assert edge.performable and edge.p1 == (1279.5, 719.5)  # the closed edge: last pixel
