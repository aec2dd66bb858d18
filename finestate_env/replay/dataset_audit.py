"""`finestate audit`: prove or disprove the boxes of every instance in a file by probing.

Per instance, on one render: the goal box audit (replay.audit: soundness, the share of
goal-box probes that reach the goal; tightness, the share of the goal-reaching core
probes that the goal box covers; the measured goal region beside the annotated one) and
the two-point audit (replay.precision: of the gestures each static rule pays in full,
the share that reach the goal; the measured start region of a drag). Per type: the
distributions and the pooled precisions with their intervals. An instance whose goal
box is not sound gets a picture (its screenshot with the annotated goal box, the
measured region and every probe that missed), and the first instance of each type one
with its measured start and goal regions over its annotated boxes.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import json
import statistics
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from PIL import Image

from finestate_env.backends import Backend, BackendCrashed
from finestate_env.core.errors import UsageError
from finestate_env.core.files import file_name, refuse_symlink, write_text
from finestate_env.core.schema import Instance
from finestate_env.replay import precision
from finestate_env.replay.audit import DENSITY, AuditReport, audit_instance
from finestate_env.replay.backend_pool import BackendPool
from finestate_env.replay.drawing import crop_around, draw_boxes, draw_points
from finestate_env.runs.jobs import FILES, iter_records, run_jobs
from finestate_env.runs.ray_jobs import RaySpec

SETTINGS = "audit_run.json"  # what the folder's records were measured with


@dataclass(frozen=True)
class AuditSettings:
    """What an audit measures with; a folder's records are continued only with the same."""

    density: int = DENSITY  # goal-box probes per side (replay.audit)
    gestures: int = precision.GESTURES  # per rule and instance (replay.precision); 0: none
    seed: int = 0  # of the two-point audit's gestures
    start_points: int = precision.START_POINTS  # start grid along loc's longer side


class AuditWorker:
    """Audits instances in one process, one backend per (platform, screen size).

    `illustrate`: the ids that get a picture of their measured regions (the first
    instance of each type)."""

    def __init__(self, settings: AuditSettings, backend_options: dict[str, Any] | None = None,
                 illustrate: frozenset[str] = frozenset()):
        self.settings = settings
        self.illustrate = illustrate
        self.backends = BackendPool(backend_options)

    def __call__(self, instance: Instance) -> dict[str, Any]:
        record: dict[str, Any] = {"key": instance.id, "id": instance.id,
                                  "component": instance.component,
                                  "platform": instance.platform, "gesture": instance.gesture}
        if instance.live is None:
            return {**record, "status": "not_replayable"}
        settings = self.settings
        for attempt in (1, 2):
            try:
                backend = self.backends.for_instance(instance)
                report = audit_instance(backend, instance, density=settings.density)
                rules, start = precision.audit_precision(
                    backend, instance, gestures=settings.gestures, seed=settings.seed,
                    start_points=settings.start_points)
                break
            except BackendCrashed as exc:
                if attempt == 2:
                    return {**record, "status": "error", "error": str(exc)}
        record.update(status="sound" if report.soundness == 1.0 else "unsound",
                      **{k: v for k, v in report.as_dict().items()
                         if k not in ("instance_id", "component")})
        if settings.gestures:
            record["precision"] = {name: result.as_dict() for name, result in rules.items()}
        record["start"] = start.as_dict() if start is not None else None
        # Pictures are sent back with the record, for the driver to write: on a Ray
        # cluster this process may run on another machine than the run's folder.
        files: dict[str, bytes] = {}
        if report.soundness < 1.0:
            record["picture"] = f"pictures/{file_name(instance.id)}.png"
            files[record["picture"]] = self._unsound_picture(backend, instance, report)
        if instance.id in self.illustrate:
            record["regions_picture"] = f"pictures/regions/{file_name(instance.id)}.png"
            files[record["regions_picture"]] = self._regions_picture(backend, instance,
                                                                     report, start)
        if files:
            record[FILES] = files
        return record

    @staticmethod
    def _screenshot(backend: Backend, instance: Instance) -> Image.Image:
        backend.render(instance.live)
        return Image.fromarray(np.asarray(backend.screenshot()))

    def _unsound_picture(self, backend: Backend, instance: Instance,
                         report: AuditReport) -> bytes:
        image = self._screenshot(backend, instance)
        boxes = instance.boxes.current
        draw_boxes(image, {"core": boxes.core, "goal": boxes.goal,
                           "measured": report.measured_goal})
        draw_points(image, [("miss", p) for p in report.unsound])
        return _png(crop_around(image, boxes.loc, margin=24))

    def _regions_picture(self, backend: Backend, instance: Instance, report: AuditReport,
                         start: precision.StartRegion | None) -> bytes:
        """The annotated boxes, the measured goal region and (a drag) the measured start
        region with the start probes that worked."""
        image = self._screenshot(backend, instance)
        boxes = instance.boxes.current
        draw_boxes(image, {"loc": boxes.loc, "core": boxes.core, "now": boxes.now,
                           "goal": boxes.goal, "measured": report.measured_goal,
                           "start": start.measured if start is not None else None})
        if start is not None:
            draw_points(image, [("hit", p) for p in start.hits], radius=2)
        return _png(crop_around(image, boxes.loc, margin=24))

    def close(self) -> None:
        self.backends.close()


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def lost_record(instance: Instance, cause: str) -> dict[str, Any]:
    """The record of an instance whose process died under it twice (a Ray actor)."""
    return {"key": instance.id, "id": instance.id, "component": instance.component,
            "platform": instance.platform, "gesture": instance.gesture, "status": "error",
            "error": cause}


