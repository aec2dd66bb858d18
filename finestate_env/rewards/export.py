"""A training dataset for VLM trainers: screenshots, prompts and ground truths as Parquet
(`finestate export-rl`).

Each row is one instance rendered live (datasets/generate.py: the same plan of types,
the same seeds, one env), in the columns TRL's GRPOTrainer and verl's RLHFDataset read
as they are:

- `data_source`: "finestate/<platform>" (verl picks the reward function by it);
- `prompt`: one user message asking for the two points in the convention of the model
  profile (agents/vlm_prompt.py). verl and OpenRLHF want the image's place marked in
  the text (`<image>`), TRL puts the image before the text itself: the prompt is
  written for one of them (`trainer`), in `DIR/<trainer>/`;
- `images`: the screenshot, one PNG per row (Hugging Face `datasets` decodes it to a PIL
  image: the Parquet carries the datasets feature types);
- `reward_model`: `{"style": "rule", "ground_truth": <JSON text>}`, the ground truth of
  rewards/ground_truth.py: the instance with the live block that renders the same
  screen again, its boxes, and the answer's convention and frame;
- `extra_info`: the row's index, split, instance id, type, family, gesture, platform,
  episode seed;
- OpenRLHF's folder only: `label`, the ground truth's JSON text again, at the top level
  (OpenRLHF's `--data.label_key` names a top-level column and sends its value, which
  must be that text, to the reward server or `reward_func` as it is).

With `max_actions` K above 1 the rows are for multi-turn sessions (finestate_env.sessions,
docs/agentic-training.md): goals lie up to K gestures away where the type allows (the
far goals of docs/multi-step.md), the prompt states the gesture, the turn budget and how
to end (agents/vlm_prompt.py; for TRL the gesture and done tools), and each row carries its
session task, the JSON text that opens a session on the same screen (the first
screenshot, pixel for pixel) with K gestures: `task` (a column of its own, which TRL
hands to the environment's `reset`), `extra_info.task` with `extra_info.max_actions`,
`extra_info.oracle_actions` (the gestures the oracle takes) and verl's `agent_name`
("finestate_gui", the registered agent loop), and OpenRLHF's `label` is the task.

`DIR/export.json` says how the files were made. The same arguments write the same
files, byte for byte.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from finestate_env import __version__, components
from finestate_env.agents.vlm_prompt import (
    known_models,
    known_profile,
    profile_for,
    session_prompt,
    task_prompt,
)
from finestate_env.components.scenes import DEFAULT_SCENE
from finestate_env.core.errors import UsageError
from finestate_env.core.extras import require
from finestate_env.core.files import write_text
from finestate_env.core.schema import CoordConvention, Instance, Platform
from finestate_env.datasets.generate import (
    InstanceMaker,
    SeedStream,
    distinct_instances,
    env_id_for,
    plan,
)
from finestate_env.rewards.ground_truth import ground_truth

Trainer = Literal["trl", "verl", "openrlhf"]
TRAINERS: tuple[Trainer, ...] = ("trl", "verl", "openrlhf")
# Where verl's RLHFDataset and OpenRLHF's PromptDataset put the image in the text.
IMAGE_PLACEHOLDER = "<image>"
# The test split's plan is drawn apart from the train split's.
TEST_PLAN_SALT = 7919
ROWS_PER_GROUP = 64  # Parquet row group: bounded memory while writing
# A multi-turn row's session task (finestate_env/sessions/task.py reads it; the layers
# keep this module below the sessions, so the format is written here by name).
SESSION_FORMAT = "finestate-session/1"
# The agent loop verl runs a multi-turn row with (finestate_env/agentic/verl.py).
VERL_AGENT_NAME = "finestate_gui"


@dataclass(frozen=True)
class ExportResult:
    out: Path
    files: dict[str, Path]  # "<trainer>/<split>" -> Parquet file
    rows: dict[str, int]  # split -> rows
    instances_per_second: float


def parquet_schema(trainer: Trainer = "trl", multi_turn: bool = False):
    """The Arrow schema of a row for `trainer`, with the Hugging Face feature types that
    make `datasets` decode `images` as PIL images; `multi_turn`: with the session task
    columns (the module docstring)."""
    pa = require("pyarrow", "rewards", "export-rl's Parquet")

    message = pa.struct([("role", pa.string()), ("content", pa.string())])
    image = pa.struct([("bytes", pa.binary()), ("path", pa.string())])
    extra_fields = [("index", pa.int64()), ("split", pa.string()), ("id", pa.string()),
                    ("component", pa.string()), ("family", pa.string()),
                    ("gesture", pa.string()), ("platform", pa.string()), ("seed", pa.int64())]
    if multi_turn:
        extra_fields += [("task", pa.string()), ("max_actions", pa.int64()),
                         ("oracle_actions", pa.int64())]
    extra = pa.struct(extra_fields)
    features = {
        "data_source": {"dtype": "string", "_type": "Value"},
        "prompt": [{"role": {"dtype": "string", "_type": "Value"},
                    "content": {"dtype": "string", "_type": "Value"}}],
        "images": [{"_type": "Image"}],
        "reward_model": {"style": {"dtype": "string", "_type": "Value"},
                         "ground_truth": {"dtype": "string", "_type": "Value"}},
        "extra_info": {name: {"dtype": "int64" if kind == pa.int64() else "string",
                              "_type": "Value"} for name, kind in extra_fields},
    }
    fields = [("data_source", pa.string()), ("prompt", pa.list_(message)),
              ("images", pa.list_(image)),
              ("reward_model", pa.struct([("style", pa.string()),
                                          ("ground_truth", pa.string())])),
              ("extra_info", extra)]
    if multi_turn:
        fields += [("task", pa.string()), ("agent_name", pa.string())]
        features["task"] = features["agent_name"] = {"dtype": "string", "_type": "Value"}
    if trainer == "openrlhf":
        fields.append(("label", pa.string()))
        features["label"] = {"dtype": "string", "_type": "Value"}
    return pa.schema(fields,
                     metadata={"huggingface": json.dumps({"info": {"features": features}})})


def prompt_text(instance: Instance, coords: CoordConvention, frame: tuple[int, int],
                trainer: Trainer, max_actions: int = 1) -> str:
    """The user message's text: the task in the profile's convention, over the frame
    the model sees (with max_actions above 1, the multi-turn session's first turn); for
    verl and OpenRLHF with the image's placeholder in front."""
    if max_actions > 1:
        text = session_prompt(instance.instructions.interact, coords, frame, max_actions,
                              tool=trainer == "trl")
    else:
        text = task_prompt(instance.instructions.interact, coords, frame)
    return text if trainer == "trl" else IMAGE_PLACEHOLDER + text


def export_rl(out_dir: str | Path, *, platform: Platform = "web", n: int, seed: int = 0,
              test_n: int = 0, model: str = "qwen2.5-vl", coords: CoordConvention | None = None,
              max_pixels: int | None = None, trainers: Iterable[Trainer] = TRAINERS,
              component: str | Iterable[str] | None = None,
              family: str | Iterable[str] | None = None,
              viewport: tuple[int, int] | str | None = None, scene: str = DEFAULT_SCENE,
              max_actions: int = 1,
              progress: Callable[[int, int], None] | None = None) -> ExportResult:
    """Render `n` training rows (and `test_n` held-out ones) and write them for each of
    `trainers` under `out_dir` (the module docstring).

    `model` picks the profile (its coordinate convention, and for Qwen2.5-VL the frame its
    processor resizes to, under `max_pixels` when the trainer sets one); `coords`
    overrides the convention; `max_actions` above 1: rows for multi-turn sessions of that
    many gestures (the module docstring)."""
    import time

    require("pyarrow", "rewards", "export-rl's Parquet")  # before any instance is rendered
    trainers = tuple(dict.fromkeys(trainers))
    for trainer in trainers:
        if trainer not in TRAINERS:
            raise UsageError(f"unknown trainer {trainer!r}; expected some of {list(TRAINERS)}")
    if test_n < 0:
        raise UsageError(f"test_n must be 0 or more, got {test_n}")
    if isinstance(max_actions, bool) or not isinstance(max_actions, int) or \
            not 1 <= max_actions <= 100:
        raise UsageError(f"max_actions must be a whole number in 1..100, got {max_actions!r}")
    if coords is None and known_profile(model) is None:
        # A guessed convention would train on the wrong frame without a word.
        raise UsageError(f"model {model!r} matches no model profile; known: {known_models()}; "
                         "for another model give its coordinate convention (coords)")
    profile = profile_for(model, coords)
    splits = {"train": plan(n, seed, component, family)}
    if test_n:
        splits["test"] = plan(test_n, seed + TEST_PLAN_SALT, component, family)
    env_id_for(platform)  # refused before any file is touched
    out = Path(out_dir)
    names = sorted({t for types in splits.values() for t in types},
                   key=list(components.COMPONENTS).index)
    maker = InstanceMaker(platform, names, viewport, scene, max_actions)
    seeds, seen = SeedStream(seed), set()
    files: dict[str, Path] = {}
    frames: set[tuple[int, int]] = set()
    total, made = sum(len(t) for t in splits.values()), 0
    started = time.perf_counter()

    def rows_of(types: list[str]):
        nonlocal made
        for _, line, png in distinct_instances(maker, types, seeds, seen):
            instance = Instance.model_validate_json(line)
            frame = profile.answer_frame((instance.size.width, instance.size.height),
                                         max_pixels)
            frames.add(frame)
            made += 1
            if progress:
                progress(made, total)
            yield instance, png, frame

    try:
        for split, types in splits.items():
            paths = {trainer: out / trainer / f"{split}.parquet" for trainer in trainers}
            _write_split(paths, rows_of(types), split, profile.coords, max_actions)
            files.update({f"{trainer}/{split}": path for trainer, path in paths.items()})
    finally:
        maker.close()
    speed = total / (time.perf_counter() - started)
    rows = {split: len(types) for split, types in splits.items()}
    manifest = {"finestate_env": __version__, "platform": platform, "n": n, "test_n": test_n,
                "seed": seed, "model": model, "coords": profile.coords,
                "frames": sorted(list(f) for f in frames), "max_pixels": max_pixels,
                "scene": scene, "viewport": viewport, "component": component,
                "family": family, "rows": rows,
                **({"max_actions": max_actions} if max_actions > 1 else {}),
                "files": {key: str(path.relative_to(out)) for key, path in files.items()}}
    write_text(out / "export.json", json.dumps(manifest, indent=2) + "\n")
    return ExportResult(out, files, rows, speed)


def _write_split(paths: dict[Trainer, Path], rows: Iterable[tuple[Instance, bytes,
                                                                   tuple[int, int]]],
                 split: str, coords: CoordConvention, max_actions: int = 1) -> None:
    """Write one split's rows to each trainer's file, ROWS_PER_GROUP at a time."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schemas = {trainer: parquet_schema(trainer, max_actions > 1) for trainer in paths}
    writers = {}
    try:
        for trainer, path in paths.items():
            path.parent.mkdir(parents=True, exist_ok=True)
            writers[trainer] = pq.ParquetWriter(path, schemas[trainer], compression="zstd")
        batch: list[tuple[Instance, bytes, tuple[int, int]]] = []
        index = 0
        for row in itertools.chain(rows, [None]):  # None: the end, write what is left
            if row is not None:
                batch.append(row)
            if batch and (row is None or len(batch) == ROWS_PER_GROUP):
                for trainer, writer in writers.items():
                    writer.write_table(pa.Table.from_pylist(
                        [_row(inst, png, split, index + i, coords, frame, trainer,
                              max_actions)
                         for i, (inst, png, frame) in enumerate(batch)],
                        schema=schemas[trainer]))
                index += len(batch)
                batch = []
    finally:
        for writer in writers.values():
            writer.close()


def _row(instance: Instance, png: bytes, split: str, index: int, coords: CoordConvention,
         frame: tuple[int, int], trainer: Trainer, max_actions: int = 1) -> dict:
    truth = ground_truth(instance, coords, frame).text()
    row = {
        "data_source": f"finestate/{instance.platform}",
        "prompt": [{"role": "user",
                    "content": prompt_text(instance, coords, frame, trainer, max_actions)}],
        "images": [{"bytes": png, "path": None}],
        "reward_model": {"style": "rule", "ground_truth": truth},
        "extra_info": {"index": index, "split": split, "id": instance.id,
                       "component": instance.component, "family": instance.family,
                       "gesture": instance.gesture, "platform": instance.platform,
                       "seed": instance.live.seed},
    }
    if max_actions > 1:
        task = session_task_text(truth, max_actions)
        params = instance.live.params
        row["extra_info"].update(task=task, max_actions=max_actions,
                                 oracle_actions=components.COMPONENTS[instance.component]
                                 .oracle_actions(params, instance.current_state,
                                                 instance.goal_state))
        row.update(task=task, agent_name=VERL_AGENT_NAME)
    if trainer == "openrlhf":
        row["label"] = row.get("task", truth)
    return row


def session_task_text(truth: str, max_actions: int) -> str:
    """The session task of a row (SessionTask.text()'s form): its ground truth, K gestures."""
    return json.dumps({"format": SESSION_FORMAT, "ground_truth": json.loads(truth),
                       "max_actions": max_actions}, separators=(",", ":"))
