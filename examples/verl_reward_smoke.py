"""verl's own reward code calling examples/verl_reward.py on a batch built as verl builds it.

    python examples/verl_reward_smoke.py --smoke      # what make test runs (CPU, ~25 s)

The batch: `finestate export-rl`'s verl folder read by verl's RLHFDataset (with a
Qwen2.5-VL processor built here, examples/tiny_vlm.py), collated by verl's collate_fn into
a DataProto, repeated per GRPO sample (`DataProto.repeat(n, interleave=True)`, as
verl's trainer does), each prompt tokenized as verl's agent loop tokenizes it (verl's
Continuous Token builder for Qwen2.5-VL over the messages' images; the agent loop pulls
them out with qwen-vl-utils, which needs torchvision, which has no CPU build for this
torch on PyPI), and responses padded as the agent loop pads them. The responses are chosen,
not generated, so that the rewards mean something: per row one of each of
examples/chosen_answers.py's kinds (the oracle's answer in three shapes, a "box only"
answer whose drag grabs nothing, a blank click, no points, points off the screen).

Then verl's reward code scores them:
- NaiveRewardManager and BatchRewardManager (verl.workers.reward_manager) with
  compute_score and compute_score_batch;
- the trainer's own path: the config composed by Hydra from verl's ppo_trainer.yaml
  with examples/verl_grpo.sh's overrides, then RewardLoopWorker (which calls
  `verl.trainer.ppo.reward.load_reward_manager(config, tokenizer)`) scoring the batch as
  verl's RewardLoopManager has its workers do, in modes exact and box;
and RewardScorer scores the same completions directly. One JSON line last.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
import tempfile
import time
import uuid
from pathlib import Path

import numpy as np
import torch

HERE = Path(__file__).resolve().parent
SMOKE_COMPONENTS = ["slider", "checkbox"]
SMOKE_MAX_PIXELS = 128 * 28 * 28
PROMPT_LENGTH, RESPONSE_LENGTH = 1024, 96


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", required=True,
                        help="the only mode: rows, a batch, verl's managers, a JSON line")
    parser.parse_args()
    smoke()


def script_overrides(values: dict[str, str]) -> list[str]:
    """examples/verl_grpo.sh's Hydra overrides, its shell variables given `values`."""
    overrides = []
    for line in (HERE / "verl_grpo.sh").read_text().splitlines():
        found = re.fullmatch(r"\s{4}(\+?[a-z_][\w.]*=\S+)(?: \\| \"\$\{@:3\}\")", line)
        if found:  # the shell's quoting, then its variables
            [override] = shlex.split(found.group(1))
            overrides.append(re.sub(r"\$(\w+)", lambda m: values[m.group(1)], override))
    return overrides


def compose(data: Path, model: Path, **more: str):
    """verl's trainer config as main_ppo gets it: ppo_trainer.yaml, the script's
    overrides, then `more` (dotted keys)."""
    import verl
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    overrides = script_overrides({"DATA": str(data), "MODEL": str(model),
                                  "HERE": str(HERE), "MODE": more.pop("mode", "exact")})
    overrides += [f"{key}={value}" for key, value in more.items()]
    GlobalHydra.instance().clear()
    config_dir = Path(verl.__file__).parent / "trainer" / "config"
    with initialize_config_dir(config_dir=str(config_dir), version_base=None):
        return hydra_compose(config_name="ppo_trainer", overrides=overrides), overrides


