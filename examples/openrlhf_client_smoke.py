"""OpenRLHF's own reward client against `finestate serve`, and its loader on
examples/openrlhf_reward_func.py.

    python examples/openrlhf_client_smoke.py --smoke    # what make test runs (CPU, ~25 s)

The samples are built as OpenRLHF builds them: `finestate export-rl`'s openrlhf folder
loaded with `datasets` (as OpenRLHF's blending_datasets loads a .parquet), each prompt
templated by OpenRLHF's preprocess_data (`--data.apply_chat_template`, the `<image>`
placeholder made an image part) and tokenized with its image by OpenRLHF's
process_prompt_with_images (a Qwen2.5-VL processor built here, examples/tiny_vlm.py);
each query is that prompt's tokens and a response's, decoded with the special tokens
kept, as SingleTurnAgentExecutor.execute decodes it. The responses are chosen
(examples/chosen_answers.py), 8 per instance, so that the rewards mean something.

Then OpenRLHF's client code scores them: `SingleTurnAgentExecutor(url)` posts each sample
alone to `finestate serve`'s /get_reward (started here as a subprocess on a free port),
the 8 samples of each instance at once, as a GRPO group's rollouts finish together; and
`SingleTurnAgentExecutor("examples/openrlhf_reward_func.py")` loads our reward_func with
its own loader and calls it per sample, in modes exact and box. RewardScorer scores the
same completions directly. The flags of examples/openrlhf_remote_reward.sh are checked
against those OpenRLHF's train_ppo_ray declares. One JSON line last.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
SMOKE_COMPONENTS = ["slider", "checkbox"]
SMOKE_MAX_PIXELS = 128 * 28 * 28


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", required=True,
                        help="the only mode: samples, the server, OpenRLHF's client, a JSON line")
    parser.parse_args()
    smoke()


def script_flags() -> dict[str, list[str]]:
    """The flags of examples/openrlhf_remote_reward.sh, and those of them OpenRLHF's
    train_ppo_ray does not declare (read from its source: its parser is built under
    `__main__`, and importing the module needs vLLM)."""
    source = Path(importlib.util.find_spec("openrlhf.cli.train_ppo_ray").origin).read_text()
    declared = set(re.findall(r'"(--[a-z_.]+)"', source))
    for prefix in ("actor", "critic"):  # its f"--{prefix}...." optimizer flags
        declared |= {f"--{prefix}" + rest for rest in re.findall(r'f"--\{prefix\}([a-z_.]+)"',
                                                                  source)}
    script = (HERE / "openrlhf_remote_reward.sh").read_text()
    used = re.findall(r"^\s+(--[a-z_.]+)", script, flags=re.MULTILINE)
    return {"used": used, "undeclared": [flag for flag in used if flag not in declared]}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    """`finestate serve` as a user starts it, answering /health."""
    finestate = shutil.which("finestate", path=str(Path(sys.executable).parent))
    command = ([finestate] if finestate else [sys.executable, "-m", "finestate_env.cli.main"])
    server = subprocess.Popen(command + ["serve", "--port", str(port), "--workers", "2"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"finestate serve exited {server.returncode}: "
                               f"{server.stderr.read()[-2000:]}")
        try:
            if health(port)["status"] == "ok":
                return server
        except OSError:
            pass
        time.sleep(0.2)
    server.kill()
    raise RuntimeError("finestate serve did not answer /health within 60 s")


def health(port: int) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=5) as reply:
        return json.load(reply)


def samples(rows, processor) -> list[dict]:
    """(query, prompt, label, completion) as OpenRLHF builds them (the module docstring)."""
    from chosen_answers import KINDS, answers
    from openrlhf.datasets.prompts_dataset import preprocess_data
    from openrlhf.utils.vlm_utils import process_prompt_with_images

    from finestate_env.rewards import GroundTruth

    tokenizer = processor.tokenizer
    out = []
    for row in rows:
        prompt, label = preprocess_data(row, None, "prompt", "label",
                                        processor.apply_chat_template)
        prompt_ids, _, _ = process_prompt_with_images(processor, prompt, row["images"])
        chosen = answers(GroundTruth.read(label))
        for kind in KINDS:
            response_ids = (tokenizer.encode(chosen[kind], add_special_tokens=False)
                            + [tokenizer.eos_token_id])
            query = tokenizer.decode(prompt_ids + response_ids, skip_special_tokens=False)
            out.append({"id": row["extra_info"]["id"], "kind": kind, "query": query,
                        "prompt": prompt, "label": label, "completion": chosen[kind],
                        "image_tokens": prompt_ids.count(
                            tokenizer.convert_tokens_to_ids("<|image_pad|>"))})
    return out


async def over_http(url: str, batch: list[dict]) -> tuple[list[dict], float]:
    """Every sample posted alone by OpenRLHF's client, all at once."""
    from openrlhf.utils.agent import SingleTurnAgentExecutor

    executor = SingleTurnAgentExecutor(url)
    started = time.perf_counter()
    answers = await asyncio.gather(*(executor._fetch_rewards_via_http(
        [s["query"]], [s["prompt"]], [s["label"]]) for s in batch))
    return [answer[0] for answer in answers], time.perf_counter() - started


async def through_file(batch: list[dict]) -> list[dict]:
    """Our reward_func, loaded and called per sample by OpenRLHF's executor."""
    from openrlhf.utils.agent import SingleTurnAgentExecutor

    executor = SingleTurnAgentExecutor(str(HERE / "openrlhf_reward_func.py"))
    answers = await asyncio.gather(*(executor._fetch_rewards_via_func(
        [s["query"]], [s["prompt"]], [s["label"]]) for s in batch))
    return [answer[0] for answer in answers]


def smoke() -> None:
    sys.path.insert(0, str(HERE))
    import datasets
    import tiny_vlm

    from finestate_env.rewards import RewardScorer
    from finestate_env.rewards.export import export_rl

    started = time.perf_counter()
    port = free_port()
    server = start_server(port)
    try:
        with tempfile.TemporaryDirectory(prefix="finestate-openrlhf-") as tmp:
            export_rl(tmp, n=len(SMOKE_COMPONENTS), seed=0, component=SMOKE_COMPONENTS,
                      scene="control", max_pixels=SMOKE_MAX_PIXELS, trainers=["openrlhf"])
            rows = datasets.load_dataset(
                "parquet", data_files=str(Path(tmp) / "openrlhf" / "train.parquet"))["train"]
            processor = tiny_vlm.processor(
                [row["prompt"][0]["content"] for row in rows]
                + [json.dumps({"p0": [i, 2 * i]}) for i in range(300)], SMOKE_MAX_PIXELS)
            batch = samples(rows, processor)
        url = f"http://127.0.0.1:{port}/get_reward"
        http, http_s = asyncio.run(over_http(url, batch))
        served = health(port)
        by_file = {}
        for mode in ("exact", "box"):
            os.environ["FINESTATE_REWARD_MODE"] = mode
            by_file[mode] = asyncio.run(through_file(batch))
        labels = [s["label"] for s in batch]
        completions = [s["completion"] for s in batch]
        with RewardScorer("exact", workers=1) as scorer:
            direct = {mode: scorer.score(labels, completions, mode) for mode in ("exact", "box")}
    finally:
        server.send_signal(signal.SIGINT)  # Ctrl-C: uvicorn shuts down gracefully
        server.wait(timeout=60)
    print(json.dumps({
        "library": "openrlhf", "version": importlib.metadata.version("openrlhf"),
        "server_exit": server.returncode,
        "samples": [{key: s[key] for key in ("id", "kind", "completion", "image_tokens")}
                    for s in batch],
        "labels": sorted(set(labels)),
        "label_of": [sorted(set(labels)).index(label) for label in labels],
        "http": {"url": url, "answers": http, "seconds": round(http_s, 3),
                 "health": served},
        "reward_func": by_file,
        "direct": {mode: [score.reward for score in scores] for mode, scores in direct.items()},
        "direct_live_exact": [score.live_exact for score in direct["exact"]],
        "script_flags": script_flags(),
        "wall_s": round(time.perf_counter() - started, 2)}))


if __name__ == "__main__":
    main()
