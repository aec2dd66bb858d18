"""Rewards for trainers: the exact state a gesture produces, as a reward a VLM trainer takes.

- `ground_truth`: what a training row carries (the instance, its live block and boxes, the
  answer's convention);
- `completions`: a completion read as two points in screenshot pixels;
- `scorer`: `RewardScorer`, scoring completions on one render per instance, in the modes
  `exact`, `box` and `shaped`;
- the trainers' own signatures: `trl` (reward_funcs), `verl` (compute_score and its batch
  variant), `openrlhf` (reward_func); `server` (`finestate serve`), `export`
  (`finestate export-rl`).

docs/training-vlms.md shows them in use.
"""

from finestate_env.rewards.ground_truth import BadGroundTruth, GroundTruth, ground_truth
from finestate_env.rewards.scorer import REWARD_MODES, Overloaded, RewardScorer, Score

__all__ = ["REWARD_MODES", "BadGroundTruth", "GroundTruth", "Overloaded", "RewardScorer",
           "Score", "ground_truth"]
