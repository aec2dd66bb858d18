"""Reading and scoring are total (#44): whatever a model in training emits, in whatever shape a
trainer hands it over, reading its answer never raises, takes bounded time, and scores a
reward in [0, 1] (or None with `unjudged`), a bad one being 0.0 with its `parse_error`.
Property tests over generated JSON of any depth, text, numbers and chat structures, and the
hostile answers the issue met. No browser: the box mode scores from the row alone."""

from __future__ import annotations

import json
import math
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from finestate_env.agents.answers import MAX_ANSWER_CHARS, MAX_JSON_DEPTH, parse_points
from finestate_env.rewards import RewardScorer, ground_truth
from finestate_env.rewards.completions import read_answer
from finestate_env.rewards.scorer import TooLarge, score_group
from tests.rewards.test_reading import make_instance

pytestmark = pytest.mark.fast

TRUTH = ground_truth(make_instance(), "pixel")

numbers = st.one_of(st.integers(), st.floats(allow_nan=True, allow_infinity=True),
                    st.integers(min_value=10 ** 40, max_value=10 ** 60),
                    st.sampled_from([0, 1280, 720, -1, 1e308, -1e308, 5e-324]))
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), numbers, st.text(max_size=20)),
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.sampled_from(["p0", "p1", "point", "x", "y", "action", "text",
                                         "type", "content", "role", "coordinate", "box"]),
                        children, max_size=4)),
    max_leaves=40)
texts = st.one_of(
    st.text(max_size=300),
    json_values.map(lambda v: json.dumps(v, allow_nan=True)),
    st.builds(lambda a, b: f"<think>{a}</think>{b}", st.text(max_size=50),
              json_values.map(json.dumps)),
    st.builds(lambda a, b: f"p0: ({a}, {b}) p1: [{b}, {a}]", numbers, numbers),
    st.builds(lambda n, s: s * n, st.integers(0, 2000), st.sampled_from(
        ["[", "{", '{"p0":', "[0,", '"', "\\", "<answer>", "</think>", "(1,", "\x00"])),
)
parts = st.one_of(st.fixed_dictionaries({"type": st.just("text"), "text": json_values}),
                  st.fixed_dictionaries({"type": json_values, "text": texts}),
                  json_values, texts)
messages = st.fixed_dictionaries({"role": st.sampled_from(["assistant", "user", 3, None]),
                                  "content": st.one_of(texts, st.lists(parts, max_size=4),
                                                       json_values)})
completions = st.one_of(texts, json_values, st.lists(messages, max_size=4),
                        st.lists(parts, max_size=4), messages)


def check_read(answer) -> None:
    if answer.parse_error is None:
        points = [p for p in (answer.p0, answer.p1) if p is not None]
        assert all(math.isfinite(v) for point in points for v in point)
        if answer.action_error is None:
            assert len(points) == 2
            assert all(0 <= x <= 1280 and 0 <= y <= 720 for x, y in points)
        else:  # the points that are on the screen are kept
            assert answer.action_error
    else:
        assert answer.p0 is None and answer.p1 is None and answer.parse_error


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(completions)
def test_any_completion_is_read_without_raising(completion):
    check_read(read_answer(completion, TRUTH))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(completions, min_size=1, max_size=8))
def test_any_group_is_scored_each_alone_in_zero_to_one(group):
    scores = score_group(None, TRUTH, group, "box")
    assert len(scores) == len(group)
    for score, completion in zip(scores, group, strict=True):
        assert score.reward is not None and 0.0 <= score.reward <= 1.0
        assert score == score_group(None, TRUTH, [completion], "box")[0]  # alone, the same
        if score.parse_error is not None:
            assert score.reward == 0.0


def nested(depth: int) -> str:
    return '{"p0":' * depth + "[1, 2]" + "}" * depth


