"""The session's prompt and the reading of a done reply, where the sessions are: they live
in agents/vlm_prompt.py beside the single-turn question (export-rl, below the sessions in
the layers, writes them too)."""

from finestate_env.agents.vlm_prompt import DONE_WORD, says_done, session_prompt, turn_prompt

__all__ = ["DONE_WORD", "says_done", "session_prompt", "turn_prompt"]
