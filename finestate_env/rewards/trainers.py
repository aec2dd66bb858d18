"""The reward with each trainer's own signature: TRL, verl and OpenRLHF.

TRL (`GRPOTrainer(reward_funcs=[...])`): `live_reward`, `box_reward` and `shaped_reward`
are `(prompts, completions, **columns) -> list[float | None]` as TRL calls them, with
`async_live_reward` the async variant (TRL gathers async reward functions). The ground
truth comes from the row's `reward_model` column (the dataset `finestate export-rl`
writes) or a `ground_truth` column; the verdicts are logged through TRL's `log_metric`
(`finestate/live_exact`, `finestate/sr_loc`, ...). A completion that could not be judged
is None, which TRL leaves out of the loss.

verl (`custom_reward_function.path=<this file or examples/verl_reward.py>`):
`compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs)`
returns `{"score": reward, <metrics>}`, `compute_score_batch(data_sources, solution_strs,
ground_truths, extra_infos, **kwargs)` (`reward_model.reward_manager=batch`: a whole
GRPO group on one render) a list of them, `compute_score_async` the reward loop's
variant. verl cannot leave a sample out: a completion that could not be judged raises
RewardUnavailable rather than pass for a 0.

OpenRLHF (`--reward.remote_url <a .py file defining reward_func>`):
`reward_func(queries, prompts, labels)` with the label the row's ground truth; the
response is what follows the prompt in the query. `finestate serve` answers OpenRLHF's
HTTP protocol for trainers on other machines (rewards/server.py).

Every function scores through one `RewardScorer` per mode made on first use (workers:
one per core, or FINESTATE_REWARD_WORKERS), or through a `finestate serve` at
FINESTATE_REWARD_URL (or `server=`) when the trainer runs apart from the browsers.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

from finestate_env.rewards.completions import response_of
from finestate_env.rewards.scorer import RewardMode, RewardScorer, Score, check_mode

METRIC_PREFIX = "finestate/"


class RewardUnavailable(RuntimeError):
    """A completion could not be judged (its browser died twice), for a trainer that has no
    way to leave a sample out (verl)."""


# -- the scorers behind the functions ----------------------------------------------

_scorers: dict[tuple[str, str | None], Any] = {}
_scorers_lock = threading.Lock()


def scorer_for(mode: RewardMode = "exact", server: str | None = None) -> Any:
    """The shared scorer for `mode`: in this process, or the server at `server` (default:
    FINESTATE_REWARD_URL when set). Made on first use and kept for the process."""
    mode = check_mode(mode)
    server = server or os.environ.get("FINESTATE_REWARD_URL") or None
    key = (mode, server)
    with _scorers_lock:
        if key not in _scorers:
            if server is not None:
                from finestate_env.rewards.client import RemoteScorer

                _scorers[key] = RemoteScorer(server, mode=mode,
                                             token=os.environ.get("FINESTATE_REWARD_TOKEN"))
            else:
                workers = os.environ.get("FINESTATE_REWARD_WORKERS")
                _scorers[key] = RewardScorer(mode, workers=int(workers) if workers else None)
        return _scorers[key]


def truths_from_columns(columns: dict[str, Any], count: int) -> list[Any]:
    """The ground truths of TRL's reward kwargs: the `reward_model` column (verl's layout,
    `{"style", "ground_truth"}` per row) or a `ground_truth` column, one per completion."""
    for name in ("reward_model", "ground_truth"):
        values = columns.get(name)
        if values is not None:
            if len(values) != count:
                raise ValueError(f"column {name!r} has {len(values)} values for {count} "
                                 "completions")
            return list(values)
    raise KeyError("no ground truth: the dataset needs a 'reward_model' column (as finestate "
                   "export-rl writes it) or a 'ground_truth' column")


def log_scores(scores: Sequence[Score], log_metric: Any = None, log_extra: Any = None) -> None:
    """Each verdict's mean through TRL's `log_metric`, and the state each completion left
    through `log_extra` (a column of the completions table)."""
    if log_metric is not None:
        sums: dict[str, list[float]] = {}
        for score in scores:
            for name, value in score.metrics().items():
                sums.setdefault(name, []).append(value)
        for name, values in sums.items():
            log_metric(METRIC_PREFIX + name, sum(values) / len(values))
    if log_extra is not None:
        log_extra(METRIC_PREFIX + "state", [score.state for score in scores])


# -- TRL ---------------------------------------------------------------------------

def make_trl_reward(mode: RewardMode = "exact", *, server: str | None = None,
                    scorer: Any = None):
    """A TRL reward function for `mode` (sync); `scorer` overrides the shared one."""
    mode = check_mode(mode)

    def reward(prompts: list, completions: list, log_metric: Any = None,
               log_extra: Any = None, **columns: Any) -> list[float | None]:
        truths = truths_from_columns(columns, len(completions))
        scores = (scorer or scorer_for(mode, server)).score(truths, completions, mode)
        log_scores(scores, log_metric, log_extra)
        return [score.reward for score in scores]

    reward.__name__ = f"finestate_{mode}"
    return reward


def make_async_trl_reward(mode: RewardMode = "exact", *, server: str | None = None,
                          scorer: Any = None):
    """A TRL reward function for `mode` (async: TRL gathers it with the others)."""
    mode = check_mode(mode)

    async def reward(prompts: list, completions: list, log_metric: Any = None,
                     log_extra: Any = None, **columns: Any) -> list[float | None]:
        truths = truths_from_columns(columns, len(completions))
        scores = await (scorer or scorer_for(mode, server)).ascore(truths, completions, mode)
        log_scores(scores, log_metric, log_extra)
        return [score.reward for score in scores]

    reward.__name__ = f"finestate_{mode}"
    return reward


live_reward = make_trl_reward("exact")
box_reward = make_trl_reward("box")
box_now_reward = make_trl_reward("box_now")
shaped_reward = make_trl_reward("shaped")
async_live_reward = make_async_trl_reward("exact")


# -- verl --------------------------------------------------------------------------

def _verl_result(score: Score) -> dict[str, Any]:
    if score.reward is None:
        raise RewardUnavailable(f"a completion could not be judged: {score.unjudged}")
    # One type per key in every call: verl gathers each key across the batch.
    return {"score": score.reward, **score.metrics()}


def compute_score(data_source: str, solution_str: str, ground_truth: Any,
                  extra_info: dict | None = None, *, mode: RewardMode = "exact",
                  server: str | None = None, **kwargs: Any) -> dict[str, Any]:
    """verl's reward function: `{"score": reward, <the verdicts, 1.0 / 0.0>}` for one
    completion. `mode` and `server` come from verl's `custom_reward_function.reward_kwargs`."""
    [score] = scorer_for(mode, server).score([ground_truth], [solution_str], mode)
    return _verl_result(score)


