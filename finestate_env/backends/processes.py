"""Reading the process tree from /proc (Linux): who an env started, and their memory."""

from __future__ import annotations

import os


def _stat_fields(pid: int) -> list[str] | None:
    try:
        with open(f"/proc/{pid}/stat") as f:
            # The command name may hold spaces and parentheses: split after the last ')'.
            return f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def descendants(pid: int) -> set[int]:
    """Every living process below `pid` (children, grandchildren ...)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := _stat_fields(int(entry))) is not None:
            children.setdefault(int(fields[1]), []).append(int(entry))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def parent(pid: int) -> int | None:
    """The pid of `pid`'s parent, or None once `pid` is gone."""
    fields = _stat_fields(pid)
    return int(fields[1]) if fields is not None else None


def command_lines() -> dict[int, bytes]:
    """Every process's command line as /proc holds it (arguments NUL-separated), by pid."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    found[int(entry)] = f.read()
            except OSError:
                continue
    return found


def matching(word: bytes) -> set[int]:
    """Every living process whose executable path contains `word` (any parent)."""
    return alive({pid for pid, line in command_lines().items()
                  if word in line.split(b"\0")[0]})


def alive(pids: set[int]) -> set[int]:
    """The pids that still exist and are not zombies."""
    return {pid for pid in pids if (fields := _stat_fields(pid)) is not None and fields[0] != "Z"}


def memory_kib(pids: set[int]) -> dict[str, int]:
    """`peak_rss` (sum of each process's VmHWM: an upper bound, shared pages counted
    in every process), `pss` (proportional set size now: shared pages split), `uss`
    (unique set size now: the pages only one process maps) and `pss_anon` (the part of
    `pss` in anonymous and shared memory, Pss_Anon + Pss_Shmem: what the processes
    allocated, without the files they map). Other processes mapping the same files (a
    second Chromium, another Qt app) lower `pss` but not `uss` or `pss_anon`; on a kernel
    older than 5.13 (no Pss_Anon) `pss_anon` reads 0."""
    peak = pss = uss = anon = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                peak += next((int(line.split()[1]) for line in f if line.startswith("VmHWM:")), 0)
            with open(f"/proc/{pid}/smaps_rollup") as f:
                for line in f:
                    field, _, rest = line.partition(":")
                    if field == "Pss":
                        pss += int(rest.split()[0])
                    elif field in ("Private_Clean", "Private_Dirty"):
                        uss += int(rest.split()[0])
                    elif field in ("Pss_Anon", "Pss_Shmem"):
                        anon += int(rest.split()[0])
        except OSError:
            continue
    return {"peak_rss": peak, "pss": pss, "uss": uss, "pss_anon": anon}


def process_kind(pid: int) -> str:
    """What `pid` is, for memory reports: a Chromium process's `--type` ("renderer",
    "gpu-process", "utility", "zygote"; "browser" without one), else its command name
    ("python", "node", "Xvfb"), up to a thread's name after a hyphen."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            # Chromium rewrites its argv into one string: find the switch in the whole line.
            line = f.read().replace(b"\0", b" ").decode(errors="replace")
        with open(f"/proc/{pid}/comm") as f:
            name = f.read().strip()
    except OSError:
        return "gone"
    if "chrom" in name or "chrom" in line.split(" ", 1)[0]:
        switch = next((word for word in line.split() if word.startswith("--type=")), None)
        return switch.split("=", 1)[1] if switch else "browser"
    return name.split("-", 1)[0]  # Node names its main thread: "node-MainThread"


def tree_memory_by_process_kib(root: int | None = None) -> dict[int, tuple[str, dict[str, int]]]:
    """One memory_kib reading of `root` (default: this process; kind "env") and of each
    process it started, by pid: {pid: (process_kind, reading)}. A process that ended
    while it was read is left out."""
    root = os.getpid() if root is None else root
    found = {}
    for pid in descendants(root) | {root}:
        kind = "env" if pid == root else process_kind(pid)
        if kind != "gone":
            found[pid] = (kind, memory_kib({pid}))
    return found


def tree_memory_by_kind_mib(root: int | None = None) -> dict[str, dict[str, float]]:
    """memory_kib in MiB of `root` (default: this process; kind "env") and everything it
    started, summed by process_kind, with the whole tree under "total". One reading of
    each process, so the kinds add up to the total (two readings would not: the
    processes' memory moves between them)."""
    return kinds_mib(tree_memory_by_process_kib(root))


def kinds_mib(readings: dict[int, tuple[str, dict[str, int]]]) -> dict[str, dict[str, float]]:
    """tree_memory_by_process_kib's readings summed by kind, in MiB, the sum of them all
    under "total"."""
    found: dict[str, dict[str, float]] = {}
    for kind, reading in readings.values():
        for key in ("total", kind):
            sums = found.setdefault(key, dict.fromkeys(reading, 0.0))
            for field, kib in reading.items():
                sums[field] += kib / 1024
    return found


def tree_memory_mib(root: int | None = None) -> dict[str, float]:
    """memory_kib of `root` (default: this process) and everything it started, in MiB."""
    return tree_memory_by_kind_mib(root)["total"]


def start_time(pid: int) -> int | None:
    """When `pid` started, in clock ticks since boot (None: no such process). With the
    pid it names one process for good: a pid reused later has another start time."""
    fields = _stat_fields(pid)
    return None if fields is None or fields[0] == "Z" else int(fields[19])
