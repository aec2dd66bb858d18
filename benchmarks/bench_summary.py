"""`make bench`'s last word: every figure of its JSON files beside its target (issue #17).

Reads the bench-*.json files the earlier steps wrote (in the current folder, or --dir),
prints one line per figure (what, target, measured, met or not) and writes them to
bench-summary.json with the machine's CPU count and load. A missing file leaves its
figures out and says so; nothing is re-measured here.

    python -m benchmarks.bench_summary [--dir .]
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from pathlib import Path

from benchmarks.reward_bench import IN_PROCESS_TARGET, SERVER_TARGET


def _load(folder: Path, name: str) -> dict | None:
    path = folder / name
    return json.loads(path.read_text()) if path.is_file() else None


def figures(folder: Path) -> tuple[list[dict], list[str]]:
    """(figure rows, files that were missing)."""
    rows: list[dict] = []
    missing: list[str] = []

    def add(what: str, measured: float | None, target: float | None = None,
            better: str = "higher", unit: str = "") -> None:
        met = None
        if measured is not None and target is not None:
            met = measured >= target if better == "higher" else measured <= target
        rows.append({"figure": what, "measured": measured, "target": target,
                     "better": better, "unit": unit, "met": met})

    def section(name: str, fill: Callable[[dict], None]) -> None:
        report = _load(folder, name)
        if report is None:
            missing.append(name)
        else:
            fill(report)

    def peer(report: dict) -> None:
        if "miniwob" in report:
            add("MiniWoB++ use-slider, one env (episodes/s)", report["miniwob"]["episodes_per_s"])
        if "finestate" in report:
            add("web, one env, lone slider (episodes/s)", report["finestate"]["episodes_per_s"])
        if "median_ratio" in report:
            add("  one env / MiniWoB++ (median of rounds)", report["median_ratio"], 4.0, unit="x")
        if "finestate-vector" in report:
            add("web, make_vec of 4, lone sliders (episodes/s)",
                report["finestate-vector"]["episodes_per_s"])
        if "vector_median_ratio" in report:
            add("  make_vec of 4 / MiniWoB++ (median of rounds)",
                report["vector_median_ratio"], 7.0, unit="x")
        # Issue #28's RL path (peer_bench.RL_OPTIONS): the screenshot alone at 84x84, the flat
        # action, the terminal screenshot skipped; against the default path's episodes/s.
        if "rl" in report:
            add("web, one env, lone slider, RL path (episodes/s)", report["rl"]["episodes_per_s"])
            add("  RL path: CPU ms per episode", report["rl"]["cpu_ms_per_episode"],
                better="lower", unit=" ms")
        if "rl_over_default" in report:
            add("  RL path / the default path (median of rounds)", report["rl_over_default"],
                2.0, unit="x")
        if "rl_over_miniwob" in report:  # issue #34's target
            add("  RL path / MiniWoB++ (median of rounds)", report["rl_over_miniwob"], 6.0,
                unit="x")
        if "finestate" in report:  # issue #34's target
            add("  default path: CPU ms per episode", report["finestate"]["cpu_ms_per_episode"],
                60.0, better="lower", unit=" ms")
        if "default_over_screenshot" in report:
            add("  begin-frame capture / captureScreenshot, default path (median)",
                report["default_over_screenshot"], unit="x")
        if "rl_over_rl_screenshot" in report:
            add("  begin-frame capture / captureScreenshot, RL path (median)",
                report["rl_over_rl_screenshot"], unit="x")
        if "rl_skip_over_capture" in report:
            add("  RL path, terminal shot skipped / captured (median of rounds)",
                report["rl_skip_over_capture"], unit="x")
        if "rl-vector" in report:
            add(f"web, make_vec of {report.get('vector_envs', 4)}, RL path (episodes/s)",
                report["rl-vector"]["episodes_per_s"])
        if "rl_vector_skip_over_capture" in report:
            add("  make_vec RL path, terminal shot skipped / captured (median)",
                report["rl_vector_skip_over_capture"], unit="x")

    def per_type(label: str, scene_note: str, audit_target: float | None = None):
        def fill(report: dict) -> None:
            add(f"{label}, {scene_note}: episodes/s, median over types",
                report["median_episodes_per_s"])
            cpu = report.get("median_cpu_ms_per_episode")
            add(f"{label}, {scene_note}: CPU ms per episode, median over types", cpu,
                35.0 if label == "web" and "lone" in scene_note else None, "lower", " ms")
            if report.get("median_audit_probes_per_s") is not None:
                add(f"{label}, {scene_note}: audit probes/s, median over types",
                    report["median_audit_probes_per_s"], audit_target)
                if report.get("median_first_audit_probes_per_s") is not None:
                    add("  a page's first audit alone, median over types",
                        report["median_first_audit_probes_per_s"])
            if report.get("replay"):
                add(f"{label}: replay instances/s, one worker",
                    report["replay"]["one_worker_per_s"])
        return fill

    section("bench-miniwob.json", peer)
    section("bench.json", per_type("web", "lone control", 600.0))
    section("bench-page.json", per_type("web", "page"))
    control, page = _load(folder, "bench.json"), _load(folder, "bench-page.json")
    if control and page and control.get("median_cpu_ms_per_episode") and \
            page.get("median_cpu_ms_per_episode"):
        add("web: CPU per episode, page / lone control",
            page["median_cpu_ms_per_episode"] / control["median_cpu_ms_per_episode"], 1.3,
            "lower", "x")

    def vector(label: str):
        def fill(report: dict) -> None:
            best = max((r for r in report["rows"] if r["mode"] == "default"),
                       key=lambda r: r["episodes_per_s"])
            add(f"{label}: make_vec episodes/s, best ({best['envs']} envs)",
                best["episodes_per_s"], 50.0 if label == "web" else None)
            for row in report["rows"]:
                if row["mode"] == "sync" and row["envs"] == best["envs"]:
                    add(f"{label}: sync vector env, {row['envs']} envs (episodes/s)",
                        row["episodes_per_s"])
            extra = [r["pss_per_extra_env_mib"] for r in report["rows"]
                     if r["mode"] == "default" and "pss_per_extra_env_mib" in r]
            if extra:
                add(f"{label}: PSS per env beyond the first, worst of 2/4/8 envs",
                    max(extra), 120.0 if label == "web" else None, "lower", " MiB")
        return fill

    def scale(report: dict) -> None:
        # Issue #34: make_vec's default beside the other ways, at the most envs measured.
        ok = [r for r in report["rows"] if "error" not in r]
        for path in ("rl", "default"):
            most = max((r["envs"] for r in ok if r["path"] == path), default=None)
            by_mode = {r["mode"]: r for r in ok if r["path"] == path and r["envs"] == most}
            if "make_vec" not in by_mode:
                continue
            made = by_mode["make_vec"]
            add(f"scale, {path} path, {most} envs: make_vec episodes/s "
                f"({made['browsers']} browser{'s' * (made['browsers'] != 1)}, "
                f"{made['cores_busy']:.1f} cores busy)",
                made["episodes_per_s"])
            for mode in ("one browser", "async"):
                if mode in by_mode:
                    add(f"  make_vec / {mode}", made["episodes_per_s"] /
                        by_mode[mode]["episodes_per_s"], 0.9 if mode == "async" else None,
                        unit="x")
        add("  scaling points that failed", len(report["rows"]) - len(ok), 0, "lower")

    section("bench-scale.json", scale)
    section("bench-vector.json", vector("web"))
    section("bench-vector-mobile.json", vector("mobile"))

    def soak(report: dict) -> None:
        # Each process's slope after the warm-up, judged by benchmarks/soak.py against its
        # limit (the env's Python: < 5 MiB over 10,000 episodes, issue #36).
        judged = report.get("judged", {})
        episodes = report["episodes"]
        if "slope_kib_per_episode" in judged.get("env", {}):
            add(f"web soak, {episodes} episodes: the env's Python's slope after the warm-up",
                judged["env"]["slope_kib_per_episode"], None, "lower", " KiB/episode")
        add(f"web soak, {episodes} episodes: processes growing past their limit",
            sum(v["verdict"] == "grows" for v in judged.values()), 0, "lower")
        add("  failed episodes", len(report["failures"]), 0, "lower")
        add("  processes left", len(report["processes_left"]), 0, "lower")

    section("bench-soak.json", soak)
    section("bench-mobile.json", per_type("mobile", "lone control"))
    section("bench-desktop.json", per_type("desktop", "lone control"))

    def learning(report: dict) -> None:
        rates = report["held_out"]
        level = report["level"]
        add(f"learning, level {level}: DQN success after {report['steps']} steps "
            f"({report['eval_seeds']} held-out seeds)", 100 * rates["after"],
            50.0 if level == 0 else None, unit=" %")
        add("  before training, greedy", 100 * rates["before"], unit=" %")
        add("  a random tap", 100 * rates["random"], unit=" %")

    section("bench-learn-level0.json", learning)
    section("bench-learn-level1.json", learning)

    def rewards(report: dict) -> None:
        # Issue #33: live rewards for GRPO groups of 8, app pages and lone controls together
        # (benchmarks/reward_bench.py, its first settings: the headline).
        summary = report["summary"]
        where = (f"{summary['workers']} workers, "
                 f"{'one browser' if summary['shared_browser'] else 'own browsers'}")
        if "in_process" in summary:
            add(f"live rewards/s, groups of 8, in process ({where})",
                summary["in_process"]["rewards_per_s"], IN_PROCESS_TARGET)
            add("  CPU ms per live reward, in process (browsers included)",
                summary["in_process"]["cpu_ms_per_reward"], better="lower", unit=" ms")
        if "server" in summary:
            add(f"live rewards/s, finestate serve, 8 clients ({where})",
                summary["server"]["rewards_per_s"], SERVER_TARGET)
            add("  CPU ms per live reward, the server's processes",
                summary["server"]["cpu_ms_per_reward"], better="lower", unit=" ms")
        if "box" in summary:
            add("box rewards/s (static, no browser), the same rows",
                summary["box"]["rewards_per_s"])
        add("  live rewards equal across paths and settings", float(summary["agree"]), 1.0)
        add("  completions left unjudged", summary["unjudged"], 0, "lower")

    section("bench-rewards.json", rewards)

    def two_point_audit(report: dict) -> None:
        # Issue #47: the audit of 23 types x 20 instances x 4 rules x 20 gestures "within
        # minutes on 2 cores" (benchmarks/precision_bench.py); five minutes is the target.
        add(f"two-point audit, {report['instances']} {report['platform']} instances, "
            f"{report['workers']} workers (s)", report["audit_s"], 300.0, "lower", " s")
        add("  probed gestures per second (rules, start regions, goal boxes)",
            report["probes_per_s"])
        add("  instances the audit could not probe", report["errors"], 0, "lower")

    section("bench-precision.json", two_point_audit)

    def streams(report: dict) -> None:
        # Issue #49: the file commands stream, each process under 300 MB for 100,000 lines
        # (benchmarks/stream_bench.py; replay and audit with a short live part).
        for name, row in report["commands"].items():
            add(f"finestate {name}, {report['lines']:,} lines: peak RSS",
                row["peak_rss_mb"] if row["rc"] == 0 else None, report["limit_mb"], "lower",
                " MB")

    section("bench-stream.json", streams)

    def sessions(report: dict) -> None:
        gym_step = report["gym_step"]
        add("Gymnasium env step beside the sessions (steps/s)", gym_step["steps_per_s"])
        targets = report["targets"]
        for row in report["rows"]:
            n = row["sessions"]
            add(f"multi-turn sessions, {n} open (turns/s)", row["turns_per_s"],
                targets["turns_per_s"] if n == targets["sessions_open"] else None)
            add(f"  CPU per turn at {n} sessions (ms)", row["cpu_ms_per_turn"],
                targets["cpu_ms_per_turn"], better="lower")
            add(f"  turn latency p50 / p99 at {n} sessions (ms)", row["latency_p50_ms"],
                unit=f"/ {row['latency_p99_ms']}")
            if "pss_per_extra_session_mib" in row:
                add(f"  memory per extra session at {n} (MiB PSS)",
                    row["pss_per_extra_session_mib"], targets["pss_per_extra_session_mib"],
                    better="lower")

    section("bench-sessions.json", sessions)

    def openenv(report: dict) -> None:
        # Issue #42 part 5 (benchmarks/openenv_bench.py): finestate serve-env beside OpenEnv's
        # own BrowserGym env at its fastest, both under OpenEnv's GenericEnvClient.
        targets = report["targets"]
        theirs = {r["sessions"]: r for r in report.get("browsergym", {}).get("rows", [])}
        ratios = [r for r in report["ratios"] if r["over"] == "browsergym"]
        for ratio in ratios:
            n = ratio["sessions"]
            ours = next(r for r in report["finestate"]["rows"] if r.get("sessions") == n)
            add(f"OpenEnv, {n} sessions: finestate serve-env (steps/s)", ours["steps_per_s"])
            add("  OpenEnv's BrowserGym, MiniWoB++ click-checkboxes (steps/s)",
                theirs[n]["steps_per_s"])
            add("  CPU per step, finestate / BrowserGym (ms, server's processes)",
                ours["cpu_ms_per_step"], unit=f" / {theirs[n]['cpu_ms_per_step']:.0f}")
            add("  steps per CPU-second, finestate / BrowserGym", ratio["steps_per_cpu_s"],
                targets["steps_per_cpu_s_ratio"], unit="x")
        if ratios:
            most = ratios[-1]
            add(f"OpenEnv observation, BrowserGym / finestate JSON ({most['sessions']} "
                "sessions)", most["payload_smaller"], targets["payload_ratio"], unit="x")
            add("  the same on the wire (permessage-deflate)", most["wire_smaller"], unit="x")
            ours = report["finestate"]["rows"][-1]
            add(f"  PSS per session at {ours['sessions']}, finestate / BrowserGym (MiB)",
                ours["pss_per_session_mib"],
                unit=f" / {theirs[most['sessions']]['pss_per_session_mib']:.0f}")

    section("bench-openenv.json", openenv)
    return rows, missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dir", type=Path, default=Path("."))
    parser.add_argument("--out", default="bench-summary.json")
    args = parser.parse_args(argv)
    rows, missing = figures(args.dir)
    machine = {"cpus": os.cpu_count(), "load_average": os.getloadavg()}
    print(f"make bench on {machine['cpus']} CPUs (load average now "
          f"{', '.join(f'{v:.1f}' for v in machine['load_average'])})")
    for row in rows:
        measured = "n/a" if row["measured"] is None else f"{row['measured']:.1f}{row['unit']}"
        target = ("" if row["target"] is None else
                  f"{'>=' if row['better'] == 'higher' else '<='} {row['target']:g}{row['unit']}")
        verdict = {True: "met", False: "NOT met", None: ""}[row["met"]]
        print(f"  {row['figure']:<68}{measured:>12}  {target:<12}{verdict}")
    if missing:
        print(f"  (no figures from {', '.join(missing)}: not written by this run)")
    met = [row["met"] for row in rows if row["met"] is not None]
    print(f"targets met: {sum(met)} of {len(met)}")
    (args.dir / args.out).write_text(json.dumps(
        {"machine": machine, "figures": rows, "missing": missing,
         "targets_met": sum(met), "targets": len(met)}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
