"""`finestate run --agent openai --max-actions K` (K above 1): a chat model plays live
multi-turn sessions, as the agentic trainers' adapters run them (finestate_env.sessions),
so that an agent is evaluated exactly as it is trained.

Episode i is the session of seed SEED + i (its type drawn in turn from --component, or
by the env from all of them). The model sees the first screen and the task, answers one
gesture a turn (or `done`), and sees each new screen; the reward is the exact state at the
end with the page's other controls unchanged. With --out: `trajectories.jsonl` (each
turn's reply, gesture in screenshot pixels and state), `summary.json`, every screen as
`screens/<episode>-<turn>.png`, and with --report `report.html` showing them turn by turn.
"""

from __future__ import annotations

import argparse
import html
import json
import statistics
import sys
import time
from pathlib import Path

from finestate_env.core.errors import UsageError


def run_sessions(args: argparse.Namespace) -> int:
    from finestate_env.agents.vlm_client import ChatClient
    from finestate_env.agents.vlm_prompt import known_models, known_profile, profile_for
    from finestate_env.cli import inputs, options
    from finestate_env.core.schema import Size
    from finestate_env.env.environment import resolve_viewport
    from finestate_env.sessions import SessionPool, SessionTask
    from finestate_env.sessions.play import play

    if args.vda != "none":
        raise UsageError("--vda hints a single answer: it is not offered with --max-actions "
                         "above 1 (multi-turn sessions)")
    if args.viewport is not None:
        raise UsageError("--viewport: multi-turn sessions show the platform's own screen; "
                         "leave it out with --max-actions above 1")
    if args.family:
        raise UsageError("--family: give --component with --max-actions above 1")
    client = options.agent_options(args, "pixel")
    if known_profile(args.model) is None and args.coords is None:
        raise UsageError(f"--model {args.model!r} matches no model profile; known: "
                         f"{known_models()}; give --coords pixel|normalized|1000")
    profile = profile_for(args.model, args.coords)
    chat = ChatClient(args.model, base_url=client["base_url"],
                      api_key_env=client["api_key_env"], cache_dir=client["cache_dir"],
                      max_retries=client["max_retries"], timeout=client["timeout"],
                      temperature=client["temperature"], max_tokens=client["max_tokens"])
    inputs.check_env(options.env_id(args), component=args.component)
    names = args.component or [None]
    # The frame a model's pixel answers are in (Qwen2.5-VL's: its processor's resize).
    frame = None
    if profile.coords == "pixel":
        width, height = profile.answer_frame(resolve_viewport(args.platform, None))
        frame = Size(width=width, height=height)
    trajectories = []
    started = time.perf_counter()
    try:
        with SessionPool(max_sessions=1, idle_timeout_s=None) as pool:
            for i in range(args.episodes):
                task = SessionTask(seed=args.seed + i, component=names[i % len(names)],
                                   scene=args.scene, platform=args.platform,
                                   max_actions=args.max_actions, coords=profile.coords,
                                   frame=frame)
                with pool.open(task) as session:
                    trajectories.append(play(session, chat))
    except inputs.model_failure() as exc:
        print(f"finestate: {exc}\nfinestate: the responses so far are cached; rerun the same "
              "command to resume", file=sys.stderr)
        return 1
    elapsed = time.perf_counter() - started
    summary = summarize_trajectories(trajectories)
    print(f"{options.env_id(args)} · agent openai {args.model} · {args.episodes} multi-turn "
          f"sessions of up to {args.max_actions} gestures from seed {args.seed} · "
          f"{args.episodes / elapsed:.2f} sessions/s")
    print(f"episode success {summary['success']:.3f} ({summary['successes']}/"
          f"{summary['episodes']}) · gestures mean {summary['gestures_mean']:.2f} "
          f"(the oracle's {summary['oracle_gestures_mean']:.2f}) · ended by the model "
          f"{summary['said_done']} · action errors {summary['action_errors']} · collateral "
          f"{summary['collateral']} · unjudged {summary['unjudged']}")
    if args.out:
        out = Path(args.out)
        write_trajectories(out, trajectories, summary, args)
        print(f"wrote {out / 'trajectories.jsonl'} and {out / 'summary.json'}")
        if args.report:
            print(f"wrote {write_session_report(out, trajectories, args)}")
    return 0


