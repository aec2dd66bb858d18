"""Replaying static instances and an agent's predictions live (`finestate replay`).

Every instance is rebuilt from its `live` block, each prediction's p0/p1 is
performed as real input, and the control's state is read back. The static
verdicts use the boxes written in the instances file (what a static benchmark
would score); the live verdicts use the state the control really reached. Their
disagreements are the point of the exercise.

No screenshot is taken: the instance's own image is what the agent saw, and
skipping the capture makes replay several times faster than running the env.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from finestate_env.backends import BackendCrashed
from finestate_env.core.actions import parse_action
from finestate_env.core.schema import Instance, Prediction
from finestate_env.core.static_scoring import score_prediction
from finestate_env.env.episode import perform_and_judge
from finestate_env.replay.backend_pool import BackendPool
from finestate_env.replay.records import ReplayRecord, summarize_replay
from finestate_env.runs.jobs import iter_records, run_jobs
from finestate_env.runs.ray_jobs import RaySpec


@dataclass(frozen=True)
class ReplayJob:
    instance: Instance
    prediction: Prediction


class ReplayWorker:
    """Replays jobs in one process, with one backend per (platform, screen size).

    A backend that dies is restarted and the job tried once more; a second
    failure is recorded as an error with its cause, and the run goes on.
    """

    def __init__(self, backend_options: dict[str, Any] | None = None,
                 backend: str | None = None) -> None:
        self.backends = BackendPool(backend_options, backend)

    def __call__(self, job: ReplayJob) -> dict[str, Any]:
        return self.replay(job.instance, job.prediction).model_dump(mode="json")

    def replay(self, instance: Instance, prediction: Prediction) -> ReplayRecord:
        started = time.perf_counter()
        scored, record = _scored(instance, prediction)
        if instance.live is None:
            # Checked before a miss: an instance with no live block is in no live rate.
            return ReplayRecord(**record, outcome="not_replayable",
                                timings={"total": _ms(started)})
        if scored.miss is not None:
            # No usable point: nothing to perform, a miss both ways.
            return ReplayRecord(**record, outcome=scored.miss, live=None,
                                timings={"total": _ms(started)})
        size = (instance.size.width, instance.size.height)
        # A point the screen does not have cannot be performed: the control
        # stays as it was, which the live verdict then says.
        action_error = parse_action({"p0": scored.p0, "p1": scored.p1}, "pixel", size).error
        timings: dict[str, float] = {}
        for attempt in (1, 2):
            try:
                backend = self.backends.for_instance(instance)
                rendered_at = time.perf_counter()
                boxes, _ = backend.render_current(instance.live)
                timings["render"] = _ms(rendered_at)
                # Static verdicts from the file's boxes: what a static benchmark scores.
                judged = perform_and_judge(backend, instance, scored.p0, scored.p1,
                                           boxes=instance.boxes.current,
                                           action_error=action_error)
                break
            except BackendCrashed as exc:
                if attempt == 2:
                    return ReplayRecord(**record, outcome="error", error=str(exc),
                                        timings={"total": _ms(started)})
        timings.update(judged.timings)
        timings["total"] = _ms(started)
        return ReplayRecord(
            **record, outcome="performed", state=judged.state, live=judged.live,
            static_exact=judged.static_exact, live_exact=judged.live_exact,
            crosscheck=judged.crosscheck, boxes_match=boxes == instance.boxes.current,
            action_error=action_error, collateral_changed=list(judged.changed),
            timings=timings)

    def close(self) -> None:
        self.backends.close()


def _scored(instance: Instance, prediction: Prediction) -> tuple[Any, dict[str, Any]]:
    """The static score of a prediction, and the fields every record of it starts with."""
    scored = score_prediction(instance, prediction, mode="stagewise")
    pixels = scored.coords == "pixel"  # else an imported instance without a size
    record = dict(key=prediction.id, id=instance.id, component=instance.component,
                  family=instance.family or "unknown", platform=instance.platform,
                  # A point finite as given may overflow in pixels (1.7e308 normalised):
                  # the action error says it is off screen; the record keeps no infinity.
                  p0=scored.p0 if pixels and _finite(scored.p0) else None,
                  p1=scored.p1 if pixels and _finite(scored.p1) else None,
                  goal_state=instance.goal_state, static=scored.verdicts,
                  problems=scored.problems)
    return scored, record


def _finite(point) -> bool:
    return point is not None and all(math.isfinite(v) for v in point)


def lost_record(job: ReplayJob, cause: str) -> dict[str, Any]:
    """The record of a job whose process died under it twice (a Ray actor): an error."""
    _, record = _scored(job.instance, job.prediction)
    return ReplayRecord(**record, outcome="error", error=cause).model_dump(mode="json")


def _make_worker(backend_options: dict[str, Any] | None = None) -> ReplayWorker:
    return ReplayWorker(backend_options)


class Pairing(NamedTuple):
    jobs: list[ReplayJob]
    unknown: list[str]  # prediction ids that name no instance
    duplicates: list[str]  # ids predicted again: the first prediction of an id is replayed


class PendingJob(NamedTuple):
    """A job whose instance is not read yet: `where` it is, for `replay_run`'s `load`."""

    prediction: Prediction
    where: Any


