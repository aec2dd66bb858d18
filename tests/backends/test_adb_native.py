"""Native views through adb (backend_options={"views": "native"}): the host side, whole.

Against tests/support/fake_adb_device.py through the real adb server and
adbutils: install over the sync service and `pm install`, `am start -W`,
`am broadcast` reports, `uiautomator dump`, `input`, `screencap -p`. The
stand-in's "app" renders with the project's HTML controls, so these tests prove
the host side and the protocol, not the Android app's native Views.
"""

from __future__ import annotations

import base64
import json
import re
import time
import zipfile

import gymnasium as gym
import numpy as np
import pytest
from adb_standin import Device
from fake_adb_device import SCREEN, STATUS_BAR

from finestate_env.agents.scripted import OracleAgent
from finestate_env.backends import make_backend
from finestate_env.backends.adb_device import AdbBackendError
from finestate_env.backends.adb_native import (
    PACKAGE,
    NativeViewsBackend,
    default_apk,
    parse_report,
)
from finestate_env.components import COMPONENTS
from finestate_env.core.schema import LiveSpec, Prediction

TYPES = list(COMPONENTS)  # all 23, about a second each


@pytest.fixture(scope="module")
def apk(tmp_path_factory):
    """The real APK when `make android` built it (or $FINESTATE_VIEWS_APK names one), else a
    small zip with a manifest."""
    if default_apk().is_file():
        return default_apk()
    path = tmp_path_factory.mktemp("apk") / "finestate-views.apk"
    with zipfile.ZipFile(path, "w") as made:
        made.writestr("AndroidManifest.xml", b"\x03\x00\x08\x00stand-in manifest")
        made.writestr("classes.dex", b"dex\n035\x00")
    return path


def shell(device: Device, command: str) -> str:
    import adbutils

    client = adbutils.AdbClient(port=device.server_port)
    return client.device(device.serial).shell(command, timeout=10)


def native(device: Device, apk, **extra) -> dict:
    return device.options(**{"views": "native", "apk": str(apk), "timeout_s": 15, **extra})


@pytest.fixture(scope="module")
def env(device, apk):
    env = gym.make("FineState-Mobile-v0", backend="adb", scene="control",
                   backend_options=native(device, apk)).unwrapped
    yield env
    env.close()


def test_install_when_missing_and_not_again(adb_server, apk, tmp_path):
    device = Device(adb_server)
    try:
        assert shell(device, f"pm path {PACKAGE}") == ""
        # The stand-in refuses to start an app that was never installed, as Android does.
        refused = shell(device, "am start -W -n org.finestate.views/.MainActivity")
        assert "Error: Activity class {org.finestate.views/org.finestate.views.MainActivity} " \
               "does not exist." in refused
        absent = NativeViewsBackend(SCREEN, **device.options(apk=str(tmp_path / "none.apk")))
        with pytest.raises(FileNotFoundError, match="make android"):
            absent.start()
        first = NativeViewsBackend(SCREEN, **device.options(apk=str(apk)))
        first.start()
        assert first.installed_now
        assert shell(device, f"pm path {PACKAGE}").startswith("package:")
        assert f"package:{PACKAGE}" in shell(device, "pm list packages").split()
        # Pushed to /data/local/tmp, installed from there, removed.
        assert "No such file" in shell(device, "cat /data/local/tmp/finestate-views.apk")
        first.close()
        again = NativeViewsBackend(SCREEN, **device.options(apk=str(apk)))
        again.start()
        assert not again.installed_now
        again.close()
    finally:
        device.stop()


def test_a_file_that_is_no_apk_is_refused_with_pm_install_output(adb_server, tmp_path):
    device = Device(adb_server)
    try:
        junk = tmp_path / "junk.apk"
        junk.write_bytes(b"not a zip")
        backend = NativeViewsBackend(SCREEN, **device.options(apk=str(junk)))
        with pytest.raises(AdbBackendError, match="INSTALL_PARSE_FAILED_NOT_APK"):
            backend.start()
    finally:
        device.stop()


@pytest.mark.parametrize("type_name", TYPES)
def test_the_oracle_reaches_the_goal_exactly(env, type_name):
    obs, info = env.reset(seed=3, options={"component": type_name})
    shot = obs["screenshot"]
    assert shot.shape == (SCREEN[1], SCREEN[0], 3)
    # The screenshot is the app's window (not the home screen) with the control in `loc`.
    x1, y1, x2, y2 = (int(v) for v in info["boxes"]["current"]["loc"])
    assert y1 >= STATUS_BAR and shot[y1:y2 + 1, x1:x2 + 1].std() > 5
    _, reward, terminated, _, info = env.step(OracleAgent().act(obs, info))
    assert (reward, terminated, info["success"], info["crosscheck"], info["action_error"]) == (
        1.0, True, True, "agree", None), (info["goal_state"], info["state"])
    assert info["live"] == {"sr_loc": True, "sr_int": True, "es_sr_loc": True,
                            "es_sr_int": True}


