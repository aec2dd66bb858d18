"""Long runs over many items: resumable, written as produced, optionally in parallel.

`run_jobs` feeds items to a worker (an object built once per process, which
owns a browser or a display) and appends each record to a JSON Lines file the
moment it is produced. Started again with the same file, it skips every item
whose key is already there, so an interrupted run (Ctrl-C, a killed process, a
crash) continues where it stopped and never counts a result twice. A line cut
short by a kill mid-write is dropped and its item done again.
"""

from __future__ import annotations

import json
import multiprocessing
import multiprocessing.util
import os
import signal
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, Protocol, TypeVar

from tqdm import tqdm

from finestate_env.core.errors import UsageError
from finestate_env.core.files import (
    bounded_lines,
    json_object,
    open_regular,
    refuse_symlink,
    write_new,
)
from finestate_env.runs.ray_jobs import RaySpec, run_on_ray

Item = TypeVar("Item")
Record = dict[str, Any]
# A record may carry files for the run's folder, {relative path: bytes}, under this key:
# the driver writes them (before the record's line) wherever the worker ran, on this
# machine or on another node of a Ray cluster.
FILES = "_files"


class Worker(Protocol):
    def __call__(self, item: Any) -> Record: ...

    def close(self) -> None: ...


def read_records(path: Path, key: str | None = "key") -> list[Record]:
    """The complete records of a JSON Lines results file, in a list (`iter_records`)."""
    return list(iter_records(path, key))


def iter_records(path: Path, key: str | None = "key") -> Iterator[Record]:
    """The complete records of a JSON Lines results file, one at a time, read only: a
    cut-off last line (it was being written when the run was killed) is left out, and left
    in the file for the run that continues it to remove (`drop_cut_line`). A line that is
    not a finestate record (a JSON object, with a string `key` unless that is None) is a
    UsageError naming it. No file: no record."""
    if not path.exists():
        return
    with open_regular(path) as f:
        for number, raw in enumerate(bounded_lines(f), start=1):
            if isinstance(raw, bytes) and not raw.endswith(b"\n"):
                break  # the cut-off last line
            record, problem = json_object(raw)
            if record is None and problem is None:
                continue  # a blank line
            if record is not None and key is not None and not isinstance(record.get(key), str):
                problem = f"no string {key!r}"
            if problem is not None:
                raise UsageError(f"{path}:{number}: not a finestate record ({problem}); this "
                                 "file was not written by finestate, or was edited")
            yield record


class RecordsFile:
    """The records of a results file (`iter_records`), read again each time they are
    iterated: what `run_jobs` returns, a run of any length never held in memory."""

    def __init__(self, path: Path, key: str | None = "key") -> None:
        self.path, self.key = path, key

    def __iter__(self) -> Iterator[Record]:
        return iter_records(self.path, self.key)


def drop_cut_line(path: Path) -> None:
    """Remove a cut-off last line from a results file this run is about to continue."""
    if not path.exists():
        return
    refuse_symlink(path)
    with open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        tail = 0
        while tail < size:  # back to the last newline, in blocks
            step = min(65536, size - tail)
            f.seek(size - tail - step)
            block = f.read(step)
            cut = block.rfind(b"\n")
            if cut >= 0:
                tail += step - cut - 1
                break
            tail += step
    if tail:
        with open(path, "r+b") as f:
            f.truncate(size - tail)


def run_jobs(items: Iterable[Item], key: Callable[[Item], str], make_worker: Callable[[], Worker],
             out: Path, workers: int = 1, desc: str = "items",
             progress: bool = True, ray: RaySpec | None = None,
             lost: Callable[[Any, str], Record] | None = None,
             load: Callable[[Item], Any] | None = None) -> RecordsFile:
    """Run `make_worker()(item)` for every item whose key is not yet in `out`.

    Each record must carry its item's key under "key". Returns the records of the file
    (earlier runs' and this run's, in file order), read from it each time they are
    iterated. With `load`, the items are light (a key and where to find the rest) and
    the worker is given `load(item)`, made as the worker gets to it: a run of any length
    holds the light items, a few loaded ones and no record. With `ray`, the items run on
    Ray actors instead of local processes (runs.ray_jobs), and `lost(item, cause)` is the
    record of a (loaded) item whose actor died twice.
    """
    if ray is not None and lost is None:
        raise TypeError("run_jobs on Ray needs `lost`: the record of an item whose actor died")
    out.parent.mkdir(parents=True, exist_ok=True)
    drop_cut_line(out)
    done = {record["key"] for record in iter_records(out)}
    todo = [item for item in items if key(item) not in done]
    work: Iterable[Any] = todo if load is None else map(load, todo)
    bar = tqdm(total=len(done) + len(todo), initial=len(done), desc=desc, unit="it",
               disable=not progress, dynamic_ncols=True)
    try:
        with write_new(out, "a", encoding="utf-8") as sink:
            def write(record: Record) -> None:
                for name, data in record.pop(FILES, {}).items():
                    _write_file(out.parent, name, data)
                sink.write(json.dumps(record, ensure_ascii=False) + "\n")
                sink.flush()
                bar.update(1)

            if todo and ray is not None:
                run_on_ray(work, make_worker, lost, write, ray, count=len(todo))
            elif todo and workers <= 1:
                _run_here(work, make_worker, write)
            elif todo:
                _run_pool(work, make_worker, write, workers)
    finally:
        bar.close()
    return RecordsFile(out)


def _write_file(folder: Path, name: str, data: bytes) -> None:
    path = (folder / name).resolve()
    if not path.is_relative_to(folder.resolve()):
        raise UsageError(f"{folder / name} leads out of the run's folder {folder} (a link?); "
                         "finestate writes only inside --out")
    path.parent.mkdir(parents=True, exist_ok=True)
    with write_new(folder / name, "wb") as f:
        f.write(data)


def _run_here(items: Iterable, make_worker: Callable[[], Worker], write) -> None:
    worker = make_worker()
    try:
        for item in items:
            write(worker(item))
    finally:
        worker.close()


# Each pool process builds its worker once (a browser per process) and keeps it.
_process_worker: Worker | None = None


def _start_process_worker(make_worker: Callable[[], Worker]) -> None:
    global _process_worker
    # Ctrl-C reaches the whole process group: the parent alone handles it, and
    # lets running items finish so that every worker closes its browser.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _process_worker = make_worker()
    # A pool process ends with os._exit, skipping atexit; finalizers still run.
    multiprocessing.util.Finalize(None, _process_worker.close, exitpriority=10)


def _call_process_worker(item: Any) -> Record:
    assert _process_worker is not None, "pool initializer did not run"
    return _process_worker(item)


def _run_pool(items: Iterable, make_worker: Callable[[], Worker], write, workers: int) -> None:
    # spawn, not fork: a browser's DevTools pipe and its reader threads belong to the process
    # that started it (a forked child drops its copies: backends/cdp.py).
    context = multiprocessing.get_context("spawn")
    # A few items per process in flight: enough that none idles, few enough
    # that an interrupt waits for little (unwritten items are redone on resume).
    window = 2 * workers
    with ProcessPoolExecutor(max_workers=workers, mp_context=context,
                             initializer=_start_process_worker,
                             initargs=(make_worker,)) as pool:
        running: set = set()
        try:
            for item in items:
                running.add(pool.submit(_call_process_worker, item))
                while len(running) >= window:
                    finished, running = wait(running, return_when=FIRST_COMPLETED)
                    for future in finished:
                        write(future.result())
            while running:
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    write(future.result())
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise
