"""The OpenAI-compatible VLM agent, end to end, against a loopback test double of the API.

`FakeChatAPI` is an HTTP server on 127.0.0.1 that speaks the chat-completions
protocol (the remote API cannot exist here); everything on our side runs for
real: the `openai` client with its retries, the cache, the prompt, the parser,
the CLI, and Chromium for the live runs.
"""

from __future__ import annotations

import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from fake_chat_api import USAGE, FakeChatAPI
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from finestate_env.agents.answers import parse_detection, parse_points
from finestate_env.agents.vda import format_coord
from finestate_env.agents.vlm_agent import VLMAgent
from finestate_env.agents.vlm_client import ChatClient, ResponseCache
from finestate_env.agents.vlm_prompt import known_models, known_profile, profile_for
from finestate_env.core import scoring
from finestate_env.core.coords import box_center
from finestate_env.core.schema import Instance
from finestate_env.datasets.formats import read_predictions

SECRET = "sk-test-3f9a1c77e2b04d5e8a61secret"
KEY_ENV = "FINESTATE_TEST_API_KEY"


def task_of(prompt: str) -> str:
    return re.search(r"Task: (.*)", prompt).group(1)


@pytest.fixture()
def api():
    server = FakeChatAPI()
    yield server
    server.close()


@pytest.fixture(scope="module")
def instances_file(tmp_path_factory, env_for):
    """Three real instances (switch, date_picker, slider) with their screenshots as PNG."""
    folder = tmp_path_factory.mktemp("instances")
    (folder / "images").mkdir()
    lines = []
    instances = []
    for component, seed in (("switch", 0), ("date_picker", 1), ("slider", 2)):
        obs, info = env_for(component).reset(seed=seed)
        instance = Instance.model_validate_json(info["instance"])
        image = f"images/{instance.id}.png"
        Image.fromarray(obs["screenshot"]).save(folder / image)
        instance = instance.model_copy(update={"image": image})
        instances.append(instance)
        lines.append(instance.model_dump_json())
    (folder / "instances.jsonl").write_text("\n".join(lines) + "\n")
    return folder / "instances.jsonl", instances


def finestate(*args: str, key: str | None = SECRET) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", KEY_ENV)}
    if key is not None:
        env[KEY_ENV] = key
    return subprocess.run([sys.executable, "-m", "finestate_env.cli", *args], env=env,
                          capture_output=True, text=True, timeout=300)


def assert_no_secret(result: subprocess.CompletedProcess, folder: Path) -> None:
    assert SECRET not in result.stdout and SECRET not in result.stderr
    for path in folder.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path


def centre(box) -> list[float]:
    return list(box_center(box))


# -- parsing: pure, property-tested ------------------------------------------------------

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)
FORMATS = [
    lambda a, b: json.dumps({"p0": a, "p1": b}),
    lambda a, b: "Sure.\n```json\n" + json.dumps({"p0": a, "p1": b}, indent=2) + "\n```",
    lambda a, b: json.dumps({"action": {"locate": {"x": a[0], "y": a[1]}, "interact": b}}),
    lambda a, b: f"p0: ({a[0]!r}, {a[1]!r})\np1: ({b[0]!r}, {b[1]!r})",
    lambda a, b: f"Press at [{a[0]!r}, {a[1]!r}] and release at [{b[0]!r}, {b[1]!r}].",
    lambda a, b: json.dumps([a, b]),
    lambda a, b: f'{{"p0": "({a[0]!r}, {a[1]!r})", "p1": "{b[0]!r}, {b[1]!r}"}}',
]


@pytest.mark.fast
@given(st.tuples(finite, finite), st.tuples(finite, finite),
       st.sampled_from(range(len(FORMATS))))
def test_every_answer_shape_gives_back_the_points_exactly(p0, p1, shape):
    parsed = parse_points(FORMATS[shape](list(p0), list(p1)))
    assert (parsed.p0, parsed.p1, parsed.error) == (p0, p1, None)


