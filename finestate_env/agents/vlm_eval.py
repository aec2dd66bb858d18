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

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from finestate_env.agents.vlm_agent import VLMAgent, build_agents
from finestate_env.agents.vlm_client import Usage
from finestate_env.core import files
from finestate_env.core.errors import UsageError
from finestate_env.core.schema import Instance, Prediction
from finestate_env.runs.jobs import drop_cut_line, read_records
from finestate_env.runs.ray_jobs import RaySpec, ray_session, run_on_ray


@dataclass(frozen=True)
class AgentRecipe:
    """How a Ray actor builds an arm's agent where it runs: `build_agents`'s options, and
    which of its two agents (the API key is read there, from the same variable)."""

    options: dict[str, Any] = field(default_factory=dict)
    baseline: bool = False

    def __call__(self) -> VLMAgent:
        agent, baseline = build_agents(**self.options)
        return baseline if self.baseline else agent


@dataclass(frozen=True)
class Arm:
    """One pass of one agent over the instances, into `folder/predictions.jsonl`; `recipe`
    builds the same agent on a Ray actor (needed with `ray`)."""

    name: str  # "vda-oracle", "baseline", "no-vda" ...
    agent: VLMAgent
    folder: Path
    recipe: AgentRecipe | None = None


def load_screenshot(instance: Instance, base_dir: Path, trusted_paths: bool = False,
                    ) -> np.ndarray:
    """The instance's image (relative to the instances file) as an HxWx3 uint8 array."""
    path = image_path(instance, base_dir, trusted_paths)
    try:
        data = files.read_bounded(path, files.MAX_IMAGE_BYTES, "an image file")
    except OSError as exc:
        raise UsageError(f"instance {instance.id!r}: cannot read its image {path}: "
                         f"{exc}") from None
    return decode_screenshot(instance, data, path)


def image_path(instance: Instance, base_dir: Path, trusted_paths: bool = False) -> Path:
    """The image file of `instance`, inside the dataset's folder unless `trusted_paths`:
    nothing outside the dataset is ever sent to a model endpoint (core/files.py)."""
    if not instance.image:
        raise UsageError(f"instance {instance.id!r} has no image: a VLM needs the screenshot")
    try:
        return files.resolve_inside(base_dir, instance.image, trusted_paths)
    except UsageError as exc:
        raise UsageError(f"instance {instance.id!r}: {exc}") from None


def decode_screenshot(instance: Instance, data: bytes, path: Path) -> np.ndarray:
    """The image file's bytes (read from `path`) as the instance's HxWx3 uint8 screenshot."""
    try:
        pixels = np.asarray(files.open_image(data, path).convert("RGB"))
    except UsageError as exc:
        raise UsageError(f"instance {instance.id!r}: {exc}") from None
    height, width = pixels.shape[:2]
    if instance.size is None:
        raise UsageError(f"instance {instance.id!r} has no image size (its image was not "
                         f"found when it was read); {path} exists now: read the file again")
    if (width, height) != (instance.size.width, instance.size.height):
        raise UsageError(f"instance {instance.id!r}: image {path} is {width}x{height}, the "
                         f"instance says {instance.size.width}x{instance.size.height}")
    return pixels


def predict_all(agent: VLMAgent, instances: Sequence[Instance], base_dir: Path, path: Path,
                on_prediction: Callable[[int, Prediction], None] | None = None,
                trusted_paths: bool = False) -> list[Prediction]:
    """Every instance's prediction, each line flushed to `path` as soon as it is answered."""
    path.parent.mkdir(parents=True, exist_ok=True)
    predictions = []
    with files.write_new(path, "w", encoding="utf-8") as f:
        for index, instance in enumerate(instances):
            prediction = agent.predict(instance, load_screenshot(instance, base_dir,
                                                                 trusted_paths))
            f.write(prediction.model_dump_json() + "\n")
            f.flush()
            predictions.append(prediction)
            if on_prediction:
                on_prediction(index, prediction)
    return predictions


class PredictWorker:
    """A Ray actor's agent: (instance, image bytes, image path) -> its prediction's line
    and what answering it cost (a Usage's JSON, summed by the driver)."""

    def __init__(self, recipe: AgentRecipe, limits: dict[str | None, Callable[[], None]]
                 ) -> None:
        self._agent = recipe()
        for chat in {id(c): c for c in (self._agent.chat, self._agent.detector)}.values():
            chat.throttle = limits.get(chat.base_url)

    def __call__(self, item: tuple[Instance, bytes, Path]) -> dict:
        instance, data, path = item
        usage = Usage()  # this answer's alone
        self._agent.chat.usage = self._agent.detector.usage = usage
        prediction = self._agent.predict(instance, decode_screenshot(instance, data, path))
        return {"key": instance.id, "line": prediction.model_dump_json(),
                "usage": usage.as_json()}

    def close(self) -> None:
        pass  # an HTTP client: nothing outlives the process


