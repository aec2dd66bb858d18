"""Stable-Baselines3 PPO on FineState-Web-v0, from pixels, over SubprocVecEnv.

The env's RL options give SB3 what it takes (docs/rl-libraries.md):
  obs_type="dict_bytes"  a Dict of Boxes: the screenshot and the instruction as UTF-8
                         bytes (SB3 takes no Text space); MultiInputPolicy reads both
  obs_size=(84, 84)      NatureCNN on the native 1280x720 would be 220 M parameters
  action_type="flat"     one Box(4) in [-1, 1]: p0 and p1 over the screen

Every episode is one gesture, so every step ends an episode and SB3 resets it.

    python examples/sb3_ppo.py --smoke                 # what make test runs
    python examples/sb3_ppo.py --steps 200000 --envs 2 --component switch
"""

from __future__ import annotations

import argparse
import json
import time

import gymnasium as gym
import numpy as np
from stable_baselines3 import PPO
from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import SubprocVecEnv

import finestate_env  # noqa: F401 (registers the ids)

RL_OPTIONS = {"obs_type": "dict_bytes", "obs_size": (84, 84), "action_type": "flat"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=100_000)
    parser.add_argument("--envs", type=int, default=2, help="SubprocVecEnv workers")
    parser.add_argument("--component", default="switch")
    parser.add_argument("--smoke", action="store_true", help="256 steps, 2 envs, a check")
    args = parser.parse_args()
    steps, n_steps = (256, 64) if args.smoke else (args.steps, 128)

    env = gym.make("FineState-Web-v0", component=args.component, **RL_OPTIONS)
    check_env(env)  # SB3's own checker on the env as made (the options are its wrappers)
    env.close()

    vec = make_vec_env("FineState-Web-v0", n_envs=args.envs, seed=0, vec_env_cls=SubprocVecEnv,
                       env_kwargs={"component": args.component, **RL_OPTIONS})
    model = PPO("MultiInputPolicy", vec, n_steps=n_steps, batch_size=64, n_epochs=2, seed=0,
                verbose=0)
    started = time.perf_counter()
    model.learn(total_timesteps=steps)
    elapsed = time.perf_counter() - started
    rewards = [float(info["r"]) for info in model.ep_info_buffer]
    vec.close()
    print(json.dumps({"library": "stable-baselines3", "env_steps": model.num_timesteps,
                      "episodes_seen": len(rewards), "steps_per_s": round(steps / elapsed, 1),
                      "rewards_exact": sorted(set(rewards)) <= [0.0, 1.0],
                      "mean_reward": float(np.mean(rewards)) if rewards else None}))


if __name__ == "__main__":
    main()
