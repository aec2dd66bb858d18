"""`make bench`'s scene figures: a lone control beside the same types on app pages.

For each env id and scene, over the same seeds (episode i of every arm is seed i, so
every arm meets the same types):

- the oracle's episodes per second (reset + step, screenshots included), its success
  rate and how many of its steps changed a distractor (it must be 0 on pages, and a
  lone control has none);
- the random agent's SR@Loc and live SR@Int: two uniform points over the screen;
- the any-control agent's SR@Loc: it clicks the centre of a control drawn from those on
  screen, so it scores 1 on a lone control and only by chance on a page. This is what
  a page adds: locating the control the instruction names, not the only one shown.

    python -m benchmarks.scene_bench --env FineState-Web-v0 --episodes 230
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import gymnasium as gym

import finestate_env  # noqa: F401 (registers the ids)
from finestate_env.agents.episodes import run_episodes
from finestate_env.agents.scripted import make_agent
from finestate_env.components import scenes
from finestate_env.core.metrics import summarize

AGENTS = ("oracle", "random", "any-control")


def bench_scene(env_id: str, scene: str, episodes: int, seed: int = 0) -> dict:
    env = gym.make(env_id, scene=scene).unwrapped
    row: dict = {"env": env_id, "scene": scene, "episodes": episodes}
    try:
        env.reset(seed=10_000_000)  # warm-up: the browser or app starts here, not in the timing
        for name in AGENTS:
            agent = make_agent(name, env, seed=seed)
            started = time.perf_counter()
            results = run_episodes(env, agent, episodes, seed=seed)
            elapsed = time.perf_counter() - started
            summary = summarize(results)
            live = summary["live"]["overall"]
            row[name] = {"episodes_per_s": round(episodes / elapsed, 2),
                         "sr_loc": live["sr_loc"], "sr_int": live["sr_int"],
                         "static_sr_loc": summary["static"]["overall"]["sr_loc"],
                         "collateral": summary["collateral"]["episodes"],
                         "disagreements": summary["crosscheck"]["false_accept"]
                         + summary["crosscheck"]["false_reject"]}
    finally:
        env.close()
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", action="append", default=None,
                        help="an env id (repeatable; default: the three)")
    parser.add_argument("--episodes", type=int, default=230,
                        help="episodes per agent and scene (230: ten per type on average)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="bench-scenes.json")
    args = parser.parse_args(argv)
    env_ids = args.env or ["FineState-Web-v0", "FineState-Mobile-v0", "FineState-Desktop-v0"]
    print(f"{'env':<22}{'scene':<9}{'oracle eps/s':>13}{'oracle SR':>10}{'collateral':>11}"
          f"{'random SR@Loc':>14}{'random SR@Int':>14}{'any-control SR@Loc':>19}")
    rows = []
    for env_id in env_ids:
        platform = gym.spec(env_id).kwargs["platform"]
        for scene in scenes.SCENES:
            if scene == "page" and platform not in scenes.PAGE_PLATFORMS:
                print(f"{env_id:<22}{scene:<9}  (no {platform} pages yet)")
                continue
            row = bench_scene(env_id, scene, args.episodes, args.seed)
            rows.append(row)
            oracle, random, anyc = row["oracle"], row["random"], row["any-control"]
            print(f"{env_id:<22}{scene:<9}{oracle['episodes_per_s']:>13.1f}"
                  f"{oracle['sr_int']:>10.3f}{oracle['collateral']:>11}"
                  f"{random['sr_loc']:>14.3f}{random['sr_int']:>14.3f}{anyc['sr_loc']:>19.3f}",
                  flush=True)
    Path(args.out).write_text(json.dumps({"episodes": args.episodes, "seed": args.seed,
                                          "rows": rows}, indent=2) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
