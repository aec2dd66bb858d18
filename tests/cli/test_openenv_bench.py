"""make bench's OpenEnv side by side (benchmarks/openenv_bench.py): our side's quick run,
the ratios, and the one change the BrowserGym launcher makes to the upstream env. The
BrowserGym side needs make's .venv-browsergym and a minute a session: the bench runs it,
not the suite; timing belongs in the bench, not here."""

from __future__ import annotations

import json

import numpy as np
import pytest

from benchmarks.openenv_bench import compare, main
from benchmarks.openenv_browsergym_server import _json_safe


def test_the_finestate_side_steps_sessions_through_openenvs_client(tmp_path):
    out = tmp_path / "openenv.json"
    assert main(["--sides", "finestate", "--sessions", "1", "--seconds", "0.5",
                 "--out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert report["client"]["class"] == "openenv GenericEnvClient"
    rows = report["finestate"]["rows"]
    assert [row["sessions"] for row in rows] == [1]
    for row in rows:
        assert row["steps"] >= row["sessions"] and row["errors"] == 0
        # The browser's CPU is counted: a Chromium step costs well over a millisecond.
        assert row["cpu_ms_per_step"] > 5
        # A 1280x720 page as a base64 PNG, and each session's own memory.
        assert 10_000 < row["payload_bytes_per_obs"] < 1_000_000
        assert 0 < row["wire_bytes_per_obs"] <= row["payload_bytes_per_obs"] * 1.01
        assert row["pss_open_mib"] > report["finestate"]["pss_warm_idle_mib"] > 0
    assert report["ratios"] == []  # no BrowserGym side ran


@pytest.mark.fast
def test_ratios_are_finestate_over_browsergym_at_each_session_count():
    def row(n, steps, cpu, payload, wire, pss):
        return {"sessions": n, "steps": 10, "steps_per_s": steps, "steps_per_cpu_s": 1000 / cpu,
                "payload_bytes_per_obs": payload, "wire_bytes_per_obs": wire,
                "pss_per_session_mib": pss}

    report = {"finestate": {"rows": [row(1, 10.0, 50.0, 100e3, 80e3, 30.0),
                                     row(4, 20.0, 50.0, 100e3, 80e3, 30.0)]},
              "browsergym": {"rows": [row(1, 0.5, 1000.0, 2e6, 16e3, 600.0),
                                      {"sessions": 4, "skipped": "memory"}]}}
    (one,) = compare(report)
    assert one["sessions"] == 1 and one["steps_per_s"] == pytest.approx(20.0)
    assert one["steps_per_cpu_s"] == pytest.approx(20.0)
    assert one["payload_smaller"] == pytest.approx(20.0)
    assert one["wire_smaller"] == pytest.approx(0.2)
    assert one["pss_per_session_smaller"] == pytest.approx(20.0)


@pytest.mark.fast
def test_the_launcher_makes_browsergyms_metadata_json_safe():
    # BrowserGym's observation carries numpy arrays (active_page_index, elapsed_time),
    # which OpenEnv 0.10's WebSocket reply cannot serialize.
    metadata = {"browsergym_obs": {"active_page_index": np.asarray([0]),
                                   "elapsed_time": np.asarray([1.5]),
                                   "open_pages_urls": ("a", "b")},
                "browsergym_info": {"task_info": {"n": np.int64(3)}}}
    safe = _json_safe(metadata)
    assert json.loads(json.dumps(safe)) == {
        "browsergym_obs": {"active_page_index": [0], "elapsed_time": [1.5],
                           "open_pages_urls": ["a", "b"]},
        "browsergym_info": {"task_info": {"n": 3}}}


@pytest.mark.fast
def test_the_client_clicks_browsergyms_first_checkbox_by_its_bid():
    import asyncio

    from benchmarks.openenv_bench_client import concrete

    tree = ("RootWebArea 'Click Checkboxes Task'\n\t[14] StaticText 'Select Nb'\n"
            "\t[18] checkbox '11LO', checked='false'\n\t[21] checkbox 'Nb', checked='false'")
    actions = asyncio.run(concrete([{"click_first": "checkbox"}], {"axtree_txt": tree}, None))
    assert actions == [{"action_str": "click('18')"}]
