"""Seeded episodes of every documented `gym.make` option, written down as digests: what the
options give, to compare before and after a change that must not alter it (issue #35: the
learner options moved from the env class into wrappers).

For each case (an id and its options: CASES) it makes the env by
`gym.make` (or `make_vec`, or wraps it in `GridActions`), plays three seeded episodes of
fixed actions (the oracle's, a miss then the oracle, an off-screen action then one drawn from
the seeded action space) and writes down the spaces, every observation (arrays as dtype,
shape and sha256), reward, terminated, truncated, info (small arrays in full, timings as
their keys), render() where asked for, a goal env's compute_reward, and the messages of bad
options. Only public API: the same script runs on the code before and after.

    python tests/support/option_episodes.py --backend fake OUT.json   # the env's contract
    python tests/support/option_episodes.py --backend live OUT.json   # each id's own
    python tests/support/option_episodes.py --compare BEFORE.json AFTER.json

`--compact` writes observations, infos and renders as digests of their digests (`compact`).

tests/data/option_episodes_fake.json is the fake backend's (`--compact`), recorded on the
tree before #35 item 3 (1d2907f); tests/env/test_option_episodes.py compares what the code
gives now with it. The live record depends on the renderer (Chromium's pixels), so it is
compared by hand: record it on the old tree and on the new one, then `--compare` the files.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

import gymnasium as gym
import numpy as np

import finestate_env
from finestate_env.env.wrappers import GridActions

WEB, MOBILE, DESKTOP = finestate_env.ENV_IDS
SEEDS = (0, 1, 2)
LONG_TEXT = 300  # characters: a longer text is written as its digest
# A point of the bare stage, away from every lone control: a tap there changes nothing.
BLANK_PX = (4.0, 4.0)
# Each episode's actions, by kind, until it ends (one gesture episodes: the first only).
PLANS = (("oracle",) * 4, ("blank", "oracle", "oracle", "oracle"),
         ("bad", "sample", "oracle", "oracle"))

# name: (id, options, how: "make" | "grid" | "grid2" | "vec" | "vec-sync")
CASES: dict[str, tuple[str, dict[str, Any], str]] = {
    "default": (WEB, {}, "make"),
    "render-rgb_array": (WEB, {"render_mode": "rgb_array"}, "make"),
    "image-84-float32": (WEB, {"obs_type": "image", "obs_size": (84, 84),
                               "obs_dtype": "float32"}, "make"),
    "image-84-control": (WEB, {"obs_type": "image", "obs_size": (84, 84), "scene": "control",
                               "render_mode": "rgb_array"}, "make"),
    "image-native": (WEB, {"obs_type": "image", "component": ["switch", "slider"]}, "make"),
    "dict_bytes-160x90": (WEB, {"obs_type": "dict_bytes", "obs_size": "160x90"}, "make"),
    "dict_bytes-native-float32": (WEB, {"obs_type": "dict_bytes", "obs_dtype": "float32",
                                        "scene": "control"}, "make"),
    "screenshot-84-float32-control": (WEB, {"obs_type": "screenshot", "obs_size": (84, 84),
                                            "obs_dtype": "float32", "scene": "control"},
                                      "make"),
    "screenshot-native-level0": (WEB, {"obs_type": "screenshot", "level": 0}, "make"),
    "dict-resized": (WEB, {"obs_size": (128, 72), "scene": "control"}, "make"),
    "flat": (WEB, {"action_type": "flat"}, "make"),
    "flat-normalized": (WEB, {"action_type": "flat", "coord_mode": "normalized",
                              "scene": "control"}, "make"),
    "normalized": (WEB, {"coord_mode": "normalized"}, "make"),
    "shaped-3": (WEB, {"reward": "shaped", "max_actions": 3}, "make"),
    "shaped-level3-flat": (WEB, {"reward": "shaped", "level": 3, "action_type": "flat",
                                 "obs_type": "dict_bytes"}, "make"),
    "max-actions-3": (WEB, {"max_actions": 3, "scene": "control"}, "make"),
    "goal-vector": (WEB, {"goal_obs": "vector", "component": ["switch", "date_picker"],
                          "scene": "control", "obs_size": (160, 90)}, "make"),
    "goal-vector-image": (WEB, {"goal_obs": "vector", "obs_type": "image",
                                "obs_size": (84, 84), "level": 0,
                                "component": "radio_group"}, "make"),
    "goal-vector-shaped-level3": (WEB, {"goal_obs": "vector", "reward": "shaped", "level": 3,
                                        "max_actions": 3}, "make"),
    "goal-env": (WEB, {"goal_obs": "goal_env", "component": ["switch", "radio_group"],
                       "level": 0, "obs_type": "screenshot", "obs_size": (84, 84),
                       "action_type": "flat", "max_actions": 2, "terminal_obs": "skip"},
                 "make"),
    "goal-env-true-dict": (WEB, {"goal_obs": True, "scene": "control",
                                 "render_mode": "rgb_array"}, "make"),
    "level-0": (WEB, {"level": 0}, "make"),
    "level-1": (WEB, {"level": 1}, "make"),
    "level-2": (WEB, {"level": 2}, "make"),
    "level-3": (WEB, {"level": 3}, "make"),
    "terminal-skip": (WEB, {"terminal_obs": "skip", "render_mode": "rgb_array",
                            "scene": "control"}, "make"),
    "terminal-skip-multi": (WEB, {"terminal_obs": "skip", "render_mode": "rgb_array",
                                  "max_actions": 2, "level": 0, "obs_type": "image",
                                  "obs_size": (96, 54)}, "make"),
    "scene-control": (WEB, {"scene": "control"}, "make"),
    "theme-viewport": (WEB, {"theme": "fluent-dark", "viewport": "800x600", "scene": "control",
                             "family": "toggle_option"}, "make"),
    "timings": (WEB, {"timings": True, "scene": "control"}, "make"),
    "mobile": (MOBILE, {}, "make"),
    "mobile-image-84-control": (MOBILE, {"obs_type": "image", "obs_size": (84, 84),
                                         "scene": "control", "action_type": "flat"}, "make"),
    "grid-learning": (WEB, {"component": ["radio_group", "tabs"], "level": 0,
                            "viewport": (640, 360), "obs_type": "screenshot",
                            "obs_size": (96, 54), "goal_obs": "vector",
                            "terminal_obs": "skip"}, "grid"),
    "grid-flat-normalized-2": (WEB, {"action_type": "flat", "coord_mode": "normalized",
                                     "scene": "control"}, "grid2"),
    "grid-normalized": (WEB, {"coord_mode": "normalized", "level": 1}, "grid"),
    "vec": (WEB, {"obs_type": "image", "obs_size": (84, 84), "action_type": "flat",
                  "component": ["switch", "slider"]}, "vec"),
    "vec-goal-env": (WEB, {"goal_obs": "goal_env", "obs_type": "screenshot",
                           "obs_size": (84, 84), "level": 0, "max_actions": 2}, "vec"),
    "vec-sync-shaped": (WEB, {"reward": "shaped", "max_actions": 2, "scene": "control",
                              "obs_type": "dict_bytes"}, "vec-sync"),
}
# Desktop: Qt in Xvfb; on the fake backend only (the live run leaves Qt out).
FAKE_ONLY = {
    "desktop": (DESKTOP, {}, "make"),
    "desktop-image-flat-goal": (DESKTOP, {"obs_type": "image", "obs_size": (84, 84),
                                          "action_type": "flat", "goal_obs": "vector"}, "make"),
}
BAD_OPTIONS = {
    "obs_type": {"obs_type": "rgb"}, "obs_size": {"obs_size": "84"},
    "obs_size-range": {"obs_size": (4, 84)}, "obs_dtype": {"obs_dtype": "float64"},
    "action_type": {"action_type": "discrete"}, "reward": {"reward": "dense"},
    "goal_obs": {"goal_obs": "goal"}, "goal_env-shaped": {"goal_obs": True, "reward": "shaped"},
    "terminal_obs": {"terminal_obs": "none"}, "max_actions": {"max_actions": 0},
    "level": {"level": 4}, "coord_mode": {"coord_mode": "polar"},
    "render_mode": {"render_mode": "ansi"}, "viewport": {"viewport": "100x100"},
    "theme": {"theme": "nope"}, "scene-level": {"scene": "page", "level": 0},
}


def digest(value: Any, small: int = 64) -> Any:
    """A JSON value standing for `value` exactly: arrays of up to `small` numbers in full
    (with their dtype), larger ones as dtype, shape and sha256; texts longer than
    LONG_TEXT characters as their sha256."""
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            return {"objects": [digest(v, small) for v in value.tolist()]}
        if value.size <= small:
            return {"dtype": str(value.dtype), "shape": list(value.shape),
                    "values": value.tolist()}
        return {"dtype": str(value.dtype), "shape": list(value.shape),
                "sha256": hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest()}
    if isinstance(value, dict):
        return {str(k): digest(v, small) for k, v in sorted(value.items(), key=str)}
    if isinstance(value, np.generic):
        return {"scalar": str(value.dtype), "value": value.item()}
    if isinstance(value, str) and len(value) > LONG_TEXT:  # the instance's JSON text
        return {"text_sha256": hashlib.sha256(value.encode()).hexdigest()}
    if isinstance(value, bool | int | float | str) or value is None:
        return value
    if isinstance(value, list | tuple) or hasattr(value, "__len__"):
        return {type(value).__name__ if isinstance(value, list | tuple) else "sequence":
                [digest(v, small) for v in value]}
    raise TypeError(f"no digest for {type(value).__name__}")


def info_digest(info: dict) -> Any:
    """`info`, its wall-clock timings as their keys only."""
    info = dict(info)
    if "timings" in info:
        info["timings"] = sorted(info["timings"])
    return digest(info)


def _centre(box) -> tuple[float, float]:
    return (float(box[0]) + float(box[2])) / 2, (float(box[1]) + float(box[3])) / 2


def _action(kind: str, info: dict, options: dict, viewport: tuple[int, int],
            space: gym.Space) -> Any:
    """An action of `kind` in the frame the options make: the oracle's centres of `now`
    and `goal`, a tap on the blank stage, a point off the screen, or a seeded sample."""
    if kind == "sample":
        return space.sample()
    normalized = options.get("coord_mode") == "normalized"
    width, height = viewport
    if kind == "oracle":
        boxes = info["boxes"]["current"]
        p0, p1 = _centre(boxes["now"]), _centre(boxes["goal"])
    elif kind == "blank":
        p0 = p1 = (BLANK_PX[0] / width, BLANK_PX[1] / height) if normalized else BLANK_PX
    else:  # off screen in every frame
        p0 = p1 = (1.5, 0.5) if normalized else (width * 1.5, height / 2)
    if options.get("action_type") == "flat":
        scale = (1.0, 1.0) if normalized else (width, height)
        return np.array([2 * p[i] / scale[i] - 1 for p in (p0, p1) for i in (0, 1)],
                        dtype=np.float32)
    return {"p0": np.array(p0, dtype=np.float32), "p1": np.array(p1, dtype=np.float32)}


def _cell(kind: str, info: dict, options: dict, env: GridActions) -> Any:
    if kind in ("sample", "bad"):
        return env.action_space.sample()
    if kind == "blank":
        cells = [0, 0]
    else:
        boxes = info["boxes"]["current"]
        scale = ((env.width, env.height) if options.get("coord_mode") == "normalized"
                 else (1.0, 1.0))
        cells = []
        for box in (boxes["now"], boxes["goal"]):
            x, y = _centre(box)
            col = min(int(x * scale[0] // env.cell), env.cols - 1)
            row = min(int(y * scale[1] // env.cell), env.rows - 1)
            cells.append(row * env.cols + col)
    return cells[-1] if env.points == 1 else np.array(cells, dtype=np.int64)


def _backend(backend: str) -> dict[str, str]:
    """The make option for `backend`: "live" is each id's own (Chromium for the web and the
    phone, the phone's with touch emulation)."""
    return {} if backend == "live" else {"backend": backend}


