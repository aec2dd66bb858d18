"""Soak-like phone page episodes with every input event the page sees logged (outside the suite).

For the phone soak's rare failed drag (docs/figures.md): a drag whose control ends as
it started, about once in 3,000 episodes, never again when its seed is run again. After
each reset a capturing listener on `window` logs every pointer and touch event, and
contextmenu and click (type, pointerId, target class, timeStamp, clientX, cancelable);
a failed episode prints its log. A `pointercancel` in it would say the browser took the
gesture over; no `pointerdown` on the control, that the touch never reached it.

    python tests/support/phone_input_log.py FIRST_SEED EPISODES
"""

from __future__ import annotations

import json
import sys
import time

import gymnasium as gym

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.agents.scripted import OracleAgent

EVENTS = ["pointerdown", "pointermove", "pointerup", "pointercancel", "gotpointercapture",
          "lostpointercapture", "touchstart", "touchend", "touchcancel", "contextmenu", "click"]
# Installed once per page (a page renewal brings a new one), emptied every episode.
INSTALL = """(() => {
  if (!window.__fsLog) {
    window.__fsLog = [];
    for (const type of EVENTS_JSON) {
      window.addEventListener(type, (e) => window.__fsLog.push([
        type, e.pointerId ?? null, String(e.target?.className || e.target?.nodeName).slice(0, 40),
        Math.round(e.timeStamp), e.clientX ?? e.touches?.[0]?.clientX ?? null, e.cancelable]),
        true);
    }
  }
  window.__fsLog.length = 0;
  return true;
})()""".replace("EVENTS_JSON", json.dumps(EVENTS))


def main(first: int, episodes: int) -> int:
    env = gym.make("FineState-Mobile-v0").unwrapped
    agent, failed, started = OracleAgent(), 0, time.time()
    try:
        for seed in range(first, first + episodes):
            obs, info = env.reset(seed=seed)
            env.backend._cdp.evaluate(INSTALL)  # our own connection: no driver round trip
            action = agent.act(obs, info)
            _, reward, _, _, step = env.step(action)
            if reward != 1.0:
                failed += 1
                print("FAILED", seed, step["component"], "state", step["state"][:80], "goal",
                      info["goal_state"][:80], {k: v.tolist() for k, v in action.items()},
                      json.dumps(env.backend._cdp.evaluate("window.__fsLog")), flush=True)
            if (seed - first + 1) % 500 == 0:
                print(f"{seed - first + 1} episodes, {failed} failed, "
                      f"{time.time() - started:.0f} s", flush=True)
    finally:
        env.close()
    print(f"{episodes} episodes, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]), int(sys.argv[2])))
