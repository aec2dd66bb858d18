"""TRL's GRPOTrainer on a FineState dataset, rewarded by the state each completion's
gesture produces live (finestate_env.rewards.trainers).

The dataset is `finestate export-rl`'s TRL folder, loaded with `datasets` and passed to
GRPOTrainer as it is: `prompt` (one user message), `images` (the screenshot; TRL puts it
before the text) and `reward_model` (the ground truth), which TRL hands to the reward
functions with every completion. Two reward functions, side by side:

  async_live_reward  1.0 when the state read back equals the goal exactly (trained on)
  box_reward         1.0 when p1 lies in the goal box, the papers' static reward (weight
                     0: logged beside the live one, to see where the box lies)

Their verdicts (finestate/live_exact, finestate/sr_loc, ...) reach TRL's logs through
its log_metric. docs/training-vlms.md walks through it.

    python examples/trl_grpo.py --smoke    # what make test runs: CPU, a tiny random VLM
    finestate export-rl --n 2000 --component slider,checkbox,radio_group --out data/fs
    python examples/trl_grpo.py --model Qwen/Qwen2.5-VL-3B-Instruct --data data/fs \\
        --output-dir out/grpo-qwen25vl-3b             # one GPU (docs/training-vlms.md)

--smoke renders 4 rows, builds a tiny randomly initialised Qwen2.5-VL here
(examples/tiny_vlm.py: no model hub), warm-starts it by 100 supervised steps on the
rows' oracle answers (a random model never writes a readable answer; after them its
samples parse and some reach the goal, so a group's rewards differ), then runs 2 GRPO
steps on the CPU. It prints one JSON line last: the steps, every completion TRL scored
with the rewards it got back, TRL's own logged means, the images the vision tower saw.
"""

from __future__ import annotations

import argparse
import functools
import inspect
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import datasets
import torch
from trl import GRPOConfig, GRPOTrainer

from finestate_env.rewards import GroundTruth
from finestate_env.rewards.completions import completion_text
from finestate_env.rewards.export import export_rl
from finestate_env.rewards.trainers import async_live_reward, box_reward

SMOKE_ROWS = 4
SMOKE_COMPONENTS = ["slider", "checkbox", "radio_group"]
# The tiny model's processor and the export share it: a Qwen2.5-VL answers in the pixels
# of the image its processor resized (420x224 for a 1280x720 screenshot under this).
SMOKE_MAX_PIXELS = 128 * 28 * 28
WARM_START_STEPS = 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true",
                        help="4 rows, a tiny random VLM, 2 GRPO steps on the CPU, a JSON line")
    parser.add_argument("--model", default="Qwen/Qwen2.5-VL-3B-Instruct")
    parser.add_argument("--data", help="export-rl's folder (its trl/train.parquet)")
    parser.add_argument("--output-dir", default="out/grpo")
    parser.add_argument("--max-steps", type=int, default=500)
    parser.add_argument("--num-generations", type=int, default=8)
    args = parser.parse_args()
    if args.smoke:
        smoke()
    elif args.data is None:
        parser.error("--data DIR (finestate export-rl's folder) is needed without --smoke")
    else:
        train(args)


def load_rows(data: str | Path) -> datasets.Dataset:
    """The TRL folder of an export, as a user loads it."""
    return datasets.load_dataset("parquet", data_files=str(Path(data) / "trl" / "train.parquet"),
                                 split="train")


def max_pixels_of(data: str | Path) -> int | None:
    """The processor's max_pixels the export was made for (its frames depend on it)."""
    return json.loads((Path(data) / "export.json").read_text())["max_pixels"]


def train(args: argparse.Namespace) -> None:
    """The real-model run (docs/training-vlms.md): Qwen2.5-VL-3B in bf16 on one GPU."""
    from transformers import AutoProcessor

    kwargs = {}
    if max_pixels_of(args.data) is not None:  # the frames the export's prompts state
        kwargs["max_pixels"] = max_pixels_of(args.data)
    processor = AutoProcessor.from_pretrained(args.model, padding_side="left", **kwargs)
    config = GRPOConfig(
        output_dir=args.output_dir, max_steps=args.max_steps, learning_rate=1e-6,
        per_device_train_batch_size=args.num_generations, gradient_accumulation_steps=4,
        num_generations=args.num_generations, max_completion_length=64, temperature=1.0,
        beta=0.0, bf16=True, gradient_checkpointing=True,
        model_init_kwargs={"dtype": torch.bfloat16}, reward_weights=[1.0, 0.0],
        logging_steps=1, save_steps=100, report_to="none", log_completions=True)
    trainer = GRPOTrainer(model=args.model, reward_funcs=[async_live_reward, box_reward],
                          args=config, train_dataset=load_rows(args.data),
                          processing_class=processor)
    trainer.train()
    trainer.save_model(args.output_dir)


# -- the smoke -----------------------------------------------------------------------

