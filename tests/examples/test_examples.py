"""The RL examples as a user runs them, in their smoke setting: real Stable-Baselines3,
RLlib (a local Ray with remote env runners) and TorchRL, each under 3 minutes here."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _run(script: str, *more: str, env: dict | None = None) -> tuple[dict, float]:
    started = time.monotonic()
    result = subprocess.run([sys.executable, str(EXAMPLES / script), "--smoke", *more],
                            capture_output=True, text=True, timeout=300, env=env)
    elapsed = time.monotonic() - started
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-4000:]
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    return summary, elapsed


def test_stable_baselines3_ppo_over_subprocvecenv():
    summary, elapsed = _run("sb3_ppo.py")
    assert summary["env_steps"] == 256  # PPO collected and trained on every step asked for
    assert summary["episodes_seen"] == 100  # one gesture per episode (SB3 keeps the last 100)
    assert summary["rewards_exact"] is True
    assert elapsed < 180


def test_stable_baselines3_dqn_with_her_on_the_goal_env():
    summary, elapsed = _run("sb3_her.py")
    assert summary["env_steps"] == summary["stored"] == 200  # every tap went into the buffer
    # HER's batch: stored and relabelled goals, each reward the env's exact compute_reward
    assert summary["batch_rewards_exact"] is True
    # relabelling with the state a tap left makes successes the real goals rarely give
    assert summary["relabelled_batch_success"] > summary["real_success"]
    assert elapsed < 180


def test_rllib_ppo_env_runners_across_two_nodes():
    """The RLlib example (PPO, remote env runners) on a cluster of two nodes with one CPU
    each: runners of one CPU each must run on both nodes, each making its envs there.
    (Run as `python examples/rllib_ppo.py` it starts a Ray of its own and gives a runner
    half a CPU, nothing else differs; that run took 72 s of make test, so it is this one.)"""
    from two_node_cluster import RAY_ENV, two_node_cluster

    with two_node_cluster() as cluster:
        summary, elapsed = _run("rllib_ppo.py", "--address", cluster.address,
                                "--cpus-per-runner", "1",
                                env=RAY_ENV)
    assert summary["runner_nodes"] == 2
    assert summary["env_steps"] >= 128  # 2 iterations of 64 steps, 2 runners x 2 envs
    assert summary["episodes"] == summary["env_steps"]  # every step ends its episode
    assert 0.0 <= summary["episode_return_mean"] <= 1.0  # exact 0/1 rewards, one per episode
    assert elapsed < 180


def test_torchrl_rollout_over_parallelenv():
    summary, elapsed = _run("torchrl_rollout.py")
    assert summary["env_steps"] == 64  # 2 workers x 32 steps
    assert summary["rewards_exact"] and summary["reward_is_success"]
    assert summary["screenshot"] == [2, 32, 720, 1280, 3]
    assert elapsed < 180

