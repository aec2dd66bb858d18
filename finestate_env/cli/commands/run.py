"""`finestate run`: an agent's live episodes, the metrics static (boxes) beside live."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from finestate_env.cli import inputs, options
from finestate_env.core.errors import UsageError

NAME = "run"


def add_parser(subparsers) -> argparse.ArgumentParser:
    from finestate_env.agents.scripted import AGENTS

    parser = subparsers.add_parser(NAME, help="run an agent live and print the metrics, "
                                              "static (boxes) beside live (read-back)")
    parser.add_argument("--agent", choices=(*AGENTS, "openai"), default="oracle")
    parser.add_argument("--sigma-p0", type=float, default=0.0,
                        help="noisy-oracle: Gaussian noise on p0, pixels")
    parser.add_argument("--sigma-p1", type=float, default=0.0,
                        help="noisy-oracle: Gaussian noise on p1, pixels")
    options.add_model_options(parser)
    parser.add_argument("--episodes", type=int, default=50)
    parser.add_argument("--seed", type=int, default=0, help="episode i uses seed SEED + i")
    parser.add_argument("--max-actions", type=int, default=1, metavar="K",
                        help="gestures per episode (default 1, the FineState protocol); with "
                             "K > 1 the agent acts again on each new screenshot until the goal "
                             "is reached or K gestures are used; --agent openai then plays "
                             "multi-turn sessions as the agentic trainers do (a chat, one "
                             "gesture a turn, the model says done; docs/agentic-training.md)")
    options.add_live_env_options(parser)
    parser.add_argument("--family", type=options.split, default=None,
                        help="comma-separated families (default: all)")
    parser.add_argument("--out", default=None, help="folder for results.jsonl, summary.json and "
                                                    "cases/ (the disagreements' instances)")
    parser.add_argument("--report", action="store_true", help="also write OUT/report.html")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from finestate_env.agents.episodes import run_episodes
    from finestate_env.agents.scripted import make_agent
    from finestate_env.cli.tables import format_disagreements, format_summary
    from finestate_env.core.metrics import summarize
    from finestate_env.replay.disagreements import disagreement_of, explain

    if args.episodes < 1:
        raise UsageError("--episodes must be at least 1")
    if args.agent == "openai" and args.max_actions > 1:  # a chat, turn by turn
        from finestate_env.cli.commands.run_sessions import run_sessions

        return run_sessions(args)
    if args.vda != "none" and args.agent != "openai":
        raise UsageError(f"--vda {args.vda} hints a VLM: it needs --agent openai")
    if args.report and not args.out:
        raise UsageError("--report writes OUT/report.html: it needs --out OUT")
    env = inputs.make_env(options.env_id(args), component=args.component, family=args.family,
                          timings=True, max_actions=args.max_actions,
                          **options.env_options(args))  # results.jsonl keeps the timings
    baseline = baseline_results = None
    # The episodes worth a look (disagreements, action errors): their instance, and their
    # screenshot when they are written out for the report.
    cases: list[tuple[Any, Any, Any]] = []

    def keep(result, observation, reset_info) -> None:
        if result.crosscheck != "agree" or result.action_error is not None or result.collateral:
            shot = np.asarray(observation["screenshot"]) if args.out else None
            cases.append((result, _instance_of(reset_info), shot))

    try:
        if args.agent == "openai":
            agent, baseline = options.vlm_agents(args, env.coord_mode)
        else:
            agent = make_agent(args.agent, env, seed=args.seed, sigma_p0=args.sigma_p0,
                               sigma_p1=args.sigma_p1)
        started = time.perf_counter()
        results = run_episodes(env, agent, args.episodes, seed=args.seed, on_result=keep)
        elapsed = time.perf_counter() - started
        if baseline is not None:  # the same seeds without the hint, for Δ_vis
            baseline_results = run_episodes(env, baseline, args.episodes, seed=args.seed)
    except inputs.model_failure() as exc:
        print(f"finestate: {exc}\nfinestate: the responses so far are cached; rerun the same "
              "command to resume", file=sys.stderr)
        return 1
    finally:
        env.close()
    summary = summarize(results)
    if baseline_results is not None:
        from finestate_env.agents.vlm_eval import live_vda_summary

        summary["vda"] = live_vda_summary(args.vda, args.vda_parts, results, baseline_results)
    noise = (f" (σ p0 {args.sigma_p0:g} px, σ p1 {args.sigma_p1:g} px)"
             if args.agent == "noisy-oracle" else "")
    print(f"{options.env_id(args)} · agent {args.agent}{noise} · {args.episodes} episodes from "
          f"seed {args.seed} · {args.episodes / elapsed:.1f} episodes/s")
    explained = explain(d for result, instance, _ in cases
                        if (d := disagreement_of(result, instance)) is not None)
    print(format_summary(summary, crosscheck_by_type=not explained))
    if "episodes" in summary:
        episodes = summary["episodes"]
        print(f"episodes of up to {args.max_actions} gestures (the four metrics above are "
              f"each episode's first): episode success {episodes['episode_success']:.3f}, "
              f"gestures median {episodes['gestures_median']:g} (the oracle's "
              f"{episodes['oracle_gestures_median']:g}), mean "
              f"{episodes['gestures_mean']:.2f}; {episodes['collateral']} episodes changed "
              "another control")
    if explained:
        print()
        print(format_disagreements(explained))
    if "vda" in summary:
        vda = summary["vda"]
        print(f"VDA {args.vda} ({args.vda_parts}): ES-SR@Int live {vda['with']['live']:.3f} "
              f"vs {vda['without']['live']:.3f} without, "
              f"Δ_vis live {vda['delta_vis']['live']:+.3f}, "
              f"static {vda['delta_vis']['static']:+.3f}")
    if args.agent == "openai" and args.out:
        from finestate_env.core.files import write_text

        Path(args.out).mkdir(parents=True, exist_ok=True)
        usage = {"model": args.model, **agent.chat.usage.as_json()}
        if baseline is not None:
            usage["baseline"] = baseline.chat.usage.as_json()
            (Path(args.out) / "baseline").mkdir(exist_ok=True)
            write_text(Path(args.out) / "baseline" / "results.jsonl",
                       "".join(r.model_dump_json() + "\n" for r in baseline_results))
        write_text(Path(args.out) / "usage.json", json.dumps(usage, indent=2) + "\n")
    if args.out:
        from finestate_env.core.files import write_text

        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        write_text(out / "results.jsonl",
                   "".join(result.model_dump_json() + "\n" for result in results))
        write_text(out / "summary.json", json.dumps(summary, indent=2) + "\n")
        _write_cases(out, cases, args)
        print(f"wrote {out / 'results.jsonl'} and {out / 'summary.json'}")
        if args.report:
            from finestate_env.replay.report import write_report

            print(f"wrote {write_report(out)}")
    return 0


def _instance_of(reset_info: dict):
    from finestate_env.core.schema import Instance

    return Instance.model_validate_json(reset_info["instance"])  # JSON text (design.md §4b)


def _write_cases(out: Path, cases: list, args: argparse.Namespace) -> None:
    """OUT/cases/instances.jsonl and its screenshots: the episodes the report shows a card
    for, named in OUT/run.json as `replay` names its instances."""
    from PIL import Image

    from finestate_env.core.files import file_name, write_new, write_text
    from finestate_env.datasets.formats import write_instances
    from finestate_env.datasets.formats.project import remove_dataset
    from finestate_env.replay.report import MANIFEST

    folder = out / "cases"
    remove_dataset(folder)  # the cases an earlier run wrote here, nothing else
    (folder / "images").mkdir(parents=True, exist_ok=True)
    instances = []
    for _, instance, shot in cases:
        name = file_name(instance.id) + ".png"
        with write_new(folder / "images" / name, "wb") as f:
            Image.fromarray(shot).save(f, format="PNG")
        instances.append(instance.model_copy(update={"image": f"images/{name}"}))
    write_instances(instances, folder / "instances.jsonl")
    write_text(out / MANIFEST, json.dumps({
        "instances": str((folder / "instances.jsonl").resolve()), "agent": args.agent,
        "episodes": args.episodes, "seed": args.seed}, indent=2) + "\n")
