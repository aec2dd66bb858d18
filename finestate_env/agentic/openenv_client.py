"""The client of `finestate serve-env`: OpenEnv's own EnvClient with FineState's types
(docs/openenv.md).

    from finestate_env.agentic.openenv import GestureAction
    from finestate_env.agentic.openenv_client import FineStateEnvClient

    with FineStateEnvClient(base_url="http://127.0.0.1:8000").sync() as env:
        result = env.reset(task=row["task"])           # or reset(seed=3, component="slider")
        image = result.observation.image()               # the screenshot, a PIL image
        result = env.step(GestureAction(p0=[640, 360], p1=[700, 360]))
        result.reward, result.done, env.state().boxes

One client is one session, over one WebSocket (`/ws`): EnvClient keeps it open from the
first call to `close()`. A server that wants a token gets it with
`headers={"Authorization": f"Bearer {token}"}`. OpenEnv's `GenericEnvClient` works too,
with plain dicts (`step({"p0": [x, y], "p1": [x, y]})`); `decode_screenshot` turns its
observation's `screenshot_png_b64` into an image.
"""

from __future__ import annotations

from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.env_client import EnvClient

from finestate_env.agentic.openenv import (
    GestureAction,
    GuiObservation,
    GuiState,
    decode_screenshot,
)

__all__ = ["FineStateEnvClient", "GestureAction", "GuiObservation", "GuiState",
           "decode_screenshot"]


class FineStateEnvClient(EnvClient[GestureAction, GuiObservation, GuiState]):
    """A session of `finestate serve-env` with typed actions, observations and state."""

    def _step_payload(self, action: GestureAction | dict[str, Any]) -> dict[str, Any]:
        if isinstance(action, dict):  # sent as given: the server validates it
            return action
        return action.model_dump(exclude_defaults=True)

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[GuiObservation]:
        fields = dict(payload.get("observation") or {})
        fields["reward"] = payload.get("reward")
        fields["done"] = payload.get("done", False)
        observation = GuiObservation.model_validate(fields)
        return StepResult(observation=observation, reward=observation.reward,
                          done=observation.done, metadata=payload.get("metadata"))

    def _parse_state(self, payload: dict[str, Any]) -> GuiState:
        return GuiState.model_validate(payload)