def smoke() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import tiny_vlm
    from chosen_answers import oracle_answer

    started = time.perf_counter()
    phases: dict[str, float] = {}

    def phase(name: str) -> None:
        phases[name] = round(time.perf_counter() - started - sum(phases.values()), 2)

    torch.manual_seed(0)
    with tempfile.TemporaryDirectory(prefix="finestate-trl-") as tmp:
        export_rl(tmp, n=SMOKE_ROWS, seed=0, component=SMOKE_COMPONENTS, scene="control",
                  max_pixels=SMOKE_MAX_PIXELS, trainers=["trl"])
        phase("export")
        rows = load_rows(tmp)
        answers = [oracle_answer(GroundTruth.read(row["reward_model"])) for row in rows]
        processor = tiny_vlm.processor([row["prompt"][0]["content"] for row in rows]
                                       + answers * 50, SMOKE_MAX_PIXELS)
        model = tiny_vlm.model(processor.tokenizer)
        phase("model")
        warm_loss = warm_start(model, processor, rows, answers)
        phase("warm_start")
        seen = watch_vision_tower(model)
        calls: list[dict] = []
        config = GRPOConfig(
            output_dir=os.path.join(tmp, "out"), use_cpu=True, max_steps=2, seed=0,
            per_device_train_batch_size=8, num_generations=4, max_completion_length=24,
            learning_rate=1e-4, temperature=1.0, reward_weights=[1.0, 0.0],
            logging_steps=1, save_strategy="no", report_to="none", disable_tqdm=True,
            dataloader_num_workers=0)
        trainer = GRPOTrainer(model=model, args=config, train_dataset=rows,
                              processing_class=processor,
                              reward_funcs=[recording(async_live_reward, calls),
                                            recording(box_reward, calls)])
        phase("trainer")
        trainer.train()
        phase("grpo")
    logged = [entry for entry in trainer.state.log_history if "rewards/finestate_exact/mean"
              in entry]
    print(json.dumps({
        "library": "trl", "version": __import__("trl").__version__,
        "steps": trainer.state.global_step,
        "model_parameters": sum(p.numel() for p in model.parameters()),
        "warm_start_loss": round(warm_loss, 4),
        "rows": [{"id": row["extra_info"]["id"],
                  "ground_truth": row["reward_model"]["ground_truth"]} for row in rows],
        "calls": calls,
        "logged": [{key: value for key, value in entry.items()
                    if key.startswith(("rewards/", "finestate/", "reward")) or key == "step"}
                   for entry in logged],
        "vision_tower": seen,
        "seconds": phases, "wall_s": round(time.perf_counter() - started, 2),
    }))


def warm_start(model, processor, rows, answers: list[str]) -> float:
    """WARM_START_STEPS supervised steps on the rows' oracle answers (loss on the answer
    tokens only), the prompts templated as GRPOTrainer templates them. The last loss."""
    from trl.data_utils import prepare_multimodal_messages

    prompts = [processor.apply_chat_template(
        prepare_multimodal_messages(row["prompt"], images=row["images"]),
        add_generation_prompt=True, tokenize=False) for row in rows]
    images = [row["images"] for row in rows]
    lengths = [len(processor(text=[p], images=[i])["input_ids"][0])
               for p, i in zip(prompts, images, strict=True)]
    processor.tokenizer.padding_side = "right"
    batch = processor(text=[p + a + processor.tokenizer.eos_token
                            for p, a in zip(prompts, answers, strict=True)],
                      images=images, return_tensors="pt", padding=True)
    processor.tokenizer.padding_side = "left"  # as GRPOTrainer generates
    labels = batch["input_ids"].clone()
    for i, length in enumerate(lengths):
        labels[i, :length] = -100
    labels[batch["attention_mask"] == 0] = -100
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    model.train()
    for _ in range(WARM_START_STEPS):
        loss = model(**batch, labels=labels).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def watch_vision_tower(model) -> list[dict]:
    """The image grids (t, h, w patches) of every call of the vision tower from now on,
    and the number of pixel_values rows each got."""
    seen: list[dict] = []

    def hook(module, args, kwargs):
        pixels = args[0] if args else kwargs["hidden_states"]
        grid = kwargs.get("grid_thw", args[1] if len(args) > 1 else None)
        seen.append({"pixel_rows": int(pixels.shape[0]), "grid_thw": grid.tolist()})

    model.model.visual.register_forward_pre_hook(hook, with_kwargs=True)
    return seen


def recording(reward_func, calls: list[dict]):
    """`reward_func` as TRL calls it, keeping each call's completions, rows and rewards
    (the summary's record of what TRL got back)."""

    def record(result, completions, columns):
        calls.append({"func": reward_func.__name__,
                      "completions": [completion_text(c) for c in completions],
                      "rows": [info["id"] for info in columns["extra_info"]],
                      "rewards": list(result)})
        return result

    if inspect.iscoroutinefunction(reward_func):
        @functools.wraps(reward_func)
        async def wrapped(prompts, completions, **columns):
            return record(await reward_func(prompts, completions, **columns), completions,
                          columns)
    else:
        @functools.wraps(reward_func)
        def wrapped(prompts, completions, **columns):
            return record(reward_func(prompts, completions, **columns), completions, columns)
    return wrapped


if __name__ == "__main__":
    main()