@pytest.mark.fast
@given(st.text(max_size=300))
def test_any_text_parses_without_raising_to_finite_points_or_a_reason(text):
    parsed = parse_points(text)
    for point in (parsed.p0, parsed.p1):
        assert point is None or all(math.isfinite(v) for v in point)
    assert (parsed.p0 is not None and parsed.p1 is not None) or parsed.error


@pytest.mark.fast
def test_unreadable_and_partial_answers_say_why():
    assert parse_points("I cannot find the slider.").error.startswith("no point found")
    nan = parse_points('{"p0": [NaN, 3], "p1": [1, 2]}')
    assert nan.p0 is None and nan.p1 == (1.0, 2.0) and "p0" in nan.error
    one = parse_points("Click (412, 77).")
    assert (one.p0, one.p1, one.error) == ((412.0, 77.0), (412.0, 77.0), None) and one.note
    box = parse_points('{"p0": [10, 20, 30, 40], "p1": [1, 2]}')
    assert box.p0 == (20.0, 30.0)  # a box where a point was asked: its centre


@pytest.mark.fast
@given(st.tuples(finite, finite, finite, finite))
def test_detections_give_back_an_ordered_box(box):
    parsed = parse_detection(json.dumps({"description": "the Wi-Fi switch", "box": list(box)}))
    x1, y1, x2, y2 = box
    assert parsed.box == (min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))
    assert parsed.description == "the Wi-Fi switch" and parsed.error is None


@pytest.mark.fast
def test_profiles_name_the_convention():
    assert profile_for("gpt-4o").coords == "pixel"
    assert profile_for("Qwen/Qwen2.5-VL-7B-Instruct").coords == "pixel"
    assert profile_for("bytedance/UI-TARS-1.5-7B").coords == "1000"
    assert profile_for("showlab/ShowUI-2B").coords == "normalized"
    assert profile_for("gpt-4o", coords="1000").coords == "1000"


@pytest.mark.fast
@pytest.mark.parametrize("model,names", [
    ("Qwen/Qwen3.5-9B", "qwen3.5, qwen3.6"), ("Qwen/Qwen3.5-397B-A17B", "qwen3.5, qwen3.6"),
    ("qwen3_5_nothink", "qwen3.5, qwen3.6"), ("Qwen/Qwen3.6-35B-A3B", "qwen3.5, qwen3.6"),
    ("google/gemma-4-E4B-it", "gemma-4"), ("google/gemma-4-31B-it", "gemma-4"),
    ("gemma4", "gemma-4")])
def test_the_tool_calling_vlms_ground_on_the_1000_grid(model, names):
    # TRL's multi-turn tools take Qwen3-VL, Qwen3.5/3.6 and Gemma 4 (agentic/trl.py)
    profile = known_profile(model)
    assert profile is not None and (profile.coords, profile.names) == ("1000", names)
    assert profile.answer_frame((1280, 720)) == (1280, 720)  # no processor frame on a grid
    assert "1000" in profile.why


@pytest.mark.fast
def test_the_new_profiles_leave_their_neighbours_alone():
    assert profile_for("Qwen/Qwen3-VL-4B-Instruct").names == "qwen3-vl"
    assert known_profile("Qwen/Qwen3-8B") is None  # a text model, not Qwen3.5's "3.5"
    assert profile_for("google/gemma-3-4b-it").coords == "pixel"  # Gemma 3: the catch-all
    assert profile_for("google/gemini-2.5-pro").coords == "1000"
    assert profile_for("Qwen/Qwen2.5-VL-7B-Instruct").coords == "pixel"
    assert "qwen3.5, qwen3.6 (1000); gemma-4 (1000)" in known_models()


# -- the client: retries, cache, usage, the key -------------------------------------------

