"""The Gymnasium side: `FineStateEnv` (environment.py), its spaces, and the episode routine
that performs a gesture and judges it (episode.py), shared with replay and probing; the
wrappers of the learner options and the ids' entry point that applies them (make.py).

Kept empty on purpose: `import finestate_env` registers the ids by name and must not
import the env, its backends or numpy.
"""
