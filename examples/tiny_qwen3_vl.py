"""A tiny, randomly initialised Qwen3-VL that TRL accepts for multi-turn tool calling, and
its processor, built here from their configs: what examples/trl_agentic.py runs when no
model hub can be reached.

Why Qwen3-VL and not the tiny Qwen2.5-VL of examples/tiny_vlm.py: GRPOTrainer's
`environment_factory` needs a chat template that renders tool calls and tool results
(`supports_tool_calling`) and that it knows how to parse (`add_response_schema` matches
the template text). Qwen2.5-VL's template has no tools; TRL's own Qwen3-VL template
(trl/chat_templates/qwen3_vl.jinja) has both, so the processor here carries that text
exactly.

The architecture and the processing are Qwen3-VL's own (transformers' classes): the image
goes through smart_resize to multiples of 32 (16 px patches merged 2x2) and a vision tower
of depth 1, the text through a 2-layer decoder of width 64. Only the sizes are tiny and the
weights random. The tokenizer is a byte-level BPE trained on the spot on the texts the
model will see, with Qwen's special tokens and its tool-call markers as added tokens.

As in examples/tiny_vlm.py, the processor gets transformers' plain BaseVideoProcessor:
Qwen3-VL's video processor needs torchvision, and no CPU build of it exists for this torch
(no video is ever processed here).
"""

from __future__ import annotations

from collections.abc import Iterable

import tiny_vlm  # the tokenizer recipe (examples/ is on the path: the smokes insert it)

# Qwen3-VL's tokenizer has these as added, non-special tokens: they are decoded back, so
# TRL's response parser finds them in the text.
TOOL_TOKENS = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>",
               "<think>", "</think>"]
PATCH_SIZE = 16
MERGE_SIZE = 2


def chat_template() -> str:
    """TRL's own Qwen3-VL template, the text its add_response_schema recognises."""
    from trl.chat_template_utils import qwen3_vl_chat_template

    return qwen3_vl_chat_template


def tokenizer(texts: Iterable[str]):
    """examples/tiny_vlm.py's byte-level BPE with Qwen's special tokens, trained on `texts`,
    with TRL's Qwen3-VL template and the tool-call markers as added tokens."""
    return tiny_vlm.tokenizer(texts, chat_template(), TOOL_TOKENS)


def processor(texts: Iterable[str], max_pixels: int = 1280 * 32 * 32):
    """Qwen3-VL's processor over a tokenizer trained on `texts`, with TRL's Qwen3-VL chat
    template; images are resized to multiples of 32 px under `max_pixels`."""
    import transformers
    import transformers.processing_utils
    from transformers import Qwen3VLProcessor
    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import (
        Qwen2VLImageProcessorPil,
    )
    from transformers.video_processing_utils import BaseVideoProcessor

    # Without torchvision the package exports a placeholder under this name, and the
    # processor checks its video_processor against the package's attribute.
    for module in (transformers, transformers.processing_utils.transformers_module):
        module.BaseVideoProcessor = BaseVideoProcessor
    images = Qwen2VLImageProcessorPil(
        patch_size=PATCH_SIZE, merge_size=MERGE_SIZE, temporal_patch_size=2,
        min_pixels=32 * 32, max_pixels=max_pixels,
        image_mean=[0.5, 0.5, 0.5], image_std=[0.5, 0.5, 0.5])  # Qwen3-VL's
    return Qwen3VLProcessor(image_processor=images, tokenizer=tokenizer(texts),
                            video_processor=BaseVideoProcessor(),
                            chat_template=chat_template())


def model(tok, seed: int = 0):
    """A Qwen3-VL with random weights: text width 64, 2 layers, vision depth 1."""
    import torch
    from transformers import Qwen3VLConfig, Qwen3VLForConditionalGeneration

    ids = {name: tok.convert_tokens_to_ids(token) for name, token in (
        ("image_token_id", "<|image_pad|>"), ("video_token_id", "<|video_pad|>"),
        ("vision_start_token_id", "<|vision_start|>"),
        ("vision_end_token_id", "<|vision_end|>"))}
    head_dim = 16  # the three mrope sections (t, h, w) sum to head_dim / 2
    config = Qwen3VLConfig(
        text_config={"vocab_size": len(tok), "hidden_size": 64, "intermediate_size": 128,
                     "num_hidden_layers": 2, "num_attention_heads": 4,
                     "num_key_value_heads": 2, "head_dim": head_dim,
                     "max_position_embeddings": 4096,
                     "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0,
                                         "mrope_section": [2, 3, 3],
                                         "mrope_interleaved": True},
                     "pad_token_id": tok.pad_token_id},
        vision_config={"depth": 1, "hidden_size": 32, "intermediate_size": 64,
                       "num_heads": 2, "out_hidden_size": 64, "patch_size": PATCH_SIZE,
                       "spatial_merge_size": MERGE_SIZE, "temporal_patch_size": 2,
                       "num_position_embeddings": 256, "deepstack_visual_indexes": [0]},
        **ids, tie_word_embeddings=True)
    assert sum(config.text_config.rope_parameters["mrope_section"]) == head_dim // 2
    torch.manual_seed(seed)
    built = Qwen3VLForConditionalGeneration(config)
    built.generation_config.eos_token_id = tok.eos_token_id
    built.generation_config.pad_token_id = tok.pad_token_id
    built.generation_config.bos_token_id = None
    return built
