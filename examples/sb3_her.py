"""Stable-Baselines3 DQN with hindsight experience replay (HerReplayBuffer) on
FineState-Web-v0 as a goal env.

    goal_obs="goal_env"    Dict(observation, achieved_goal, desired_goal), the
                           Gymnasium-Robotics convention; compute_reward (the AsGoalEnv
                           wrapper's, which SB3 reaches through env_method) is the exact
                           reward, vectorised, as HER needs to relabel
    obs_type="screenshot"  the observation is the screenshot alone: the goal is a vector
    level=0                the curriculum's first level: one fixed control per type, only
                           the current and goal states drawn per episode
    terminal_obs="skip"    one gesture per episode: its terminal screenshot is not taken
    GridActions(cell=20)   Discrete(32 * 18): tap the centre of a 20 px cell

An episode is one tap. HER relabels it with the state the tap left (achieved_goal): a tap
on another option of the control is a success for that option's goal, so every hit
teaches, not only hits on the goal drawn.

    python examples/sb3_her.py --smoke                 # what make test runs
    python examples/sb3_her.py --steps 10000 --algo sac   # SAC on the flat Box action
"""

from __future__ import annotations

import argparse
import json
import time

import gymnasium as gym
import numpy as np
from stable_baselines3 import DQN, SAC, HerReplayBuffer
from stable_baselines3.common.env_checker import check_env

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.env.wrappers import GridActions

GOAL_ENV = {"level": 0, "viewport": (640, 360), "obs_type": "screenshot",
            "obs_size": (96, 54), "goal_obs": "goal_env", "terminal_obs": "skip",
            "action_type": "flat"}


def make_env(component: str, algo: str) -> gym.Env:
    if algo == "sac":  # a continuous learner takes the flat Box(4) action as it is
        return gym.make("FineState-Web-v0", component=component, **GOAL_ENV)
    return GridActions(gym.make("FineState-Web-v0", component=component, **GOAL_ENV), cell=20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=10_000)
    parser.add_argument("--component", default="radio_group")
    parser.add_argument("--algo", choices=("dqn", "sac"), default="dqn")
    parser.add_argument("--smoke", action="store_true", help="200 steps and the checks")
    args = parser.parse_args()
    steps, starts = (200, 100) if args.smoke else (args.steps, 1000)

    env = make_env(args.component, args.algo)
    check_env(env)  # SB3's checker on the env as the model takes it
    algo, extra = (SAC, {}) if args.algo == "sac" else (
        DQN, {"exploration_fraction": 0.4, "target_update_interval": 250})
    model = algo("MultiInputPolicy", env, replay_buffer_class=HerReplayBuffer,
                 replay_buffer_kwargs={"n_sampled_goal": 4, "goal_selection_strategy": "future"},
                 learning_starts=starts, buffer_size=max(steps, 1000), batch_size=64,
                 gamma=0.0, seed=0, verbose=0, **extra)
    started = time.perf_counter()
    model.learn(total_timesteps=steps)
    elapsed = time.perf_counter() - started

    # What HER trains on: a batch of stored and relabelled transitions, whose rewards the
    # env's compute_reward gave; they must be the exact reward of their goals.
    batch = model.replay_buffer.sample(256)
    achieved = batch.next_observations["achieved_goal"].numpy()
    desired = batch.observations["desired_goal"].numpy()
    rewards = batch.rewards.numpy().ravel()
    exact = np.array_equal(rewards, np.all(achieved == desired, axis=-1).astype(np.float32))
    real = model.replay_buffer.rewards[:model.replay_buffer.pos].ravel()
    env.close()
    print(json.dumps({
        "library": "stable-baselines3", "algorithm": f"{args.algo.upper()} + HerReplayBuffer",
        "env_steps": model.num_timesteps, "steps_per_s": round(model.num_timesteps / elapsed, 1),
        "stored": int(model.replay_buffer.pos), "real_success": float(real.mean()),
        "relabelled_batch_success": float(rewards.mean()), "batch_rewards_exact": bool(exact),
    }))


if __name__ == "__main__":
    main()