def _make_worker(settings: AuditSettings, backend_options: dict[str, Any] | None,
                 illustrate: frozenset[str]) -> AuditWorker:
    return AuditWorker(settings, backend_options, illustrate)


def first_of_each_type(instances: list[Instance]) -> frozenset[str]:
    """The ids of the first replayable instance of each type, in file order."""
    first: dict[str, str] = {}
    for instance in instances:
        if instance.live is not None:
            first.setdefault(instance.component, instance.id)
    return frozenset(first.values())


def _check_settings(out: Path, settings: AuditSettings) -> None:
    """Record the settings of a new folder; refuse to continue one measured otherwise
    (its records and the new ones would be summed as if alike)."""
    path = out / SETTINGS
    for name in (SETTINGS, "audit.jsonl", "audit_summary.json"):
        refuse_symlink(out / name)
    wanted = dataclasses.asdict(settings)
    if path.exists():
        try:
            found = json.loads(path.read_text())
        except (OSError, ValueError) as exc:
            raise UsageError(f"{path}: not an audit's settings ({exc}); remove it, or audit "
                             "into another folder") from exc
        if found != wanted:
            differ = ", ".join(f"{key} {found.get(key)!r} there, {value!r} now"
                               for key, value in wanted.items() if found.get(key) != value)
            raise UsageError(f"{out} holds an audit measured with other settings ({differ}): "
                             "audit with the same settings to continue it, or into another "
                             "folder")
    elif (out / "audit.jsonl").exists() and (out / "audit.jsonl").stat().st_size:
        raise UsageError(f"{out} holds audit records without {SETTINGS} (an audit before "
                         "the two-point audit): audit into another folder")
    out.mkdir(parents=True, exist_ok=True)
    write_text(path, json.dumps(wanted, indent=2) + "\n")


class PendingInstance(NamedTuple):
    """An instance not read yet: its id and where it is (`audit_run`'s `load`)."""

    id: str
    line: int
    offset: int