def predict_all_on_ray(arm: Arm, instances: Sequence[Instance], base_dir: Path,
                       spec: RaySpec, limits: dict[str | None, Callable[[], None]],
                       on_prediction: Callable[[int, Prediction], None] | None = None,
                       trusted_paths: bool = False) -> tuple[list[Prediction], Usage]:
    """`predict_all` on Ray actors: the same lines, in the order they come back, appended to
    `arm.folder/predictions.jsonl`; a rerun asks only for the instances not in it yet."""
    if arm.recipe is None:
        raise ValueError(f"arm {arm.name!r}: on Ray it needs a recipe for its agent")
    path = arm.folder / "predictions.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    drop_cut_line(path)  # a line cut short by a kill: asked again, not appended to
    done = {record["id"] for record in read_records(path, key="id")}
    todo = [instance for instance in instances if instance.id not in done]
    items = []
    for instance in todo:
        where = image_path(instance, base_dir, trusted_paths)
        try:
            items.append((instance, files.read_bounded(where, files.MAX_IMAGE_BYTES,
                                                       "an image file"), where))
        except OSError as exc:
            raise UsageError(f"instance {instance.id!r}: cannot read its image {where}: "
                             f"{exc}") from None
    usage = Usage()
    answered = len(done)
    with files.write_new(path, "a", encoding="utf-8") as sink:
        def write(record: dict) -> None:
            nonlocal answered
            sink.write(record["line"] + "\n")
            sink.flush()
            usage.add_counts(record["usage"])
            if on_prediction:
                on_prediction(answered, Prediction.model_validate_json(record["line"]))
            answered += 1

        def lost(item: tuple[Instance, bytes, Path], cause: str) -> dict:
            prediction = Prediction(id=item[0].id, model=arm.agent.chat.model, error=cause)
            return {"key": item[0].id, "line": prediction.model_dump_json(),
                    "usage": Usage().as_json()}

        run_on_ray(items, functools.partial(PredictWorker, arm.recipe, limits), lost, write,
                   spec)
    return [Prediction.model_validate(record) for record in read_records(path, key="id")], usage


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
             ray: RaySpec | None = None, rate_limit: float | None = None,
             trusted_paths: bool = False) -> dict[str, Any]:
    """Run every arm, write its predictions and usage; the summary (static metrics, Δ_vis).

    With `ray`, the arms run on Ray actors (`predict_all_on_ray`), and `rate_limit` caps
    the requests per second to each endpoint across all of them."""
    if rate_limit is not None and ray is None:
        raise UsageError("a rate limit across workers is for Ray actors (--ray); a local "
                         "eval sends one request at a time")
    if ray is None:
        return _evaluate(arms, instances, base_dir, on_prediction, None, {}, trusted_paths)
    from finestate_env.runs.rate_limit import RateLimit

    with ray_session(ray.address):
        endpoints = {chat.base_url for arm in arms
                     for chat in (arm.agent.chat, arm.agent.detector)}
        limits = ({endpoint: RateLimit(str(endpoint), rate_limit) for endpoint in endpoints}
                  if rate_limit is not None else {})
        try:
            return _evaluate(arms, instances, base_dir, on_prediction, ray, limits,
                             trusted_paths)
        finally:
            for limit in limits.values():
                limit.close()


def _evaluate(arms: Sequence[Arm], instances: Sequence[Instance], base_dir: Path,
              on_prediction: Callable[[str, int, Prediction], None] | None,
              ray: RaySpec | None, limits: dict, trusted_paths: bool = False,
              ) -> dict[str, Any]:
    summary: dict[str, Any] = {"instances": len(instances), "arms": {}}
    for arm in arms:
        callback = (lambda i, p, name=arm.name: on_prediction(name, i, p)) if on_prediction \
            else None
        if ray is None:
            predictions = predict_all(arm.agent, instances, base_dir,
                                      arm.folder / "predictions.jsonl", callback, trusted_paths)
            usage = arm.agent.chat.usage.as_json()
        else:
            predictions, counted = predict_all_on_ray(arm, instances, base_dir, ray, limits,
                                                      callback, trusted_paths)
            usage = counted.as_json()
        files.write_text(arm.folder / "usage.json", json.dumps(
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
