"""Generating static datasets whose boxes are measured from live controls (docs/design.md §5).

`generate(out_dir, n=..., seed=...)` renders `n` instances in one env (one
browser for all of them), writes `out_dir/instances.jsonl` (the project layout,
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

import io
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np
from PIL import Image

from finestate_env import components
from finestate_env.components.scenes import DEFAULT_SCENE
from finestate_env.core.schema import FAMILIES, Family, Instance, Platform
from finestate_env.datasets import formats

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
        raise ValueError(f"n must be at least 1, got {n}")
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


def _make_env(platform: Platform, names: list[str], viewport, scene: str):
    import gymnasium as gym

    env_id = ENV_IDS.get(platform)
    if env_id is None:
        raise ValueError(f"unknown platform {platform!r}; expected one of {list(ENV_IDS)}")
    if env_id not in gym.registry:
        raise ValueError(f"platform {platform!r} has no environment here: {env_id} is not "
                         "registered (its backend is not installed or not written yet)")
    options = {"component": names, "render_mode": "rgb_array"}
    if viewport is not None:
        options["viewport"] = viewport
    options["scene"] = scene
    return gym.make(env_id, **options).unwrapped


def _png(pixels: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


def generate(out_dir: str | Path, *, platform: Platform = "web", n: int, seed: int,
             component: str | Iterable[str] | None = None,
             family: str | Iterable[str] | None = None, fmt: str = "finestate-env",
             viewport: tuple[int, int] | str | None = None, scene: str = DEFAULT_SCENE,
             progress: Callable[[int, int], None] | None = None) -> Path:
    """Write `n` instances to `out_dir` (see the module docstring); returns the file in `fmt`.

    Lines of `instances.jsonl` are written as the instances are made, so an
    interrupted run keeps what it finished.
    """
    if fmt not in FORMAT_FILES:
        raise ValueError(f"unknown format {fmt!r}; expected one of {list(FORMAT_FILES)}")
    types = plan(n, seed, component, family)
    out = Path(out_dir)
    (out / "images").mkdir(parents=True, exist_ok=True)
    seeds = np.random.default_rng([seed, 1])  # episode seeds: a stream apart from the plan
    instances: list[Instance] = []
    seen: set[str] = set()
    env = _make_env(platform, sorted(set(types), key=list(components.COMPONENTS).index), viewport,
                    scene)
    try:
        with open(out / "instances.jsonl", "w", encoding="utf-8", newline="\n") as lines:
            for index, name in enumerate(types):
                while True:  # a repeat of an earlier instance (tiny state spaces) is redrawn
                    episode_seed = int(seeds.integers(2**31 - 1))
                    obs, info = env.reset(seed=episode_seed, options={"component": name})
                    instance = env.instance
                    if instance.id not in seen:
                        break
                seen.add(instance.id)
                image = f"images/{instance.id}.png"
                (out / image).write_bytes(_png(obs["screenshot"]))
                instance = instance.model_copy(update={"image": image})
                lines.write(instance.model_dump_json() + "\n")
                lines.flush()
                instances.append(instance)
                if progress:
                    progress(index + 1, len(types))
    finally:
        env.close()
    if fmt != "finestate-env":
        formats.export(instances, out / FORMAT_FILES[fmt], fmt)
    return out / FORMAT_FILES[fmt]


def timed_generate(out_dir: str | Path, **options) -> tuple[Path, float]:
    """`generate` and its speed in instances per second (browser start included)."""
    started = time.perf_counter()
    path = generate(out_dir, **options)
    return path, options["n"] / (time.perf_counter() - started)