def build_batch(rows_path: Path, tokenizer, processor, data_config):
    """The batch verl's trainer hands its reward code (the module docstring), and the
    processor's image grids."""
    from chosen_answers import KINDS, answers
    from verl import DataProto
    from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn
    from verl.utils.model import compute_position_id_with_mask
    from verl.utils.tokenizer.continuous_token_wiring import create_continuous_token_builder

    from finestate_env.rewards import GroundTruth

    dataset = RLHFDataset(str(rows_path), tokenizer, data_config, processor=processor)
    items = [dataset[i] for i in range(len(dataset))]
    batch = DataProto.from_single_dict(collate_fn(items))
    batch.non_tensor_batch["uid"] = np.array([str(uuid.uuid4()) for _ in items], dtype=object)
    batch = batch.repeat(repeat_times=len(KINDS), interleave=True)

    builder = create_continuous_token_builder(tokenizer, hf_model_type="qwen2_5_vl",
                                              processor=processor)
    prompts, responses, completions, grids = [], [], [], []
    for item in items:
        messages = list(item["raw_prompt"])
        # verl's agent loop takes the images out of the messages with qwen-vl-utils
        # (RLHFDataset.process_multi_modal_info), which imports torchvision, and PyPI has
        # no CPU torchvision for this torch: the PIL images RLHFDataset put in the
        # messages are taken here instead. qwen-vl-utils would first resize them to the
        # 28-pixel grid the processor then keeps (1280x720 -> 1288x728 by default).
        images = [part["image"] for message in messages for part in message["content"]
                  if isinstance(part, dict) and part.get("type") == "image"]
        mm: dict = {}
        prompt_ids = builder.build_initial_tokens(messages, images=images, mm_inputs_out=mm)
        grids.append(mm["image_grid_thw"].tolist())
        chosen = answers(GroundTruth.read(item["reward_model"]))
        for kind in KINDS:  # in repeat(interleave=True)'s order
            completions.append(chosen[kind])
            prompts.append(prompt_ids)
            # as vLLM returns them: the sampled tokens, the stop token last
            responses.append(tokenizer.encode(chosen[kind], add_special_tokens=False)
                             + [tokenizer.eos_token_id])

    def pad(seqs, length, side):  # as AgentLoopWorker._agent_loop_postprocess pads
        tokenizer.padding_side = side
        out = tokenizer.pad({"input_ids": seqs}, padding="max_length", max_length=length,
                            return_tensors="pt", return_attention_mask=True)
        return out["input_ids"], out["attention_mask"]

    prompt_ids, prompt_mask = pad(prompts, PROMPT_LENGTH, "left")
    response_ids, response_mask = pad(responses, RESPONSE_LENGTH, "right")
    attention_mask = torch.cat([prompt_mask, response_mask], dim=1)
    generated = DataProto.from_dict(tensors={
        "prompts": prompt_ids, "responses": response_ids,
        "input_ids": torch.cat([prompt_ids, response_ids], dim=1),
        "attention_mask": attention_mask, "response_mask": response_mask,
        "position_ids": compute_position_id_with_mask(attention_mask)})
    return batch.union(generated), completions, grids


def rewards_of(tensor: torch.Tensor, batch) -> dict:
    """Each sample's reward, and whether it sits on its last response token (verl's
    convention: the token-level reward is zero elsewhere)."""
    prompt_length = batch.batch["prompts"].shape[1]
    last = batch.batch["attention_mask"][:, prompt_length:].sum(dim=1) - 1
    on_last = torch.zeros_like(tensor)
    on_last[torch.arange(len(last)), last] = tensor[torch.arange(len(last)), last]
    return {"rewards": tensor.sum(dim=1).tolist(), "on_last_token": bool(torch.equal(on_last,
                                                                                     tensor))}


def trainer_path(config, batch) -> dict:
    """The trainer's reward path without Ray: RewardLoopWorker (the class verl's
    RewardLoopManager runs as Ray actors) scoring the batch as compute_rm_score has each
    worker do, and the manager's class assembling rm_scores."""
    from verl.experimental.reward_loop.reward_loop import RewardLoopWorker
    from verl.trainer.ppo.reward import resolve_reward_manager_cls

    worker = RewardLoopWorker(config)
    outputs = worker.loop.run_until_complete(worker.compute_score_batch(batch))
    scores = [output["reward_score"] for output in outputs]
    rm_scores = resolve_reward_manager_cls(config).assemble_rm_scores(batch, scores)
    extras = [output.get("reward_extra_info", {}) for output in outputs]
    return {"manager": type(worker.reward_manager).__module__ + "."
            + type(worker.reward_manager).__name__,
            "compute_score": config.reward.custom_reward_function.name,
            "reward_kwargs": dict(config.reward.custom_reward_function.get("reward_kwargs", {})),
            **rewards_of(rm_scores, batch), "extra_keys": sorted(extras[0]),
            "live_exact": [extra.get("live_exact") for extra in extras],
            "static_exact": [extra.get("static_exact") for extra in extras]}