def pair_predictions(instances: Iterable[Instance],
                     predictions: Iterable[Prediction]) -> Pairing:
    """Jobs for the first prediction of each id that names an instance; the unknown and
    the repeated ids (sorted, once each), ignored as `finestate score` ignores them."""
    pairs, unknown, duplicates = first_predictions(
        {instance.id: instance for instance in instances}, predictions)
    return Pairing([ReplayJob(instance, prediction) for prediction, instance in pairs],
                   unknown, duplicates)


def first_predictions(known: Mapping[str, Any], predictions: Iterable[Prediction]
                      ) -> tuple[list[tuple[Prediction, Any]], list[str], list[str]]:
    """(prediction, `known[its id]`) for the first prediction of each id in `known`, in the
    predictions' order; the unknown and the repeated ids (sorted, once each)."""
    pairs, unknown, duplicates, seen = [], set(), set(), set()
    for prediction in predictions:
        value = known.get(prediction.id)
        if value is None:
            unknown.add(prediction.id)
        elif prediction.id in seen:
            duplicates.add(prediction.id)
        else:
            seen.add(prediction.id)
            pairs.append((prediction, value))
    return pairs, sorted(unknown), sorted(duplicates)


def replay(jobs: list[ReplayJob], out: Path, workers: int = 1, progress: bool = True,
           backend_options: dict[str, Any] | None = None,
           ray: RaySpec | None = None,
           counts: dict[str, Any] | None = None) -> tuple[list[ReplayRecord], dict]:
    """`replay_run`, and every record of `out/results.jsonl` in a list."""
    summary = replay_run(jobs, out, workers=workers, progress=progress,
                         backend_options=backend_options, ray=ray, counts=counts)
    return [ReplayRecord.model_validate(r) for r in iter_records(out / "results.jsonl")], summary


def replay_run(jobs: Sequence[ReplayJob] | Sequence[PendingJob], out: Path, workers: int = 1,
               progress: bool = True, backend_options: dict[str, Any] | None = None,
               ray: RaySpec | None = None, counts: dict[str, Any] | None = None,
               load: Callable[[PendingJob], Instance] | None = None) -> dict:
    """Replay every job not yet in `out/results.jsonl`; returns the summary of all its
    records (also written to `out/summary.json`, with `counts` under "counts": the
    pairing's unknown and duplicate ids), counted as they are read back, one at a time.
    With `load`, the jobs are `PendingJob`s, each instance read (`load(job)`) only as
    its job is handed to a worker. With `ray`, on Ray actors instead of `workers` local
    processes."""
    import functools
    import json

    made = None if load is None else (lambda job: ReplayJob(load(job), job.prediction))
    records = run_jobs(jobs, key=lambda job: job.prediction.id,
                       make_worker=functools.partial(_make_worker, backend_options),
                       out=out / "results.jsonl", workers=workers, desc="replay",
                       progress=progress, ray=ray, lost=lost_record, load=made)
    summary = summarize_replay(ReplayRecord.model_validate(r) for r in records)
    if counts is not None:
        summary["counts"] = counts
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def _ms(start: float) -> float:
    return round((time.perf_counter() - start) * 1000.0, 3)
