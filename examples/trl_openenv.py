"""TRL's GRPOTrainer on FineState over the network: an `environment_factory` whose
instances each open a `FineStateEnvClient` (OpenEnv's EnvClient) to a `finestate serve-env`
server, as TRL's own OpenEnv examples do (trl/examples/scripts/openenv/: `reset` and the
tool methods call the client, `get_reward` pays the episode), docs/openenv.md.

    finestate export-rl --n 2000 --model qwen3-vl --max-actions 3 --trainer trl --out data/fs3
    finestate serve-env --max-sessions 64 --tasks data/fs3            # on the env machine
    python examples/trl_openenv.py --url http://ENV-HOST:8000 --data data/fs3 \\
        --model Qwen/Qwen3-VL-4B-Instruct                            # on the GPU machine
    python examples/trl_openenv.py --smoke     # the class against a live serve-env, no TRL

Each rollout's instance holds one WebSocket session: the server's --max-sessions must
cover a generation batch (TRL's docs: max_concurrent_envs >= generation_batch_size). The
row's `task` column opens the session (the same first screen for every member of a GRPO
group); `gesture(x0, y0, x1, y1)` performs one gesture and returns the new screen;
`done()` ends the episode; `get_reward()` is the exact verdict of the state the last
gesture left (1.0 at the goal with no other control changed, else 0.0), None when the
server could not judge it (TRL keeps that rollout out of its group's baseline).

--smoke starts `finestate serve-env` (a subprocess on 127.0.0.1, port 0) with the tasks of
a tiny export (`finestate export-rl`, a slider and a checkbox, 3 gestures each), takes the
rows from the server's task routes, and plays a GRPO group of 2 per row through the
factory class's own methods, as TRL's tool loop calls them (reset, gesture, done,
get_reward): one member makes a wrong gesture, then the right one, then calls done
(reward 1.0); the other makes two wrong gestures and stops (0.0). The right gesture is
read from the session's state (its boxes), which the trainer may see and the model may
not. It prints one JSON line last. TRL itself is not needed for the smoke.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from finestate_env.agentic.openenv import GestureAction
from finestate_env.agentic.openenv_client import FineStateEnvClient
from finestate_env.agents.vlm_prompt import session_prompt, turn_prompt

SMOKE_COMPONENTS = "slider,checkbox"
SMOKE_MAX_ACTIONS = 3
SMOKE_GENERATIONS = 2


class FineStateOpenEnv:
    """One rollout's episode over a `finestate serve-env` session, in the shape TRL's
    `environment_factory` expects (no constructor arguments: `openenv_env(...)` binds the
    server). Every public method but reset and get_reward is a tool for the model."""

    base_url = "http://127.0.0.1:8000"
    token: str | None = None
    max_side: int | None = 512  # screenshots shrunk so no side exceeds it (image tokens)

    def __init__(self) -> None:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else None
        self.client = FineStateEnvClient(base_url=self.base_url, headers=headers,
                                         message_timeout_s=300).sync()
        self.client.connect()
        self.reward: float | None = None
        self.over = False

    def reset(self, **row: Any) -> list[dict[str, Any]]:
        """Open an episode of the row's task (its `task` column) and return the first
        screen and the task's text."""
        result = self.client.reset(task=row["task"])
        state = self.client.state()
        self.reward, self.over = state.reward, False  # the start's verdict, before a gesture
        text = session_prompt(result.observation.instruction, state.coords,
                              tuple(state.frame), state.max_actions, tool=True)
        return [self._image(result.observation), {"type": "text", "text": text}]

    def gesture(self, x0: int, y0: int, x1: int, y1: int) -> list[dict[str, Any]]:
        """Make one gesture on the screen: press at (x0, y0), move to (x1, y1) and release
        there. The same point twice is a click or a tap.

        Args:
            x0: Horizontal coordinate of the press point, in the coordinates the task states.
            y0: Vertical coordinate of the press point.
            x1: Horizontal coordinate of the release point.
            y1: Vertical coordinate of the release point.

        Returns:
            The screen after the gesture, with a line of feedback.
        """
        if self.over:
            return [{"type": "text", "text": "The episode is over: nothing was performed."}]
        try:
            result = self.client.step(GestureAction(p0=[x0, y0], p1=[x1, y1]))
        except RuntimeError as exc:  # the server's error (unjudged, points refused...)
            if "unjudged" in str(exc):
                self.reward, self.over = None, True
            return [{"type": "text", "text": f"Nothing was performed: {exc}"}]
        self.reward, self.over = result.reward, result.done
        feedback = turn_prompt(result.observation.feedback)
        return [self._image(result.observation), {"type": "text", "text": feedback}]

    def done(self) -> str:
        """End the episode. Call it when the control shows exactly what the task asks.

        Returns:
            A confirmation that the episode is over.
        """
        self.over = True
        return "The episode is over."

    def get_reward(self) -> float | None:
        """The exact verdict of the state the episode ended in; None: unjudged."""
        self.over = True
        return self.reward

    def _image(self, observation) -> dict[str, Any]:
        image = observation.image()
        if self.max_side is not None:
            image.thumbnail((self.max_side, self.max_side))
        return {"type": "image", "image": image}


