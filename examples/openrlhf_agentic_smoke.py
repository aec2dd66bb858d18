"""OpenRLHF's own multi-turn executor playing live FineState sessions through the agent file.

    python examples/openrlhf_agentic_smoke.py --smoke    # what make test runs (CPU, ~20 s)

The agent file (examples/agentic/openrlhf_agent_func.py) is loaded by OpenRLHF's own
`_load_agent_executor`, and the N samples of a prompt are gathered by OpenRLHF's own
`RolloutRayActor.generate_responses`: both are read from openrlhf/trainer/ray/vllm_engine.py
and run as they are written (importing that module needs vLLM and a GPU). Each sample is
OpenRLHF's `MultiTurnAgentExecutor.execute` (the installed class) over a live session.
Only the engine is a stand-in: `ScriptedEngine.generate` answers as vLLM's does (the
reply's token ids end with the EOS token, its text does not; `finish_reason`, per-token
`logprobs`, the `max_tokens` budget), from a script per sample, told apart by its first
reply, so that the gathered samples may call it in any order.

The row is `finestate export-rl --max-actions 3`'s openrlhf row (one slider; its label the
session task, its prompt the session's first turn, its screenshot as `datasets` decodes
it); OpenRLHF's preprocess_data templates it with a tiny Qwen2.5-VL processor
(examples/tiny_vlm.py), as its PromptDataset does.

Cases: the group (4 samples: wrong, right, done -> 1.0; never right -> 0.0; right, done ->
1.0; unreadable, then gestures run out -> 0.0); a sample cut by OpenRLHF's length budget
(judged as it stands); a row whose image is not the label's screen (refused); and, on the
fake backend, a renderer crash that leaves an episode unjudged (run again; past the reruns
allowed, an error). One JSON line last.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import hashlib
import importlib.metadata
import itertools
import json
import os
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

HERE = Path(__file__).resolve().parent
AGENT_FILE = HERE / "agentic" / "openrlhf_agent_func.py"
SMOKE_MAX_PIXELS = 128 * 28 * 28
MAX_ACTIONS = 3
GROUP_SIZE = 4
LOGPROB = -0.25  # every scripted token's log-probability


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", required=True,
                        help="the only mode: the cases above, then a JSON line")
    parser.parse_args()
    print(json.dumps(smoke()))


# -- OpenRLHF's engine-side code, read from its file ----------------------------------
def openrlhf_engine_code() -> dict[str, Any]:
    """`_load_agent_executor` and `RolloutRayActor.generate_responses` from OpenRLHF's
    vllm_engine.py, compiled from its own source with the names they use."""
    import openrlhf
    from openrlhf.utils.agent import AgentExecutorBase

    path = Path(openrlhf.__path__[0]) / "trainer" / "ray" / "vllm_engine.py"
    tree = ast.parse(path.read_text())
    loader = next(node for node in tree.body
                  if isinstance(node, ast.FunctionDef) and node.name == "_load_agent_executor")
    actor = next(node for node in tree.body
                 if isinstance(node, ast.ClassDef) and node.name == "RolloutRayActor")
    gather = next(node for node in actor.body if isinstance(node, ast.AsyncFunctionDef)
                  and node.name == "generate_responses")
    namespace: dict[str, Any] = {"AgentExecutorBase": AgentExecutorBase, "asyncio": asyncio}
    exec(compile(ast.Module(body=[loader, gather], type_ignores=[]), str(path), "exec"),
         namespace)
    return {"load": namespace["_load_agent_executor"],
            "generate_responses": namespace["generate_responses"], "path": str(path)}


@dataclass
class SamplingParams:
    """What the executor reads of vLLM's SamplingParams (vLLM is not installed here)."""

    max_tokens: int | None = None
    logprobs: int | None = 1  # OpenRLHF asks for 1 when its correction is on
    temperature: float = 1.0