def _types_of(value):
    if isinstance(value, dict):
        return {key: _types_of(item) for key, item in value.items()}
    if isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.str, value.shape)
    return type(value).__name__


def test_info_has_the_keys_and_types_of_the_emulated_phone(env):
    obs, native_reset = env.reset(seed=4, options={"component": "slider"})
    *_, native_step = env.step(OracleAgent().act(obs, native_reset))
    phone = gym.make("FineState-Mobile-v0", scene="control").unwrapped
    try:
        obs, phone_reset = phone.reset(seed=4, options={"component": "slider"})
        *_, phone_step = phone.step(OracleAgent().act(obs, phone_reset))
    finally:
        phone.close()
    assert _types_of(native_reset) == _types_of(phone_reset)
    # action_error is None in both (a str when set, as on every backend).
    assert _types_of(native_step) == _types_of(phone_step)


def test_boxes_are_the_controls_in_screen_pixels(env, assert_boxes_below_the_bar):
    """The stand-in's app draws the emulated phone's control under its status bar: the
    reported boxes are the emulated phone's moved down by the bar, exactly."""
    _, info = env.reset(seed=6, options={"component": "rating"})
    assert_boxes_below_the_bar(env.instance.live, info["boxes"])


def test_page_scene_is_a_clear_error(device, apk):
    with pytest.raises(ValueError, match="lone controls only.*scene='control'"):
        gym.make("FineState-Mobile-v0", backend="adb", scene="page",
                 backend_options=native(device, apk))


@pytest.mark.fast
def test_unknown_views_option_is_a_clear_error():
    with pytest.raises(ValueError, match="views must be 'web'.*or 'native'"):
        gym.make("FineState-Mobile-v0", backend="adb", scene="control",
                 backend_options={"views": "flutter"})


def test_replay_and_audit_through_the_native_path(env, device, apk):
    from finestate_env.replay.audit import audit_instance, grid
    from finestate_env.replay.live_replay import ReplayWorker

    obs, info = env.reset(seed=7, options={"component": "switch"})
    instance = env.instance
    action = OracleAgent().act(obs, info)
    worker = ReplayWorker(native(device, apk), backend="adb")
    try:
        hit = worker.replay(instance, Prediction(id=instance.id, p0=tuple(action["p0"]),
                                                 p1=tuple(action["p1"])))
        miss = worker.replay(instance, Prediction(id=instance.id, p0=(5.0, 5.0),
                                                  p1=(5.0, STATUS_BAR + 5.0)))
    finally:
        worker.close()
    assert (hit.outcome, hit.static_exact, hit.live_exact, hit.crosscheck, hit.boxes_match) == (
        "performed", True, True, "agree", True)
    assert (miss.outcome, miss.static_exact, miss.live_exact, miss.crosscheck) == (
        "performed", False, False, "agree")
    assert miss.state == instance.current_state

    env.reset(seed=7, options={"component": "slider"})
    boxes = env.instance.boxes.current
    report = audit_instance(env.backend, env.instance, density=2, core_density=3)
    inside = grid(boxes.goal, 2)
    assert report.goal_probes == len(inside) >= 2 and report.unsound == []
    assert report.core_probes == len([p for p in grid(boxes.core, 3) if p not in inside])
    assert report.outside_hits == []


def test_probes_give_the_states_of_one_checked_render_per_probe(env):
    """The audit's probes check the window in front once, not per probe: same states."""
    from finestate_env.backends.base import Backend
    from finestate_env.core.coords import box_center
    from finestate_env.replay.audit import grid

    env.reset(seed=5, options={"component": "segmented"})
    instance = env.instance
    current = instance.boxes.current
    p0 = box_center(current.now)
    points = grid(current.core, 2) + grid(current.goal, 1)
    pairs = [(p0, p1) for p1 in points]
    fast = env.backend.probe(instance.live, instance.gesture, pairs)
    assert instance.live.goal_state in fast
    assert fast == Backend.probe(env.backend, instance.live, instance.gesture, pairs)


