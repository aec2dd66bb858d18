"""`make bench`'s learning result: DQN on curriculum level 0, success before and after.

One standard learner, Stable-Baselines3's DQN, trained for a bounded budget on
FineState-Web-v0 at a curriculum level, as an RL user would set it up:

    env = gym.make("FineState-Web-v0", component=[...], level=0, viewport=(640, 360),
                   obs_type="screenshot", obs_size=(96, 54), goal_obs="vector",
                   terminal_obs="skip")
    env = GridActions(env, cell=20)          # Discrete(32 * 18): tap a 20 px cell
    DQN("MultiInputPolicy", env, ...)        # CNN on the pixels, MLP on the goal vector

The policy sees the screenshot and the goal as a vector (type one-hot and state code,
no OCR) and taps one cell; the reward is the env's exact one (1.0 when the control's
state read back equals the goal). Success is measured on held-out seeds (1,000,000 and
up, never drawn in training) for: a uniformly random cell, the untrained network (before)
and the trained one (after), greedy. Printed, and written as JSON with a plot beside it
(the training curve and the three rates).

A 640x360 screen (MiniWoB++'s screens are 160x210) keeps a lone control a fair share of
it: with 20 px cells a random tap reaches the goal in 0.7-1.6% of episodes of these
types, against 0.2-0.5% at 1280x720 (measured, docs/learning.md).
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

import finestate_env  # noqa: F401  (registers the ids)
from finestate_env.env.wrappers import GridActions

# Tap types whose level 0 goal always holds a 20 px cell's centre (docs/learning.md).
DEFAULT_COMPONENTS = ("radio_group", "segmented", "tabs", "checkbox")
HELD_OUT = 1_000_000  # evaluation seeds are HELD_OUT + i; training draws from seed 0 on
CURVE_EVERY = 10  # the training curve's points: every 10th episode's rolling success


def make_env(components: list[str], level: int, viewport: tuple[int, int],
             obs_size: tuple[int, int], cell: int) -> GridActions:
    env = gym.make("FineState-Web-v0", component=components, level=level, viewport=viewport,
                   obs_type="screenshot", obs_size=obs_size, goal_obs="vector",
                   terminal_obs="skip")
    return GridActions(env, cell=cell)


def success_rate(env: GridActions, act, seeds: range) -> float:
    """The share of the seeds' episodes whose one gesture, `act(obs)`, reaches the goal."""
    wins = judged = 0
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        _, _, terminated, truncated, info = env.step(act(obs))
        assert terminated or truncated, "level 0-2 episodes are one gesture long"
        if info["unjudged"] is None:  # a crash past recovery is no verdict either way
            judged += 1
            wins += bool(info["success"])
    return wins / judged if judged else 0.0


class Curve:
    """SB3 callback: each training episode's success, and a stop at the time budget."""

    def __init__(self, budget_s: float) -> None:
        from stable_baselines3.common.callbacks import BaseCallback

        outer = self

        class _Callback(BaseCallback):
            def _on_step(self) -> bool:
                for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                    if done and info.get("unjudged") is None:
                        outer.successes.append(bool(info["success"]))
                return time.perf_counter() - outer.started < budget_s

        self.successes: list[bool] = []
        self.started = time.perf_counter()
        self.callback = _Callback()