def _spec_record(env: gym.Env) -> Any:
    spec = env.spec
    return {"additional_wrappers": [w.name for w in spec.additional_wrappers],
            "kwargs": digest(spec.kwargs)}


def single_case(env_id: str, options: dict, how: str, backend: str) -> dict:
    made = gym.make(env_id, **_backend(backend), **options)
    env = GridActions(made, cell=20, points=2 if how == "grid2" else 1) if how != "make" \
        else made
    record: dict[str, Any] = {"observation_space": repr(env.observation_space),
                              "action_space": repr(env.action_space),
                              "spec": _spec_record(made), "episodes": []}
    viewport = env.unwrapped.viewport
    env.action_space.seed(7)
    try:
        compute_reward = made.get_wrapper_attr("compute_reward")
    except AttributeError:
        compute_reward = None
    record["compute_reward"] = compute_reward is not None
    try:
        for k, seed in enumerate(SEEDS):
            episode: dict[str, Any] = {"seed": seed}
            obs, info = env.reset(seed=seed)
            if k == 0:
                first = info["instance"]
            episode["reset"] = {"obs": digest(obs), "info": info_digest(info),
                                "contains": bool(env.observation_space.contains(obs))}
            if options.get("render_mode"):
                episode["reset"]["render"] = digest(env.render())
            steps = []
            for kind in PLANS[k % len(PLANS)]:
                action = (_cell(kind, info, options, env) if how != "make"
                          else _action(kind, info, options, viewport, env.action_space))
                obs, reward, terminated, truncated, info = env.step(action)
                step = {"kind": kind, "action": digest(action), "obs": digest(obs),
                        "reward": reward, "reward_type": type(reward).__name__,
                        "terminated": terminated, "truncated": truncated,
                        "info": info_digest(info),
                        "contains": bool(env.observation_space.contains(obs))}
                if options.get("render_mode"):
                    step["render"] = digest(env.render())
                if compute_reward is not None:
                    step["compute_reward"] = digest(compute_reward(
                        obs["achieved_goal"], obs["desired_goal"], info))
                steps.append(step)
                if terminated or truncated:
                    break
            episode["steps"] = steps
            record["episodes"].append(episode)
        # A replay of the first episode's instance.
        obs, info = env.reset(options={"instance": first})
        record["replay"] = {"obs": digest(obs), "info": info_digest(info)}
        # Through set_level where the env has a level.
        if "level" in options:
            env.unwrapped.set_level(1)
            obs, info = env.reset(seed=11)
            record["set_level_1"] = {"obs": digest(obs), "info": info_digest(info),
                                     "max_actions": env.unwrapped.max_actions}
    finally:
        env.close()
    return record