HOSTILE = {
    "nested 40 KB (the issue's)": nested(6000),
    "nested 100,000 deep": '{"p0":' * 10_000,
    "a runaway bracket": "[" * (MAX_ANSWER_CHARS - 1),
    "a runaway array": "[0," * (MAX_ANSWER_CHARS // 3),
    "runaway quotes": '["' * (MAX_ANSWER_CHARS // 2),
    "runaway backslashes": '["' + "\\" * (MAX_ANSWER_CHARS - 4) + '"]',
    "unclosed answer tags": "<answer>" * (MAX_ANSWER_CHARS // 8),
    "a 5,000-digit integer": '{"p0": [' + "9" * 5000 + ', 1], "p1": [1, 2]}',
    "a 5,000-digit pair": "(" + "7" * 5000 + ", 3) then (1, 2)",
    "NaN and Infinity": '{"p0": [NaN, 1], "p1": [Infinity, -Infinity]}',
    "numbers as words": '{"p0": ["one", "two"], "p1": ["three hundred", "four"]}',
    "control characters": "\x00\x01\x1b[2J" * 1000,
    "lone surrogates": "\ud800(1, 2)\udfff(3, 4)",
    "other scripts' digits": "(\u0661\u0662, \u0663) (\u0664, \u0665)",
    "over the length bound": " " * MAX_ANSWER_CHARS + '{"p0": [1, 2], "p1": [3, 4]}',
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_answers_are_read_in_bounded_time(name):
    started = time.perf_counter()
    answer = read_answer(HOSTILE[name], TRUTH)
    took = time.perf_counter() - started
    check_read(answer)
    # A gross bound (the worst here takes ~0.1 s on 2 cores): linear, never quadratic.
    assert took < 2.0, f"{name}: {took:.2f} s"


def test_what_the_hostile_answers_read_as():
    assert read_answer(HOSTILE["nested 40 KB (the issue's)"], TRUTH).parse_error
    assert "is not a pair of finite numbers" in read_answer(
        HOSTILE["a 5,000-digit integer"], TRUTH).parse_error
    assert read_answer(HOSTILE["over the length bound"], TRUTH).parse_error == (
        f"the answer is {MAX_ANSWER_CHARS + 28} characters long, more than the "
        f"{MAX_ANSWER_CHARS} read")
    # Only ASCII digits are numbers.
    assert read_answer(HOSTILE["other scripts' digits"], TRUTH).parse_error
    # JSON within the depth bound is read; deeper, its shallow parts still are.
    shallow = '{"a": ' * (MAX_JSON_DEPTH - 2) + '{"p0": [1, 2], "p1": [3, 4]}' + "}" * (
        MAX_JSON_DEPTH - 2)
    assert parse_points(shallow).p1 == (3.0, 4.0)
    deep = "[" * 50 + '{"p0": [1, 2], "p1": [3, 4]}' + "]" * 50
    assert parse_points(deep).p1 == (3.0, 4.0)


@pytest.mark.parametrize("completion, why", [
    ([{"role": "assistant", "content": [{"type": "text", "text": 12}]}],
     "message 0's content: part 0's text is int, not text"),
    ({"role": "assistant", "content": 3.5}, "the message's content is float"),
    (None, "a completion must be text or chat messages, got NoneType"),
    (42, "a completion must be text or chat messages, got int"),
    ([{"role": "user", "content": "(1, 2)"}], "the chat messages hold no assistant turn"),
])
def test_chat_parts_of_the_wrong_type_are_a_parse_error_naming_them(completion, why):
    assert read_answer(completion, TRUTH).parse_error.startswith(why)


def test_a_message_keeps_its_text_parts_and_leaves_out_the_others():
    completion = [{"role": "assistant", "content": [
        {"type": "image", "image": None}, {"type": "text", "text": None},
        {"type": "text", "text": '{"p0": [1, 2], '}, '"p1": [3, 4]}']}]
    answer = read_answer(completion, TRUTH)
    assert (answer.p0, answer.p1) == ((1.0, 2.0), (3.0, 4.0))


def test_a_submission_that_can_never_fit_is_refused_naming_the_bound():
    with RewardScorer("exact", workers=1, max_pending=4) as scorer:
        with pytest.raises(TooLarge, match=r"5 completions in one submission: the most this "
                                           r"scorer holds is 4 \(max_pending\)"):
            scorer.submit(TRUTH, ["(1, 2)"] * 5)
        assert scorer.status()["pending"] == 0