def summarize_trajectories(trajectories: list) -> dict:
    """Episode success (unjudged sessions left out of the rate, counted apart), gestures,
    how episodes ended."""
    judged = [t for t in trajectories if t.result.reward is not None]
    successes = sum(t.result.reward == 1.0 for t in judged)
    return {
        "episodes": len(trajectories), "successes": successes,
        "success": successes / len(judged) if judged else 0.0,
        "at_goal": sum(t.result.at_goal for t in judged),
        "gestures_mean": statistics.fmean(t.result.turns for t in trajectories)
        if trajectories else 0.0,
        "oracle_gestures_mean": statistics.fmean(t.result.oracle_actions for t in trajectories)
        if trajectories else 0.0,
        "said_done": sum(t.said_done for t in trajectories),
        "action_errors": sum(t.result.action_errors for t in trajectories),
        "collateral": sum(bool(t.result.collateral) for t in trajectories),
        "unjudged": len(trajectories) - len(judged),
    }


def write_trajectories(out: Path, trajectories: list, summary: dict,
                       args: argparse.Namespace) -> None:
    from PIL import Image

    from finestate_env.core.files import write_new, write_text

    screens = out / "screens"
    screens.mkdir(parents=True, exist_ok=True)
    for episode, trajectory in enumerate(trajectories):
        for number, pixels in [(0, trajectory.first_screen),
                               *((t.number, t.screen) for t in trajectory.turns)]:
            path = screens / f"{episode}-{number}.png"
            path.unlink(missing_ok=True)  # a rerun's screens replace an earlier run's
            with write_new(path, "wb") as f:
                Image.fromarray(pixels).save(f, format="PNG")
    write_text(out / "trajectories.jsonl",
               "".join(json.dumps(t.record()) + "\n" for t in trajectories))
    write_text(out / "summary.json", json.dumps({
        **summary, "model": args.model, "max_actions": args.max_actions, "seed": args.seed,
        "platform": args.platform}, indent=2) + "\n")


def write_session_report(out: Path, trajectories: list, args: argparse.Namespace) -> Path:
    """OUT/report.html: each session turn by turn, the screen the model saw with the gesture
    it answered drawn on it (p0 a ring, p1 a dot, the drag a line), the reply and the state."""
    from PIL import Image, ImageDraw

    from finestate_env.core.files import write_new, write_text

    cards = []
    for episode, trajectory in enumerate(trajectories):
        seen = trajectory.first_screen
        rows = []
        for turn in trajectory.turns:
            name = f"screens/{episode}-{turn.number}-gesture.png"
            image = Image.fromarray(seen)
            if turn.gesture is not None:
                (x0, y0), (x1, y1) = turn.gesture
                draw = ImageDraw.Draw(image)
                draw.line([(x0, y0), (x1, y1)], fill=(230, 30, 30), width=3)
                draw.ellipse([x0 - 9, y0 - 9, x0 + 9, y0 + 9], outline=(230, 30, 30), width=3)
                draw.ellipse([x1 - 5, y1 - 5, x1 + 5, y1 + 5], fill=(230, 30, 30))
            (out / name).unlink(missing_ok=True)
            with write_new(out / name, "wb") as f:
                image.save(f, format="PNG")
            what = (html.escape(turn.action_error) if turn.action_error else
                    f"state after: <code>{html.escape(turn.state)}</code>")
            rows.append(f"<figure><img src='{name}' width='480'><figcaption>turn {turn.number}: "
                        f"<code>{html.escape(turn.reply[:300])}</code><br>{what}"
                        "</figcaption></figure>")
            seen = turn.screen
        result = trajectory.result
        verdict = ("unjudged: " + html.escape(result.unjudged) if result.unjudged else
                   f"reward {result.reward:g} (at goal {result.at_goal}, collateral "
                   f"{html.escape(', '.join(result.collateral) or 'none')})")
        cards.append(
            f"<section><h2>{episode}: {html.escape(trajectory.component)} · "
            f"{html.escape(trajectory.instruction)}</h2><p>goal "
            f"<code>{html.escape(json.dumps(trajectory.goal_state))}</code> · {verdict} · "
            f"{'the model said done' if trajectory.said_done else 'ended: ' + str(result.ended)}"
            f"</p><figure><img src='screens/{episode}-0.png' width='480'><figcaption>the first "
            f"screen</figcaption></figure>{''.join(rows)}</section>")
    page = ("<!doctype html><meta charset='utf-8'><title>finestate sessions</title><style>"
            "body{font-family:sans-serif;margin:2em}figure{display:inline-block;margin:.5em;"
            "vertical-align:top;max-width:480px}code{word-break:break-all}</style>"
            f"<h1>{html.escape(args.model)}: {len(trajectories)} multi-turn sessions of up to "
            f"{args.max_actions} gestures</h1>{''.join(cards)}")
    path = out / "report.html"
    write_text(path, page)
    return path
