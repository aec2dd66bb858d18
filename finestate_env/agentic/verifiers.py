"""verifiers 0.4 (Prime Intellect's v1 stack) around live sessions: a `Taskset` whose tasks
carry session tasks, and an `Env` whose `run` plays one session as the user of the player
agent's interaction.

verifiers loads an env as an installed package whose `__all__` exports exactly one
`Taskset` subclass (and optionally one `Env`), imported by the taskset id with `-` as `_`
(verifiers/v1/utils/loaders.py); examples/agentic/finestate_verifiers is that package for
these classes, id `finestate-verifiers`.

- `FineStateTaskset.load()` reads the tasks of `path`: a JSONL or Parquet file whose rows
  are session tasks (sessions/task.py) or rows of `finestate export-rl` (their `task`
  column, `extra_info.task`, or `reward_model.ground_truth` with `max_actions`
  gestures); without a path, `seeds` (with `component`, `coords`) drawn by the env. Each
  task's data carries its session task's JSON text (`session_task`) and no prompt: the
  env opens the conversation.
- `FineStateEnv.run(task, agents)` opens a session (a SessionPool of the process, made on
  first use; the calls run in worker threads, as verifiers runs rollouts concurrently on
  one event loop), sends the screenshot as an OpenAI `image_url` part (a PNG data URL)
  with the session prompt, then each turn: a reply that says done ends the episode, any
  other is performed as a gesture and answered with the new screen. It stops on a done
  reply, when the gestures run out, or when the interaction terminates (a limit, a stop,
  a failed model call). The session's verdict is recorded as the reward `exact_state`
  (weight 1.0) with the session's metrics. A session that could not be judged (a
  renderer crash that recovery could not undo) is never scored: its reward is left
  None, verifiers' mark of a signal that did not run, and the rollout fails with
  UnjudgedError (`--env.retries` can run the episode again). The session is closed
  whatever happens.

The player defaults to verifiers' `null` harness (a chat loop without tools) on the
`subprocess` runtime: the model only sees screens and answers with gestures; the browser
is this process's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import verifiers.v1 as vf
from pydantic import Field
from verifiers.v1.harnesses.null import NullHarnessConfig

from finestate_env.agents.vlm_prompt import says_done, session_prompt, turn_prompt
from finestate_env.core.files import bounded_lines, json_object, open_regular
from finestate_env.core.schema import CoordConvention
from finestate_env.sessions import (
    AsyncSession,
    PoolFull,
    Screen,
    SessionResult,
    close_shared_pools,
    shared_pool,
)
from finestate_env.sessions.task import (
    DEFAULT_MAX_ACTIONS,
    FORMAT,
    MAX_ACTIONS,
    BadTask,
    SessionTask,
)

__all__ = ["FineStateData", "FineStateEnv", "FineStateEnvConfig", "FineStateTask",
           "FineStateTaskset", "FineStateTasksetConfig", "REWARD", "UnjudgedError"]

REWARD = "exact_state"
# How long a rollout waits before trying again to open a session when the pool is full.
POOL_FULL_WAIT_S = 0.25


class UnjudgedError(vf.EnvError):
    """The session could not be judged (its renderer crashed and the episode could not be
    restored): the rollout fails rather than pass for a reward of 0.0."""


# -- the taskset ---------------------------------------------------------------------

class FineStateData(vf.TaskData):
    session_task: str
    """The session task's JSON text (finestate_env/sessions/task.py): the screen, the
    gestures allowed, who ends the episode."""


class FineStateTask(vf.Task[FineStateData, vf.State, vf.TaskConfig]):
    """One session task. Scored by FineStateEnv.run (the live verdict), not by hooks."""


class FineStateTasksetConfig(vf.TasksetConfig):
    path: str | None = None
    """A JSONL or Parquet file of session tasks, or of `finestate export-rl` rows."""
    seeds: list[int] = Field(default_factory=lambda: list(range(8)))
    """Without `path`: one task per seed, the instance drawn by the env from it."""
    component: str | None = None
    """Seeded tasks: the control type (default: drawn from the seed)."""
    coords: CoordConvention | None = None
    """Seeded tasks: the convention of the model's points (default: screen pixels)."""
    max_actions: int = Field(DEFAULT_MAX_ACTIONS, ge=1, le=MAX_ACTIONS)
    """Gestures per episode, for seeded tasks and rows that carry only a ground truth."""


class FineStateTaskset(vf.Taskset[FineStateTask, FineStateTasksetConfig]):
    def load(self) -> Iterator[FineStateTask]:
        config = self.config
        if config.path is not None:
            tasks = read_tasks(config.path, config.max_actions)
        else:
            tasks = ((f"seed-{seed}", SessionTask(seed=seed, component=config.component,
                                                  coords=config.coords,
                                                  max_actions=config.max_actions))
                     for seed in config.seeds)
        for ident, task in tasks:
            kind = (task.ground_truth.instance.component if task.ground_truth is not None
                    else task.component or "any")
            yield FineStateTask(FineStateData(id=ident, name=f"{kind}:{ident}",
                                              session_task=task.text()), config.task)


