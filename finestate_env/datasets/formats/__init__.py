"""Instance and prediction files in and out (docs/design.md §5).

Layouts read (detected from the first record of a file):

- `finestate-env`: this project's `Instance`, one JSON object a line;
- `finestate-bench-web`: released FineState-Bench, web and mobile,
  `processing_details{bbox, now_coords, target_coords}`;
- `finestate-bench-desktop`: released FineState-Bench, desktop,
  `processing_details{locate, loactebbox, interact, interactbbox}`;
- `screenspot-xyxy`, `screenspot-xywh`: point-in-box grounding records
  (`img_filename`, `bbox`, `instruction`).

Every problem is a `FormatError` naming `PATH:LINE: FIELD: expected ..., got ...`.
Predictions: `{"id", "p0", "p1", "coords"}`; a missing, null or unparseable point
is still a prediction (a miss, counted apart), never a file error.
"""

from finestate_env.core.errors import UsageError
from finestate_env.datasets.formats.finestate_bench import (
    export_finestate_bench,
    finestate_bench_record,
)
from finestate_env.datasets.formats.jsonl import FormatError, ReadResult
from finestate_env.datasets.formats.predictions import read_predictions, write_predictions
from finestate_env.datasets.formats.project import relocate_images, write_instances
from finestate_env.datasets.formats.reader import (
    LAYOUTS,
    InstanceReader,
    detect_layout,
    read_instances,
)
from finestate_env.datasets.formats.screenspot import export_screenspot, screenspot_records

EXPORT_FORMATS = ("finestate-env", "finestate", "screenspot")
"""What `export` (and `finestate generate --format`) writes."""

__all__ = [
    "EXPORT_FORMATS", "LAYOUTS", "FormatError", "InstanceReader", "ReadResult", "detect_layout",
    "export",
    "export_finestate_bench", "export_screenspot", "finestate_bench_record",
    "read_instances", "read_predictions", "relocate_images", "screenspot_records",
    "write_instances", "write_predictions",
]


def export(instances, path, fmt: str) -> None:
    """Write `instances` to `path` in `fmt`: one of `EXPORT_FORMATS`."""
    writers = {"finestate-env": write_instances, "finestate": export_finestate_bench,
               "screenspot": export_screenspot}
    if fmt not in writers:
        raise UsageError(f"unknown format {fmt!r}; expected one of {list(writers)}")
    writers[fmt](instances, path)
