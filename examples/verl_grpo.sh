#!/usr/bin/env bash
# verl GRPO on Qwen2.5-VL-3B-Instruct, one GPU, rewarded by the state each completion's
# gesture produces live (docs/training-vlms.md). Needs verl with vLLM on a GPU machine
# (pip install 'verl[vllm]' qwen-vl-utils 'finestate-env[rewards]', and Chromium).
#
#   finestate export-rl --n 2000 --test-n 200 --seed 0 --out data/finestate
#   bash examples/verl_grpo.sh data/finestate exact      # or box, shaped
#
# export-rl's default frame (no --max-pixels) is the one verl's pipeline shows the model:
# qwen-vl-utils and Qwen2.5-VL's processor both resize 1280x720 to 1288x728, the pixels
# the prompt asks for. examples/verl_reward_smoke.py composes these same overrides with
# verl's own Hydra config (every key below exists in verl 0.9), so a typo fails make test.
set -euo pipefail
DATA=${1:-data/finestate}
MODE=${2:-exact}
MODEL=${MODEL:-Qwen/Qwen2.5-VL-3B-Instruct}
HERE=$(cd "$(dirname "$0")" && pwd)

python3 -m verl.trainer.main_ppo \
    algorithm.adv_estimator=grpo \
    data.train_files="$DATA/verl/train.parquet" \
    data.val_files="$DATA/verl/test.parquet" \
    data.train_batch_size=32 \
    data.max_prompt_length=2048 \
    data.max_response_length=128 \
    data.filter_overlong_prompts=True \
    data.truncation=error \
    data.image_key=images \
    actor_rollout_ref.model.path="$MODEL" \
    actor_rollout_ref.model.use_remove_padding=True \
    actor_rollout_ref.model.enable_gradient_checkpointing=True \
    actor_rollout_ref.actor.optim.lr=1e-6 \
    actor_rollout_ref.actor.ppo_mini_batch_size=16 \
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \
    actor_rollout_ref.actor.use_kl_loss=True \
    actor_rollout_ref.actor.kl_loss_coef=0.01 \
    actor_rollout_ref.actor.kl_loss_type=low_var_kl \
    actor_rollout_ref.actor.entropy_coeff=0 \
    actor_rollout_ref.actor.fsdp_config.param_offload=False \
    actor_rollout_ref.actor.fsdp_config.optimizer_offload=True \
    actor_rollout_ref.rollout.name=vllm \
    actor_rollout_ref.rollout.n=8 \
    actor_rollout_ref.rollout.tensor_model_parallel_size=1 \
    actor_rollout_ref.rollout.gpu_memory_utilization=0.5 \
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8 \
    actor_rollout_ref.rollout.enable_chunked_prefill=False \
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=8 \
    actor_rollout_ref.ref.fsdp_config.param_offload=True \
    algorithm.use_kl_in_reward=False \
    reward.custom_reward_function.path="$HERE/verl_reward.py" \
    reward.custom_reward_function.name=compute_score_async \
    +reward.custom_reward_function.reward_kwargs.mode="$MODE" \
    reward.reward_manager.name=naive \
    reward.num_workers=2 \
    trainer.critic_warmup=0 \
    trainer.logger='["console"]' \
    trainer.project_name=finestate_grpo \
    trainer.experiment_name="qwen2_5_vl_3b_$MODE" \
    trainer.n_gpus_per_node=1 \
    trainer.nnodes=1 \
    trainer.save_freq=50 \
    trainer.test_freq=10 \
    trainer.total_epochs=3 "${@:3}"
