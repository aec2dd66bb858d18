"""TRL's GRPOTrainer on live multi-turn FineState episodes: the model sees the screen,
calls a `gesture` tool, sees the screen after it, may correct it, calls `done`, and is
paid the state the control ends in (finestate_env/agentic/trl.py).

    python examples/trl_agentic.py --smoke     # what make test runs: CPU, a tiny random VLM
    finestate export-rl --n 2000 --model qwen3-vl --max-actions 3 --trainer trl --out data/fs3
    python examples/trl_agentic.py --model Qwen/Qwen3-VL-4B-Instruct --data data/fs3 \\
        --output-dir out/grpo-agentic        # one GPU, vLLM colocated (docs/agentic-training.md)

The dataset needs only a `task` column (export-rl's multi-turn rows have it); `train`
drops the rows' prompt and image, so that the first screenshot comes from `reset`, shrunk
to --max-side like every later one (TRL counts every turn's image tokens toward
max_completion_length).

--smoke builds a tiny randomly initialised Qwen3-VL here (examples/tiny_qwen3_vl.py: TRL's
own Qwen3-VL chat template, so GRPOTrainer accepts it for tools; no model hub) and runs 2
GRPO steps on the CPU over 2 live tasks (a slider and a checkbox, 3 gestures each),
`model.generate` replaced by a script, as TRL's own tests do for tool calls: in each
group of 2, one sample makes a wrong gesture, the right one, then calls done (reward
1.0); the other makes a wrong gesture, one with unreadable points, another wrong one (no
gestures are left), then the right one, which is refused, and stops (0.0). Everything
else is TRL's: the tool loop, the tool schemas, the images of every turn in generation
and in the loss, the reward column from get_reward. It prints one JSON line last: what
the environments returned and what TRL logged, the images the vision tower got against
the images the tools returned, the group's first screens.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from unittest.mock import patch

import datasets
import numpy as np
import torch
from transformers import TrainerCallback
from trl import GRPOConfig, GRPOTrainer

from finestate_env.agentic.trl import finestate_trl_env
from finestate_env.sessions import close_shared_pools

SMOKE_COMPONENTS = (("slider", 3), ("checkbox", 1))  # a drag and a tap, with their seeds
SMOKE_MAX_SIDE = 256  # 256x144 screenshots: 32 image tokens each for Qwen3-VL
SMOKE_MAX_ACTIONS = 3
SMOKE_GENERATIONS = 2
ENV_NAME = "FineStateTRLEnv"  # TRL names the reward column after the class


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true",
                        help="a tiny random VLM, scripted turns, 2 GRPO steps on the CPU")
    parser.add_argument("--model", default="Qwen/Qwen3-VL-4B-Instruct")
    parser.add_argument("--data", help="export-rl's folder (--max-actions K, --trainer trl)")
    parser.add_argument("--output-dir", default="out/grpo-agentic")
    parser.add_argument("--max-steps", type=int, default=500)
    parser.add_argument("--num-generations", type=int, default=8)
    parser.add_argument("--max-side", type=int, default=512,
                        help="screenshots' longest side in pixels (image tokens per turn)")
    parser.add_argument("--max-tool-calling-iterations", type=int, default=6)
    args = parser.parse_args()
    os.environ.setdefault("TRL_EXPERIMENTAL_SILENCE", "1")
    if args.smoke:
        smoke()
    elif args.data is None:
        parser.error("--data DIR (finestate export-rl --max-actions K) is needed without --smoke")
    else:
        train(args)


def load_tasks(data: str | Path) -> datasets.Dataset:
    """The task column of an export's TRL rows: the first turn then comes from reset."""
    rows = datasets.load_dataset("parquet", split="train",
                                 data_files=str(Path(data) / "trl" / "train.parquet"))
    if "task" not in rows.column_names:
        raise SystemExit(f"{data}: no task column; export the rows with --max-actions 2 or more")
    return rows.select_columns(["task"])


def train(args: argparse.Namespace) -> None:
    """The real-model run: Qwen3-VL-4B in bf16 on one GPU, vLLM colocated for generation."""
    from transformers import AutoProcessor

    processor = AutoProcessor.from_pretrained(args.model, padding_side="left")
    config = GRPOConfig(
        output_dir=args.output_dir, max_steps=args.max_steps, learning_rate=1e-6,
        per_device_train_batch_size=args.num_generations, gradient_accumulation_steps=4,
        num_generations=args.num_generations, max_completion_length=2048,
        max_tool_calling_iterations=args.max_tool_calling_iterations, temperature=1.0,
        beta=0.0, bf16=True, gradient_checkpointing=True,
        model_init_kwargs={"dtype": torch.bfloat16},
        use_vllm=True, vllm_mode="colocate", vllm_gpu_memory_utilization=0.35,
        vllm_max_model_length=8192, logging_steps=1, save_steps=100, report_to="none",
        log_completions=True)
    trainer = GRPOTrainer(
        model=args.model, args=config, train_dataset=load_tasks(args.data),
        processing_class=processor,
        # one session per rollout of a generation batch, all open during its tool loop
        environment_factory=finestate_trl_env(max_side=args.max_side, model=args.model,
                                              max_sessions=config.generation_batch_size))
    trainer.train()
    trainer.save_model(args.output_dir)
    close_shared_pools()