class ScriptedEngine:
    """Stands in for OpenRLHF's RolloutRayActor: `executor` is what its loader made,
    `generate_responses` is its own method (set from its source), `generate` answers as
    vLLM does, from `scripts` (one a sample: the replies of its turns)."""

    def __init__(self, executor: Any, processor: Any, prompt_ids: list[int],
                 scripts: list[list[str]]) -> None:
        self.executor = executor
        self.tokenizer = processor.tokenizer
        self.prompt_ids = prompt_ids
        self.scripts = scripts
        self._next = itertools.cycle(range(len(scripts)))  # a new conversation's script
        self.calls: list[dict] = []

    def encode(self, text: str) -> list[int]:
        return self.tokenizer.encode(text, add_special_tokens=False)

    def script_of(self, prompt_token_ids: list[int]) -> int:
        start = len(self.prompt_ids)
        if list(prompt_token_ids) == self.prompt_ids:
            return next(self._next)
        for index, script in enumerate(self.scripts):
            first = self.encode(script[0]) + [self.tokenizer.eos_token_id]
            if list(prompt_token_ids[start:start + len(first)]) == first:
                return index
        raise AssertionError("a conversation no script began")

    async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
        import numpy as np

        await asyncio.sleep(0)  # an engine answers later: the other samples go on
        script = self.script_of(prompt_token_ids)
        start_ids = self.tokenizer.convert_tokens_to_ids(["<|im_start|>"])[0]
        turn = list(prompt_token_ids[len(self.prompt_ids):]).count(start_ids) // 2
        reply = self.scripts[script][turn]
        token_ids = self.encode(reply) + [self.tokenizer.eos_token_id]
        finish, text = "stop", reply  # vLLM leaves the stop token out of the text
        if len(token_ids) > sampling_params.max_tokens:
            token_ids = token_ids[:sampling_params.max_tokens]
            finish, text = "length", self.tokenizer.decode(token_ids)
        images = (multi_modal_data or {}).get("image", [])
        vision_start = self.tokenizer.convert_tokens_to_ids("<|vision_start|>")
        self.calls.append({
            "script": script, "turn": turn, "images": len(images),
            "placeholders": list(prompt_token_ids).count(vision_start),
            "sizes": [list(image.size) for image in images],
            "digests": [hashlib.sha256(np.asarray(image.convert("RGB")).tobytes()).hexdigest()
                        for image in images],
            "max_tokens": sampling_params.max_tokens})
        logprobs = [{token: SimpleNamespace(logprob=LOGPROB)} for token in token_ids]
        return SimpleNamespace(outputs=[SimpleNamespace(
            token_ids=token_ids, text=text, finish_reason=finish, logprobs=logprobs)])


# -- the row's replies ------------------------------------------------------------
def gestures(label: str) -> dict[str, str]:
    """Replies in the task's convention: the right drag (from where the control shows its
    state to where it shows the goal), and clicks far from the control."""
    from finestate_env.sessions import SessionTask

    truth = SessionTask.read(label).ground_truth
    (fw, fh), size = (truth.frame.width, truth.frame.height), truth.instance.size
    assert truth.coords == "pixel"

    def point(box: Any) -> list[float]:
        x0, y0, x1, y1 = box
        return [round((x0 + x1) / 2 * fw / size.width, 2),
                round((y0 + y1) / 2 * fh / size.height, 2)]

    boxes = truth.instance.boxes.current
    return {"right": json.dumps({"p0": point(boxes.now), "p1": point(boxes.goal)}),
            "wrong": json.dumps({"p0": [4, 4], "p1": [4, 4]}),
            "wrong2": json.dumps({"p0": [6, fh - 6], "p1": [6, fh - 6]}),
            "unreadable": "I am not sure where to press."}


def group_scripts(replies: dict[str, str]) -> dict[str, list[str]]:
    return {"wrong_right_done": [replies["wrong"], replies["right"], "done"],
            "never_right": [replies["wrong2"], replies["wrong"], "done"],
            "right_done": [replies["right"], "done"],
            "unreadable_then_out": [replies["unreadable"], replies["wrong"], replies["wrong2"]]}


