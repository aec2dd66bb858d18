#!/usr/bin/env bash
# OpenRLHF GRPO on Qwen2.5-VL-3B-Instruct, one GPU, rewarded live through `finestate serve`
# (OpenRLHF's remote reward protocol: POST /get_reward). docs/training-vlms.md.
# Needs OpenRLHF with vLLM on a GPU machine (pip install openrlhf[vllm]) and
# 'finestate-env[rewards]' with Chromium beside it.
#
#   finestate export-rl --n 2000 --seed 0 --out data/finestate
#   bash examples/openrlhf_remote_reward.sh data/finestate exact      # or box, shaped
#
# OpenRLHF sends one sample per request; the server merges the concurrent samples of one
# instance onto one render. examples/openrlhf_client_smoke.py checks that every flag below
# is one OpenRLHF 0.11's train_ppo_ray declares, and drives its reward client against the
# server.
set -euo pipefail
DATA=${1:-data/finestate}
MODE=${2:-exact}
MODEL=${MODEL:-Qwen/Qwen2.5-VL-3B-Instruct}
PORT=${PORT:-8000}

finestate serve --port "$PORT" --mode "$MODE" &
SERVER=$!
trap 'kill $SERVER' EXIT
until curl -sf "http://127.0.0.1:$PORT/health" >/dev/null; do sleep 1; done

python3 -m openrlhf.cli.train_ppo_ray \
   --ref.num_nodes 1 \
   --ref.num_gpus_per_node 1 \
   --actor.num_nodes 1 \
   --actor.num_gpus_per_node 1 \
   --vllm.num_engines 1 \
   --vllm.tensor_parallel_size 1 \
   --train.colocate_all \
   --vllm.gpu_memory_utilization 0.5 \
   --vllm.enable_sleep \
   --ds.enable_sleep \
   --algo.advantage.estimator group_norm \
   --algo.kl.use_loss \
   --algo.kl.estimator k3 \
   --algo.kl.init_coef 0.01 \
   --actor.model_name_or_path "$MODEL" \
   --actor.freeze_visual_encoder \
   --actor.gradient_checkpointing_enable \
   --actor.adam.lr 1e-6 \
   --reward.remote_url "http://127.0.0.1:$PORT/get_reward" \
   --data.prompt_dataset "$DATA/openrlhf/train.parquet" \
   --data.input_key prompt \
   --data.label_key label \
   --data.image_key images \
   --data.max_images_per_prompt 1 \
   --data.apply_chat_template \
   --data.max_len 2048 \
   --rollout.max_new_tokens 128 \
   --rollout.n_samples_per_prompt 8 \
   --rollout.batch_size 16 \
   --rollout.micro_batch_size 4 \
   --train.batch_size 128 \
   --train.micro_batch_size 4 \
   --train.num_episodes 3 \
   --ds.param_dtype bf16 \
   --ds.zero_stage 3 \
   --ckpt.output_dir "out/openrlhf-qwen2_5_vl_3b-$MODE" \
   --ckpt.save_hf \
   --ckpt.save_steps 50 \
   --eval.steps -1 "$@"
