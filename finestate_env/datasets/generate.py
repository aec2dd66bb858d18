"""Generating static datasets whose boxes are measured from live controls (docs/design.md §5).

`generate(out_dir, n=..., seed=...)` renders `n` instances in one env (one
browser for all of them; with `ray=`, on Ray actors, one env each, with the same
files as the result), writes `out_dir/instances.jsonl` (the project layout,
each instance with the `live` block that rebuilds it exactly) and the
screenshots `out_dir/images/<id>.png`, and, for `fmt="finestate"` or
`"screenspot"`, the same instances in that layout beside them.

The mix follows the paper's family shares (numeric range 28.9%, toggle/option
25.5%, specific data 21.4%, view manipulation 24.2%), evenly over the types of
each family, restricted (and renormalised) by `component` / `family`. Counts are
apportioned by largest remainder; ties, the order and every episode seed come
from `seed`, so the same seed writes the same files, byte for byte. Each instance is
shown in an app page (`scene="page"`, the default; issue #16): its lines carry the
page (`live.scene`) and what was measured of it (`scene`). `scene="control"` shows
the control alone, as before issue #16.
"""

from __future__ import annotations

import functools
import io
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import numpy as np
from PIL import Image

from finestate_env import components
from finestate_env.components.scenes import DEFAULT_SCENE
from finestate_env.core.errors import UsageError
from finestate_env.core.files import write_new
from finestate_env.core.schema import FAMILIES, Family, Instance, Platform
from finestate_env.datasets import formats
from finestate_env.datasets.formats.project import remove_dataset
from finestate_env.runs.ray_jobs import RaySpec

FAMILY_SHARES: dict[Family, float] = {
    "numeric_range": 0.289, "toggle_option": 0.255, "specific_data": 0.214,
    "view_manipulation": 0.242,
}
ENV_IDS: dict[Platform, str] = {"web": "FineState-Web-v0", "mobile": "FineState-Mobile-v0",
                                "desktop": "FineState-Desktop-v0"}
FORMAT_FILES = {"finestate-env": "instances.jsonl", "finestate": "finestate-bench.jsonl",
                "screenspot": "screenspot.jsonl"}
# Level 1: about half Pillow's default encoding time for ~2x the bytes of level 6;
# screenshots of flat UI stay small either way.
PNG_COMPRESS_LEVEL = 1


def _apportion(total: int, weights: dict[str, float], tie_order: list[str]) -> dict[str, int]:
    """Largest-remainder shares of `total`; equal remainders go in `tie_order`."""
    scale = sum(weights.values())
    exact = {name: total * weight / scale for name, weight in weights.items()}
    counts = {name: int(value) for name, value in exact.items()}
    left = total - sum(counts.values())
    rank = sorted(weights, key=lambda name: (-(exact[name] - counts[name]),
                                             tie_order.index(name)))
    for name in rank[:left]:
        counts[name] += 1
    return counts


def plan(n: int, seed: int, component: str | Iterable[str] | None = None,
         family: str | Iterable[str] | None = None) -> list[str]:
    """The component type of each of the `n` instances, in generation order."""
    if n < 1:
        raise UsageError(f"n must be at least 1, got {n}")
    names = components.resolve(component, family)
    rng = np.random.default_rng(seed)
    by_family: dict[str, list[str]] = {}
    for name in names:
        by_family.setdefault(components.COMPONENTS[name].family, []).append(name)
    present = [f for f in FAMILIES if f in by_family]
    family_counts = _apportion(n, {f: FAMILY_SHARES[f] for f in present},
                               [present[i] for i in rng.permutation(len(present))])
    types: list[str] = []
    for fam in present:
        members = by_family[fam]
        order = [members[i] for i in rng.permutation(len(members))]
        for name, count in _apportion(family_counts[fam], dict.fromkeys(members, 1.0),
                                      order).items():
            types.extend([name] * count)
    return [types[i] for i in rng.permutation(len(types))]