def vector_case(env_id: str, options: dict, how: str, backend: str) -> dict:
    kwargs = {"vectorization_mode": "sync"} if how == "vec-sync" else {}
    envs = gym.make_vec(env_id, num_envs=2, **_backend(backend), **kwargs, **options)
    record: dict[str, Any] = {"class": type(envs).__name__,
                              "single_observation_space": repr(envs.single_observation_space),
                              "single_action_space": repr(envs.single_action_space),
                              "steps": []}
    viewport = envs.get_attr("unwrapped")[0].viewport
    try:
        obs, infos = envs.reset(seed=0)
        record["reset"] = {"obs": digest(obs), "info": info_digest(infos)}
        for t in range(4):
            actions = []
            for i in range(envs.num_envs):
                current = {name: box[i] for name, box in infos["boxes"]["current"].items()}
                kind = "blank" if (t + i) % 3 == 1 else "oracle"
                actions.append(_action(kind, {"boxes": {"current": current}}, options,
                                       viewport, envs.single_action_space))
            batch = (np.stack(actions) if options.get("action_type") == "flat"
                     else {key: np.stack([a[key] for a in actions]) for key in ("p0", "p1")})
            obs, rewards, terminated, truncated, infos = envs.step(batch)
            record["steps"].append({"obs": digest(obs), "rewards": digest(rewards),
                                    "terminated": digest(terminated),
                                    "truncated": digest(truncated),
                                    "info": info_digest(infos)})
        envs.call("set_level", 0)
        obs, infos = envs.reset(seed=5)
        record["set_level_0"] = {"obs": digest(obs), "info": info_digest(infos),
                                 "max_actions": list(envs.get_attr("unwrapped")[i].max_actions
                                                     for i in range(envs.num_envs))}
        if "goal_obs" in options:
            record["compute_reward"] = digest(envs.call(
                "compute_reward", obs["achieved_goal"][0], obs["desired_goal"][0], {}))
    finally:
        envs.close()
    return record


