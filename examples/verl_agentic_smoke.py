"""verl's own agent-loop worker running live FineState sessions, a scripted model replying.

    python examples/verl_agentic_smoke.py --smoke     # what make test runs (CPU, ~30 s)

What runs is verl 0.9.1's: the config composed by Hydra from its ppo_trainer.yaml, the
rows read by its RLHFDataset and collated into a DataProto, repeated per GRPO sample
(`repeat(n, interleave=True)`, as its trainer does), then `AgentLoopWorker` (the class
its AgentLoopManager runs as Ray actors) loading examples/agentic/verl_agent_loop.yaml,
instantiating finestate_env.agentic.verl.FineStateAgentLoop by the rows' `agent_name`
with hydra.utils.instantiate, gathering the samples on one event loop, and padding,
re-processing the images and scoring the outputs into the batch the trainer trains on.
Its model config is read from a tiny random Qwen2.5-VL saved here (examples/tiny_vlm.py),
so the Continuous Token builder is verl's Qwen-VL one, with the real processor.

Only two things are not verl's: the model, which cannot run here, is a scripted
`generate` returning verl's TokenOutput (the tokenizer's encoding of a scripted reply,
then the end-of-turn token, as vLLM returns it); and the dataset class, whose vision
step is qwen-vl-utils' resize done without importing torchvision (no CPU build for this
torch on PyPI), given to verl by its own `data.custom_cls`.

Two rows, three samples each: a slider row as export-rl writes multi-turn rows (the first
screenshot in the row, `extra_info.task` with 3 gestures) and a checkbox row holding only
a bare ground truth and a system message (the loop shows the first screen itself). Per
group: a miss then the right gesture then "done" (reward 1.0); a model that is never right
(reward 0.0), stopped by the task's 3 gestures or by verl's max_assistant_turns; the
right gesture again, written another way. Then two samples of the slider row under a
response budget that a second screen overflows (the right gesture is still performed; a
reply longer than the budget is cut and not performed), and one episode whose session ends
unjudged (simulated: a renderer that recovery cannot restore cannot be made on purpose),
which must raise through verl's worker and close its session. One JSON line last.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import hashlib
import json
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path

from verl.utils.dataset.rl_dataset import RLHFDataset

HERE = Path(__file__).resolve().parent
LOOP_CONFIG = HERE / "agentic" / "verl_agent_loop.yaml"
GROUP = 3  # rollout.n
PROMPT_LENGTH = RESPONSE_LENGTH = 768
# The budget run's response length: a reply, a screen and a reply fit, a second screen not.
TIGHT_RESPONSE_LENGTH = 140
MAX_ASSISTANT_TURNS = 3
# A reply longer than the tight budget, its gesture last (cut off, so never performed).
RAMBLING = ("Let me look at every control on this page once more, compare the labels with "
            "the task, and be careful about which one moves. ") * 6
MAX_PIXELS = 64 * 28 * 28  # the tiny processor's budget: about 64 image tokens a screen
MISS = '{"p0": [4, 4], "p1": [4, 4]}'  # a click in the page's corner, on no control
SYSTEM = "You are a careful GUI agent."
# qwen-vl-utils' bounds on what it hands the processor (its fetch_image).
QWEN_VL_UTILS_MIN_PIXELS, QWEN_VL_UTILS_MAX_PIXELS = 4 * 28 * 28, 16384 * 28 * 28


class NoTorchvisionDataset(RLHFDataset):
    """verl's RLHFDataset, with qwen-vl-utils' image step (RGB, smart_resize to the
    processor's grid, as its fetch_image does) done here: qwen-vl-utils imports
    torchvision, which has no CPU build for this torch on PyPI."""

    @classmethod
    def _process_multi_modal_info(cls, messages, image_patch_size, config):
        from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import smart_resize

        images = []
        for message in messages:
            content = message.get("content")
            for part in content if isinstance(content, list) else []:
                if isinstance(part, dict) and part.get("type") == "image":
                    image = part["image"].convert("RGB")
                    height, width = smart_resize(
                        image.height, image.width, factor=image_patch_size * 2,
                        min_pixels=QWEN_VL_UTILS_MIN_PIXELS,
                        max_pixels=QWEN_VL_UTILS_MAX_PIXELS)
                    images.append(image.resize((width, height)))
        return (images or None), None, cls._extract_audio_info(messages)


class ScriptedServer:
    """verl's LLM server client as agent loops call it (`generate(request_id, *,
    prompt_ids, sampling_params, image_data, ...) -> TokenOutput`): sample `priority`'s
    k-th call gets its script's k-th reply, encoded by the tokenizer, the end-of-turn
    token last, with made-up log-probabilities (to follow them through verl's merges)."""

    def __init__(self, tokenizer, scripts: dict[int, list[str]]):
        self.tokenizer, self.scripts = tokenizer, scripts
        self.calls: dict[int, list[dict]] = defaultdict(list)
        self.vision_start = tokenizer.convert_tokens_to_ids("<|vision_start|>")

    async def generate(self, request_id, *, prompt_ids, sampling_params, image_data=None,
                       priority=0, **kwargs):
        from verl.workers.rollout.replica import TokenOutput

        calls = self.calls[int(priority)]
        reply = self.scripts[int(priority)][len(calls)]
        ids = self.tokenizer.encode(reply, add_special_tokens=False) + [
            self.tokenizer.eos_token_id]
        logprobs = [-round(0.01 * (len(calls) + 1) + 0.001 * i, 6) for i in range(len(ids))]
        calls.append({"request_id": request_id, "reply": reply, "token_ids": ids,
                      "log_probs": logprobs, "images": len(image_data or []),
                      "images_in_prompt": list(prompt_ids).count(self.vision_start)})
        await asyncio.sleep(0)  # a real server answers later: let the other samples run
        return TokenOutput(token_ids=ids, log_probs=logprobs, stop_reason="completed")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", required=True,
                        help="the only mode: two groups through verl's worker, a JSON line")
    parser.parse_args()
    smoke()


def gesture(session, form: str) -> str:
    """A reply making the one gesture that reaches a one-gesture goal (press where the
    control shows its state, release on the goal), on the task's 0-1000 grid."""
    from finestate_env.core.coords import box_center

    boxes = session.instance.boxes.current
    (width, height) = session.size
    p0, p1 = box_center(boxes.now), box_center(boxes.goal)
    grid = [[round(x * 1000 / width), round(y * 1000 / height)] for x, y in (p0, p1)]
    return {"json": json.dumps({"p0": grid[0], "p1": grid[1]}),
            "prose": f"I press on the control and let go on the goal: drag({grid[0][0]}, "
                     f"{grid[0][1]}, {grid[1][0]}, {grid[1][1]})"}[form]


def make_rows(pool) -> tuple[list[dict], dict[int, list[str]], list[str]]:
    """The two rows (module docstring), each sample's script, and the texts the tiny
    tokenizer is trained on."""
    from finestate_env.agents.vlm_prompt import session_prompt, turn_prompt
    from finestate_env.rewards import ground_truth
    from finestate_env.sessions import SessionTask

    rows, scripts, texts = [], {}, [turn_prompt(""), SYSTEM, "done", MISS]
    for index, (component, seed, bare) in enumerate((("slider", 3, False),
                                                      ("checkbox", 1, True))):
        with pool.open(SessionTask(seed=seed, component=component, coords="1000")) as session:
            truth = ground_truth(session.instance, "1000")
            right, prose = gesture(session, "json"), gesture(session, "prose")
            screen = session.observe()
        task = SessionTask(ground_truth=truth, max_actions=3) if not bare else None
        prompt = session_prompt(screen.instruction, "1000", screen.size,
                                3 if task else SessionTask.read(truth.text()).max_actions)
        texts += [prompt, right, prose]
        if bare:  # a row made for the loop alone: no screenshot, a system message kept
            messages = [{"role": "system", "content": SYSTEM},
                        {"role": "user", "content": "FineState GUI session"}]
            images: list = []
        else:  # as export-rl's multi-turn rows: the screenshot and the session's prompt
            messages = [{"role": "user", "content": "<image>" + prompt}]
            images = [{"bytes": screen.png, "path": None}]
        rows.append({"data_source": f"finestate/{component}", "prompt": messages,
                     "images": images, "agent_name": "finestate_gui",
                     "reward_model": {"style": "rule", "ground_truth": truth.text()},
                     "extra_info": {"index": index, "task": task.text() if task else None}})
        first = index * GROUP
        if bare:  # the second is never right: verl's max_assistant_turns (3) stops it
            scripts.update({first: [MISS, right, "done"], first + 1: [MISS] * 4,
                            first + 2: [prose, "Done."]})
        else:  # the second is never right: its third miss uses the task's last gesture
            scripts.update({first: [MISS, right, "done"], first + 1: [MISS] * 4,
                            first + 2: [MISS, right, "<answer>done</answer>"]})
    return rows, scripts, texts


def write_rows(rows: list[dict], path: Path) -> None:
    import datasets

    features = datasets.Features({
        "data_source": datasets.Value("string"),
        "prompt": [{"role": datasets.Value("string"), "content": datasets.Value("string")}],
        "images": [datasets.Image()], "agent_name": datasets.Value("string"),
        "reward_model": {"style": datasets.Value("string"),
                         "ground_truth": datasets.Value("string")},
        "extra_info": {"index": datasets.Value("int64"), "task": datasets.Value("string")}})
    datasets.Dataset.from_list(rows, features=features).to_parquet(str(path))


def compose(model: Path, **more):
    import verl
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    overrides = {
        "actor_rollout_ref.model.path": str(model),
        "actor_rollout_ref.rollout.name": "vllm",
        "actor_rollout_ref.rollout.n": GROUP,
        "actor_rollout_ref.rollout.multi_turn.enable": True,
        "actor_rollout_ref.rollout.multi_turn.max_assistant_turns": MAX_ASSISTANT_TURNS,
        "actor_rollout_ref.rollout.agent.agent_loop_config_path": str(LOOP_CONFIG),
        "data.max_prompt_length": PROMPT_LENGTH, "data.max_response_length": RESPONSE_LENGTH,
        "data.custom_cls.path": str(Path(__file__).resolve()),
        "data.custom_cls.name": NoTorchvisionDataset.__name__, **more}
    GlobalHydra.instance().clear()
    config_dir = Path(verl.__file__).parent / "trainer" / "config"
    with initialize_config_dir(config_dir=str(config_dir), version_base=None):
        return hydra_compose(config_name="ppo_trainer",
                             overrides=[f"{key}={value}" for key, value in overrides.items()])


def batch_of(rows_path: Path, config, tokenizer, processor, n: int):
    """The batch verl's trainer hands its rollout: the rows through the dataset class the
    config names, collated, a uid per row, repeated n times (interleaved), and the
    per-sample priority AgentLoopManager adds."""
    import numpy as np
    from verl import DataProto
    from verl.utils.dataset.rl_dataset import collate_fn, get_dataset_class

    dataset = get_dataset_class(config.data)(str(rows_path), tokenizer, config.data,
                                             processor=processor)
    batch = DataProto.from_single_dict(collate_fn([dataset[i] for i in range(len(dataset))]))
    batch.non_tensor_batch["uid"] = np.array([str(uuid.uuid4()) for _ in range(len(batch))],
                                             dtype=object)
    batch = batch.repeat(repeat_times=n, interleave=True)
    batch.non_tensor_batch["priority"] = np.arange(len(batch), dtype=np.int64)
    batch.meta_info = {"global_steps": 1, "validate": False}
    return batch


def record_outputs(worker) -> dict[int, dict]:
    """Each sample's AgentLoopOutput as the loop returned it, before verl pads it."""
    seen: dict[int, dict] = {}
    postprocess = worker._agent_loop_postprocess

    async def recording(output, validate, **kwargs):
        images = (output.multi_modal_data or {}).get("images", [])
        seen[int(kwargs["priority"])] = {
            "prompt_ids": list(output.prompt_ids), "response_ids": list(output.response_ids),
            "response_mask": list(output.response_mask),
            "response_logprobs": output.response_logprobs,
            "images": [hashlib.sha256(image.tobytes()).hexdigest() for image in images],
            "reward_score": output.reward_score, "num_turns": output.num_turns,
            "extra_fields": dict(output.extra_fields)}
        return await postprocess(output, validate, **kwargs)

    worker._agent_loop_postprocess = recording
    return seen


def runs(ids: list[int], mask: list[int]) -> list[tuple[int, list[int]]]:
    """(mask value, tokens) of each stretch of equal mask values."""
    out: list[tuple[int, list[int]]] = []
    for token, bit in zip(ids, mask, strict=True):
        if out and out[-1][0] == bit:
            out[-1][1].append(token)
        else:
            out.append((bit, [token]))
    return out


def sample_summary(i: int, raw: dict, calls: list[dict], out, tokenizer) -> dict:
    """What the test checks of sample i: the loop's output against what the scripted
    model produced, and verl's padded batch row."""
    import numpy as np

    stretches = runs(raw["response_ids"], raw["response_mask"])
    model = [tokens for bit, tokens in stretches if bit == 1]
    env = [tokenizer.decode(tokens, skip_special_tokens=False)
           for bit, tokens in stretches if bit == 0]
    expected_logprobs = []
    replies = iter(calls)
    for bit, tokens in stretches:
        expected_logprobs += next(replies)["log_probs"] if bit else [0.0] * len(tokens)
    prompt_length = out.batch["prompts"].shape[1]
    input_ids = out.batch["input_ids"][i].tolist()
    image_pad = tokenizer.convert_tokens_to_ids("<|image_pad|>")
    grid = out.non_tensor_batch["multi_modal_inputs"][i]["image_grid_thw"]
    extra = raw["extra_fields"]
    padded_mask = out.batch["response_mask"][i].tolist()
    mask = raw["response_mask"]
    return {
        "priority": i, "replies": [call["reply"] for call in calls],
        "reward_score": raw["reward_score"],
        "rm_score": float(out.batch["rm_scores"][i].sum()),
        "rm_at": out.batch["rm_scores"][i].nonzero().flatten().tolist(),
        "response_tokens": len(mask),
        "num_turns": raw["num_turns"], "stop": extra["finestate_stop"],
        "ended": extra["finestate_ended"], "verdicts": extra["reward_extra_info"],
        "first_screen": extra["finestate_first_screen"],
        "row_image": extra["finestate_row_image"],
        "images": raw["images"],
        "model_stretches_are_the_replies": model == [call["token_ids"] for call in calls],
        "logprobs_follow_the_mask": raw["response_logprobs"] == expected_logprobs,
        "env_stretches": env,
        "calls_see_their_images": [call["images"] == call["images_in_prompt"]
                                   for call in calls],
        "images_per_call": [call["images"] for call in calls],
        "prompt_text": tokenizer.decode(raw["prompt_ids"], skip_special_tokens=False),
        "padded_mask_is_the_mask": padded_mask[:len(mask)] == mask
        and not any(padded_mask[len(mask):]),
        "image_tokens": input_ids.count(image_pad),
        "processor_image_tokens": int(np.prod(grid.numpy(), axis=1).sum()) // 4,
        "prompt_row_left_padded": int(out.batch["attention_mask"][i][:prompt_length].sum())
        == len(raw["prompt_ids"]),
    }


def rollout(worker, batch, scripts: dict[int, list[str]], tokenizer) -> dict:
    """The batch through verl's worker, the model answering from `scripts`; what each
    sample's loop returned and what verl made of it."""
    worker.llm_client = server = ScriptedServer(tokenizer, scripts)
    raw = record_outputs(worker)
    began = time.perf_counter()
    out = asyncio.run(worker.generate_sequences(batch))
    return {"out": out, "wall_s": round(time.perf_counter() - began, 2),
            "samples": [sample_summary(i, raw[i], server.calls[i], out, worker.tokenizer)
                        for i in range(len(batch))]}


def unjudged_rollout(worker, batch, scripts, tokenizer) -> dict:
    """One episode whose session ends unjudged (the module docstring): what verl's worker
    lets through to its trainer."""
    from finestate_env.sessions.session import GuiSession

    result = GuiSession.result

    def unjudged(self):
        return dataclasses.replace(result(self), reward=None,
                                   unjudged="simulated: the renderer could not be restored")

    worker.llm_client = server = ScriptedServer(tokenizer, scripts)
    GuiSession.result = unjudged
    try:
        asyncio.run(worker.generate_sequences(batch))
        raised = None
    except Exception as exc:
        raised = {"type": type(exc).__name__, "message": str(exc)}
    finally:
        GuiSession.result = result
    return {"raised": raised, "calls": len(server.calls[0])}


def first_samples(batch, n: int):
    """The batch's first n samples (the first row's group), numbered 0.. as priorities."""
    import numpy as np

    part = batch[0:n]
    part.non_tensor_batch["priority"] = np.arange(n, dtype=np.int64)
    part.meta_info = dict(batch.meta_info)
    return part


def smoke() -> None:
    sys.path.insert(0, str(HERE))
    import tiny_vlm
    import verl
    from verl.experimental.agent_loop.agent_loop import AgentLoopWorker

    import finestate_env.agentic.verl as finestate_verl

    started = time.perf_counter()
    # the loops' own pool: the rows' renders warm it
    pool = finestate_verl.shared_pool(idle_timeout_s=finestate_verl.DEFAULT_IDLE_TIMEOUT_S)
    with tempfile.TemporaryDirectory(prefix="finestate-verl-agentic-") as tmp:
        tmp = Path(tmp)
        rows_path = tmp / "train.parquet"
        rows, scripts, texts = make_rows(pool)
        write_rows(rows, rows_path)
        processor = tiny_vlm.processor(texts * 4, MAX_PIXELS)
        tiny_vlm.save(tmp / "model", tiny_vlm.model(processor.tokenizer), processor)
        setup_s = round(time.perf_counter() - started, 2)

        config = compose(tmp / "model")
        worker = AgentLoopWorker(config, llm_client=None)
        tokenizer = worker.tokenizer
        batch = batch_of(rows_path, config, tokenizer, worker.processor, GROUP)
        groups = rollout(worker, batch, scripts, tokenizer)
        open_after = pool.open_sessions

        # The slider row again, two samples, with a response budget a second screen
        # overflows: a miss, the right gesture (performed, its screen not shown), and a
        # reply that alone overflows it (cut, so not performed).
        tight = compose(tmp / "model", **{"data.max_response_length": TIGHT_RESPONSE_LENGTH})
        tight_worker = AgentLoopWorker(tight, llm_client=None)
        right = scripts[0][1]
        budget = rollout(tight_worker, first_samples(
            batch_of(rows_path, tight, tokenizer, worker.processor, 2), 2),
            {0: [MISS, right, "done"], 1: [RAMBLING + right, "done"]}, tokenizer)

        unjudged = unjudged_rollout(worker, first_samples(
            batch_of(rows_path, config, tokenizer, worker.processor, 1), 1),
            {0: [right, "done"]}, tokenizer)
        unjudged["open_sessions_after"] = pool.open_sessions

    out = groups["out"]
    print(json.dumps({
        "library": "verl", "version": verl.__version__, "group": GROUP,
        "max_assistant_turns": MAX_ASSISTANT_TURNS,
        "tight_response_length": TIGHT_RESPONSE_LENGTH,
        "rows": [{"data_source": row["data_source"], "has_task": bool(row["extra_info"]["task"]),
                  "has_image": bool(row["images"]), "ground_truth":
                  row["reward_model"]["ground_truth"]} for row in rows],
        "batch_keys": sorted(out.batch.keys()),
        "non_tensor_keys": sorted(out.non_tensor_batch.keys()),
        "reward_extra_keys": out.meta_info.get("reward_extra_keys"),
        "samples": groups["samples"], "budget_samples": budget["samples"],
        "open_sessions_after": open_after, "unjudged": unjudged,
        "max_sessions": pool.max_sessions,
        "timings": {"setup_s": setup_s, "groups_s": groups["wall_s"],
                    "budget_s": budget["wall_s"]},
        "wall_s": round(time.perf_counter() - started, 2)}))


if __name__ == "__main__":
    main()
