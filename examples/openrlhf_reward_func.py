"""The reward file OpenRLHF loads: `--reward.remote_url examples/openrlhf_reward_func.py`.

OpenRLHF calls `reward_func(queries, prompts, labels)` from a thread, one sample at a
time: each query is the templated prompt and the response (special tokens kept), each
label the row's ground truth (`--data.label_key label` on `finestate export-rl`'s
openrlhf folder). It returns `{"rewards", "scores", "extra_logs"}`, the verdicts in
extra_logs (live_exact, sr_loc, ...). FINESTATE_REWARD_MODE picks the mode (exact, box,
shaped); FINESTATE_REWARD_URL scores through a `finestate serve` elsewhere. A sample that
could not be judged raises RewardUnavailable: OpenRLHF then logs the failure and leaves
that sample's reward empty rather than take a 0 for a wrong answer.

With the browsers on this machine and the trainer's processes many, a `finestate serve`
beside the trainer (examples/openrlhf_remote_reward.sh) keeps one pool of browsers for all
of them. docs/training-vlms.md.
"""

from finestate_env.rewards.trainers import RewardUnavailable, reward_func

__all__ = ["RewardUnavailable", "reward_func"]