def openenv_env(base_url: str, *, token: str | None = None,
                max_side: int | None = 512) -> type[FineStateOpenEnv]:
    """FineStateOpenEnv bound to a server, for `environment_factory=`."""
    return type("FineStateOpenEnv", (FineStateOpenEnv,), {
        "__doc__": FineStateOpenEnv.__doc__, "base_url": base_url, "token": token,
        "max_side": max_side})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true",
                        help="the factory class against a live serve-env, without TRL")
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="serve-env's address")
    parser.add_argument("--token-env", default="FINESTATE_ENV_TOKEN",
                        help="environment variable holding the server's token, if any")
    parser.add_argument("--data", help="export-rl's folder (--max-actions K, --trainer trl)")
    parser.add_argument("--model", default="Qwen/Qwen3-VL-4B-Instruct")
    parser.add_argument("--output-dir", default="out/grpo-openenv")
    parser.add_argument("--num-generations", type=int, default=8)
    parser.add_argument("--max-steps", type=int, default=500)
    args = parser.parse_args()
    if args.smoke:
        smoke()
    elif args.data is None:
        parser.error("--data DIR (finestate export-rl --max-actions K) is needed without --smoke")
    else:
        train(args)


def train(args: argparse.Namespace) -> None:
    """The real-model run: Qwen3-VL-4B in bf16 on one GPU, vLLM colocated, the episodes
    on the serve-env machine."""
    import datasets
    import torch
    from transformers import AutoProcessor
    from trl import GRPOConfig, GRPOTrainer

    rows = datasets.load_dataset("parquet", split="train",
                                 data_files=str(Path(args.data) / "trl" / "train.parquet"))
    config = GRPOConfig(
        output_dir=args.output_dir, max_steps=args.max_steps, learning_rate=1e-6,
        per_device_train_batch_size=args.num_generations, gradient_accumulation_steps=4,
        num_generations=args.num_generations, max_completion_length=2048,
        max_tool_calling_iterations=6, temperature=1.0, beta=0.0, bf16=True,
        gradient_checkpointing=True, model_init_kwargs={"dtype": torch.bfloat16},
        use_vllm=True, vllm_mode="colocate", vllm_gpu_memory_utilization=0.35,
        vllm_max_model_length=8192, logging_steps=1, save_steps=100, report_to="none")
    trainer = GRPOTrainer(
        model=args.model, args=config, train_dataset=rows.select_columns(["task"]),
        processing_class=AutoProcessor.from_pretrained(args.model, padding_side="left"),
        environment_factory=openenv_env(args.url, token=os.environ.get(args.token_env)))
    trainer.train()
    trainer.save_model(args.output_dir)


# -- the smoke -----------------------------------------------------------------------

def smoke() -> None:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="finestate-trl-openenv-") as tmp:
        finestate = [sys.executable, "-m", "finestate_env.cli"]
        subprocess.run([*finestate, "export-rl", "--n", "2", "--seed", "1", "--model",
                        "qwen3-vl", "--max-actions", str(SMOKE_MAX_ACTIONS), "--trainer", "trl",
                        "--component", SMOKE_COMPONENTS, "--out", tmp], check=True,
                       capture_output=True)
        server = subprocess.Popen([*finestate, "serve-env", "--port", "0", "--max-sessions",
                                   str(2 * SMOKE_GENERATIONS), "--tasks", tmp],
                                  stderr=subprocess.PIPE, text=True)
        try:
            url = listening(server)
            summary = play(url)
        finally:
            server.terminate()
            server.wait(30)
    summary["wall_s"] = round(time.perf_counter() - started, 2)
    print(json.dumps(summary))


def listening(server: subprocess.Popen) -> str:
    """The http:// address the server prints once it listens."""
    line = server.stderr.readline()
    found = re.search(r"\(http://([^)]+)\)", line)
    if found is None:
        raise SystemExit(f"finestate serve-env did not start: {line}{server.stderr.read()}")
    return "http://" + found.group(1)


def play(url: str) -> dict[str, Any]:
    import httpx

    rows = httpx.post(f"{url}/finestate/task_range", json={"split": "train"},
                      timeout=60).json()["tasks"]
    env_class = openenv_env(url, max_side=256)
    envs = [env_class() for _ in range(SMOKE_GENERATIONS)]  # TRL's pool for one group
    episodes = []
    try:
        for row in rows:
            for member, env in enumerate(envs):
                shown = env.reset(**row)
                right, wrong = gestures(env.client.state())
                calls = [("gesture", wrong), ("gesture", right), ("done", {})] if member == 0 \
                    else [("gesture", wrong), ("gesture", wrong)]
                replies = [getattr(env, name)(**arguments) for name, arguments in calls]
                episodes.append({
                    "component": row["component"], "member": member,
                    "first_screen": [[*block["image"].size, hashlib.sha256(
                        block["image"].tobytes()).hexdigest()[:16]]
                        for block in shown if block["type"] == "image"],
                    "first_text": shown[-1]["text"],
                    "tools": [name for name, _ in calls],
                    "images": [sum(block["type"] == "image" for block in reply)
                               for reply in replies if isinstance(reply, list)],
                    "feedback": [reply[-1]["text"] if isinstance(reply, list) else reply
                                 for reply in replies],
                    "reward": env.get_reward(),
                    "step_count": env.client.state().step_count})
    finally:
        for env in envs:
            env.client.close()
    return {"url": url, "rows": len(rows), "episodes": episodes,
            "rewards": [e["reward"] for e in episodes]}


def gestures(state) -> tuple[dict[str, int], dict[str, int]]:
    """The right gesture (from the state's boxes, which the model never sees) and a wrong
    one (a click far from the control), in the task's 0-1000 grid."""
    (width, height), boxes = state.size, state.boxes["current"]

    def grid(box):
        return [round((box[0] + box[2]) / 2 * 1000 / width),
                round((box[1] + box[3]) / 2 * 1000 / height)]

    now, goal = grid(boxes["now"]), grid(boxes["goal"])
    far = [950 if now[0] < 500 else 50, 950 if now[1] < 500 else 50]
    return ({"x0": now[0], "y0": now[1], "x1": goal[0], "y1": goal[1]},
            {"x0": far[0], "y0": far[1], "x1": far[0], "y1": far[1]})


if __name__ == "__main__":
    main()
