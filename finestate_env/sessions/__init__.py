"""Live multi-turn sessions: the core every agentic adapter calls (docs/agentic-training.md).

- `task`: `SessionTask`, what opens a session (an exported row's ground truth, or a seed),
  and how its episode runs (gestures, who ends it, the feedback);
- `session`: `GuiSession`, one episode: reset, act, finish, result; `Screen`, `Turn`,
  `SessionResult`;
- `pool`: `SessionPool`, many sessions at once in one process, bounded and reaped, spread
  over browsers; `AsyncSession` for trainers on an event loop.
"""

from finestate_env.sessions.pool import (
    AsyncSession,
    PoolFull,
    SessionPool,
    close_shared_pools,
    shared_pool,
)
from finestate_env.sessions.session import (
    GuiSession,
    Screen,
    SessionEnded,
    SessionError,
    SessionResult,
    Turn,
)
from finestate_env.sessions.task import BadTask, SessionTask

__all__ = ["AsyncSession", "BadTask", "GuiSession", "PoolFull", "Screen", "SessionEnded",
           "SessionError", "SessionPool", "SessionResult", "SessionTask", "Turn",
           "close_shared_pools", "shared_pool"]