def compute_score_batch(data_sources: Sequence[str], solution_strs: Sequence[str],
                        ground_truths: Sequence[Any], extra_infos: Sequence[Any] | None = None,
                        *, mode: RewardMode = "exact", server: str | None = None,
                        **kwargs: Any) -> list[dict[str, Any]]:
    """verl's batch reward function (`reward_model.reward_manager=batch`): every
    completion of an instance scored on one render."""
    scores = scorer_for(mode, server).score(list(ground_truths), list(solution_strs), mode)
    return [_verl_result(score) for score in scores]


async def compute_score_async(data_source: str, solution_str: str, ground_truth: Any,
                              extra_info: dict | None = None, *, mode: RewardMode = "exact",
                              server: str | None = None, **kwargs: Any) -> dict[str, Any]:
    """compute_score for verl's reward loop, which calls it per sample, concurrently:
    concurrent calls for one instance are merged onto one render by the scorer's queue."""
    import asyncio

    scorer = scorer_for(mode, server)
    if hasattr(scorer, "submit"):
        [score] = await asyncio.wrap_future(scorer.submit(ground_truth, [solution_str], mode))
    else:
        [score] = await scorer.ascore([ground_truth], [solution_str], mode)
    return _verl_result(score)


# -- OpenRLHF ----------------------------------------------------------------------

def reward_func(queries: Sequence[str], prompts: Sequence[str], labels: Sequence[Any],
                **kwargs: Any) -> dict[str, Any]:
    """OpenRLHF's reward function: `{"rewards", "scores", "extra_logs"}` for its samples,
    the label of each the row's ground truth. A sample that could not be judged raises
    RewardUnavailable (OpenRLHF cannot leave one out, and a None would pass for no reward)."""
    mode = check_mode(kwargs.get("mode") or os.environ.get("FINESTATE_REWARD_MODE", "exact"))
    responses = [response_of(query, prompt) for query, prompt in zip(queries, prompts,
                                                                      strict=True)]
    scores = scorer_for(mode, kwargs.get("server")).score(list(labels), responses, mode)
    return openrlhf_answer(scores, unjudged="raise")


def openrlhf_answer(scores: Sequence[Score], unjudged: str = "raise") -> dict[str, Any]:
    """OpenRLHF's reward answer: `rewards` and `scores` lists and `extra_logs`, one value
    per sample for each verdict (OpenRLHF makes a tensor of each)."""
    missing = [score for score in scores if score.reward is None]
    if missing and unjudged == "raise":
        raise RewardUnavailable(f"{len(missing)} of {len(scores)} completions could not be "
                                f"judged: {missing[0].unjudged}")
    rewards = [score.reward for score in scores]
    names = sorted({name for score in scores for name in score.metrics()})
    logs = {name: [score.metrics().get(name, 0.0) for score in scores] for name in names}
    return {"rewards": rewards, "scores": rewards, "extra_logs": logs}
