"""A tiny, randomly initialised Qwen2.5-VL and its processor, built here from their configs:
what the trainer smokes run when no model hub can be reached (examples/trl_grpo.py,
examples/verl_reward_smoke.py).

The architecture and the processing are Qwen2.5-VL's own (transformers' classes): the
image goes through the processor's smart_resize and patching and through a vision tower
of depth 1, the text through a 2-layer decoder of width 64. Only the sizes are tiny and
the weights random. The tokenizer is a byte-level BPE trained on the spot (`tokenizers`)
on the texts the model will see, with Qwen's special tokens and Qwen2-VL's chat template,
so the prompts the trainers build are tokenized and templated as for the real model.

transformers' video processor for Qwen2-VL needs torchvision, and no CPU build of
torchvision exists for this torch on PyPI: the processor gets transformers' plain
BaseVideoProcessor instead (no video is ever processed here).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|vision_start|>",
                  "<|vision_end|>", "<|image_pad|>", "<|video_pad|>"]
# Qwen2-VL's chat template (its released tokenizer_config.json), as Qwen2.5-VL uses it.
CHAT_TEMPLATE = (
    "{% set image_count = namespace(value=0) %}{% for message in messages %}"
    "{% if loop.first and message['role'] != 'system' %}<|im_start|>system\n"
    "You are a helpful assistant.<|im_end|>\n{% endif %}"
    "<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}<|im_end|>\n"
    "{% else %}{% for content in message['content'] %}"
    "{% if content['type'] == 'image' or 'image' in content or 'image_url' in content %}"
    "{% set image_count.value = image_count.value + 1 %}"
    "<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif 'text' in content %}{{ content['text'] }}{% endif %}{% endfor %}<|im_end|>\n"
    "{% endif %}{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")
VOCAB_SIZE = 1024


def tokenizer(texts: Iterable[str], chat_template: str = CHAT_TEMPLATE,
              added_tokens: Iterable[str] = ()):
    """A byte-level BPE tokenizer with Qwen's special tokens, trained on `texts`, with
    `chat_template`; `added_tokens` are added as plain (decoded) tokens."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    bpe.train_from_iterator(list(texts), trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE, special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False))
    tok = PreTrainedTokenizerFast(tokenizer_object=bpe, eos_token="<|im_end|>",
                                  pad_token="<|endoftext|>", padding_side="left",
                                  chat_template=chat_template)
    if added_tokens:
        tok.add_tokens(list(added_tokens))
    tok.image_token, tok.video_token = "<|image_pad|>", "<|video_pad|>"
    return tok


def processor(texts: Iterable[str], max_pixels: int):
    """Qwen2.5-VL's processor over a tokenizer trained on `texts`; images resized under
    `max_pixels` (the figure export-rl's --max-pixels must be given too)."""
    import transformers
    import transformers.processing_utils
    from transformers import Qwen2_5_VLProcessor
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import (
        Qwen2VLImageProcessorPil,
    )
    from transformers.video_processing_utils import BaseVideoProcessor

    # Without torchvision the package exports a placeholder under this name, and the
    # processor checks its video_processor against the package's attribute (the package
    # as processing_utils imported it for itself, too).
    for module in (transformers, transformers.processing_utils.transformers_module):
        module.BaseVideoProcessor = BaseVideoProcessor
    return Qwen2_5_VLProcessor(
        image_processor=Qwen2VLImageProcessorPil(min_pixels=56 * 56, max_pixels=max_pixels),
        tokenizer=tokenizer(texts), video_processor=BaseVideoProcessor(),
        chat_template=CHAT_TEMPLATE)


def model(tok, seed: int = 0):
    """A Qwen2.5-VL with random weights: text width 64, 2 layers, vision depth 1."""
    import torch
    from transformers import Qwen2_5_VLConfig, Qwen2_5_VLForConditionalGeneration

    ids = {name: tok.convert_tokens_to_ids(token) for name, token in (
        ("image_token_id", "<|image_pad|>"), ("video_token_id", "<|video_pad|>"),
        ("vision_start_token_id", "<|vision_start|>"),
        ("vision_end_token_id", "<|vision_end|>"))}
    head_dim = 16  # 64 / 4 heads; the three mrope sections (t, h, w) sum to head_dim / 2
    config = Qwen2_5_VLConfig(
        text_config={"vocab_size": len(tok), "hidden_size": 64, "intermediate_size": 128,
                     "num_hidden_layers": 2, "num_attention_heads": 4,
                     "num_key_value_heads": 2, "max_position_embeddings": 4096,
                     "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0,
                                         "mrope_section": [2, 3, 3]},
                     "bos_token_id": None, "eos_token_id": tok.eos_token_id,
                     "pad_token_id": tok.pad_token_id},
        vision_config={"depth": 1, "hidden_size": 32, "intermediate_size": 64,
                       "num_heads": 2, "out_hidden_size": 64, "fullatt_block_indexes": [0],
                       "window_size": 112},
        **ids, tie_word_embeddings=True)
    assert sum(config.text_config.rope_parameters["mrope_section"]) == head_dim // 2
    torch.manual_seed(seed)
    built = Qwen2_5_VLForConditionalGeneration(config)
    built.generation_config.eos_token_id = tok.eos_token_id
    built.generation_config.pad_token_id = tok.pad_token_id
    return built


def save(folder: str | Path, built_model, built_processor) -> Path:
    """The model and processor as a checkpoint folder (what a trainer's model path names)."""
    folder = Path(folder)
    built_model.save_pretrained(folder)
    built_processor.save_pretrained(folder)
    return folder
