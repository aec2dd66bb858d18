"""FineState-Bench made live: Gymnasium environments over real UI controls.

Importing the package registers the three env ids with Gymnasium, the
Gymnasium 1.x way (no plugin loading, nothing run at interpreter start):

    import gymnasium as gym
    import finestate_env                       # or gym.register_envs(finestate_env)
    env = gym.make("FineState-Web-v0")         # or gym.make("finestate_env:FineState-Web-v0")

The layers, bottom to top (docs/design.md §6): `core` (schema, coordinates,
scoring), `components` (the 23 types), `backends`, `env`, the tools
(`datasets`, `agents`, `replay`) and `cli`. Registration names the entry point
(env/make.py) by a string, so importing this package imports neither a backend nor
the env.
"""

import gymnasium

from finestate_env.core.states import decode_state

__version__ = "0.1.0"

ENV_IDS = ("FineState-Web-v0", "FineState-Mobile-v0", "FineState-Desktop-v0")
_PLATFORMS = {"FineState-Web-v0": "web", "FineState-Mobile-v0": "mobile",
              "FineState-Desktop-v0": "desktop"}


def _register_envs() -> None:
    for env_id in ENV_IDS:
        if env_id not in gymnasium.registry:
            # No max_episode_steps: the env terminates after its one interaction,
            # and a TimeLimit would also flag that same step as truncated. The entry point
            # builds the env and wraps it for the learner options (env/make.py).
            # The web and phone envs step their N pages at once under make_vec, spread over
            # browsers by the cores (env/vector.py); the desktop's X input is one display's
            # at a time: sync.
            vector = (None if env_id == "FineState-Desktop-v0"
                      else "finestate_env.env.vector:make_vector_env")
            gymnasium.register(id=env_id, entry_point="finestate_env.env.make:make_env",
                               vector_entry_point=vector, kwargs={"platform": _PLATFORMS[env_id]})


_register_envs()

__all__ = ["ENV_IDS", "__version__", "decode_state"]
