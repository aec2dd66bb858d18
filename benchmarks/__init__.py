"""`make bench` and `make soak`: the development tools that measure the env (speed, memory,
the learning result, MiniWoB++ beside it) and summarise the figures against their targets.

Not part of the distribution (the wheel holds finestate_env only): run from the
repository's root, `python -m benchmarks.<tool>`, with the package installed (`make
install`). They import finestate_env as any user does.
"""
