"""finestate's live GUI sessions for verifiers 0.4: `vf-eval finestate-verifiers ...`, or
`--env.taskset.id finestate-verifiers` in prime-rl. verifiers' loader takes the one Taskset
and the one Env this package exports; they live in finestate_env/agentic/verifiers.py."""

from finestate_env.agentic.verifiers import FineStateEnv, FineStateTaskset

__all__ = ["FineStateEnv", "FineStateTaskset"]