def test_a_stale_report_is_a_clear_error(env, device):
    env.reset(seed=8, options={"component": "switch"})
    backend = env.backend
    # Another client renders in between: the app now reports a later render.
    payload = base64.b64encode(env.instance.live.model_dump_json().encode()).decode()
    shell(device, f"am start -W -n org.finestate.views/.MainActivity "
                  f"-a org.finestate.views.RENDER --ei seq {backend._seq + 1} --es spec {payload}")
    with pytest.raises(AdbBackendError, match=rf"reports render {backend._seq + 1}, not the "
                                              rf"last one \({backend._seq}\)"):
        backend.read_state()
    env.reset(seed=8, options={"component": "switch"})  # the next render is trusted again


def test_an_app_error_is_a_clear_error(env):
    spec = LiveSpec(component="no_such_type", params={}, current_state=0, goal_state=1,
                    theme="material-mobile", viewport={"width": SCREEN[0], "height": SCREEN[1]})
    with pytest.raises(AdbBackendError, match=r"failed render \d+: .*no_such_type"):
        env.backend.render(spec)


@pytest.mark.fast
def test_reports_are_parsed_as_am_prints_them():
    data = '{"seq":2,"ready":true,"component":"x","state":"a \\"quoted\\" label",' \
           '"boxes":null,"error":null}'
    out = ("Broadcasting: Intent { act=org.finestate.views.REPORT flg=0x400000 "
           f'pkg=org.finestate.views }}\nBroadcast completed: result=-1, data="{data}"\n')
    assert parse_report(out)["state"] == 'a "quoted" label'
    with pytest.raises(AdbBackendError, match="result=0, expected -1"):
        parse_report("Broadcasting: Intent { }\nBroadcast completed: result=0\n")
    with pytest.raises(AdbBackendError, match=r"lacks \['boxes', 'error'\]"):
        parse_report('Broadcast completed: result=-1, '
                     'data="{"seq":1,"ready":true,"component":"x","state":1}"')
    reported = ('Broadcast completed: result=-1, data="{"seq":1,"ready":true,"component":"x",'
                '"state":1,"boxes":null,"error":null,"reach":%s}"')
    assert parse_report(reported % "3")["reach"] == 3
    assert parse_report(reported % "null")["reach"] is None
    with pytest.raises(AdbBackendError, match=r"reach 1.5, expected a whole number"):
        parse_report(reported % "1.5")


def test_the_app_not_in_front_is_a_clear_error(adb_server, apk):
    device = Device(adb_server, "--app-covered")
    backend = make_backend("adb", SCREEN, **native(device, apk))
    try:
        sample = COMPONENTS["switch"].sample(np.random.default_rng(0), (360, 800), touch=True)
        spec = LiveSpec(component="switch", params=sample.params,
                        current_state=sample.current_state, goal_state=sample.goal_state,
                        theme="material-mobile", viewport={"width": SCREEN[0], "height": SCREEN[1]})
        with pytest.raises(AdbBackendError, match="window in front .* is "
                                                  "'com.android.systemui', not org.finestate"):
            backend.render(spec)
        dump = shell(device, "cat /sdcard/window_dump.xml")
        assert dump.startswith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>"
                               '<hierarchy rotation="0"><node index="0" text="" resource-id="" '
                               'class="android.widget.FrameLayout" package="com.android.systemui"')
    finally:
        backend.close()
        device.stop()


def test_a_device_lost_mid_episode_is_an_unjudged_step_then_a_clear_error(
        adb_server, apk, step_after_losing_the_device):
    device = Device(adb_server)
    env = gym.make("FineState-Mobile-v0", backend="adb", scene="control",
                   backend_options=native(device, apk, retries=1)).unwrapped
    try:
        step_after_losing_the_device(env, device)
        started = time.monotonic()
        with pytest.raises(AdbBackendError, match=device.serial.replace(".", r"\.")):
            env.reset(seed=2, options={"component": "switch"})
        assert time.monotonic() - started < 30
    finally:
        env.close()