def smoke() -> None:
    sys.path.insert(0, str(HERE))
    import tiny_vlm
    import verl
    import verl_reward
    from chosen_answers import KINDS
    from verl.experimental.reward_loop.reward_manager import registry
    from verl.workers.reward_manager import BatchRewardManager, NaiveRewardManager

    from finestate_env.rewards import GroundTruth, RewardScorer
    from finestate_env.rewards.export import export_rl

    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="finestate-verl-") as tmp:
        tmp = Path(tmp)
        export_rl(tmp, n=len(SMOKE_COMPONENTS), seed=0, component=SMOKE_COMPONENTS,
                  scene="control", max_pixels=SMOKE_MAX_PIXELS, trainers=["verl"])
        rows_path = tmp / "verl" / "train.parquet"
        import datasets

        rows = datasets.load_dataset("parquet", data_files=str(rows_path), split="train")
        texts = [row["prompt"][0]["content"] for row in rows]
        processor = tiny_vlm.processor(texts + [json.dumps({"p0": [i, 2 * i]})
                                                for i in range(300)], SMOKE_MAX_PIXELS)
        tokenizer = processor.tokenizer
        model_dir = tmp / "model"
        tokenizer.save_pretrained(model_dir)  # what actor_rollout_ref.model.path names
        # The length filter measures prompts with qwen-vl-utils too (above): off here.
        config, overrides = compose(tmp, model_dir, **{
            "data.max_prompt_length": PROMPT_LENGTH, "data.filter_overlong_prompts": False,
            "data.max_response_length": RESPONSE_LENGTH, "reward.num_workers": 1})
        batch, completions, grids = build_batch(rows_path, tokenizer, processor, config.data)
        truths = list(batch.non_tensor_batch["reward_model"])

        naive = NaiveRewardManager(tokenizer, num_examine=0,
                                   compute_score=verl_reward.compute_score)(batch,
                                                                            return_dict=True)
        batched = BatchRewardManager(tokenizer, num_examine=0,
                                     compute_score=verl_reward.compute_score_batch)(
            batch, return_dict=True)
        exact_config, _ = compose(tmp, model_dir, **{"data.max_response_length": RESPONSE_LENGTH,
                                                     "reward.num_workers": 1})
        box_config, _ = compose(tmp, model_dir, mode="box", **{
            "reward.custom_reward_function.name": "compute_score",
            "data.max_response_length": RESPONSE_LENGTH, "reward.num_workers": 1})
        # older scripts' top-level custom_reward_function: composed, but not under reward.
        legacy, _ = compose(tmp, model_dir, **{"custom_reward_function.path": "/legacy.py"})
        managers = {
            "naive": {**rewards_of(naive["reward_tensor"], batch),
                      "extra_keys": sorted(naive["reward_extra_info"])},
            "batch": {**rewards_of(batched["reward_tensor"], batch),
                      "extra_keys": sorted(batched["reward_extra_info"])},
            "trainer_exact": trainer_path(exact_config, batch),
            "trainer_box": trainer_path(box_config, batch),
        }
        with RewardScorer("exact", workers=1) as scorer:  # apart from verl_reward's own
            direct = {mode: [score.reward for score in scorer.score(truths, completions, mode)]
                      for mode in ("exact", "box")}
        frames = [[GroundTruth.read(row["reward_model"]).frame.height,
                   GroundTruth.read(row["reward_model"]).frame.width] for row in rows]
    print(json.dumps({
        "library": "verl", "version": verl.__version__,
        "overrides": overrides, "trainer_reward_managers": sorted(registry.REWARD_MANAGER),
        "legacy_key_reaches_reward": legacy.reward.custom_reward_function.path == "/legacy.py",
        "rows": [{"id": row["extra_info"]["id"], "component": row["extra_info"]["component"],
                  "ground_truth": row["reward_model"]["ground_truth"]} for row in rows],
        "kinds": list(KINDS) * len(rows), "completions": completions,
        "batch_size": len(batch), "image_grids": grids, "frames": frames,
        "managers": managers, "direct": direct,
        "wall_s": round(time.perf_counter() - started, 2)}))


if __name__ == "__main__":
    main()