def test_eval_end_to_end_retries_caches_and_never_shows_the_key(api, instances_file, tmp_path):
    path, instances = instances_file
    switch, date, slider = instances
    goal = {inst.instructions.interact: centre(inst.boxes.current.goal) for inst in instances}
    now = {inst.instructions.interact: centre(inst.boxes.current.now) for inst in instances}
    answers = {
        switch.instructions.interact: lambda t: "```json\n" + json.dumps(
            {"p0": now[t], "p1": goal[t]}) + "\n```",
        date.instructions.interact: lambda t: "p0: ({}, {})\np1: ({}, {})".format(
            *now[t], *goal[t]),
        slider.instructions.interact: lambda t: "The slider is not visible to me.",
    }
    api.answer = lambda prompt: answers[task_of(prompt)](task_of(prompt))
    # a rate limit with a server-directed wait, then a server error with none
    api.script.extend([("status", 429, {"retry-after-ms": "20"}), ("status", 500, {})])
    out = tmp_path / "run"
    args = ("eval", "--agent", "openai", "--model", "gpt-4o", "--base-url", api.url,
            "--api-key-env", KEY_ENV, "--instances", str(path), "--out", str(out))
    result = finestate(*args)
    assert result.returncode == 0, result.stderr
    assert len(api.requests) == 5  # 3 answers + 2 retried failures
    assert {r["headers"]["authorization"] for r in api.requests} == {f"Bearer {SECRET}"}

    predictions = read_predictions(out / "predictions.jsonl").items
    assert [p.id for p in predictions] == [i.id for i in instances]
    assert predictions[0].p0 == tuple(now[switch.instructions.interact])
    assert predictions[0].p1 == tuple(goal[switch.instructions.interact])
    assert predictions[1].p1 == tuple(goal[date.instructions.interact])
    assert predictions[2].p0 is None and predictions[2].p1 is None
    assert predictions[2].parse_error.startswith("no point found")
    assert {p.coords for p in predictions} == {"pixel"} and predictions[0].model == "gpt-4o"
    usage = json.loads((out / "usage.json").read_text())
    assert (usage["requests"], usage["cached"], usage["retries"]) == (3, 0, 2)
    assert usage["tokens"]["total_tokens"] == 3 * USAGE["total_tokens"]
    summary = json.loads((out / "summary.json").read_text())
    static = summary["arms"]["no-vda"]["static"]
    assert (static["es_sr_int"], static["n"], static["missing"]) == (2 / 3, 3, 1)
    assert len(list((out / "cache").glob("*.json"))) == 3

    # The rerun is free: every answer comes from the cache, with the same tokens.
    again = finestate(*args)
    assert again.returncode == 0, again.stderr
    assert len(api.requests) == 5
    usage = json.loads((out / "usage.json").read_text())
    assert (usage["requests"], usage["cached"]) == (0, 3)
    assert usage["tokens"]["total_tokens"] == 3 * USAGE["total_tokens"]
    assert usage["new_tokens"]["total_tokens"] == 0
    rerun = read_predictions(out / "predictions.jsonl").items
    assert [(p.p0, p.p1, p.answer) for p in rerun] == [(p.p0, p.p1, p.answer)
                                                       for p in predictions]
    assert_no_secret(result, out)
    assert_no_secret(again, out)


def test_an_interrupted_eval_keeps_its_answers_and_resumes(api, instances_file, tmp_path):
    path, instances = instances_file
    api.script.extend([("text", '{"p0": [1, 2], "p1": [3, 4]}')] + [("status", 500, {})] * 2)
    out = tmp_path / "run"
    args = ("eval", "--model", "gpt-4o", "--base-url", api.url, "--api-key-env", KEY_ENV,
            "--max-retries", "1", "--instances", str(path), "--out", str(out))
    failed = finestate(*args)
    assert failed.returncode == 1
    assert "HTTP 500" in failed.stderr and "resumes" in failed.stderr
    assert "Traceback" not in failed.stderr
    kept = read_predictions(out / "predictions.jsonl").items
    assert [(p.id, p.p0, p.p1) for p in kept] == [(instances[0].id, (1.0, 2.0), (3.0, 4.0))]
    assert len(api.requests) == 3  # one answer, one request tried twice

    resumed = finestate(*args)
    assert resumed.returncode == 0, resumed.stderr
    assert len(api.requests) == 5  # only the two unanswered instances were asked
    assert [p.id for p in read_predictions(out / "predictions.jsonl").items] == [
        i.id for i in instances]
    usage = json.loads((out / "usage.json").read_text())
    assert (usage["requests"], usage["cached"]) == (2, 1)
    assert_no_secret(failed, out)
    assert_no_secret(resumed, out)