def read_tasks(path: str | Path, max_actions: int) -> Iterator[tuple[str, SessionTask]]:
    """(id, task) of each row of a JSONL or Parquet file (`session_task_of`); BadTask names
    the file and row of one that is not a task."""
    path = Path(path)
    rows = _parquet_rows(path) if path.suffix == ".parquet" else _jsonl_rows(path)
    for where, row in rows:
        try:
            task = session_task_of(row, max_actions)
        except BadTask as exc:
            raise BadTask(f"{path}:{where}: {exc}") from None
        ident = _extra_info(row).get("id") or (
            task.ground_truth.instance.id if task.ground_truth is not None
            else f"seed-{task.seed}")
        yield str(ident), task


def session_task_of(row: dict[str, Any], max_actions: int) -> SessionTask:
    """The session task a row carries: an export-rl row's `task` (or `extra_info.task`),
    else its `reward_model` ground truth with `max_actions` gestures; a row that is
    itself a session task as it is, a bare ground truth with `max_actions` gestures."""
    extra = _extra_info(row)
    for task in (row.get("task"), extra.get("task")):
        if task:
            return SessionTask.read(task)
    if isinstance(row.get("reward_model"), dict):
        truth = SessionTask.read(row["reward_model"]).ground_truth
        return SessionTask(ground_truth=truth, max_actions=max_actions)
    task = SessionTask.read(row)
    if row.get("format") != FORMAT and task.ground_truth is not None:
        return SessionTask(ground_truth=task.ground_truth, max_actions=max_actions)
    return task


def _extra_info(row: dict[str, Any]) -> dict[str, Any]:
    extra = row.get("extra_info")
    return extra if isinstance(extra, dict) else {}


def _jsonl_rows(path: Path) -> Iterator[tuple[str, dict]]:
    with open_regular(path) as f:
        for number, raw in enumerate(bounded_lines(f), 1):
            row, why = json_object(raw)
            if why is not None:
                raise BadTask(f"{path}:{number}: {why}")
            if row is not None:
                yield str(number), row


def _parquet_rows(path: Path) -> Iterator[tuple[str, dict]]:
    import pyarrow.parquet as pq

    table = pq.ParquetFile(path)
    # An export-rl row's screenshot and single-turn prompt stay on disk: no task needs them.
    columns = [name for name in table.schema_arrow.names if name not in ("images", "prompt")]
    index = 0
    for batch in table.iter_batches(columns=columns, batch_size=256):
        for row in batch.to_pylist():
            index += 1
            yield f"row {index}", {k: v for k, v in row.items() if v is not None}


# -- the env ---------------------------------------------------------------------------

class FineStateEnvConfig(vf.EnvConfig):
    player: vf.AgentConfig = vf.AgentConfig(harness=NullHarnessConfig(id="null"),
                                            runtime=vf.SubprocessConfig())
    """The model that plays: verifiers' plain chat loop on the host by default."""
    max_sessions: int = Field(64, ge=1)
    """Live sessions at once in this process (each a browser page); a rollout past it
    waits for one to close."""
    idle_timeout_s: float = Field(600.0, gt=0)
    """A session unused for this long is closed (a rollout that was abandoned)."""


class FineStateEnv(vf.Env[FineStateEnvConfig]):
    async def run(self, task: vf.Task, agents: vf.Agents) -> None:
        session = await self._open(task.data.session_task)
        try:
            async with agents.player.interaction(task) as interaction:
                result = await play(session, interaction)
                record(interaction.trace, result)
                if result.reward is None:
                    # Raised inside the interaction: verifiers fails the rollout (no
                    # scoring) and the episode, instead of keeping a reward of 0.0.
                    raise UnjudgedError(f"the session could not be judged: {result.unjudged}")
        finally:
            await asyncio.shield(session.close())

    async def stop(self) -> None:
        await asyncio.to_thread(close_shared_pools)

    async def _open(self, session_task: str) -> AsyncSession:
        pool = shared_pool(self.config.max_sessions, self.config.idle_timeout_s)
        while True:
            try:
                return await pool.aopen(session_task)
            except PoolFull:
                await asyncio.sleep(POOL_FULL_WAIT_S)


async def play(session: AsyncSession, interaction: vf.Interaction) -> SessionResult:
    """Play the session's episode with the model of `interaction` as the agent; its
    verdict once the model says done, the gestures run out or the exchange ends."""
    gui = session.session
    screen = session.observe()
    text = session_prompt(screen.instruction, gui.coords, gui.frame, gui.task.max_actions)
    while True:
        segment = await interaction.turn([await user_message(screen, text)])
        if segment.terminated or says_done(segment.last_reply):
            break
        turn = await session.act_text(segment.last_reply)
        if turn.done:
            break
        screen, text = turn.screen, turn_prompt(turn.feedback)
    return await session.finish()


async def user_message(screen: Screen, text: str) -> vf.UserMessage:
    """The screenshot (a PNG data URL, encoded off the event loop) and the text."""
    url = await asyncio.to_thread(screen.data_url)
    return vf.UserMessage(content=[
        vf.ImageUrlContentPart(image_url=vf.ImageUrlSource(url=url)),
        vf.TextContentPart(text=text)])


def record(trace: vf.Trace, result: SessionResult) -> None:
    """The verdict on the trace: the reward (left None when unjudged: not scored) and the
    session's metrics."""
    if result.reward is None:
        trace.rewards[REWARD] = None
    else:
        trace.record_reward(REWARD, result.reward, 1.0)
    trace.record_metrics(result.metrics())
    trace.info["session_ended"] = result.ended
    if result.unjudged is not None:
        trace.info["unjudged"] = result.unjudged
