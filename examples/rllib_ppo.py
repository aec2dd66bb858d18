"""RLlib PPO (new API stack) on FineState-Web-v0, with remote env runners.

The env's RL options give RLlib's default encoders what they take (docs/rl-libraries.md):
  obs_type="image"     one Box: the screenshot under a strip with the instruction drawn
                       in it (RLlib has no default encoder for a Dict or for Text)
  obs_size=(84, 84)    a size RLlib's default CNN knows (84, 64, 42 or 10 px squares)
  obs_dtype="float32"  RLlib's runners need float input (uint8 kills them silently)
  action_type="flat"   one Box(4) in [-1, 1]

Gymnasium's registry does not reach Ray's actors, so the env is registered with
`tune.register_env`; each env runner makes its envs inside its own process.

Across nodes (docs/cluster.md): `--address HOST:PORT` joins a running cluster
(RAY_AUTH_MODE=token, as for any driver); each env runner is a Ray actor that asks
for `--cpus-per-runner` CPUs and makes its envs (a browser) on the node Ray places
it on, so every node needs finestate-env and Chromium installed (`make install`).
The summary says on how many nodes the runners ran.

    python examples/rllib_ppo.py --smoke        # what make test runs: 2 runners x 2 envs
    python examples/rllib_ppo.py --iterations 200 --component switch
    python examples/rllib_ppo.py --address HEAD:6379 --env-runners 8 --cpus-per-runner 1
"""

from __future__ import annotations

import argparse
import json
import time

import gymnasium as gym
import ray
from ray import tune
from ray.rllib.algorithms.ppo import PPOConfig

RL_OPTIONS = {"obs_type": "image", "obs_size": (84, 84), "obs_dtype": "float32",
              "action_type": "flat"}


def make_env(config: dict) -> gym.Env:
    import finestate_env  # noqa: F401 (registers the ids inside the actor)

    return gym.make("FineState-Web-v0", **{**RL_OPTIONS, **config})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--component", default="switch")
    parser.add_argument("--env-runners", type=int, default=2)
    parser.add_argument("--envs-per-runner", type=int, default=2)
    parser.add_argument("--cpus-per-runner", type=float, default=0.5,
                        help="CPUs each env runner reserves (its envs share one browser)")
    parser.add_argument("--address", default=None, help="a Ray cluster (default: local)")
    parser.add_argument("--smoke", action="store_true", help="2 iterations of 64 steps")
    args = parser.parse_args()
    iterations, batch = (2, 64) if args.smoke else (args.iterations, 512)

    # "local": a Ray of our own, never one found running on the machine (ray.init()
    # without an address joins whatever instance it finds there).
    ray.init(address=args.address or "local", include_dashboard=False, log_to_driver=False)
    tune.register_env("finestate-web", make_env)
    config = (
        PPOConfig()
        .environment("finestate-web", env_config={"component": args.component})
        .env_runners(num_env_runners=args.env_runners,
                     num_envs_per_env_runner=args.envs_per_runner,
                     num_cpus_per_env_runner=args.cpus_per_runner,
                     rollout_fragment_length=batch // (args.env_runners * args.envs_per_runner))
        .training(train_batch_size_per_learner=batch, minibatch_size=32, num_epochs=1)
        .debugging(seed=0)
    )
    algo = config.build_algo()
    steps, started = 0, time.perf_counter()
    try:
        for _ in range(iterations):
            result = algo.train()
            steps = result["num_env_steps_sampled_lifetime"]
        elapsed = time.perf_counter() - started
        runners = result["env_runners"]
        nodes = algo.env_runner_group.foreach_env_runner(
            lambda runner: ray.get_runtime_context().get_node_id(), local_env_runner=False)
        print(json.dumps({"library": "rllib", "env_steps": int(steps),
                          "runner_nodes": len(set(nodes)),
                          "episodes": int(runners.get("num_episodes_lifetime", 0)),
                          "steps_per_s": round(steps / elapsed, 1),
                          "episode_return_mean": runners.get("episode_return_mean")}))
    finally:
        algo.stop()
        ray.shutdown()


if __name__ == "__main__":
    main()
