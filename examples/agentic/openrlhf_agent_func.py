"""The agent file OpenRLHF loads: `--train.agent_func_path examples/agentic/openrlhf_agent_func.py`.

OpenRLHF's loader (trainer/ray/vllm_engine.py `_load_agent_executor`) runs this file in
each vLLM engine actor and makes `AgentExecutor()`: each sample of a prompt is then one
live FineState session opened from the row's `label` (a session task or an exported
ground truth, `--data.label_key label`), its first screenshot the row's image
(`--data.image_key images`), one gesture a turn, the new screenshot after each, the exact
reward once at the end. The work is in finestate_env/agentic/openrlhf.py (its docstring
says what is checked, and why an unjudged episode is run again rather than paid 0).

CONFIG: edit it here, or set FINESTATE_OPENRLHF_<FIELD> before the launch (for instance
FINESTATE_OPENRLHF_MAX_SESSIONS=128 for --rollout.batch_size x --rollout.n_samples_per_prompt
samples on one engine; FINESTATE_OPENRLHF_IMAGE_PLACEHOLDER for a model whose chat template
cannot be read for it). docs/agentic-training.md.
"""

from finestate_env.agentic.openrlhf import (
    FineStateAgentExecutor,
    FineStateAgentInstance,
    OpenRLHFConfig,
)

CONFIG = OpenRLHFConfig.from_env()


class AgentInstance(FineStateAgentInstance):
    """One sample's live session (reset from the row's label; step: one gesture or done)."""


class AgentExecutor(FineStateAgentExecutor):
    """OpenRLHF's MultiTurnAgentExecutor around AgentInstance, with CONFIG."""

    def __init__(self) -> None:
        super().__init__(AgentInstance, CONFIG)