# -- the smoke -----------------------------------------------------------------------

def smoke() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import tiny_qwen3_vl

    started = time.perf_counter()
    phases: dict[str, float] = {}

    def phase(name: str) -> None:
        phases[name] = round(time.perf_counter() - started - sum(phases.values()), 2)

    torch.manual_seed(0)
    tasks = smoke_tasks()
    phase("tasks")
    record = Record(tasks)
    env_class = recording(finestate_trl_env(max_side=SMOKE_MAX_SIDE, max_sessions=8,
                                            model="Qwen/Qwen3-VL-4B-Instruct"), record)
    script = Script(tasks, record)
    processor = tiny_qwen3_vl.processor(script.texts() * 20)
    model = tiny_qwen3_vl.model(processor.tokenizer)
    script.tokenizer = processor.tokenizer
    vision = watch_vision_tower(model, record)
    phase("model")
    rows = datasets.Dataset.from_list([{"task": task["task"]} for task in tasks])
    with tempfile.TemporaryDirectory(prefix="finestate-trl-agentic-") as tmp:
        config = GRPOConfig(
            output_dir=os.path.join(tmp, "out"), use_cpu=True, max_steps=2, seed=0,
            per_device_train_batch_size=len(tasks) * SMOKE_GENERATIONS,
            num_generations=SMOKE_GENERATIONS, max_completion_length=1024,
            max_tool_calling_iterations=6, learning_rate=1e-3, logging_steps=1,
            save_strategy="no", report_to="none", disable_tqdm=True,
            dataloader_num_workers=0)
        trainer = GRPOTrainer(model=model, args=config, train_dataset=rows,
                              processing_class=processor, environment_factory=env_class,
                              callbacks=[record])
        record.trainer = trainer
        phase("trainer")
        with patch.object(trainer.model, "generate", side_effect=script.generate):
            trainer.train()
        phase("grpo")
    close_shared_pools()
    image_processor = processor.image_processor
    logged = [{key: value for key, value in entry.items()
               if key.startswith(("rewards/", "tools/")) or key in ("step", "reward")}
              for entry in trainer.state.log_history if f"rewards/{ENV_NAME}/mean" in entry]
    print(json.dumps({
        "library": "trl", "version": __import__("trl").__version__,
        "steps": trainer.state.global_step,
        "model": type(model).__name__,
        "model_parameters": sum(p.numel() for p in model.parameters()),
        "tools": sorted(tool.__name__ for tool in trainer.tools),
        "tool_schemas": tool_schemas(trainer),
        "tasks": [{key: task[key] for key in ("component", "instruction", "right", "wrong")}
                  for task in tasks],
        "episodes": record.episodes,
        "trl_rewards": record.trl_rewards,
        "logged": logged,
        "generate_calls": script.calls,
        "vision_tower": vision.summary(image_processor),
        "generation_images_shown": script.images_shown(record, image_processor),
        "seconds": phases, "wall_s": round(time.perf_counter() - started, 2),
    }))


def smoke_tasks() -> list[dict]:
    """Two live tasks in Qwen3-VL's 0-1000 grid, with the gestures a script needs: the
    right one (the oracle's points) and a wrong one (a click far from the control)."""
    import gymnasium as gym

    import finestate_env  # noqa: F401  (registers the envs)
    from finestate_env.core.coords import box_center
    from finestate_env.rewards import ground_truth
    from finestate_env.sessions import SessionTask

    env = gym.make("FineState-Web-v0", scene="control")
    tasks = []
    try:
        for component, seed in SMOKE_COMPONENTS:
            env.reset(seed=seed, options={"component": component})
            instance = env.unwrapped.instance
            width, height = instance.size.width, instance.size.height

            def grid(point, width=width, height=height):
                return [round(point[0] * 1000 / width), round(point[1] * 1000 / height)]

            boxes = instance.boxes.current
            now, goal = grid(box_center(boxes.now)), grid(box_center(boxes.goal))
            far = [950 if now[0] < 500 else 50, 950 if now[1] < 500 else 50]
            truth = ground_truth(instance, "1000")
            tasks.append({
                "component": component, "instruction": instance.instructions.interact,
                "task": SessionTask(ground_truth=truth, max_actions=SMOKE_MAX_ACTIONS).text(),
                "right": {"x0": now[0], "y0": now[1], "x1": goal[0], "y1": goal[1]},
                "wrong": {"x0": far[0], "y0": far[1], "x1": far[0], "y1": far[1]}})
    finally:
        env.close()
    return tasks


