"""Long runs over many items (resumable JSON Lines, local processes or Ray actors):
the layer under the tools (replay, agents, datasets), which all use it."""
