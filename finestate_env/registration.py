"""Gymnasium registration of the FineState ids (DESIGN.md §4b)."""

from __future__ import annotations

from finestate_env import ENV_IDS

_ENTRY_POINTS = {
    "FineState-Web-v0": ("finestate_env.env:FineStateEnv", {"platform": "web"}),
    "FineState-Mobile-v0": ("finestate_env.env:FineStateEnv", {"platform": "mobile"}),
    "FineState-Desktop-v0": ("finestate_env.env:FineStateEnv", {"platform": "desktop"}),
}


def register_envs() -> None:
    """Register every implemented id once; safe to call repeatedly."""
    import gymnasium

    for env_id in ENV_IDS:
        if env_id in gymnasium.registry:
            continue
        entry_point, kwargs = _ENTRY_POINTS[env_id]
        # No max_episode_steps: the env terminates after its one interaction,
        # and a TimeLimit would also flag that same step as truncated.
        gymnasium.register(id=env_id, entry_point=entry_point, kwargs=kwargs)