class Script:
    """`model.generate` for the smoke: each sample's next turn from its role's script.

    A sample is told by its context: its row by the task's instruction in the prompt, its
    role by the position of its first call in the group (later, by the role's name,
    which its first turn writes before the tool call), its turn by the tool results so
    far. What each call got is recorded: the images the prompt's text holds and the
    image grids that came with it."""

    ROLES = ("solver", "misser")

    def __init__(self, tasks: list[dict], record: Record) -> None:
        self.tasks = tasks
        self.record = record
        self.tokenizer = None
        self.calls: list[dict] = []

    def turns(self, role: str, task: dict) -> list[str]:
        unreadable = {"x0": "left", "y0": "top", "x1": "left", "y1": "top"}
        if role == "solver":
            return [self.call(role, "gesture", task["wrong"]),
                    self.call(None, "gesture", task["right"]), self.call(None, "done", {}),
                    "The control shows the goal."]
        return [self.call(role, "gesture", task["wrong"]),
                self.call(None, "gesture", unreadable), self.call(None, "gesture", task["wrong"]),
                self.call(None, "gesture", task["right"]), "I stop here."]

    def images_shown(self, record: Record, image_processor) -> list[bool]:
        """Per generate call, whether each sample's images are the first images its
        episode showed, in order (the screens so far, no other)."""
        shown = episode_hashes(record, image_processor)
        out = []
        for call in self.calls:
            episodes = [hashes for episode, hashes in zip(record.episodes, shown, strict=True)
                        if episode["step"] == call["step"]]
            images, ok = list(call["images"]), True
            for count in call["images_in_text"]:
                mine, images = images[:count], images[count:]
                ok = ok and any(hashes[:count] == mine for hashes in episodes)
            out.append(ok and not images)
        return out

    @staticmethod
    def call(role: str | None, name: str, arguments: dict) -> str:
        prefix = f"{role}\n" if role else ""
        return (f"{prefix}<tool_call>\n{json.dumps({'name': name, 'arguments': arguments})}"
                f"\n</tool_call>")

    def texts(self) -> list[str]:
        """What the tokenizer is trained on: every turn the script writes."""
        return [turn for task in self.tasks for role in self.ROLES
                for turn in self.turns(role, task)]

    def generate(self, input_ids, attention_mask=None, pixel_values=None, image_grid_thw=None,
                 **kwargs):
        tok = self.tokenizer
        texts = [tok.decode(ids[mask.bool()])
                 for ids, mask in zip(input_ids, attention_mask, strict=True)]
        seen: dict[int, int] = {}
        completions, roles = [], []
        for text in texts:
            task = next(i for i, t in enumerate(self.tasks) if t["instruction"] in text)
            done = text.count("<tool_response>")
            if done == 0:  # the first turn: the role by the sample's place in its group
                role = self.ROLES[seen.get(task, 0)]
                seen[task] = seen.get(task, 0) + 1
            else:
                role = next(r for r in self.ROLES if f"<|im_start|>assistant\n{r}\n" in text)
            roles.append(f"{role}@{task}:{done}")
            completions.append(tok.encode(self.turns(role, self.tasks[task])[done]
                                          + tok.eos_token))
        self.calls.append({
            "step": self.record.step(), "samples": roles,
            "last_tool_response": [last_tool_response(text) for text in texts],
            "images_in_text": [text.count("<|vision_start|>") for text in texts],
            "image_pads": int((input_ids == tok.convert_tokens_to_ids("<|image_pad|>")).sum()),
            "grids": [] if image_grid_thw is None else image_grid_thw.tolist(),
            "images": [] if pixel_values is None else image_hashes(pixel_values,
                                                                   image_grid_thw)})
        width = max(len(ids) for ids in completions)
        padded = torch.full((len(completions), width), tok.pad_token_id, dtype=input_ids.dtype)
        for row, ids in enumerate(completions):
            padded[row, :len(ids)] = torch.tensor(ids)
        return torch.cat([input_ids, padded.to(input_ids.device)], dim=1)


def last_tool_response(text: str) -> str | None:
    """The last tool message in a sample's context, as the model reads it (an image as
    <image>)."""
    if "<tool_response>" not in text:
        return None
    body = text.rsplit("<tool_response>", 1)[1].split("</tool_response>", 1)[0]
    return re.sub(r"<\|vision_start\|>(?:<\|image_pad\|>)*<\|vision_end\|>", "<image>",
                  body).strip()


