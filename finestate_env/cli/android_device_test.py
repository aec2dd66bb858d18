"""The oracle on every type through the app's native views on a real device or emulator.

usage: python -m finestate_env.cli.android_device_test --serial S [--apk PATH]
           [--episodes-per-type K] [--max-actions N] [--adb-port P] [--types a,b]
           [--out FILE]

For a user with a device (`make android-device-test SERIAL=...`): installs the
app when the device lacks it, then runs K oracle episodes per type through
`FineState-Mobile-v0` with `backend="adb"`, `views="native"`, and prints the
four metrics per type, static (box proxy) beside live (the state the app
reports), with the cross-check. The oracle aims at the centre of each goal box,
so a type whose live ES-SR@Int is below 1 is a native control whose boxes or
state do not match what touch does on that device. A type whose episodes fail
to run (device lost, app error) is named with its error; the others still run.
With `--max-actions N` (N > 1) the episodes are of up to N gestures, with far goals
for stepper, date_picker, list_box and tree_view: the table is the first gesture's,
and an episode counts as reached only when the oracle reached the goal in exactly
the gestures it planned (`oracle_actions`), which the app's reach and boxes decide.
Exit status 0 only when every episode ran and reached its goal.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import gymnasium as gym

from finestate_env import components
from finestate_env.agents.episodes import run_episodes
from finestate_env.agents.scripted import OracleAgent
from finestate_env.backends import BackendCrashed
from finestate_env.cli.tables import format_summary
from finestate_env.core.metrics import summarize


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m finestate_env.cli.android_device_test",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--serial", required=True, help="the device's adb serial (adb devices)")
    parser.add_argument("--apk", help="the app's APK (default: build/android/finestate-views.apk "
                                      "beside the repository, or $FINESTATE_VIEWS_APK)")
    parser.add_argument("--episodes-per-type", type=int, default=5, metavar="K")
    parser.add_argument("--max-actions", type=int, default=1, metavar="N",
                        help="gestures per episode (far goals when above 1)")
    parser.add_argument("--types", help="comma-separated types (default: all 23)")
    parser.add_argument("--viewport", help="the screen, WxH (default: read from `wm size`)")
    parser.add_argument("--adb-host", default="127.0.0.1")
    parser.add_argument("--adb-port", type=int, default=5037)
    parser.add_argument("--timeout-s", type=float, default=20.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", help="also write the summary and per-type errors as JSON")
    args = parser.parse_args(argv)
    if args.episodes_per_type < 1:
        parser.error(f"--episodes-per-type must be at least 1, got {args.episodes_per_type}")
    if args.max_actions < 1:
        parser.error(f"--max-actions must be at least 1, got {args.max_actions}")
    if args.types:
        unknown = [t for t in args.types.split(",") if t not in components.COMPONENTS]
        if unknown:
            parser.error(f"unknown types {unknown}; available: {list(components.COMPONENTS)}")
    return args


def screen_size(options: dict) -> str:
    """The device's screen as WxH, from `wm size` (an override wins)."""
    from finestate_env.backends.adb_device import AdbDevice

    device = AdbDevice(options["serial"], options["adb_host"], options["adb_port"],
                       options["timeout_s"])
    device.connect()
    out = device.shell("wm size")
    sizes = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    size = (sizes.get("Override size") or sizes.get("Physical size") or "").strip()
    if "x" not in size:
        raise BackendCrashed(f"cannot read the screen size of {options['serial']!r}: {out!r}")
    return size


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    options = {"views": "native", "serial": args.serial, "adb_host": args.adb_host,
               "adb_port": args.adb_port, "timeout_s": args.timeout_s}
    if args.apk:
        options["apk"] = args.apk
    types = args.types.split(",") if args.types else list(components.COMPONENTS)
    try:
        viewport = args.viewport or screen_size(options)
    except BackendCrashed as exc:
        print(f"android_device_test: {exc}", file=sys.stderr)
        return 1
    results, errors = [], {}
    started = time.perf_counter()
    for name in types:
        env = gym.make("FineState-Mobile-v0", component=name, scene="control",
                       viewport=viewport, backend="adb", backend_options=dict(options),
                       max_actions=args.max_actions)
        try:  # each result is kept as it comes: a type that fails half-way loses none
            run_episodes(env, OracleAgent(), args.episodes_per_type, seed=args.seed,
                         on_result=lambda result, *_: results.append(result))
        except (BackendCrashed, FileNotFoundError) as exc:
            errors[name] = str(exc)
            print(f"{name}: not run: {exc}", file=sys.stderr)
        finally:
            env.close()
    elapsed = time.perf_counter() - started
    summary = summarize(results)
    print(f"device {args.serial} · native views · oracle · {args.episodes_per_type} episodes "
          f"per type · max {args.max_actions} gestures · {len(results)} episodes in "
          f"{elapsed:.1f} s")
    if results:
        print(format_summary(summary))
    for name, error in errors.items():
        print(f"  {name}: not run: {error}")
    if args.out:
        Path(args.out).write_text(json.dumps({"summary": summary, "errors": errors},
                                             indent=2) + "\n")
        print(f"wrote {args.out}")
    if args.max_actions > 1:
        for name in types:
            mine = [r for r in results if r.component == name]
            if mine:
                exact = sum(bool(r.episode_success) and r.gestures == r.oracle_gestures
                            for r in mine)
                print(f"  {name}: {exact} of {len(mine)} episodes reached in exactly the "
                      f"oracle's planned gestures "
                      f"({', '.join(f'{r.gestures}/{r.oracle_gestures}' for r in mine)})")
        failed = sum(not (r.episode_success and r.gestures == r.oracle_gestures)
                     for r in results)
    else:
        failed = sum(not r.success for r in results)
    return 0 if not errors and not failed and results else 1


if __name__ == "__main__":
    raise SystemExit(main())