def audit_file(instances: list[Instance], out: Path, settings: AuditSettings = AuditSettings(),
               workers: int = 1, progress: bool = True,
               backend_options: dict[str, Any] | None = None,
               ray: RaySpec | None = None) -> tuple[list[dict], dict]:
    """`audit_run` over `instances` (the first replayable one of each type illustrated),
    and every record of `out/audit.jsonl` in a list."""
    summary = audit_run(instances, out, settings, workers=workers, progress=progress,
                        backend_options=backend_options, ray=ray,
                        illustrate=first_of_each_type(instances))
    return list(iter_records(out / "audit.jsonl")), summary


def audit_run(instances: Sequence[Instance] | Sequence[PendingInstance], out: Path,
              settings: AuditSettings = AuditSettings(), workers: int = 1,
              progress: bool = True, backend_options: dict[str, Any] | None = None,
              ray: RaySpec | None = None, illustrate: frozenset[str] = frozenset(),
              load: Callable[[PendingInstance], Instance] | None = None) -> dict:
    """Audit every instance not yet in `out/audit.jsonl`; writes `out/audit_summary.json`
    and returns it, summarised from the file one record at a time. `illustrate`: the ids
    that get a picture of their measured regions. With `load`, the instances are
    `PendingInstance`s, each read (`load(pending)`) only as a worker is handed it. With
    `ray`, on Ray actors instead of `workers` local processes."""
    _check_settings(out, settings)
    make_worker = functools.partial(_make_worker, settings, backend_options, illustrate)
    records = run_jobs(instances, key=lambda instance: instance.id, make_worker=make_worker,
                       out=out / "audit.jsonl", workers=workers, desc="audit", progress=progress,
                       ray=ray, lost=lost_record, load=load)
    summary = summarize_audit(records)
    write_text(out / "audit_summary.json", json.dumps(summary, indent=2) + "\n")
    return summary


def summarize_audit(records: Iterable[dict]) -> dict[str, Any]:
    """Counts by status, per type the distribution of soundness, tightness and IoU, and
    the two-point audit's precisions (replay.precision.summarize_precision). The records
    are read once: of each, its counts and figures are kept, not the record."""
    status = _status_counts(())
    instances = probes = 0
    unsound: list[dict] = []
    by_component: dict[str, dict[str, Any]] = {}
    rules = precision.PrecisionTally()
    regions: dict[str, str] = {}
    for record in records:
        instances += 1
        status[record["status"]] += 1
        probes += record.get("probes", 0)
        if record["status"] == "unsound":
            unsound.append({"id": record["id"], "component": record["component"],
                            "soundness": record["soundness"], "picture": record.get("picture")})
        group = by_component.setdefault(record["component"], {
            "status": _status_counts(()), **{metric: [] for metric in _FIGURES}})
        group["status"][record["status"]] += 1
        if record["status"] in ("sound", "unsound"):
            for metric in _FIGURES:
                group[metric].append(record[metric])
        rules.add(record)
        if record.get("regions_picture"):
            regions[record["component"]] = record["regions_picture"]
    return {"instances": instances,
            "status": status,
            "probes": probes,
            "unsound": unsound,
            "by_component": {name: _distribution(group)
                             for name, group in sorted(by_component.items())},
            "precision": rules.summary(),
            "regions_pictures": regions}


_FIGURES = ("soundness", "tightness", "iou")


def _status_counts(records: Iterable[dict]) -> dict[str, int]:
    counts = dict.fromkeys(("sound", "unsound", "not_replayable", "error"), 0)
    for record in records:
        counts[record["status"]] += 1
    return counts


def _distribution(group: dict[str, Any]) -> dict[str, Any]:
    """A type's status counts, and the distribution of each figure over its probed
    instances."""
    result: dict[str, Any] = {"status": group["status"]}
    for metric in _FIGURES:
        values = sorted(group[metric])
        result[metric] = ({"min": values[0], "median": statistics.median(values),
                           "mean": statistics.fmean(values), "max": values[-1]}
                          if values else None)
    return result
