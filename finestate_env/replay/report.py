"""`finestate report DIR`: one self-contained HTML file from a replay (and audit) folder.

Metric tables (static beside live), bar charts by family and type, the
cross-check matrix, and a card for each disagreement or failure with the
screenshot cropped around the control, its boxes and the predicted points
drawn on, filterable by type and outcome. Everything is inline (charts and
thumbnails as data URIs), so the file can be mailed or archived alone. Every
string that comes from an input file goes through Jinja2's autoescaping:
instance text is untrusted input.
"""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path
from typing import Any

from PIL import Image

from finestate_env import __version__
from finestate_env.core import scoring
from finestate_env.core.errors import UsageError
from finestate_env.core.extras import require
from finestate_env.core.files import (
    MAX_LINE_BYTES,
    open_regular,
    read_image,
    resolve_inside,
    write_text,
)
from finestate_env.core.schema import Instance
from finestate_env.replay.disagreements import Disagreement, disagreement_of, explain, why
from finestate_env.replay.drawing import crop_around, draw_boxes, draw_points
from finestate_env.replay.records import ReplayRecord, read_result_line, summarize_replay
from finestate_env.runs.jobs import read_records

MANIFEST = "run.json"  # written by replay: where the instances came from
MAX_CASES = 400  # cards beyond this are counted, not drawn: the file stays small
THUMBNAIL_WIDTH = 320
METRIC_NAMES = {"sr_loc": "SR@Loc", "sr_int": "SR@Int", "es_sr_loc": "ES-SR@Loc",
                "es_sr_int": "ES-SR@Int"}


def write_report(folder: Path, instances: list[Instance] | None = None,
                 images_root: Path | None = None, trusted_paths: bool = False,
                 skip_invalid: bool = True) -> Path:
    """Write `folder/report.html` from `folder/results.jsonl` and `audit_summary.json`
    (either may be missing: an audit's folder has no results).

    The results are a replay's, or a live run's (`finestate run --out`). `instances`
    and `images_root` (the folder their `image` paths are relative to) default to the
    instances file named in `folder/run.json`. An image is drawn only from inside
    `images_root` (unless `trusted_paths`); reading the folder changes nothing in it.
    """
    folder = Path(folder)
    records = [read_result_line(r) for r in read_records(folder / "results.jsonl", key=None)]
    audit_summary = _audit_summary(folder)
    if instances is None:
        instances, images_root = _instances_of_run(folder, trusted_paths, skip_invalid)
    by_id = {instance.id: instance for instance in instances or []}
    summary = summarize_replay(records)
    cases = [r for r in records if _is_case(r)]
    disagreements = {r.key: d for r in cases
                     if (d := disagreement_of(r, by_id.get(r.id))) is not None}
    jinja2 = require("jinja2", "report", "the HTML report")
    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("finestate_env.replay", "templates"),
        autoescape=True, undefined=jinja2.StrictUndefined)
    html = environment.get_template("report.html.j2").render(
        title=str(folder.resolve().name), n=len(records), version=__version__,
        metric_names=list(METRIC_NAMES.values()), metric_rows=_metric_rows(summary),
        outcomes=summary["outcomes"], charts=_charts(summary),
        matrix=_matrix(records), crosscheck_by_type=summary["crosscheck"]["by_component"],
        collateral=summary["collateral"],
        explained=_explained(disagreements.values()),
        audit=_audit_rows(audit_summary),
        two_point=_two_point(folder, audit_summary),
        cases=[_case(r, by_id.get(r.id), images_root, disagreements.get(r.key), trusted_paths)
               for r in cases[:MAX_CASES]],
        cases_left_out=max(0, len(cases) - MAX_CASES),
        case_types=sorted({r.component for r in cases}),
        case_outcomes=sorted({_case_outcome(r) for r in cases}))
    out = folder / "report.html"
    write_text(out, html)
    return out


def _instances_of_run(folder: Path, trusted_paths: bool = False,
                      skip_invalid: bool = True) -> tuple[list[Instance], Path | None]:
    """The instances file `run.json` names, and its folder (the images' root)."""
    from finestate_env.datasets.formats import read_instances

    manifest = read_manifest(folder)
    if manifest is None or not isinstance(manifest.get("instances"), str):
        return [], None
    path = Path(manifest["instances"])
    if not path.exists():
        return [], None
    return (read_instances(path, skip_invalid=skip_invalid,
                           trusted_paths=trusted_paths).items, path.parent)


def read_manifest(folder: Path) -> dict[str, Any] | None:
    """`folder/run.json`, or None when there is none; a broken one is a UsageError."""
    path = folder / MANIFEST
    if not path.exists():
        return None
    try:
        with open_regular(path) as f:
            manifest = json.loads(f.read(MAX_LINE_BYTES + 1).decode("utf-8"))
    except (ValueError, RecursionError) as exc:  # JSON, UTF-8 and number errors
        raise UsageError(f"{path}: not a run's manifest ({exc}); it is written by "
                         "finestate replay / run --out") from None
    if not isinstance(manifest, dict):
        raise UsageError(f"{path}: not a run's manifest (a JSON object)")
    return manifest