# -- checks of one response -----------------------------------------------------------
def response_summary(response: dict, processor: Any, name: str, scripts: dict) -> dict:
    """What the executor returned, and the checks that need the processor: its tokens are
    the model's chat template rendering the same conversation."""
    tokenizer = processor.tokenizer
    tokens = response["observation_tokens"]
    replies = [tokenizer.decode(tokens[a:b], skip_special_tokens=False)
               for a, b in response["action_ranges"]]
    mm = response["mm_train_inputs"] or {}
    grid = mm.get("image_grid_thw")
    grid_rows = [] if grid is None else grid.tolist()
    merge = processor.image_processor.merge_size ** 2
    pad = tokenizer.convert_tokens_to_ids("<|image_pad|>")
    vision_start = tokenizer.convert_tokens_to_ids("<|vision_start|>")
    # the user turns between the replies, and the conversation as the model's chat
    # template writes it with those texts, one screenshot a user turn
    said = [reply.removesuffix(tokenizer.eos_token) for reply in replies]
    ranges = response["action_ranges"]
    between = [collapse(tokenizer.decode(tokens[end:start], skip_special_tokens=False))
               for (_, end), (start, _) in itertools.pairwise(ranges)]
    turn_texts = [re.search(r"<\|vision_end\|>(.*?)<\|im_end\|>", text, re.DOTALL).group(1)
                  for text in between]
    first_text = response["prompt"].split("<|vision_end|>", 1)[1].split("<|im_end|>", 1)[0]
    conversation = [{"role": "user", "content": [{"type": "image"},
                                                 {"type": "text", "text": first_text}]}]
    for index, reply in enumerate(said):
        conversation.append({"role": "assistant", "content": reply})
        if index < len(turn_texts):
            conversation.append({"role": "user", "content": [
                {"type": "image"}, {"type": "text", "text": turn_texts[index]}]})
    rendered = processor.apply_chat_template(conversation, tokenize=False)
    decoded = collapse(tokenizer.decode(tokens, skip_special_tokens=False))
    logprobs = response["rollout_log_probs"]
    action_tokens = sum(b - a for a, b in response["action_ranges"])
    return {
        "script": name, "replies": said, "expected_replies": scripts[name],
        "feedback": between, "turn_texts": turn_texts,
        "reward": response["reward"], "scores": float(response["scores"]),
        "extra_logs": response["extra_logs"], "truncated": response["truncated"],
        "images_in_inputs": len(grid_rows),
        "placeholders": tokens.count(vision_start),
        "image_pad_tokens": tokens.count(pad),
        "image_pad_expected": sum(t * h * w // merge for t, h, w in grid_rows),
        "chat_template_equal": decoded + "\n" == rendered,
        "replies_end_with_eos": all(tokens[b - 1] == tokenizer.eos_token_id
                                    for _, b in response["action_ranges"]),
        "logprobs_aligned": logprobs is not None and len(logprobs) == len(tokens),
        "logprob_sum_ok": logprobs is not None and abs(sum(logprobs) - LOGPROB * action_tokens)
        < 1e-6,
        "label_echoed": response["label"] is not None,
    }


def collapse(text: str) -> str:
    """A decoded text with each image's run of pad tokens as one placeholder."""
    return re.sub(r"(<\|image_pad\|>)+", "<|image_pad|>", text)


def script_name(response: dict, processor: Any, scripts: dict) -> str:
    first = response["action_ranges"][0]
    reply = processor.tokenizer.decode(response["observation_tokens"][first[0]:first[1]],
                                       skip_special_tokens=False)
    reply = reply.removesuffix(processor.tokenizer.eos_token)
    [name] = [name for name, script in scripts.items() if script[0] == reply]
    return name


# -- the smoke --------------------------------------------------------------------------
def smoke() -> dict:
    started = time.perf_counter()
    os.environ.setdefault("FINESTATE_OPENRLHF_MAX_SESSIONS", str(GROUP_SIZE))
    sys.path.insert(0, str(HERE))
    import datasets
    import numpy as np
    import tiny_vlm
    from openrlhf.datasets.prompts_dataset import preprocess_data
    from openrlhf.utils.agent import MultiTurnAgentExecutor
    from openrlhf.utils.vlm_utils import process_prompt_with_images
    from PIL import Image

    from finestate_env.agentic import openrlhf as adapter
    from finestate_env.agents.vlm_prompt import turn_prompt
    from finestate_env.rewards.export import export_rl

    openrlhf_code = openrlhf_engine_code()
    with tempfile.TemporaryDirectory(prefix="finestate-openrlhf-agentic-") as tmp:
        export_rl(tmp, n=1, seed=0, component=["slider"], scene="control",
                  max_pixels=SMOKE_MAX_PIXELS, trainers=["openrlhf"], max_actions=MAX_ACTIONS)
        [row] = datasets.load_dataset(
            "parquet", data_files=str(Path(tmp) / "openrlhf" / "train.parquet"))["train"]
    replies = gestures(row["label"])
    scripts = group_scripts(replies)
    processor = tiny_vlm.processor(
        [row["prompt"][0]["content"], turn_prompt(""), *replies.values(), "done"]
        + [json.dumps({"p0": [i, 2 * i], "p1": [i + 0.5, i]}) for i in range(200)],
        SMOKE_MAX_PIXELS)
    # as OpenRLHF's PromptDataset makes a sample: --data.apply_chat_template, the
    # <image> tag made an image part; the image column as `datasets` decodes it
    prompt, label = preprocess_data(row, None, "prompt", "label", processor.apply_chat_template)
    images = row["images"]
    prompt_ids, _, _ = process_prompt_with_images(processor, prompt, images)

    executor = openrlhf_code["load"](str(AGENT_FILE))  # OpenRLHF's loader on our file
    pool = adapter.config_pool(executor.config)
    summary: dict[str, Any] = {
        "library": "openrlhf", "version": importlib.metadata.version("openrlhf"),
        "oracle_actions": row["extra_info"]["oracle_actions"],
        "engine_code": openrlhf_code["path"],
        "executor_mro": [f"{c.__module__}.{c.__qualname__}" for c in type(executor).__mro__],
        "is_openrlhf_executor": isinstance(executor, MultiTurnAgentExecutor),
        "max_sessions": pool.max_sessions, "prompt_tokens": len(prompt_ids),
        "feedback": executor._feedback_turn(processor).text(turn_prompt(""), 1, "<|im_end|>"),
    }

    async def gathered(engine: ScriptedEngine, n: int, max_length: int, row_images: Any):
        # OpenRLHF's own RolloutRayActor.generate_responses, `self` the stand-in
        return await openrlhf_code["generate_responses"](
            engine, prompt=prompt, label=label, sampling_params=SamplingParams(),
            max_length=max_length, hf_tokenizer=processor, num_samples=n, images=row_images)

    # the group: GROUP_SIZE samples of one prompt, gathered
    engine = ScriptedEngine(executor, processor, prompt_ids, list(scripts.values()))
    group_started = time.perf_counter()
    responses = asyncio.run(gathered(engine, GROUP_SIZE, 4096, images))
    summary["group_s"] = round(time.perf_counter() - group_started, 2)
    names = list(scripts)
    summary["group"] = [response_summary(r, processor, script_name(r, processor, scripts),
                                         scripts) for r in responses]
    summary["calls"] = [{**call, "script": names[call["script"]]} for call in engine.calls]
    summary["open_after_group"] = pool.open_sessions

    # the screen a session shows after the right drag is the one the engine was shown
    with_right = next(c for c in summary["calls"] if c["script"] == "right_done" and c["turn"] == 1)
    check = pool.open(label)
    try:
        first_digest = hashlib.sha256(np.ascontiguousarray(check.observe().pixels)
                                      .tobytes()).hexdigest()
        check.act_text(replies["right"])
        after_right = hashlib.sha256(np.ascontiguousarray(check.observe().pixels)
                                     .tobytes()).hexdigest()
    finally:
        check.close()
    summary["screens"] = {"first": first_digest, "after_right": after_right,
                          "engine_saw": with_right["digests"],
                          "row_image": hashlib.sha256(np.asarray(images[0].convert("RGB"))
                                                      .tobytes()).hexdigest()}

    # cut by OpenRLHF's length budget after the first reply: judged as it stands
    cut_engine = ScriptedEngine(executor, processor, prompt_ids, [scripts["right_done"]])
    budget = len(prompt_ids) + len(cut_engine.encode(replies["right"])) + 1 + 8
    [cut] = asyncio.run(gathered(cut_engine, 1, budget, images))
    summary["cut"] = {"reward": cut["reward"], "scores": float(cut["scores"]),
                      "extra_logs": cut["extra_logs"], "calls": len(cut_engine.calls),
                      "tokens": len(cut["observation_tokens"]), "max_length": budget}

    # a row whose image is not its label's screen is refused, its session closed
    refused = {}
    for name, wrong_image in (("pixels", Image.fromarray(np.asarray(images[0])[::-1].copy())),
                              ("size", images[0].resize((640, 360)))):
        try:
            asyncio.run(gathered(ScriptedEngine(executor, processor, prompt_ids,
                                                [scripts["right_done"]]), 1, 4096,
                                 [wrong_image]))
            refused[name] = None
        except adapter.FirstScreenMismatch as exc:
            refused[name] = str(exc)
    summary["refused"] = refused
    summary["open_after_refused"] = pool.open_sessions

    summary["unjudged"] = unjudged_case(openrlhf_code, adapter, processor)
    summary["open_at_end"] = pool.open_sessions
    summary["wall_s"] = round(time.perf_counter() - started, 2)
    return summary


def unjudged_case(openrlhf_code: dict, adapter: Any, processor: Any) -> dict:
    """On the fake backend, a renderer crash at the first gesture, with no recovery left:
    the episode is unjudged. Once: the sample is run again; every time: an error."""
    from openrlhf.datasets.prompts_dataset import preprocess_data
    from openrlhf.utils.vlm_utils import process_prompt_with_images

    from finestate_env.agents.vlm_prompt import session_prompt
    from finestate_env.sessions import SessionPool, SessionTask

    class CrashingPool(SessionPool):
        """Its first `crashes` sessions crash at their first gesture, past recovery."""

        def __init__(self, crashes: int) -> None:
            super().__init__(max_sessions=2, backend="fake")
            self.crashes, self.opened = crashes, 0

        def open(self, task: Any):
            session = super().open(task)
            self.opened += 1
            if self.opened <= self.crashes:
                session._env.recoveries = 0  # the env's own crash path, with no retry
                session._env.backend.crash()
            return session

    task = SessionTask(seed=3, component="slider", max_actions=MAX_ACTIONS).text()
    out = {}
    for crashes, reruns in ((1, 2), (2, 1)):
        with CrashingPool(crashes) as pool:
            probe = SessionPool(max_sessions=1, backend="fake")
            with probe:
                first = probe.open(task)
                screen = first.observe()
                image, frame = screen.image(), first.frame
            row = {"prompt": [{"role": "user", "content": "<image>" + session_prompt(
                screen.instruction, "pixel", frame, MAX_ACTIONS)}], "label": task}
            prompt, label = preprocess_data(row, None, "prompt", "label",
                                            processor.apply_chat_template)
            prompt_ids, _, _ = process_prompt_with_images(processor, prompt, [image])
            executor = adapter.FineStateAgentExecutor(
                adapter.FineStateAgentInstance,
                adapter.OpenRLHFConfig(unjudged_reruns=reruns), pool=pool)
            click = json.dumps({"p0": [4, 4], "p1": [4, 4]})
            engine = ScriptedEngine(executor, processor, prompt_ids, [[click, "done"]])
            try:
                [response] = asyncio.run(openrlhf_code["generate_responses"](
                    engine, prompt=prompt, label=label, sampling_params=SamplingParams(),
                    max_length=4096, hf_tokenizer=processor, num_samples=1, images=[image]))
                result = {"reward": response["reward"], "extra_logs": response["extra_logs"]}
            except adapter.UnjudgedEpisode as exc:
                result = {"error": str(exc)}
            out[f"crashes_{crashes}_reruns_{reruns}"] = {
                **result, "sessions_opened": pool.opened, "open_after": pool.open_sessions,
                "engine_calls": len(engine.calls)}
    return out


if __name__ == "__main__":
    main()
