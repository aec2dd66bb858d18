"""Precision curves: live success against Gaussian pixel noise on the oracle's points.

For every component type, the noisy oracle (`agents.NoisyOracleAgent`) acts on
the same episodes (seeds `seed .. seed + K - 1`) at every sigma, with the same
noise directions scaled by sigma (common random numbers), so a curve shows how
many pixels of error a type tolerates, not differences between draws. Only a
live environment can draw this: the static boxes say nothing about the points
between a box edge and the true goal region.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

import gymnasium as gym

from finestate_env.agents.scripted import NoisyOracleAgent
from finestate_env.components import COMPONENTS, resolve
from finestate_env.core.errors import UsageError
from finestate_env.core.extras import require
from finestate_env.core.files import write_text

NoiseTarget = Literal["p0", "p1"]


def precision_curve(sigmas: Sequence[float], components: Sequence[str] | None = None,
                    episodes_per_type: int = 10, seed: int = 0, noise_on: NoiseTarget = "p1",
                    viewport: str | tuple[int, int] | None = None, env_id: str = "FineState-Web-v0",
                    scene: str | None = None,
                    on_type: Callable[[str, dict[str, Any]], None] | None = None,
                    ) -> dict[str, Any]:
    """Live and static success rates per type and sigma (pixels), as a JSON-ready dict.

    `live[i]` is the fraction of the type's K episodes whose read-back state equals
    the goal at `sigmas[i]`; `static[i]` the fraction whose p1 falls in the goal box.
    `half_success_sigma` is where live success first falls to 0.5, interpolated
    linearly between sweep points (None when it never does within the sweep).
    """
    if noise_on not in ("p0", "p1"):
        raise UsageError(f"noise_on must be 'p0' or 'p1', got {noise_on!r}")
    if episodes_per_type < 1:
        raise UsageError(f"episodes_per_type must be at least 1, got {episodes_per_type}")
    sigmas = [float(s) for s in sigmas]
    if not sigmas or any(not (s >= 0) for s in sigmas) or sigmas != sorted(sigmas):
        raise UsageError(f"sigmas must be non-negative and increasing, got {sigmas}")
    names = resolve(components)
    started = time.perf_counter()
    options = {} if viewport is None else {"viewport": viewport}
    if scene is not None:  # else the env's default, a page
        options["scene"] = scene
    env = gym.make(env_id, component=names, **options).unwrapped
    by_component: dict[str, dict[str, Any]] = {}
    try:
        for name in names:
            live, static = [], []
            for sigma in sigmas:
                # A fresh agent per sigma with the same seed: the same unit noise, scaled.
                agent = NoisyOracleAgent(**{f"sigma_{noise_on}": sigma}, seed=seed,
                                         coord_mode=env.coord_mode)
                hits_live = hits_static = judged = 0
                for i in range(episodes_per_type):
                    obs, info = env.reset(seed=seed + i, options={"component": name})
                    _, _, _, _, info = env.step(agent.act(obs, info))
                    if info["unjudged"] is not None:  # a crash past recovery: no verdict
                        continue
                    judged += 1
                    hits_live += bool(info["success"])
                    hits_static += bool(info["static"]["es_sr_int"])
                live.append(hits_live / judged if judged else 0.0)
                static.append(hits_static / judged if judged else 0.0)
            component = COMPONENTS[name]
            by_component[name] = {
                "family": component.family, "gesture": component.gesture,
                "live": live, "static": static,
                "half_success_sigma": _crossing(sigmas, live, 0.5)}
            if on_type:
                on_type(name, by_component[name])
    finally:
        env.close()
    return {"noise_on": noise_on, "sigmas": sigmas, "episodes_per_type": episodes_per_type,
            "seed": seed, "env": env_id, "scene": env.scene, "viewport": list(env.viewport),
            "by_component": by_component,
            "elapsed_s": round(time.perf_counter() - started, 1)}


def _crossing(xs: Sequence[float], ys: Sequence[float], level: float) -> float | None:
    for i in range(1, len(xs)):
        if ys[i] <= level < ys[i - 1]:
            fraction = (ys[i - 1] - level) / (ys[i - 1] - ys[i])
            return round(xs[i - 1] + fraction * (xs[i] - xs[i - 1]), 2)
    return None


def plot_curve(curve: dict[str, Any], path: str | Path) -> Path:
    """One panel per family, one line per type: live success against sigma (symlog x)."""
    matplotlib = require("matplotlib", "report", "the precision curve's plot")
    matplotlib.use("Agg")  # files only: no display on the machines that draw this
    import matplotlib.pyplot as plt

    families: dict[str, list[str]] = {}
    for name, row in curve["by_component"].items():
        families.setdefault(row["family"], []).append(name)
    columns = 2 if len(families) > 2 else len(families)
    rows = -(-len(families) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(5.2 * columns, 3.6 * rows + 0.5),
                             sharey=True, squeeze=False)
    sigmas = curve["sigmas"]
    for ax in axes.flat[len(families):]:
        ax.set_visible(False)
    for ax, (family, names) in zip(axes.flat, families.items(), strict=False):
        for name in names:
            row = curve["by_component"][name]
            ax.plot(sigmas, row["live"], marker="o", markersize=3.5, linewidth=1.4,
                    linestyle="-" if row["gesture"] == "tap" else "--", label=name)
        ax.set_xscale("symlog", linthresh=1.0)
        ax.set_xticks(sigmas)
        ax.set_xticklabels([f"{s:g}" for s in sigmas])
        ax.set_ylim(-0.03, 1.03)
        ax.set_title(family.replace("_", " "))
        ax.set_xlabel(f"σ of Gaussian noise on {curve['noise_on']} (pixels)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7, loc="lower left")
    for row in axes:
        row[0].set_ylabel("live success (goal reached)")
    fig.suptitle(f"How many pixels of error each type tolerates: the oracle's {curve['noise_on']}"
                 f" plus Gaussian noise, {curve['episodes_per_type']} episodes per point\n"
                 f"{curve['env']} {curve['viewport'][0]}x{curve['viewport'][1]}, "
                 f"same episodes at every σ (dashed: drag gestures)", fontsize=10)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def write_curve(curve: dict[str, Any], out: str | Path) -> tuple[Path, Path]:
    """`out/curve.json` and `out/curve.png`."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    json_path = out / "curve.json"
    write_text(json_path, json.dumps(curve, indent=2) + "\n")
    return json_path, plot_curve(curve, out / "curve.png")
