"""`run_jobs` on Ray actors (`--ray [ADDRESS]`): the same runs, past one machine.

One actor per worker slot, each owning one worker (and so its browser or display)
for its lifetime; the items go out in small batches, and the driver writes every
record it gets back through `run_jobs`, into the same file in the same format as a
local run. Resuming is therefore `run_jobs`'s: a rerun after a killed driver skips
what was written. The actors are the driver's (not detached): a driver that dies
takes them with it, and a Ray instance it started itself dies with it too.

Failures: an actor that dies (killed, out of memory, a crashed interpreter) is
restarted by Ray, up to MAX_RESTARTS times; the batch it was running is tried once
more, on whichever actor is free, and if it dies again every item of it is written
as an error record naming the cause. An exception raised by the worker itself is
no such failure: it stops the run, as it does locally.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from finestate_env.core.errors import UsageError

# A browser's measured footprint (docs/figures.md: PSS 381 MiB on the desktop, 478 on
# the web, 501 on a web page, 558 on the phone), rounded up: what each actor asks for
# so that Ray schedules actors only where they fit.
ACTOR_MEMORY_MIB = 600
ACTOR_CPUS = 1.0
BATCH_SIZE = 8
MAX_RESTARTS = 3  # per actor: an actor dying again and again is a broken node
START_TIMEOUT_S = 180.0  # all actors placed and answering
CLOSE_TIMEOUT_S = 20.0  # each worker closing its browser, on the way out
LOCAL = "local"


@dataclass(frozen=True)
class RaySpec:
    """Where and how wide to run. `address`: "local" starts a Ray instance on this
    machine (loopback only, gone when the run ends); "auto" or "HOST:PORT" joins an
    existing cluster. `actors`: None fills the cluster
    (its CPUs over `cpus_per_actor`)."""

    address: str = LOCAL
    actors: int | None = None
    cpus_per_actor: float = ACTOR_CPUS
    memory_mib_per_actor: int = ACTOR_MEMORY_MIB
    batch_size: int = BATCH_SIZE

    def __post_init__(self) -> None:
        if self.actors is not None and self.actors < 1:
            raise UsageError(f"Ray actors must be at least 1, got {self.actors}")
        if self.cpus_per_actor <= 0:
            raise UsageError(f"CPUs per actor must be positive, got {self.cpus_per_actor}")
        if self.memory_mib_per_actor < 1:
            raise UsageError(f"memory per actor must be at least 1 MiB, "
                             f"got {self.memory_mib_per_actor}")
        if self.batch_size < 1:
            raise UsageError(f"batch size must be at least 1, got {self.batch_size}")


class BatchActor:
    """Holds one worker (built on first use, so a restarted actor builds a fresh one)."""

    def __init__(self, make_worker: Callable[[], Any]) -> None:
        self._make_worker = make_worker
        self._worker = None

    def where(self) -> tuple[str, int]:
        import os

        import ray

        return ray.get_runtime_context().get_node_id(), os.getpid()

    def run(self, items: list) -> list[dict]:
        if self._worker is None:
            self._worker = self._make_worker()
        return [self._worker(item) for item in items]

    def close(self) -> None:
        if self._worker is not None:
            worker, self._worker = self._worker, None
            worker.close()


@dataclass
class _Batch:
    items: list
    attempt: int = 1


def run_on_ray(items: Iterable, make_worker: Callable[[], Any],
               lost: Callable[[Any, str], dict], write: Callable[[dict], None],
               spec: RaySpec, say: Callable[[str], None] | None = None,
               count: int | None = None) -> None:
    """Run `make_worker()(item)` for every item on Ray actors; `write` each record as its
    batch comes back, and `lost(item, cause)` for the items of a batch whose actor died
    twice. `items` may be an iterator made as it is read (`count` of them): only the
    batches out on the actors, and one waiting, are held."""
    if count is None:
        items = list(items)
        count = len(items)
    if not count:
        return
    with RayPool(make_worker, spec, say) as pool:
        pool.run(items, lost, write, count=count)


class RayPool:
    """Ray actors, each holding one worker, kept across several `run`s (a caller that
    decides its next items from the last ones' records, as `generate` does); entered, it
    connects (or starts Ray) and places the actors; left, it stops them."""

    def __init__(self, make_worker: Callable[[], Any], spec: RaySpec,
                 say: Callable[[str], None] | None = None) -> None:
        self._make_worker, self.spec = make_worker, spec
        self._say = say or (lambda text: print(text, file=sys.stderr, flush=True))
        self._ray = _import_ray()
        self._actors: list = []
        self._started_here = False

    @property
    def actors(self) -> int:
        return len(self._actors)

    def __enter__(self) -> RayPool:
        ray, spec = self._ray, self.spec
        self._started_here = _connect(ray, spec.address)
        try:
            count = spec.actors or _slots(ray, spec)
            _check_fits(ray, count, spec)
            remote = ray.remote(BatchActor).options(
                num_cpus=spec.cpus_per_actor, memory=spec.memory_mib_per_actor * 2**20,
                max_restarts=MAX_RESTARTS, max_task_retries=0)
            self._actors = [remote.remote(self._make_worker) for _ in range(count)]
            places = _placed(ray, self._actors, spec)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        self._say(f"ray: {count} actors ({spec.cpus_per_actor:g} CPU, "
                  f"{spec.memory_mib_per_actor} MiB each) on "
                  f"{len(set(node for node, _ in places))} nodes")
        return self

    def run(self, items: Iterable, lost: Callable[[Any, str], dict],
            write: Callable[[dict], None], count: int | None = None) -> None:
        """Every item through the actors' workers; `write` each record as it comes back.
        `items` may be an iterator (`count` of them), read batch by batch."""
        if count is None:
            items = list(items)
            count = len(items)
        if not count:
            return
        # Small runs still spread: at least two batches per actor where there are items.
        size = min(self.spec.batch_size, max(1, math.ceil(count / (2 * self.actors))))
        gone = _dispatch(self._ray, self._actors, _batches(items, size), lost, write)
        # Out of restarts: the next run must not hand them work (it would fail at once).
        self._actors = [actor for actor in self._actors if id(actor) not in gone]

    def __exit__(self, *_exc) -> None:
        try:
            _stop(self._ray, self._actors)
        finally:
            self._actors = []
            if self._started_here:
                self._started_here = False
                self._ray.shutdown()


@contextlib.contextmanager
def ray_session(address: str = LOCAL):
    """Ray connected to `address` (or started here, and stopped on the way out) for what
    the block does, such as creating actors the workers share (a rate limit)."""
    ray = _import_ray()
    started_here = _connect(ray, address)
    try:
        yield ray
    finally:
        if started_here:
            ray.shutdown()


@contextlib.contextmanager
def ray_checked(spec: RaySpec | None):
    """Ray connected (or started here) and the run's actors shown to fit, before a command
    writes anything: a refused run leaves no output behind. The pools the block makes join
    this session. Without `spec`, nothing."""
    if spec is None:
        yield
        return
    with ray_session(spec.address) as ray:
        _check_fits(ray, spec.actors or _slots(ray, spec), spec)
        yield


def _import_ray():
    try:
        import ray
    except ImportError:
        raise UsageError("--ray needs Ray: pip install 'finestate-env[ray]'") from None
    return ray


def _connect(ray, address: str) -> bool:
    """Join `address` or start a local instance; True when this call started Ray."""
    if ray.is_initialized():
        return False
    if address == LOCAL:
        # A new instance of our own ("local": never one found running on the machine),
        # on loopback only: it serves this machine and is reachable from no other.
        ray.init(address=LOCAL, include_dashboard=False, _node_ip_address="127.0.0.1",
                 configure_logging=True, logging_level="warning")
    else:
        try:
            ray.init(address=address, configure_logging=True, logging_level="warning")
        except ConnectionError as exc:
            raise UsageError(f"--ray {address}: no Ray cluster answers there ({exc}); if it "
                             "asks for a token, set RAY_AUTH_MODE=token with its token in "
                             "~/.ray/auth_token or RAY_AUTH_TOKEN") from None
    return True


def _slots(ray, spec: RaySpec) -> int:
    cpus = ray.cluster_resources().get("CPU", 0.0)
    return max(1, int(cpus // spec.cpus_per_actor))


def _check_fits(ray, count: int, spec: RaySpec) -> None:
    """Refuse a run whose actors the cluster could never place (they would wait forever)."""
    resources = ray.cluster_resources()
    cpus, memory = resources.get("CPU", 0.0), resources.get("memory", 0.0) / 2**20
    if count * spec.cpus_per_actor > cpus or count * spec.memory_mib_per_actor > memory:
        raise UsageError(
            f"{count} Ray actors of {spec.cpus_per_actor:g} CPU and {spec.memory_mib_per_actor} "
            f"MiB do not fit the cluster ({cpus:g} CPU, {memory:.0f} MiB in all): ask for "
            "fewer workers or less per actor")


def _placed(ray, actors: list, spec: RaySpec) -> list[tuple[str, int]]:
    """Wait until every actor runs; its node and pid."""
    try:
        return ray.get([actor.where.remote() for actor in actors], timeout=START_TIMEOUT_S)
    except ray.exceptions.RayActorError as exc:  # its creation failed: no retry mends that
        raise RuntimeError(f"a Ray actor could not start: {_first_line(exc)}") from exc
    except ray.exceptions.GetTimeoutError:
        raise RuntimeError(
            f"{len(actors)} Ray actors of {spec.cpus_per_actor:g} CPU and "
            f"{spec.memory_mib_per_actor} MiB were not all running after {START_TIMEOUT_S:g} s: "
            "the cluster is busy, or no single node has that much free") from None


def _batches(items: Iterable, size: int) -> Iterator[list]:
    """`items` in lists of `size` (the last shorter), made as they are asked for."""
    items = iter(items)
    while batch := list(itertools.islice(items, size)):
        yield batch


def _dispatch(ray, actors: list, batches: Iterable[list], lost, write) -> set[int]:
    """Every batch through the actors, taken from `batches` as an actor is free for it;
    the ids of the actors gone for good."""
    waiting = iter(batches)
    queue: deque[_Batch] = deque()  # the next batch, and batches to try again (first)

    def to_send() -> bool:
        """A batch to send: one to try again, else the next one."""
        if not queue and (batch := next(waiting, None)) is not None:
            queue.append(_Batch(batch))
        return bool(queue)

    idle = list(actors)
    running: dict = {}  # object ref -> (actor, batch)
    # A task sent to an actor while Ray restarts it fails at once: a dead actor gets
    # work again only once a call that Ray retries until the restart is over returns.
    recovering: dict = {}  # object ref -> actor
    deaths: dict[int, int] = {}
    gone: set[int] = set()
    while to_send() or running:
        while idle and to_send():
            actor, batch = idle.pop(), queue.popleft()
            running[actor.run.remote(batch.items)] = (actor, batch)
        if not running and not recovering:
            left = sum(len(b.items) for b in queue) + sum(len(b) for b in waiting)
            raise RuntimeError(f"every Ray actor died more than {MAX_RESTARTS} times; "
                               f"{left} items were not run (a rerun continues with them)")
        # A bounded wait, so that Ctrl-C is seen between two checks.
        ready, _ = ray.wait([*running, *recovering], num_returns=1, timeout=1.0)
        for ref in ready:
            if ref in recovering:
                actor = recovering.pop(ref)
                try:
                    ray.get(ref)
                except ray.exceptions.RayActorError:
                    gone.add(id(actor))  # its restarts are used up
                    continue
                idle.append(actor)
                continue
            actor, batch = running.pop(ref)
            try:
                records = ray.get(ref)
            except ray.exceptions.RayActorError as exc:
                deaths[id(actor)] = deaths.get(id(actor), 0) + 1
                if deaths[id(actor)] <= MAX_RESTARTS:
                    probe = actor.where.options(max_task_retries=MAX_RESTARTS + 1).remote()
                    recovering[probe] = actor
                else:
                    gone.add(id(actor))
                if batch.attempt == 1:
                    queue.appendleft(_Batch(batch.items, attempt=2))
                else:
                    cause = f"the Ray actor running it died twice: {_first_line(exc)}"
                    for item in batch.items:
                        write(lost(item, cause))
                continue
            except ray.exceptions.RayTaskError as exc:
                raise exc.as_instanceof_cause() from None  # the worker's own error, as locally
            idle.append(actor)
            for record in records:
                write(record)
    for ref, actor in recovering.items():  # still restarting: ready for a next run, or gone
        try:
            ray.get(ref, timeout=START_TIMEOUT_S)
        except (ray.exceptions.RayActorError, ray.exceptions.GetTimeoutError):
            gone.add(id(actor))
    return gone


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _stop(ray, actors: list) -> None:
    """Each worker closes its browser (bounded), then the actors go."""
    if not actors:
        return
    closing = [actor.close.remote() for actor in actors]
    ray.wait(closing, num_returns=len(closing), timeout=CLOSE_TIMEOUT_S)
    for actor in actors:
        ray.kill(actor, no_restart=True)