def test_the_device_test_command_runs_the_oracle_per_type(device, apk, tmp_path, capsys):
    from finestate_env.cli.android_device_test import main

    out = tmp_path / "device-test.json"
    code = main(["--serial", device.serial, "--adb-port", str(device.server_port),
                 "--apk", str(apk), "--episodes-per-type", "2", "--types", "switch,slider",
                 "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    summary = json.loads(out.read_text())
    assert summary["errors"] == {}
    for name in ("switch", "slider"):
        assert summary["summary"]["live"]["by_component"][name]["n"] == 2
        assert summary["summary"]["live"]["by_component"][name]["es_sr_int"] == 1.0
        assert summary["summary"]["static"]["by_component"][name]["es_sr_int"] == 1.0
        # The table: the type's row, each metric static beside live.
        row = next(line for line in printed.splitlines() if line.strip().startswith(name))
        assert row.split()[1:] == ["2"] + ["1.000"] * 8
    assert "agree 4, false accept 0, false reject 0" in printed


def test_the_device_test_command_runs_far_goals(device, apk, capsys):
    from finestate_env.cli.android_device_test import main

    code = main(["--serial", device.serial, "--adb-port", str(device.server_port),
                 "--apk", str(apk), "--episodes-per-type", "3", "--types", "stepper,date_picker",
                 "--max-actions", "5"])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "max 5 gestures" in printed
    for name in ("stepper", "date_picker"):
        line = next(x for x in printed.splitlines() if x.strip().startswith(f"{name}: "))
        taken = re.findall(r"(\d+)/(\d+)", line)
        assert "3 of 3 episodes reached" in line and len(taken) == 3, line
        assert all(a == b for a, b in taken) and any(int(a) > 1 for a, _ in taken), line


@pytest.mark.fast
def test_the_device_test_command_names_a_device_it_cannot_reach(adb_server, capsys):
    from finestate_env.cli.android_device_test import main

    code = main(["--serial", "127.0.0.1:1", "--adb-port", str(adb_server), "--timeout-s", "3",
                 "--types", "switch"])
    assert code == 1
    assert "'127.0.0.1:1' is not on the adb server" in capsys.readouterr().err


def test_the_stand_in_prints_what_aosp_prints(env, device):
    """The formats the backend parses, as the stand-in gives them (AOSP's, cited there)."""
    env.reset(seed=9, options={"component": "checkbox"})
    payload = base64.b64encode(env.instance.live.model_dump_json().encode()).decode()
    started = shell(device, f"am start -W -n org.finestate.views/.MainActivity -a "
                            f"org.finestate.views.RENDER --ei seq 99 --es spec {payload}")
    assert re.fullmatch(
        r"Starting: Intent \{ act=org\.finestate\.views\.RENDER "
        r"cmp=org\.finestate\.views/\.MainActivity \(has extras\) \}\n"
        r"(Warning: Activity not started, intent has been delivered to currently running "
        r"top-most instance\.\n)?Status: ok\nLaunchState: (COLD|UNKNOWN \(0\))\n"
        r"Activity: org\.finestate\.views/\.MainActivity\nTotalTime: \d+\nWaitTime: \d+\n"
        r"Complete\n?", started), started
    deadline = time.monotonic() + 10
    while '"ready":true' not in (broadcast := shell(
            device, "am broadcast -a org.finestate.views.REPORT -p org.finestate.views")):
        assert time.monotonic() < deadline, broadcast
    head, line = broadcast.splitlines()
    assert head == ("Broadcasting: Intent { act=org.finestate.views.REPORT flg=0x400000 "
                    "pkg=org.finestate.views }")
    assert line.startswith('Broadcast completed: result=-1, data="{"seq":99,"ready":true,')
    assert shell(device, "uiautomator dump").strip() == \
        "UI hierchary dumped to: /sdcard/window_dump.xml"
    dump = shell(device, "cat /sdcard/window_dump.xml")
    assert re.match(
        r"<\?xml version='1\.0' encoding='UTF-8' standalone='yes' \?><hierarchy rotation=\"0\">"
        r'<node index="0" text="" resource-id="" class="android\.widget\.FrameLayout" '
        r'package="org\.finestate\.views" content-desc="" checkable="false" checked="false" '
        r'clickable="false" enabled="true" focusable="false" focused="false" '
        r'scrollable="false" long-clickable="false" password="false" selected="false" '
        r'bounds="\[0,0\]\[1080,2400\]">', dump), dump
    env.reset(seed=9, options={"component": "checkbox"})  # the backend's own seq again


def test_a_render_taken_late_is_waited_for_and_one_never_taken_is_stale(adb_server, apk):
    """`am start -W` may return before the app took the intent: its report of the earlier
    render means "not yet" until timeout_s, then a clear error."""
    device = Device(adb_server, "--app-late=1.5")
    try:
        sample = COMPONENTS["stepper"].sample(np.random.default_rng(1), (360, 800), touch=True)
        spec = LiveSpec(component="stepper", params=sample.params,
                        current_state=sample.current_state, goal_state=sample.goal_state,
                        theme="material-mobile", viewport={"width": SCREEN[0], "height": SCREEN[1]})
        patient = make_backend("adb", SCREEN, **native(device, apk, timeout_s=10))
        assert patient.render(spec).state == spec.current_state
        patient.close()
        hasty = make_backend("adb", SCREEN, **native(device, apk, timeout_s=0.5))
        hasty._seq = 10  # renders 11, after the patient backend's 1 (an instance of its own)
        started = time.monotonic()
        with pytest.raises(AdbBackendError, match=r"still reports render 1 \(stale\) within "
                                                  r"0\.5 s of render 11"):
            hasty.render(spec)
        assert time.monotonic() - started < 5
    finally:
        device.stop()


def test_episodes_of_several_gestures_measure_the_screen_again(device, apk):
    """max_actions > 1: after a gesture the boxes are the app's, measured from its views
    now; a miss first, then the oracle on the new boxes reaches the goal."""
    env = gym.make("FineState-Mobile-v0", backend="adb", scene="control", max_actions=3,
                   component="slider", backend_options=native(device, apk)).unwrapped
    try:
        obs, info = env.reset(seed=11)
        goal_box = info["boxes"]["current"]["goal"].copy()
        # A first drag that moves the thumb to the track's far end, not to the goal.
        now, core = info["boxes"]["current"]["now"], info["boxes"]["current"]["core"]
        end = (core[2] if goal_box[0] - core[0] < core[2] - goal_box[2] else core[0],
               (now[1] + now[3]) / 2)
        action = {"p0": np.asarray(((now[0] + now[2]) / 2, (now[1] + now[3]) / 2), np.float32),
                  "p1": np.asarray(end, np.float32)}
        obs, reward, terminated, truncated, info = env.step(action)
        assert (reward, terminated, truncated, info["success"]) == (0.0, False, False, False)
        assert info["boxes"]["current"]["now"].tolist() != now.tolist()  # measured again
        obs, reward, terminated, _, info = env.step(OracleAgent().act(obs, info))
        assert (reward, terminated, info["success"], info["actions"]) == (1.0, True, True, 2)
    finally:
        env.close()


FAR_TYPES = ("stepper", "date_picker", "list_box", "tree_view")


@pytest.mark.parametrize("type_name", FAR_TYPES)
def test_the_oracle_reaches_far_goals_in_exactly_its_planned_gestures(device, apk, type_name):
    """max_actions=5: three goals several gestures away (and the near ones drawn before them),
    reached by the oracle on the boxes the app measures after each gesture, in exactly
    info["oracle_actions"] gestures; no point is exact by the boxes until the last gesture
    (the report's reach)."""
    env = gym.make("FineState-Mobile-v0", backend="adb", scene="control", max_actions=5,
                   component=type_name, backend_options=native(device, apk)).unwrapped
    plans = []
    try:
        # Seeds until three far goals (a fifth of trees have chains of collapsed folders).
        for seed in range(40):
            if sum(p > 1 for p in plans) == 3:
                break
            obs, info = env.reset(seed=seed)
            planned, agent, infos, done = info["oracle_actions"], OracleAgent(), [], False
            plans.append(planned)
            while not done:
                obs, _, terminated, truncated, info = env.step(agent.act(obs, info))
                infos.append(info)
                done = terminated or truncated
            assert len(infos) == planned, (seed, planned, [i["state"] for i in infos])
            assert infos[-1]["success"] is True and infos[-1]["action_error"] is None
            assert [i["crosscheck"] for i in infos] == ["agree"] * planned
            assert [i["static"]["es_sr_int"] for i in infos] == [False] * (planned - 1) + [True]
    finally:
        env.close()
    assert sum(p > 1 for p in plans) == 3, plans


def test_far_goals_from_an_app_without_reach_are_a_clear_error(adb_server, apk):
    device = Device(adb_server, "--no-reach")
    env = gym.make("FineState-Mobile-v0", backend="adb", scene="control", max_actions=5,
                   component="stepper", backend_options=native(device, apk)).unwrapped
    try:
        with pytest.raises(ValueError, match=r"goal \d+ gestures away .*reports no reach"):
            for seed in range(20):  # far goals draw 1..5 steps: some seed draws more than 1
                env.reset(seed=seed)
        # Goals one gesture away still work with it.
        near = gym.make("FineState-Mobile-v0", backend="adb", scene="control",
                        component="stepper", backend_options=native(device, apk)).unwrapped
        try:
            obs, info = near.reset(seed=3)
            _, reward, terminated, _, info = near.step(OracleAgent().act(obs, info))
            assert (reward, terminated, info["crosscheck"]) == (1.0, True, "agree")
        finally:
            near.close()
    finally:
        env.close()
        device.stop()
