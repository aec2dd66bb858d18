"""`finestate audit`: prove or disprove the boxes of every instance in a file by probing.

Per instance: soundness (share of goal-box probes that reach the goal),
tightness (share of the goal-reaching core probes that the goal box covers),
and the measured goal region beside the annotated one (IoU), as in
replay.audit. Per type: the distribution. An instance whose goal box is not
sound gets a picture: its screenshot with the annotated goal box, the
measured region and every probe that missed drawn on.
"""

from __future__ import annotations

import functools
import io
import json
import statistics
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from finestate_env.backends import Backend, BackendCrashed
from finestate_env.core.schema import Instance
from finestate_env.replay.audit import DENSITY, audit_instance
from finestate_env.replay.backend_pool import BackendPool
from finestate_env.replay.drawing import crop_around, draw_boxes, draw_points
from finestate_env.runs.jobs import FILES, run_jobs
from finestate_env.runs.ray_jobs import RaySpec


class AuditWorker:
    """Audits instances in one process, one backend per (platform, screen size)."""

    def __init__(self, density: int, backend_options: dict[str, Any] | None = None):
        self.density = density
        self.backends = BackendPool(backend_options)

    def __call__(self, instance: Instance) -> dict[str, Any]:
        record: dict[str, Any] = {"key": instance.id, "id": instance.id,
                                  "component": instance.component,
                                  "platform": instance.platform}
        if instance.live is None:
            return {**record, "status": "not_replayable"}
        for attempt in (1, 2):
            try:
                backend = self.backends.for_instance(instance)
                report = audit_instance(backend, instance, density=self.density)
                break
            except BackendCrashed as exc:
                if attempt == 2:
                    return {**record, "status": "error", "error": str(exc)}
        record.update(status="sound" if report.soundness == 1.0 else "unsound",
                      **{k: v for k, v in report.as_dict().items()
                         if k not in ("instance_id", "component")})
        if report.soundness < 1.0:
            # Sent back with the record, for the driver to write: on a Ray cluster this
            # process may run on another machine than the run's folder.
            name = f"pictures/{_safe(instance.id)}.png"
            record["picture"] = name
            record[FILES] = {name: self._picture(backend, instance, report)}
        return record

    def _picture(self, backend: Backend, instance: Instance, report) -> bytes:
        backend.render(instance.live)
        image = Image.fromarray(np.asarray(backend.screenshot()))
        boxes = instance.boxes.current
        draw_boxes(image, {"core": boxes.core, "goal": boxes.goal,
                           "measured": report.measured_goal})
        draw_points(image, [("miss", p) for p in report.unsound])
        png = io.BytesIO()
        crop_around(image, boxes.loc, margin=24).save(png, format="PNG")
        return png.getvalue()

    def close(self) -> None:
        self.backends.close()


def _safe(text: str) -> str:
    return "".join(c if c.isalnum() or c in "-_" else "_" for c in text)[:120]


def lost_record(instance: Instance, cause: str) -> dict[str, Any]:
    """The record of an instance whose process died under it twice (a Ray actor)."""
    return {"key": instance.id, "id": instance.id, "component": instance.component,
            "platform": instance.platform, "status": "error", "error": cause}


def _make_worker(density: int, backend_options: dict[str, Any] | None) -> AuditWorker:
    return AuditWorker(density, backend_options)


def audit_file(instances: list[Instance], out: Path, density: int = DENSITY, workers: int = 1,
               progress: bool = True, backend_options: dict[str, Any] | None = None,
               ray: RaySpec | None = None) -> tuple[list[dict], dict]:
    """Audit every instance not yet in `out/audit.jsonl`; writes `out/audit_summary.json`.
    With `ray`, on Ray actors instead of `workers` local processes."""
    records = run_jobs(instances, key=lambda instance: instance.id,
                       make_worker=functools.partial(_make_worker, density, backend_options),
                       out=out / "audit.jsonl", workers=workers, desc="audit", progress=progress,
                       ray=ray, lost=lost_record)
    summary = summarize_audit(records)
    (out / "audit_summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    return records, summary


def summarize_audit(records: list[dict]) -> dict[str, Any]:
    """Counts by status, and per type the distribution of soundness, tightness and IoU."""
    by_component: dict[str, list[dict]] = {}
    for record in records:
        by_component.setdefault(record["component"], []).append(record)
    per_type = {name: _distribution(group) for name, group in sorted(by_component.items())}
    return {"instances": len(records),
            "status": _status_counts(records),
            "probes": sum(r.get("probes", 0) for r in records),
            "unsound": [{"id": r["id"], "component": r["component"],
                         "soundness": r["soundness"], "picture": r.get("picture")}
                        for r in records if r["status"] == "unsound"],
            "by_component": per_type}


def _status_counts(records: list[dict]) -> dict[str, int]:
    counts = dict.fromkeys(("sound", "unsound", "not_replayable", "error"), 0)
    for record in records:
        counts[record["status"]] += 1
    return counts


def _distribution(records: list[dict]) -> dict[str, Any]:
    probed = [r for r in records if r["status"] in ("sound", "unsound")]
    result: dict[str, Any] = {"status": _status_counts(records)}
    for metric in ("soundness", "tightness", "iou"):
        values = sorted(r[metric] for r in probed)
        result[metric] = ({"min": values[0], "median": statistics.median(values),
                           "mean": statistics.fmean(values), "max": values[-1]}
                          if values else None)
    return result
