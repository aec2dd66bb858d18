"""What a crash costs (#46): per backend, an oracle step beside the same step after its
backend was killed (SIGKILL to every process below this one), which the env recovers: a
fresh start, the instance rendered again, the episode's gestures performed again, the
gesture performed again. Prints and writes the medians (ms), and checks that every killed
step was recovered with the undisturbed verdict.

    python -m benchmarks.recovery_bench --episodes 8 --out bench-recovery.json
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys

import gymnasium as gym

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.agents.scripted import OracleAgent
from finestate_env.backends.processes import descendants

SETUPS = {
    "web-slider": ("FineState-Web-v0", {"component": "slider", "scene": "control"}),
    "web-page": ("FineState-Web-v0", {}),
    "phone-page": ("FineState-Mobile-v0", {}),
    "desktop-knob": ("FineState-Desktop-v0", {"component": "knob", "scene": "control"}),
}




def _step(env, seed: int, kill: bool) -> tuple[float, float, float, str]:
    """(step ms, recovery ms, reward, state) of the oracle's step from `seed`."""
    _, info = env.reset(seed=seed)
    if kill:
        for pid in descendants(os.getpid()):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    _, reward, _, _, info = env.step(OracleAgent().act(None, info))
    timings = info["timings"]
    return timings["total"], timings.get("recovery", 0.0), reward, info["state"]


def bench(name: str, episodes: int) -> dict:
    env_id, options = SETUPS[name]
    with gym.make(env_id, timings=True, **options) as env:
        normal = [_step(env, seed, kill=False) for seed in range(episodes)]
        killed = [_step(env, seed, kill=True) for seed in range(episodes)]
    same = all(n[2:] == k[2:] for n, k in zip(normal, killed, strict=True))
    return {"step_ms": statistics.median(n[0] for n in normal),
            "killed_step_ms": statistics.median(k[0] for k in killed),
            "recovery_ms": statistics.median(k[1] for k in killed),
            "recovered": sum(k[1] > 0 for k in killed), "episodes": episodes,
            "same_verdicts": same}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=8)
    parser.add_argument("--setups", default=",".join(SETUPS))
    parser.add_argument("--out", default="bench-recovery.json")
    args = parser.parse_args(argv)
    report, ok = {}, True
    print(f"{'':<20}{'step ms':>10}{'killed step ms':>16}{'recovery ms':>13}  recovered")
    for name in args.setups.split(","):
        row = report[name] = bench(name, args.episodes)
        ok &= row["same_verdicts"] and row["recovered"] == row["episodes"]
        print(f"{name:<20}{row['step_ms']:>10.1f}{row['killed_step_ms']:>16.1f}"
              f"{row['recovery_ms']:>13.1f}  {row['recovered']}/{row['episodes']}"
              f"{'' if row['same_verdicts'] else '  VERDICTS DIFFER'}")
    with open(args.out, "w") as f:
        json.dump(report, f, indent=2)
    print(f"wrote {args.out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
