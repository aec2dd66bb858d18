"""benchmarks/reward_bench.py as make bench runs it, with tiny counts: the shape of what it
writes, every live reward it times equal to RewardScorer's for the same rows, and its
figures in the summary beside the issue's targets (timing itself belongs to the bench)."""

from __future__ import annotations

import json

from benchmarks.reward_bench import GROUP, KINDS, rows_and_completions
from finestate_env.rewards import RewardScorer


def scorer_rewards(scene: str, groups: int, mode: str = "exact") -> list[float | None]:
    truths, completions = rows_and_completions(scene, groups)
    with RewardScorer(mode, workers=1) as scorer:
        scores = scorer.score([truth for truth in truths for _ in range(GROUP)],
                              [c for group in completions for c in group])
    return [score.reward for score in scores]


def test_the_bench_times_the_rewards_the_scorer_gives(tmp_path):
    from benchmarks.bench_summary import main as summary
    from benchmarks.reward_bench import main as bench

    out = tmp_path / "bench-rewards.json"
    assert bench(["--groups", "2", "--passes", "1", "--batch", "2", "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["settings"]["group"] == GROUP == len(KINDS) == 8
    assert report["settings"]["clients"] == 8 and report["settings"]["batch"] == 16
    rows = report["rows"]
    assert [(r["scene"], r["path"]) for r in rows] == [
        (scene, path) for scene in ("page", "control") for path in ("box", "in_process", "server")]
    for scene in ("page", "control"):
        live, static = scorer_rewards(scene, 2), scorer_rewards(scene, 2, "box")
        box, in_process, server = (r for r in rows if r["scene"] == scene)
        assert box["rewards"] == static and box["shared_browser"] is None
        assert in_process["rewards"] == live and server["rewards"] == live
        assert in_process["agrees_with_first"] and server["agrees_with_first"]
        for row in (box, in_process, server):
            assert row["rewards_total"] == 2 * GROUP and row["rewards_per_s"] > 0
            assert row["unjudged"] == 0
        # A live reward costs Chromium's CPU, counted with the process tree's; the box none.
        assert in_process["cpu_ms_per_reward"] > 1 and server["cpu_ms_per_reward"] > 1
        assert in_process["renders_per_group"] == 1.0 and server["renders_per_group"] <= 1.0
        assert server["refused_503"] == 0 and server["client_cpu_ms_per_reward"] > 0
        assert in_process["workers"] == server["workers"] == 2
        # The mix: the oracle's answers reward 1, the unreadable and off-screen ones 0.
        kinds = in_process["mean_reward_by_kind"]
        assert kinds["right"] == 1.0 and kinds["malformed"] == 0.0 and kinds["wrong"] < 1.0
    headline = report["summary"]
    assert headline["agree"] is True and headline["unjudged"] == 0
    for path in ("in_process", "server", "box"):
        rows_of = [r for r in rows if r["path"] == path]
        assert headline[path]["by_scene"] == {r["scene"]: r["rewards_per_s"] for r in rows_of}
        seconds = sum(r["seconds"] for r in rows_of)
        assert headline[path]["rewards_per_s"] == round(4 * GROUP / seconds, 1)
    assert len(report["machine"]["load_average"]) == 3

    assert summary(["--dir", str(tmp_path)]) == 0
    figures = {row["figure"]: row for row in
               json.loads((tmp_path / "bench-summary.json").read_text())["figures"]}
    in_process = figures["live rewards/s, groups of 8, in process (2 workers, own browsers)"]
    assert in_process["measured"] == headline["in_process"]["rewards_per_s"]
    assert in_process["target"] == 300.0
    assert in_process["met"] == (in_process["measured"] >= 300.0)
    served = figures["live rewards/s, finestate serve, 8 clients (2 workers, own browsers)"]
    assert served["measured"] == headline["server"]["rewards_per_s"] and served["target"] == 200.0
    assert figures["  live rewards equal across paths and settings"]["met"] is True


def test_a_sweep_of_settings_compares_each_with_the_first(tmp_path):
    from benchmarks.reward_bench import main as bench

    out = tmp_path / "sweep.json"
    assert bench(["--groups", "2", "--passes", "1", "--scenes", "control", "--paths",
                  "in_process", "--workers", "1,3", "--browsers", "shared,own",
                  "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    settings = [(r["workers"], r["shared_browser"]) for r in report["rows"]]
    assert settings == [(1, True), (1, False), (3, True), (3, False)]
    live = scorer_rewards("control", 2)
    assert all(r["rewards"] == live and r["agrees_with_first"] for r in report["rows"])
    assert report["summary"]["workers"] == 1 and report["summary"]["shared_browser"] is True
    assert report["summary"]["in_process"]["by_scene"] == {
        "control": report["rows"][0]["rewards_per_s"]}
    assert "server" not in report["summary"] and "box" not in report["summary"]