def env_id_for(platform: Platform) -> str:
    import gymnasium as gym

    env_id = ENV_IDS.get(platform)
    if env_id is None:
        raise UsageError(f"unknown platform {platform!r}; expected one of {list(ENV_IDS)}")
    if env_id not in gym.registry:
        raise UsageError(f"platform {platform!r} has no environment here: {env_id} is not "
                         "registered (its backend is not installed or not written yet)")
    return env_id


def _make_env(platform: Platform, names: list[str], viewport, scene: str,
              max_actions: int = 1):
    import gymnasium as gym

    env_id = env_id_for(platform)
    options = {"component": names, "render_mode": "rgb_array"}
    if viewport is not None:
        options["viewport"] = viewport
    options["scene"] = scene
    if max_actions > 1:  # goals up to max_actions gestures away, where the type allows
        options["max_actions"] = max_actions
    return gym.make(env_id, **options).unwrapped


def _png(pixels: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


class InstanceMaker:
    """One env (one browser or display) rendering instance after instance: `(component,
    episode seed)` -> the instance's line (without its trailing newline) and PNG bytes.
    Built where it runs (this process, or a Ray actor), so it holds only what builds it."""

    def __init__(self, platform: Platform, names: list[str], viewport, scene: str,
                 max_actions: int = 1) -> None:
        self._options = (platform, names, viewport, scene, max_actions)
        self._env = None

    def make(self, name: str, episode_seed: int) -> tuple[str, str, bytes]:
        """The instance's id, its line and its screenshot."""
        if self._env is None:
            self._env = _make_env(*self._options)
        obs, _ = self._env.reset(seed=episode_seed, options={"component": name})
        instance = self._env.instance
        instance = instance.model_copy(update={"image": f"images/{instance.id}.png"})
        return instance.id, instance.model_dump_json(), _png(obs["screenshot"])

    def __call__(self, item: tuple[str, int]) -> dict:
        name, episode_seed = item
        instance_id, line, png = self.make(name, episode_seed)
        return {"key": f"{name}/{episode_seed}", "pair": item, "id": instance_id,
                "line": line, "png": png}

    def close(self) -> None:
        if self._env is not None:
            env, self._env = self._env, None
            env.close()


def generate(out_dir: str | Path, *, platform: Platform = "web", n: int, seed: int,
             component: str | Iterable[str] | None = None,
             family: str | Iterable[str] | None = None, fmt: str = "finestate-env",
             viewport: tuple[int, int] | str | None = None, scene: str = DEFAULT_SCENE,
             progress: Callable[[int, int], None] | None = None,
             ray: RaySpec | None = None, overwrite: bool = False) -> Path:
    """Write `n` instances to `out_dir` (see the module docstring); returns the file in `fmt`.

    Lines of `instances.jsonl` are written as the instances are made, so an
    interrupted run keeps what it finished. With `ray`, Ray actors render them
    (`_generate_on_ray`), and the files are the same, byte for byte. A folder that holds
    a dataset already is refused, unless `overwrite`: then its instances file and the
    images it names are removed first (nothing else in the folder).
    """
    if fmt not in FORMAT_FILES:
        raise UsageError(f"unknown format {fmt!r}; expected one of {list(FORMAT_FILES)}")
    types = plan(n, seed, component, family)
    env_id_for(platform)  # refused before any file is touched
    out = Path(out_dir)
    _clear_earlier(out, overwrite)
    (out / "images").mkdir(parents=True, exist_ok=True)
    seeds = SeedStream(seed)
    instances: list[Instance] = []
    make_maker = functools.partial(
        InstanceMaker, platform, sorted(set(types), key=list(components.COMPONENTS).index),
        viewport, scene)
    with write_new(out / "instances.jsonl", "w", encoding="utf-8", newline="\n") as lines:
        def keep(instance_id: str, line: str, png: bytes) -> None:
            with write_new(out / "images" / f"{instance_id}.png", "wb") as image:
                image.write(png)
            lines.write(line + "\n")
            lines.flush()
            instances.append(Instance.model_validate_json(line))
            if progress:
                progress(len(instances), len(types))

        if ray is not None:
            _generate_on_ray(types, seeds, make_maker, ray, keep)
        else:
            maker = make_maker()
            try:
                for made in distinct_instances(maker, types, seeds, set()):
                    keep(*made)
            finally:
                maker.close()
    if fmt != "finestate-env":
        formats.export(instances, out / FORMAT_FILES[fmt], fmt)
    return out / FORMAT_FILES[fmt]


def _clear_earlier(out: Path, overwrite: bool) -> None:
    """Refuse a folder holding a dataset, or (overwrite) remove what generate wrote there."""
    listing = out / "instances.jsonl"
    if not listing.exists() and not listing.is_symlink():
        return
    if not overwrite:
        raise UsageError(f"{out} holds a dataset already ({listing}); pass --overwrite to "
                         "replace it, or choose another --out")
    remove_dataset(out)


def distinct_instances(maker: InstanceMaker, types: Iterable[str], seeds: SeedStream,
                       seen: set[str]) -> Iterator[tuple[str, str, bytes]]:
    """(id, line, PNG) of an instance of each type in turn, each on the next seed of
    `seeds`; an instance whose id is in `seen` (a tiny state space repeats) is drawn again
    on the seed after. `seen` gains the ids made."""
    for name in types:
        while True:
            instance_id, line, png = maker.make(name, seeds.next())
            if instance_id not in seen:
                break
        seen.add(instance_id)
        yield instance_id, line, png


class SeedStream:
    """The episode seeds, in the order they are drawn: a stream apart from the plan's."""

    def __init__(self, seed: int) -> None:
        self._rng = np.random.default_rng([seed, 1])
        self._drawn: list[int] = []
        self._next = 0

    def at(self, index: int) -> int:
        while len(self._drawn) <= index:  # one draw at a time: the sequence a local run draws
            self._drawn.append(int(self._rng.integers(2**31 - 1)))
        return self._drawn[index]

    def next(self) -> int:
        self._next += 1
        return self.at(self._next - 1)


def _generate_on_ray(types: list[str], seeds: SeedStream,
                     make_maker: Callable[[], InstanceMaker], spec: RaySpec,
                     keep: Callable[[str, str, bytes], None]) -> None:
    """The local run's instances, made on Ray actors.

    Locally, instance i takes the next episode seed, and a repeat of an earlier instance
    takes the one after, so every seed depends on the repeats before it. Here the driver
    walks the same stream in plan order, as the local run does, over (type, seed) pairs
    rendered ahead by the actors on the guess that no repeat comes; a repeat shifts the
    later pairs by one seed, and only pairs rendered for nothing are rendered again.
    """
    from finestate_env.runs.ray_jobs import RayPool

    made: dict[tuple[str, int], dict] = {}
    seen: set[str] = set()
    position, cursor = 0, 0  # the next instance to keep, the next seed of the stream

    def lost(item: tuple[str, int], cause: str) -> dict:
        raise RuntimeError(f"generate: the {item[0]} instance of episode seed {item[1]} "
                           f"was not made ({cause}); nothing past it was written")

    def store(record: dict) -> None:
        made[tuple(record["pair"])] = record

    with RayPool(make_maker, spec) as pool:
        ahead = max(2 * pool.actors * spec.batch_size, 1)
        while position < len(types):
            pair = (types[position], seeds.at(cursor))
            if pair not in made:
                guesses = [(types[position + k], seeds.at(cursor + k))
                           for k in range(min(ahead, len(types) - position))]
                pool.run([p for p in guesses if p not in made], lost, store)
            record = made.pop(pair)
            cursor += 1
            if record["id"] in seen:
                continue  # a repeat: this instance takes the next seed
            seen.add(record["id"])
            keep(record["id"], record["line"], record["png"])
            position += 1


def timed_generate(out_dir: str | Path, **options) -> tuple[Path, float]:
    """`generate` and its speed in instances per second (browser start included)."""
    started = time.perf_counter()
    path = generate(out_dir, **options)
    return path, options["n"] / (time.perf_counter() - started)