def _is_case(record: ReplayRecord) -> bool:
    return (record.crosscheck in ("false_accept", "false_reject")
            or record.outcome == "error" or record.action_error is not None
            or bool(record.collateral_changed))


def _case_outcome(record: ReplayRecord) -> str:
    if record.outcome == "error":
        return "error"
    if record.crosscheck in ("false_accept", "false_reject"):
        return record.crosscheck.replace("_", " ")
    if record.action_error is not None:
        return "action error"
    return "collateral"


def _explained(disagreements) -> list[dict]:
    return [{"component": name, "gesture": row["gesture"] or "",
             "kind": kind.replace("_", " "), "count": count, "text": text}
            for name, row in explain(disagreements).items() for kind, count, text in row["lines"]]


def _case(record: ReplayRecord, instance: Instance | None, images_root: Path | None,
          disagreement: Disagreement | None = None, trusted_paths: bool = False) -> dict:
    thumbnail, no_image = None, None
    if instance is None:
        no_image = "instance not found"
    elif instance.image is None or images_root is None:
        no_image = "the instance names no image"
    elif instance.boxes is None:
        no_image = "the instance's image size is unknown"
    else:
        # Only a bounded regular file inside the dataset's folder is drawn (core/files.py):
        # the report is sent to others, and must not carry a file the dataset pointed at.
        try:
            path = resolve_inside(images_root, instance.image, trusted_paths)
            if path.exists():
                thumbnail = _thumbnail(path, instance, record)
            else:
                no_image = f"{instance.image} is missing"
        except UsageError as exc:
            no_image = str(exc)
    return {"id": record.id, "component": record.component, "outcome": _case_outcome(record),
            "thumbnail": thumbnail, "no_image": no_image,
            "instruction": instance.instructions.interact if instance else "",
            "goal": json.dumps(record.goal_state), "state": json.dumps(record.state),
            "p0": _point(record.p0), "p1": _point(record.p1),
            "why": why(disagreement) if disagreement is not None else "",
            "collateral": ", ".join(record.collateral_changed),
            "error": record.error or record.action_error}


def _thumbnail(path: Path, instance: Instance, record: ReplayRecord) -> str:
    image = read_image(path).convert("RGB")
    boxes = instance.boxes.current
    draw_boxes(image, {"loc": boxes.loc, "core": boxes.core, "goal": boxes.goal,
                       "now": boxes.now})
    draw_points(image, [("p0", record.p0), ("p1", record.p1)])
    area = boxes.loc
    for point in (record.p0, record.p1):  # keep the points in view when they missed
        if point is not None:
            area = (min(area[0], point[0]), min(area[1], point[1]),
                    max(area[2], point[0]), max(area[3], point[1]))
    crop = crop_around(image, area, margin=16)
    crop.thumbnail((THUMBNAIL_WIDTH, THUMBNAIL_WIDTH))
    return _png(crop)


def _png(image: Image.Image) -> str:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return base64.b64encode(buffer.getvalue()).decode()


def _point(point) -> str:
    return "none" if point is None else f"({point[0]:.1f}, {point[1]:.1f})"


def _metric_rows(summary: dict[str, Any]) -> list[dict]:
    static, live = summary["static"], summary["live"]
    empty = scoring.metric_set([])
    rows = [("overall", static["overall"], live["overall"])]
    for group, label in (("by_platform", "platform"), ("by_family", "family"),
                         ("by_component", "type")):
        for name, metrics in static[group].items():
            rows.append((f"{label}: {name}", metrics, live[group].get(name, empty)))
    return [{"label": label, "n": s["n"],
             "cells": [(f"{s[m]:.3f}", f"{lv[m]:.3f}" if lv["n"] else "n/a")
                       for m in METRIC_NAMES]}
            for label, s, lv in rows]


def _matrix(records: list[ReplayRecord]) -> dict[str, int]:
    """Counts of (static exact, live exact) over the performed predictions."""
    cells = {"tt": 0, "tf": 0, "ft": 0, "ff": 0}
    for record in records:
        if record.static_exact is not None and record.live_exact is not None:
            cells["tf"[not record.static_exact] + "tf"[not record.live_exact]] += 1
    return cells


