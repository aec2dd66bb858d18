"""The reward file verl loads: point `reward.custom_reward_function.path` at it.

    reward.custom_reward_function.path=examples/verl_reward.py
    reward.custom_reward_function.name=compute_score_async     # or compute_score
    +reward.custom_reward_function.reward_kwargs.mode=exact    # or box, shaped

verl 0.9's trainer scores each sample on its own, concurrently (its reward loop);
`compute_score_async` awaits the shared scorer, which merges the concurrent samples of
one instance onto one render. `compute_score_batch` is for BatchRewardManager (verl's
`reward_model.reward_manager=batch` before the reward loop). Each returns `{"score": r,
<verdicts>}`: verl logs the verdicts (live_exact, sr_loc, ...) beside the score. A
completion that could not be judged raises RewardUnavailable: verl has no way to leave a
sample out, and a 0 would pass for a wrong answer. FINESTATE_REWARD_URL sends the
scoring to a `finestate serve` elsewhere. docs/training-vlms.md.
"""

from finestate_env.rewards.trainers import (
    RewardUnavailable,
    compute_score,
    compute_score_async,
    compute_score_batch,
)

__all__ = ["RewardUnavailable", "compute_score", "compute_score_async", "compute_score_batch"]