class Record(TrainerCallback):
    """What the environments returned, episode by episode, in TRL's batch order (the order
    it asks for the rewards), and, step by step, the rewards TRL kept for its logs (its
    per-completion table, which holds one generation batch)."""

    def __init__(self, tasks: list[dict]) -> None:
        self.tasks = [task["task"] for task in tasks]
        self.trainer = None
        self.episodes: list[dict] = []
        self.images: list[list[np.ndarray]] = []  # per episode: the first screen, then tools'
        self.trl_rewards: list[float] = []

    def on_step_end(self, args, state, control, **kwargs):
        self.trl_rewards += list(self.trainer._logs["rewards"][ENV_NAME])

    def step(self) -> int:
        return self.trainer.state.global_step


def recording(env_class: type, record: Record) -> type:
    """`env_class` keeping what each episode showed and was paid; its tools are the
    class's own (TRL builds their schemas from them), only reset, the private display
    helper and get_reward are wrapped."""

    def reset(self, **row):
        shown = env_class.reset(self, **row)
        self._shown_images = [np.asarray(block["image"]) for block in shown
                              if block["type"] == "image"]
        self._texts = [block["text"] for block in shown if block["type"] == "text"]
        self._step = record.step()
        self._task = record.tasks.index(row["task"])
        return shown

    def _shown(self, turn):
        blocks = env_class._shown(self, turn)
        self._shown_images += [np.asarray(block["image"]) for block in blocks
                               if block["type"] == "image"]
        self._texts += [block["text"] for block in blocks if block["type"] == "text"]
        return blocks

    def get_reward(self):
        session = self.session
        reward = env_class.get_reward(self)
        record.images.append(self._shown_images)
        record.episodes.append({
            "step": self._step, "task": self._task, "reward": reward,
            "ended": self.result.ended,
            "turns": self.result.turns, "action_errors": self.result.action_errors,
            "images": len(self._shown_images), "texts": self._texts,
            "first_screen": hashlib.sha256(self._shown_images[0].tobytes()).hexdigest(),
            "first_screen_size": list(self._shown_images[0].shape[1::-1]),
            "session": session.id})
        return reward

    return type(ENV_NAME, (env_class,), {"reset": reset, "_shown": _shown,
                                         "get_reward": get_reward})


class VisionTower:
    """The vision tower's calls: each image's pixel rows (as a hash), to compare with the
    images the episodes showed."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.calls: list[dict] = []

    def hook(self, module, args, kwargs):
        pixels = args[0] if args else kwargs["hidden_states"]
        grid = kwargs.get("grid_thw", args[1] if len(args) > 1 else None)
        self.calls.append({"step": self.record.step(), "grid_thw": grid.tolist(),
                           "images": image_hashes(pixels, grid)})

    def summary(self, image_processor) -> list[dict]:
        """Each call against the episodes of its step: TRL shuffles a generation batch's
        samples before the loss, so the call's images must be the episodes' images, each
        episode's together and in its order, every episode once, in some order."""
        shown = episode_hashes(self.record, image_processor)
        out = []
        for call in self.calls:
            episodes = [hashes for episode, hashes in zip(self.record.episodes, shown,
                                                          strict=True)
                        if episode["step"] == call["step"]]
            out.append({"step": call["step"], "images": len(call["images"]),
                        "grid_thw": call["grid_thw"],
                        "episodes_in_some_order": covers(call["images"], episodes)})
        return out


def image_hashes(pixels: torch.Tensor, grid: torch.Tensor) -> list[str]:
    """One hash per image of a batch's pixel rows (t * h * w rows each, in grid order)."""
    rows = [int(t * h * w) for t, h, w in grid.tolist()]
    return [hashlib.sha256(part.detach().to(torch.float32).contiguous().numpy().tobytes())
            .hexdigest()[:16] for part in torch.split(pixels, rows)]


def episode_hashes(record: Record, image_processor) -> list[list[str]]:
    """Per episode, the hashes of its images as the processor makes them."""
    out = []
    for images in record.images:
        inputs = image_processor(images=images, return_tensors="pt")
        out.append(image_hashes(inputs["pixel_values"], inputs["image_grid_thw"]))
    return out


def covers(sequence: list[str], parts: list[list[str]]) -> bool:
    """Whether `sequence` is the concatenation of all of `parts`, each once, in some order."""
    if not parts:
        return not sequence
    return any(sequence[:len(part)] == part and covers(sequence[len(part):],
                                                       parts[:i] + parts[i + 1:])
               for i, part in enumerate(parts))


def watch_vision_tower(model, record: Record) -> VisionTower:
    tower = VisionTower(record)
    model.model.visual.register_forward_pre_hook(tower.hook, with_kwargs=True)
    return tower


def tool_schemas(trainer) -> list[dict]:
    """The tools' JSON schemas, as transformers builds them for the chat template."""
    from transformers.utils import get_json_schema

    return [get_json_schema(tool) for tool in trainer.tools]


if __name__ == "__main__":
    main()