def _charts(summary: dict[str, Any]) -> list[dict[str, str]]:
    matplotlib = require("matplotlib", "report", "the report's charts")

    matplotlib.use("Agg")
    from matplotlib import pyplot

    charts = []
    for group, title in (("by_family", "family"), ("by_component", "type")):
        names = list(summary["static"][group])
        if not names:
            continue
        static = [summary["static"][group][n]["es_sr_int"] for n in names]
        live = [summary["live"][group].get(n, {}).get("es_sr_int", 0.0) for n in names]
        figure, axes = pyplot.subplots(figsize=(max(5.0, 0.45 * len(names) + 2), 3.2), dpi=100)
        positions = range(len(names))
        axes.bar([p - 0.2 for p in positions], static, width=0.4, label="static (boxes)",
                 color="#94a3b8")
        axes.bar([p + 0.2 for p in positions], live, width=0.4, label="live (read back)",
                 color="#2563eb")
        axes.set_xticks(list(positions), names, rotation=45 if len(names) > 6 else 0,
                        ha="right" if len(names) > 6 else "center", fontsize=8)
        axes.set_ylim(0, 1)
        axes.set_ylabel("ES-SR@Int")
        axes.set_title(f"ES-SR@Int by {title}", fontsize=10)
        axes.legend(fontsize=8)
        figure.tight_layout()
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png")
        pyplot.close(figure)
        charts.append({"alt": f"ES-SR@Int by {title}, static beside live",
                       "data": base64.b64encode(buffer.getvalue()).decode()})
    return charts


def _audit_summary(folder: Path) -> dict[str, Any] | None:
    path = folder / "audit_summary.json"
    return json.loads(path.read_text()) if path.exists() else None


def _audit_rows(summary: dict[str, Any] | None) -> list[dict]:
    if summary is None:
        return []
    rows = []
    for name, stats in summary["by_component"].items():
        fmt = lambda d, k: f"{d[k]:.3f}" if d else "n/a"  # noqa: E731
        rows.append({"component": name, "sound": stats["status"]["sound"],
                     "unsound": stats["status"]["unsound"],
                     "soundness": fmt(stats["soundness"], "min"),
                     "tightness": fmt(stats["tightness"], "median"),
                     "iou": fmt(stats["iou"], "median")})
    return rows


def _two_point(folder: Path, audit_summary: dict[str, Any] | None) -> dict[str, Any] | None:
    """The two-point audit's tables, plot and region pictures (replay.precision)."""
    from finestate_env.replay.precision import percent

    summary = (audit_summary or {}).get("precision")
    if not summary or not summary["instances"]:
        return None
    rules = list(summary["rules"])

    def row(label: str, gesture: str, table: dict) -> dict:
        return {"label": label, "gesture": gesture,
                "cells": [(percent(table[rule]), table[rule]["gestures"]) for rule in rules]}

    rows = [row(f"all {kind}s", kind, table) for kind, table in summary["by_gesture"].items()]
    rows += [row(name, table["gesture"] or "", table)
             for name, table in summary["by_component"].items()]
    pictures = []
    for name, relative in audit_summary.get("regions_pictures", {}).items():
        try:  # the audit wrote it there: it must still be a bounded file of the folder
            picture = read_image(resolve_inside(folder, relative)).convert("RGB")
        except (UsageError, OSError):
            continue
        picture.thumbnail((THUMBNAIL_WIDTH, THUMBNAIL_WIDTH))
        pictures.append({"component": name, "data": _png(picture),
                         "start": summary["start"].get(name)})
    return {"rules": summary["rules"], "rows": rows, "chart": _precision_chart(summary),
            "start": summary["start"], "pictures": pictures}


def _precision_chart(summary: dict[str, Any]) -> str:
    """Precision per type, a bar per rule, with the gesture-level 95% interval."""
    matplotlib = require("matplotlib", "report", "the report's charts")

    matplotlib.use("Agg")
    from matplotlib import pyplot

    # Drags first: the types where the rules differ.
    names = sorted(summary["by_component"],
                   key=lambda name: (summary["by_component"][name]["gesture"] != "drag", name))
    rules = list(summary["rules"])
    width = 0.8 / len(rules)
    figure, axes = pyplot.subplots(figsize=(max(6.0, 0.55 * len(names) + 2), 3.6), dpi=100)
    for index, rule in enumerate(rules):
        stats = [summary["by_component"][name][rule] for name in names]
        values = [s["precision"] or 0.0 for s in stats]
        # max(0, ...): Wilson's bound at 0 or 1 of n may sit a rounding error past it.
        pairs = list(zip(values, stats, strict=True))
        errors = [[max(0.0, v - s["ci"][0]) if s["ci"] else 0.0 for v, s in pairs],
                  [max(0.0, s["ci"][1] - v) if s["ci"] else 0.0 for v, s in pairs]]
        axes.bar([p + (index - (len(rules) - 1) / 2) * width for p in range(len(names))],
                 values, width=width, yerr=errors, capsize=1.5, label=rule)
    axes.set_xticks(list(range(len(names))), names, rotation=45, ha="right", fontsize=8)
    axes.set_ylim(0, 1.25)  # room above the bars for the legend
    axes.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    axes.set_ylabel("precision")
    axes.set_title("Of the gestures each static rule pays in full, the share that reach "
                   "the goal live", fontsize=10)
    axes.legend(fontsize=8, ncols=len(rules), loc="upper center")
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    pyplot.close(figure)
    return base64.b64encode(buffer.getvalue()).decode()
