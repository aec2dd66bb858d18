"""The trainers' own multi-turn shapes around live sessions (finestate_env.sessions):

- `trl`: an `environment_factory` class for TRL's GRPOTrainer (typed gesture tool, image
  blocks, `get_reward`);
- `verl`: an `AgentLoopBase` registered as "finestate_gui" for verl's agent loops;
- `openrlhf`: `AgentInstance` and `AgentExecutor` for OpenRLHF's `--train.agent_func_path`;
- `verifiers`: a `Taskset` and an `Env` for verifiers 0.4;
- `openenv` and `openenv_client`: the sessions as an OpenEnv server (`finestate serve-env`)
  and its `EnvClient`; `ray_serve`: that server and the reward server on a Ray cluster.

Each module imports its trainer, so only the one in use is loaded; docs/agentic-training.md
shows each from install to a training command, docs/openenv.md the server.
"""