def test_a_refused_request_stops_with_the_status_and_no_key(api, instances_file, tmp_path):
    path, _ = instances_file
    api.script.append(("status", 401, {}))
    result = finestate("eval", "--model", "gpt-4o", "--base-url", api.url, "--api-key-env",
                       KEY_ENV, "--instances", str(path), "--out", str(tmp_path / "run"))
    assert result.returncode == 1 and "HTTP 401" in result.stderr
    assert len(api.requests) == 1  # an authentication error is not retried
    assert_no_secret(result, tmp_path)


def test_a_hosted_model_without_a_key_is_a_clear_error(instances_file, tmp_path):
    path, _ = instances_file
    result = finestate("eval", "--model", "gpt-4o", "--api-key-env", KEY_ENV, "--instances",
                       str(path), "--out", str(tmp_path / "run"), key=None)
    assert result.returncode == 2
    assert f"set the environment variable {KEY_ENV}" in result.stderr


@pytest.mark.fast
def test_cache_keys_follow_model_messages_and_params():
    messages = [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    key = ResponseCache.key("m", messages, {"temperature": 0.0})
    assert key == ResponseCache.key("m", json.loads(json.dumps(messages)), {"temperature": 0.0})
    assert key != ResponseCache.key("m2", messages, {"temperature": 0.0})
    assert key != ResponseCache.key("m", messages, {"temperature": 0.5})
    assert key != ResponseCache.key("m", [{"role": "user", "content": "hi!"}],
                                    {"temperature": 0.0})


# -- VDA hints in the prompt -------------------------------------------------------------

@pytest.mark.parametrize("model,parts", [("gpt-4o", "both"), ("ui-tars-1.5", "box"),
                                         ("gpt-4o", "description")])
def test_oracle_hints_reach_the_prompt_in_the_models_convention(api, instances_file, tmp_path,
                                                                monkeypatch, model, parts):
    path, instances = instances_file
    monkeypatch.setenv(KEY_ENV, SECRET)
    chat = ChatClient(model, base_url=api.url, api_key_env=KEY_ENV, cache_dir=tmp_path)
    agent = VLMAgent(chat, vda="oracle", vda_parts=parts)
    switch = instances[0]
    screenshot = np.asarray(Image.open(path.parent / switch.image))
    prediction = agent.predict(switch, screenshot)
    prompt = api.prompts()[-1]
    size = (switch.size.width, switch.size.height)
    core = switch.boxes.current.core
    coords = profile_for(model).coords
    if coords == "pixel":
        written = [format_coord(v, "pixel") for v in core]
        assert written == [str(int(v)) for v in core]  # whole pixels, as measured
    else:
        written = [format_coord(v / size[i % 2] * 1000, "1000") for i, v in enumerate(core)]
    box_sentence = f"Its bounding box is [{', '.join(written)}]"
    assert (box_sentence in prompt) == (parts in ("box", "both"))
    assert ("The control to operate is a switch" in prompt) == (parts in ("description",
                                                                          "both"))
    assert "0-1000 grid" in prompt if coords == "1000" else "pixels of the screenshot" in prompt
    assert prediction.vda == "oracle" and prediction.hint["box"] == list(core)


def test_model_vda_asks_the_detector_first_and_passes_its_hint_on(api, instances_file,
                                                                   tmp_path, monkeypatch):
    path, instances = instances_file
    monkeypatch.setenv(KEY_ENV, SECRET)
    api.script.extend([
        ("text", '{"description": "The Airplane mode switch, on", "box": [900, 170, 980, 200]}'),
        ("text", '{"p0": [940, 185], "p1": [940, 185]}')])
    chat = ChatClient("gpt-4o", base_url=api.url, api_key_env=KEY_ENV, cache_dir=tmp_path)
    agent = VLMAgent(chat, vda="model")
    switch = instances[0]
    screenshot = np.asarray(Image.open(path.parent / switch.image))
    prediction = agent.predict(switch, screenshot)
    detect, answer = api.prompts()
    assert "bounding box" in detect and "p0" not in detect
    assert task_of(answer) == switch.instructions.interact
    assert ("Assistant's hint about the target control: The Airplane mode switch, on "
            "Its bounding box is [900, 170, 980, 200] and its centre is (940, 185).") in answer
    assert prediction.hint["source"] == "model:gpt-4o" and prediction.p1 == (940.0, 185.0)
    assert chat.usage.requests == 2


def follow_the_hint(prompt: str) -> str:
    """The double's model: the hint's centre when there is one, else (5, 5), off every control."""
    match = re.search(r"its centre is \(([\d.]+), ([\d.]+)\)", prompt)
    point = [float(match.group(1)), float(match.group(2))] if match else [5, 5]
    return json.dumps({"p0": point, "p1": point})


def test_eval_with_oracle_hints_reports_static_delta_vis(api, instances_file, tmp_path):
    path, instances = instances_file
    api.answer = follow_the_hint
    out = tmp_path / "run"
    result = finestate("eval", "--model", "gpt-4o", "--base-url", api.url, "--api-key-env",
                       KEY_ENV, "--vda", "oracle", "--instances", str(path), "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert len(api.requests) == 6  # every instance with and without the hint
    hinted = read_predictions(out / "predictions.jsonl").items
    baseline = read_predictions(out / "baseline" / "predictions.jsonl").items
    assert [p.id for p in hinted] == [p.id for p in baseline] == [i.id for i in instances]
    assert all(p.vda == "oracle" and p.hint["source"] == "oracle" for p in hinted)
    assert all(p.vda == "none" and p.p1 == (5.0, 5.0) for p in baseline)
    # the centre of `core` reaches the goal box on some instances (switch: core == goal)
    expected = sum(scoring.point_in_box(box_center(i.boxes.current.core), i.boxes.current.goal)
                   for i in instances) / len(instances)
    assert expected > 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["arms"]["vda-oracle"]["static"]["es_sr_int"] == expected
    assert summary["arms"]["baseline"]["static"]["es_sr_int"] == 0.0
    assert summary["delta_vis"] == {"static": round(expected, 6), "with": "vda-oracle",
                                    "without": "baseline"}
    assert f"Δ_vis static (ES-SR@Int with hints - without): {expected:+.3f}" in result.stdout
    assert_no_secret(result, out)


# -- live: the same agent in the env -----------------------------------------------------

def test_live_run_with_oracle_hints_reports_delta_vis(api, tmp_path):
    """The double follows the hint's centre when there is one, else points at (5, 5):
    on switches (core == goal) that is success with hints and failure without."""
    api.answer = follow_the_hint
    out = tmp_path / "live"
    result = finestate("run", "--agent", "openai", "--model", "gpt-4o", "--base-url", api.url,
                       "--api-key-env", KEY_ENV, "--vda", "oracle", "--component", "switch",
                       "--episodes", "3", "--seed", "0", "--out", str(out))
    assert result.returncode == 0, result.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["live"]["overall"]["es_sr_int"] == 1.0
    assert summary["vda"]["with"] == {"live": 1.0, "static": 1.0}
    assert summary["vda"]["without"] == {"live": 0.0, "static": 0.0}
    assert summary["vda"]["delta_vis"] == {"live": 1.0, "static": 1.0}
    assert "Δ_vis live +1.000" in result.stdout
    assert len(api.requests) == 6  # 3 seeds, with and without the hint
    assert sum("Assistant's hint" in p for p in api.prompts()) == 3
    usage = json.loads((out / "usage.json").read_text())
    assert usage["requests"] == 3 and usage["baseline"]["requests"] == 3
    baseline = [json.loads(line) for line in (out / "baseline" / "results.jsonl").open()]
    hinted = [json.loads(line) for line in (out / "results.jsonl").open()]
    assert [r["id"] for r in baseline] == [r["id"] for r in hinted]  # the same instances
    assert [r["success"] for r in baseline] == [False] * 3
    assert_no_secret(result, out)