def bad_options(backend: str) -> dict:
    messages = {}
    for name, options in BAD_OPTIONS.items():
        try:
            env = gym.make(WEB, **_backend(backend), **options)
        except Exception as exc:  # the message is the record
            messages[name] = f"{type(exc).__name__}: {exc}"
        else:
            env.close()
            messages[name] = "accepted"
    # A type whose goal code is wider than the goal space, given to reset by name or as an
    # instance: refused before anything is shown.
    wide = gym.make(WEB, **_backend(backend), component=["switch", "date_picker"], scene="control")
    try:
        _, info = wide.reset(seed=0, options={"component": "date_picker"})
    finally:
        wide.close()
    env = gym.make(WEB, **_backend(backend), goal_obs="vector", component="switch",
                   scene="control")
    try:
        for name, option in (("component", {"component": "date_picker"}),
                             ("instance", {"instance": info["instance"]}),
                             ("list", {"component": ["date_picker"]})):
            try:
                env.reset(seed=0, options=option)
                messages[f"goal-width-{name}"] = "accepted"
            except ValueError as exc:
                messages[f"goal-width-{name}"] = str(exc)
            messages[f"goal-width-{name}-shown"] = env.unwrapped.instance is not None
    finally:
        env.close()
    return messages


def record(backend: str, only: list[str] | None = None) -> dict:
    cases = dict(CASES)
    if backend == "fake":
        cases.update(FAKE_ONLY)
    out: dict[str, Any] = {"backend": backend, "cases": {}}
    for name, (env_id, options, how) in cases.items():
        if only and name not in only:
            continue
        runner = vector_case if how.startswith("vec") else single_case
        out["cases"][name] = runner(env_id, options, how, backend)
        print(f"{name}: {sum(len(e['steps']) for e in out['cases'][name].get('episodes', []))}"
              " steps", file=sys.stderr)
    out["bad_options"] = bad_options(backend)
    return out


