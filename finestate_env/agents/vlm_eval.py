"""`finestate eval`: a VLM agent over a static instances file, and the VDA's Δ_vis.

Predictions are written one line at a time as they come (a crash loses
nothing already answered, and the response cache makes the rerun free).
With a VDA (`--vda oracle|model`) the same model also answers the same
instances without a hint (the baseline arm), so that

    Δ_vis = ES-SR@Int with hints - ES-SR@Int without,

static (box proxy, on these instances) here, and live through `finestate replay`
of both prediction files or `finestate run --agent openai --vda ...` on seeds.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from finestate_env.agents.vlm_agent import VLMAgent
from finestate_env.core.schema import Instance, Prediction


@dataclass(frozen=True)
class Arm:
    """One pass of one agent over the instances, into `folder/predictions.jsonl`."""

    name: str  # "vda-oracle", "baseline", "no-vda" ...
    agent: VLMAgent
    folder: Path


def load_screenshot(instance: Instance, base_dir: Path) -> np.ndarray:
    """The instance's image (relative to the instances file) as an HxWx3 uint8 array."""
    if not instance.image:
        raise ValueError(f"instance {instance.id!r} has no image: a VLM needs the screenshot")
    path = (base_dir / instance.image.replace("\\", "/")).resolve()
    try:
        with Image.open(path) as image:
            pixels = np.asarray(image.convert("RGB"))
    except OSError as exc:
        raise ValueError(f"instance {instance.id!r}: cannot read its image {path}: "
                         f"{exc}") from None
    height, width = pixels.shape[:2]
    if instance.size is None:
        raise ValueError(f"instance {instance.id!r} has no image size (its image was not "
                         f"found when it was read); {path} exists now: read the file again")
    if (width, height) != (instance.size.width, instance.size.height):
        raise ValueError(f"instance {instance.id!r}: image {path} is {width}x{height}, the "
                         f"instance says {instance.size.width}x{instance.size.height}")
    return pixels


def predict_all(agent: VLMAgent, instances: Sequence[Instance], base_dir: Path, path: Path,
                on_prediction: Callable[[int, Prediction], None] | None = None,
                ) -> list[Prediction]:
    """Every instance's prediction, each line flushed to `path` as soon as it is answered."""
    path.parent.mkdir(parents=True, exist_ok=True)
    predictions = []
    with open(path, "w", encoding="utf-8") as f:
        for index, instance in enumerate(instances):
            prediction = agent.predict(instance, load_screenshot(instance, base_dir))
            f.write(prediction.model_dump_json() + "\n")
            f.flush()
            predictions.append(prediction)
            if on_prediction:
                on_prediction(index, prediction)
    return predictions


def static_metrics(instances: Sequence[Instance], predictions: Sequence[Prediction],
                   ) -> dict[str, Any]:
    """Stage-wise static scores (`finestate_env.core.static_scoring`): the overall metric set."""
    from finestate_env.core.static_scoring import score

    _, summary = score(instances, predictions, mode="stagewise")
    return summary["overall"]


def delta_vis(with_hint: dict[str, Any], baseline: dict[str, Any]) -> float:
    """ES-SR@Int with hints minus without."""
    return round(with_hint["es_sr_int"] - baseline["es_sr_int"], 6)


def evaluate(arms: Sequence[Arm], instances: Sequence[Instance], base_dir: Path,
             on_prediction: Callable[[str, int, Prediction], None] | None = None,
             ) -> dict[str, Any]:
    """Run every arm, write its predictions and usage; the summary (static metrics, Δ_vis)."""
    summary: dict[str, Any] = {"instances": len(instances), "arms": {}}
    for arm in arms:
        callback = (lambda i, p, name=arm.name: on_prediction(name, i, p)) if on_prediction \
            else None
        predictions = predict_all(arm.agent, instances, base_dir,
                                  arm.folder / "predictions.jsonl", callback)
        usage = arm.agent.chat.usage.as_json()
        (arm.folder / "usage.json").write_text(json.dumps(
            {"model": arm.agent.chat.model, "coords": arm.agent.profile.coords,
             "vda": arm.agent.vda, **usage}, indent=2) + "\n")
        summary["arms"][arm.name] = {
            "folder": str(arm.folder), "vda": arm.agent.vda,
            "vda_parts": arm.agent.vda_parts if arm.agent.vda != "none" else None,
            "unparsed": sum(getattr(p, "parse_error", None) is not None for p in predictions),
            "static": static_metrics(instances, predictions), "usage": usage}
    names = list(summary["arms"])
    if len(names) == 2:
        hinted, baseline = (summary["arms"][n]["static"] for n in names)
        summary["delta_vis"] = {"static": delta_vis(hinted, baseline),
                                "with": names[0], "without": names[1]}
    return summary


def live_vda_summary(vda: str, parts: str, with_hint: Sequence[Any],
                     baseline: Sequence[Any]) -> dict[str, Any]:
    """Δ_vis from two live runs (`StepResult`s) over the same seeds: live and static."""
    from finestate_env.core import scoring

    ids = [r.id for r in with_hint]
    if ids != [r.id for r in baseline]:
        raise ValueError("the runs with and without hints did not see the same instances")
    rates = {
        arm: {which: scoring.metric_set(getattr(r, which) for r in results)["es_sr_int"]
              for which in ("live", "static")}
        for arm, results in (("with", with_hint), ("without", baseline))}
    return {"mode": vda, "parts": parts, "instances": len(ids), **rates,
            "delta_vis": {which: round(rates["with"][which] - rates["without"][which], 6)
                          for which in ("live", "static")}}
