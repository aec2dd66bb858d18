"""A TorchRL rollout on FineState-Web-v0 over ParallelEnv, with the env's info read back.

TorchRL's GymEnv takes the default Dict observation as it is: the screenshot becomes a
uint8 tensor and the instruction Text a non-tensor entry. Its `default_info_dict_reader`
reads only NumPy values (it asks each value for `.dtype`), while the env's verdicts are
Python bools (what Gymnasium's vector envs batch into bool arrays, and what JSON
writes), so the verdicts are read by the small `VerdictReader` below. One gesture per
episode: every step is done, so the rollout goes on with `break_when_any_done=False`
and TorchRL resets each env after its step.

    python examples/torchrl_rollout.py --smoke      # what make test runs
    python examples/torchrl_rollout.py --steps 200 --workers 2
"""

from __future__ import annotations

import argparse
import functools
import json
import time

import torch
from torchrl.data.tensor_specs import Composite, Unbounded
from torchrl.envs import GymEnv, ParallelEnv
from torchrl.envs.gym_like import BaseInfoDictReader

VERDICTS = ("success", ("live", "es_sr_int"), ("static", "es_sr_int"))


class VerdictReader(BaseInfoDictReader):
    """The step's exact-state verdicts as bool entries; False after a reset (no step yet)."""

    def __call__(self, info: dict, tensordict):
        for key in VERDICTS:
            value = (info.get(key) if isinstance(key, str)
                     else info.get(key[0], {}).get(key[1]))
            tensordict.set(key, torch.tensor(bool(value)))
        return tensordict

    @property
    def info_spec(self) -> Composite:
        return Composite({key: Unbounded((), dtype=torch.bool) for key in VERDICTS})


def make_env(component: str) -> GymEnv:
    import finestate_env  # noqa: F401 (registers the ids inside the worker)

    env = GymEnv("FineState-Web-v0", component=component, action_type="flat")
    env.set_info_dict_reader(VerdictReader())
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=100, help="steps per worker")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--component", default="switch")
    parser.add_argument("--smoke", action="store_true", help="32 steps per worker")
    args = parser.parse_args()
    steps = 32 if args.smoke else args.steps

    # functools.partial, not a lambda: TorchRL would make an env in this process to
    # inspect it (a whole browser).
    env = ParallelEnv(args.workers, functools.partial(make_env, args.component))
    try:
        env.set_seed(0)
        started = time.perf_counter()
        rollout = env.rollout(steps, break_when_any_done=False)
        elapsed = time.perf_counter() - started
        rewards = rollout["next", "reward"]
        success = rollout["next", "success"]
        live, static = rollout["next", "live", "es_sr_int"], rollout["next", "static", "es_sr_int"]
        print(json.dumps({
            "library": "torchrl", "env_steps": int(rewards.numel()),
            "steps_per_s": round(rewards.numel() / elapsed, 1),
            "rewards_exact": bool(torch.isin(rewards, torch.tensor([0.0, 1.0])).all()),
            "reward_is_success": bool((rewards.squeeze(-1) == success.float().squeeze(-1))
                                      .all()),
            "crosscheck_disagreements": int((live != static).sum()),
            "screenshot": list(rollout["screenshot"].shape),
            "mean_reward": float(rewards.mean())}))
    finally:
        env.close()


if __name__ == "__main__":
    main()