def rolling(values: list[bool], window: int) -> list[float]:
    if len(values) < window:
        return []
    cumulative = np.cumsum(np.asarray(values, dtype=np.float64))
    return ((cumulative[window - 1:] - np.concatenate([[0.0], cumulative[:-window]]))
            / window).tolist()


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (curve, bars) = plt.subplots(1, 2, figsize=(10, 3.6),
                                         gridspec_kw={"width_ratios": [2, 1]})
    window, every = result["curve_window"], result["curve_every"]
    curve.plot([window + every * k for k in range(len(result["curve"]))], result["curve"])
    curve.set_xlabel("training episode")
    curve.set_ylabel(f"success, last {window} episodes")
    curve.set_ylim(0, 1)
    curve.set_title(f"DQN, level {result['level']}: {', '.join(result['components'])}",
                    fontsize=9)
    names = ["random", "before", "after"]
    rates = [result["held_out"][name] for name in names]
    bars.bar(names, rates, color=["#999999", "#999999", "#2a6fb0"])
    for k, rate in enumerate(rates):
        bars.text(k, rate + 0.02, f"{rate:.1%}", ha="center", fontsize=9)
    bars.set_ylim(0, 1.1)
    bars.set_title(f"{result['eval_seeds']} held-out seeds", fontsize=9)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def run(args: argparse.Namespace) -> dict[str, Any]:
    import torch
    from stable_baselines3 import DQN

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)  # the browser takes the other core
    components = args.component.split(",")
    viewport = tuple(int(v) for v in args.viewport.split("x"))
    obs_size = tuple(int(v) for v in args.obs_size.split("x"))
    env = make_env(components, args.level, viewport, obs_size, args.cell)
    env.reset(seed=args.seed)
    model = DQN("MultiInputPolicy", env, learning_rate=args.lr, buffer_size=args.steps,
                learning_starts=args.learning_starts, batch_size=64, gamma=0.0,
                train_freq=args.train_freq, gradient_steps=1, target_update_interval=250,
                exploration_fraction=args.exploration, exploration_final_eps=0.05,
                policy_kwargs={"net_arch": [256]}, seed=args.seed, verbose=0)
    seeds = range(HELD_OUT, HELD_OUT + args.eval_seeds)
    greedy = lambda obs: model.predict(obs, deterministic=True)[0]  # noqa: E731
    rng = np.random.default_rng(args.seed)
    cells = int(env.action_space.n)
    evaluated = time.perf_counter()
    random_rate = success_rate(env, lambda obs: int(rng.integers(cells)), seeds)
    before = success_rate(env, greedy, seeds)
    eval_s = time.perf_counter() - evaluated
    curve = Curve(args.budget_minutes * 60)
    model.learn(total_timesteps=args.steps, callback=curve.callback)
    train_s = time.perf_counter() - curve.started
    after = success_rate(env, greedy, seeds)
    env.close()
    window = min(200, max(1, len(curve.successes) // 5))
    return {
        "env": "FineState-Web-v0", "level": args.level, "components": components,
        "viewport": list(viewport), "obs_size": list(obs_size), "cell": args.cell,
        "actions": cells, "algorithm": "SB3 DQN, MultiInputPolicy (NatureCNN + goal vector)",
        "steps": model.num_timesteps, "train_minutes": round(train_s / 60, 2),
        "steps_per_s": round(model.num_timesteps / train_s, 1),
        "eval_seeds": args.eval_seeds, "eval_first_seed": HELD_OUT,
        "held_out": {"random": random_rate, "before": before, "after": after},
        "eval_minutes_each": round(eval_s / 2 / 60, 2),
        "training_success": float(np.mean(curve.successes)) if curve.successes else 0.0,
        # the success over the last `window` training episodes, at every `every`-th one
        "curve_window": window, "curve_every": CURVE_EVERY,
        "curve": rolling(curve.successes, window)[::CURVE_EVERY],
        "load": list(os.getloadavg()), "cpus": os.cpu_count(), "seed": args.seed,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--component", default=",".join(DEFAULT_COMPONENTS))
    parser.add_argument("--level", type=int, default=0)
    parser.add_argument("--viewport", default="640x360")
    parser.add_argument("--obs-size", default="96x54")
    parser.add_argument("--cell", type=int, default=20)
    parser.add_argument("--steps", type=int, default=12_000, help="training steps (episodes)")
    parser.add_argument("--budget-minutes", type=float, default=15.0,
                        help="training stops here even short of --steps")
    parser.add_argument("--learning-starts", type=int, default=1000)
    parser.add_argument("--train-freq", type=int, default=2)
    parser.add_argument("--exploration", type=float, default=0.4,
                        help="share of the steps over which epsilon falls from 1 to 0.05")
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--eval-seeds", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="bench-learn.json")
    args = parser.parse_args(argv)
    result = run(args)
    out = Path(args.out)
    out.write_text(json.dumps(result, indent=2) + "\n")
    plot(result, out.with_suffix(".png"))
    rates = result["held_out"]
    print(f"learning: DQN, level {result['level']}, {', '.join(result['components'])}: "
          f"{result['steps']} steps in {result['train_minutes']} min "
          f"({result['steps_per_s']} steps/s)")
    print(f"  success on {result['eval_seeds']} held-out seeds: random {rates['random']:.1%}, "
          f"before {rates['before']:.1%}, after {rates['after']:.1%}")
    print(f"  wrote {out} and {out.with_suffix('.png')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