def compare(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two records differ (paths), empty when equal."""
    if isinstance(a, dict) and isinstance(b, dict):
        diffs = [f"{path}.{k}: only in one" for k in sorted(set(a) ^ set(b))]
        for k in sorted(set(a) & set(b)):
            diffs += compare(a[k], b[k], f"{path}.{k}")
        return diffs
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items against {len(b)}"]
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True))
                for d in compare(x, y, f"{path}[{i}]")]
    return [] if a == b and type(a) is type(b) else [f"{path}: {a!r} != {b!r}"[:300]]


def compact(value: Any) -> Any:
    """`value` (a record or part of one) with each observation, info and render() replaced
    by the sha256 of its digest's JSON: equal exactly when they are, and a file small
    enough to keep (tests/data/option_episodes_fake.json)."""
    if isinstance(value, dict):
        return {k: (hashlib.sha256(json.dumps(v, sort_keys=True).encode()).hexdigest()
                    if k in ("obs", "info", "render") else compact(v))
                for k, v in value.items()}
    if isinstance(value, list):
        return [compact(v) for v in value]
    return value


def count(recorded: dict) -> tuple[int, int, int]:
    """Cases, resets and steps in a record."""
    resets = steps = 0
    for case in recorded["cases"].values():
        for episode in case.get("episodes", []):
            resets += 1
            steps += len(episode["steps"])
        if "reset" in case:  # a vector case
            resets += 1
            steps += len(case["steps"])
    return len(recorded["cases"]), resets, steps


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[0] == "--compare":
        left, right = (json.loads(open(path).read()) for path in args[1:3])
        differences = compare(left["cases"], right["cases"]) + compare(
            left["bad_options"], right["bad_options"], ".bad_options")
        print("\n".join(differences) or "equal", f"({count(left)} cases, resets, steps)")
        sys.exit(1 if differences else 0)
    backend = args[args.index("--backend") + 1]
    chosen = [a for a in args[args.index("--only") + 1].split(",")] if "--only" in args else None
    result = record(backend, chosen)
    if "--compact" in args:
        result = compact(result)
    result["package"] = finestate_env.__file__
    with open(args[-1], "w") as f:
        json.dump(result, f, indent=1 if "--compact" in args else None, sort_keys=True)
        f.write("\n")
    print(f"{count(result)} (cases, resets, steps) from {finestate_env.__file__}", file=sys.stderr)
