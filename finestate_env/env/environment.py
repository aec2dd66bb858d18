"""FineState environments: one live FineState-Bench interaction per episode."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium.error import ResetNeeded

from finestate_env import components
from finestate_env.backends import DEFAULT_BACKEND, Backend, BackendCrashed, Rendered, make_backend
from finestate_env.components import scenes
from finestate_env.components.domain import check_instance
from finestate_env.components.themes import themes_for
from finestate_env.core.actions import ParsedAction, parse_action
from finestate_env.core.coords import box_from_pixel
from finestate_env.core.errors import UsageError
from finestate_env.core.schema import (
    Boxes,
    CoordConvention,
    Instance,
    LiveSpec,
    Platform,
    SceneDistractor,
    SceneRecord,
    Size,
)
from finestate_env.core.states import encode_state
from finestate_env.env import curriculum
from finestate_env.env.episode import judge, perform_and_judge
from finestate_env.env.spaces import action_space, observation_space, parse_size

DEFAULT_VIEWPORT = (1280, 720)
# Gestures an episode may take (max_actions): beyond this many, an episode is a search.
MAX_ACTIONS = 100
# "capture": every step's observation is a new screenshot. "skip": a step that terminates
# the episode takes none (its observation's pixels are those the gesture acted on).
TERMINAL_OBS = ("capture", "skip")
# How many times one step is done again after its backend crashed (make option
# `recoveries`): each time on a fresh render with the episode's gestures performed again.
RECOVERIES = 1


class EpisodeLost(RuntimeError):
    """The episode could not be shown again as it was after a crash (the state read back
    after its gestures were performed again is not the one the episode had)."""


# A phone's native screen: 360x800 CSS px at device scale factor 3 (backends/mobile.py).
DEFAULT_VIEWPORTS: dict[str, tuple[int, int]] = {"mobile": (1080, 2400)}


class FineStateEnv(gym.Env):
    """A real UI control, operated by real input, scored against an exact goal state.

    ## Description
    Each episode renders one instance of a FineState-Bench component type (a
    slider, a date picker, a reorderable list ...) as a live control, asks the
    agent for the two FineState points, performs them as real pointer input,
    reads the control's actual state back and compares it with the goal state.
    The static box verdicts of FineState-Bench are computed for the same action,
    so every step also says whether the boxes told the truth.

    This class is the episode: what is rendered, performed, read back and captured.
    `gym.make(id, **options)` builds it through `env/make.py`, which wraps it for the
    learner options that only transform its actions, observations or rewards
    (`action_type`, `obs_type`, `obs_size`, `obs_dtype`, `goal_obs`, `reward`: each
    documented on its wrapper); `env.unwrapped` is this class.

    ## Action Space
    `Dict(p0=Box(2,), p1=Box(2,))`, float32 `(x, y)` points. With
    `coord_mode="pixel"` (default) they are screenshot pixels in
    `[0, width] x [0, height]`, origin top-left; with `"normalized"` they are
    divided by the screenshot size. The upper edge (x = width) is performed on the
    last pixel; every point of the space is performable. `p0` locates the control,
    `p1` operates it; the component's gesture says how: `tap` hovers p0 then clicks
    p1, `drag` presses at p0, moves, and releases at p1. `step` also takes a
    `core.actions.ParsedAction`, points already read into screenshot pixels with the
    error found reading them: what an action wrapper of another frame hands it
    (`FlatAction`, env/wrappers.py), so that its action errors are its own.

    ## Observation Space
    `Dict(screenshot=Box(0, 255, (H, W, 3), uint8), instruction=Text)`. The
    screenshot shows the control in a state where the goal is reachable in one
    gesture; the instruction is the interact instruction of the instance.
    `terminal_obs="skip"`: a step that ends the episode takes no screenshot: its
    observation shows the screen before the gesture, and `render()` takes the
    screenshot on demand. Truncated and non-final steps capture.
    `reset(options={"capture_scale": s})`, what `RLObservation` (env/observation.py) asks
    for when its `obs_size` is small: this episode's screens of a lone control are
    captured at that fraction of each side (cheaper), so its `screenshot` is smaller than
    the space says until the wrapper resizes it; app pages are always captured whole, and
    without the option every screen is.

    ## Rewards
    1.0 when the state read back equals the goal state exactly (on the type's own grid,
    no tolerance), else 0.0. `info["distance"]` is the type's distance to the goal
    after each reset and step (`ShapedReward`, env/shaping.py, shapes with it).

    ## Starting State
    A component type drawn uniformly from the selected ones, then its parameters,
    current and goal states, all from the seeded RNG. `level` (0-3, env/curriculum.py)
    picks a rung of the curriculum instead of `scene`: 0 one fixed centred control per
    type with only its states drawn, 1 a lone control drawn whole, 2 an app page, 3 an app
    page with goals several gestures away; `set_level(k)` raises it between episodes.
    `reset(options={"component": name})` draws that type for this one episode;
    `reset(options={"instance":
    inst})` renders a given instance (with a `live` block) instead; `"capture_scale"`: see
    Observation Space. Any other key is refused (a ValueError naming it): a misspelt
    option would otherwise be a silent default.

    ## Episode End
    `max_actions=1` (default): one FineState interaction per episode, every `step`
    terminates. `max_actions=K > 1`: each step performs one gesture and observes the
    result; the episode terminates when the state read back equals the goal and is
    truncated after K gestures (a malformed action uses one up; a crashed browser
    terminates it). With K > 1 the goal may lie up to K gestures away where the type
    allows (a stepper several steps off, a date in another month: each type's
    `far_goal`); after every gesture `info["boxes"]["current"]` is measured again on
    the new screen, its goal box then showing the next gesture of the shortest route,
    and `info["oracle_actions"]` says how many gestures the oracle takes.

    ## Arguments
    `component` (a type name, a list, or None for all), `family` (a family name or
    list), `viewport` ((width, height) or "WxH": the screenshot's size in pixels, default
    1280x720, 1080x2400 on mobile, where the page is that divided by the device scale
    factor in CSS px), `coord_mode`
    ("pixel" or "normalized"), `render_mode` (None or "rgb_array"), `theme` (one of
    `components.themes.themes_for(platform)`, or None to draw one per episode), `backend`
    (default per platform; `"adb"` on mobile, with `backend_options={"views": "native"}`
    the project's Android app of native views, lone controls only) and `backend_options`
    (passed to the backend), `scene` ("page" or "control"), `level`, `max_actions`
    (gestures per episode, 1..100), `stop_at_goal` (default True; False: an episode of
    several gestures goes on after the goal is reached, until max_actions, as an agent
    that decides itself when it is done is trained: finestate_env.sessions),
    `terminal_obs`, and `timings` (True:
    `info["timings"]` gives ms per phase; off by default, wall-clock values are not
    reproducible).

    `info` keys (docs/design.md §4b), each of one type in every episode: after reset
    `instance` (JSON text; the model is `env.unwrapped.instance`), `component`,
    `family`, `gesture` (str), `current_state`, `goal_state` (canonical JSON text:
    `finestate_env.decode_state`), `boxes` (`{"current", "target"}` of `{"loc", "core",
    "goal", "now"}`, each a float64 array `[x1, y1, x2, y2]` with inclusive edges in the
    action's frame; "current" is the screen the next gesture acts on), `distance` (float,
    the type's distance to the goal), `actions` (int, gestures so far) and
    `oracle_actions` (int, the gestures the oracle takes to the goal: 1 unless
    max_actions > 1 drew a goal further away); after step also `state` (JSON text),
    `success` (bool: the goal is reached), `static` and `live` (four bools each, for this
    step's gesture against the boxes of the screen it acted on; no point is exact by the
    boxes while the goal is more than one gesture away), `crosscheck` (str),
    `action_error` (None or a message).

    ## Version History
    - v0: first release: the 23 FineState component types on the web (Chromium),
      mobile (Chromium with touch emulation, or an Android device through adb)
      and desktop (native Qt controls in Xvfb). Info values have one type each
      (states as JSON text, boxes as arrays, the instance as JSON text), `timings`
      only on request, and the RL observation and action options. Added since, in v0:
      page scenes, the default scene (`scene="control"` gives the first release's
      pixels); episodes of several gestures as options whose defaults change nothing
      (`max_actions`, goals further away, `reward="shaped"`); the info keys
      `collateral`, `collateral_changed`, `distance`, `actions` and `oracle_actions`; for
      learning, options whose defaults change nothing: `level` (the curriculum),
      `goal_obs` (goal vectors, a goal env with `compute_reward`), `obs_type="screenshot"`
      and `terminal_obs="skip"`. The learner options became wrappers applied by
      `gym.make` (env/make.py), with the same spaces and values.
    """

    metadata = {"render_modes": ["rgb_array"], "render_fps": 4}

    def __init__(self, platform: Platform = "web", component: str | Iterable[str] | None = None,
                 family: str | Iterable[str] | None = None,
                 viewport: tuple[int, int] | str | None = None,
                 coord_mode: CoordConvention = "pixel", render_mode: str | None = None,
                 theme: str | None = None, backend: str | Backend | None = None,
                 backend_options: dict[str, Any] | None = None, timings: bool = False,
                 scene: str | None = None, max_actions: int | None = None,
                 level: int | None = None, terminal_obs: str = "capture",
                 recoveries: int = RECOVERIES, stop_at_goal: bool = True) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        if coord_mode not in ("pixel", "normalized"):
            raise ValueError(f"coord_mode must be 'pixel' or 'normalized', got {coord_mode!r}")
        if max_actions is not None and (
                isinstance(max_actions, bool) or not isinstance(max_actions, int | np.integer)
                or not 1 <= max_actions <= MAX_ACTIONS):
            raise ValueError(f"max_actions must be a whole number in 1..{MAX_ACTIONS}, "
                             f"got {max_actions!r}")
        if terminal_obs not in TERMINAL_OBS:
            raise ValueError(f"terminal_obs must be one of {list(TERMINAL_OBS)}, "
                             f"got {terminal_obs!r}")
        self.terminal_obs = terminal_obs
        if isinstance(recoveries, bool) or not isinstance(recoveries, int | np.integer) or \
                not 0 <= recoveries <= 10:
            raise ValueError(f"recoveries must be a whole number in 0..10, got {recoveries!r}")
        self.recoveries = int(recoveries)
        if not isinstance(stop_at_goal, bool):
            raise ValueError(f"stop_at_goal must be True or False, got {stop_at_goal!r}")
        self.stop_at_goal = stop_at_goal
        self._max_actions_given = None if max_actions is None else int(max_actions)
        # The arguments alone, before a backend is made: the scene's name, or the level's.
        if level is None:
            scenes.check_scene(scene or scenes.DEFAULT_SCENE, platform)
        else:
            wanted = curriculum.LEVELS[curriculum.check_level(level)].scene
            if scene is not None and scene != wanted:
                raise ValueError(f"level {level} shows scene {wanted!r}, not scene={scene!r}: "
                                 "give one of the two")
        self.themes = themes_for(platform)
        if theme is not None and theme not in self.themes:
            raise ValueError(f"unknown theme {theme!r}; available: {list(self.themes)}")
        self.platform = platform
        self.theme = theme
        self.components = components.resolve(component, family)
        self.viewport = resolve_viewport(platform, viewport)
        self.coord_mode = coord_mode
        self.render_mode = render_mode
        self.action_space = action_space(self.viewport, coord_mode)
        self.observation_space = observation_space((self.viewport[1], self.viewport[0], 3))
        self.timings = timings
        if isinstance(backend, Backend):
            self.backend = backend
        else:
            name = backend or DEFAULT_BACKEND.get(platform)
            if name is None:
                raise ValueError(f"platform {platform!r} has no backend yet")
            self.backend = make_backend(name, self.viewport, platform=platform,
                                        **(backend_options or {}))
        # A backend that renders only some types says which (DesktopBackend.components).
        supported = self.backend.components
        if supported is not None:
            missing = [c for c in self.components if c not in supported]
            if missing and component is not None:
                raise ValueError(f"component {missing} has no {platform} renderer yet; "
                                 f"available: {list(supported)}")
            self.components = [c for c in self.components if c in supported]
            if not self.components:
                raise ValueError(f"no {platform} renderer for family={family!r}")
        # What episodes show: the level's rung, or the scene and max_actions as given.
        self.level: int | None = None
        if level is None:
            self._set_rung(scene or scenes.DEFAULT_SCENE, self._max_actions_given or 1,
                           fixed=False, far_goals=(self._max_actions_given or 1) > 1)
        else:
            self.set_level(level)
        self._instance: Instance | None = None
        self._instance_json = ""
        # The last capture, which observations are built from, and the screen as it is now
        # at full size for render() (None after a skipped terminal capture or a scaled one:
        # render() then takes it); the episode's scale for a lone control's captures.
        self._capture_scale: float | None = None
        self._captures = 0
        self._screenshot: np.ndarray | None = None
        self._full: np.ndarray | None = None
        self._done = True
        # The episode so far: the state the control shows, its distance from the goal,
        # gestures performed, and whether the goal was reached.
        self._state: Any = None
        self._distractors: tuple[Any, ...] = ()  # a page's distractor states as shown
        self._distance = 1.0
        self._actions = 0
        # The screen the next gesture acts on: its boxes (pixels) and how many gestures
        # the shortest route to the goal still takes from it (1: the goal box reaches it).
        self._boxes: Boxes | None = None
        self._reach = 1
        self._oracle_actions = 1
        # The gestures performed so far this episode, (p0, p1) in screenshot pixels: what a
        # recovery performs again on a fresh render (_restore_episode).
        self._performed: list[tuple[Any, Any]] = []

    # -- gymnasium API -----------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        options = options or {}
        _check_reset_options(options)
        super().reset(seed=seed)
        started = time.perf_counter()
        self._capture_scale = _capture_scale(options.get("capture_scale"))
        if "instance" in options:
            instance = read_instance(options["instance"])
            if instance.live is None:
                raise ValueError(f"instance {instance.id!r} has no live block: it cannot be "
                                 "rendered, only scored statically")
            live = instance.live
        else:
            live = self._sample_live(seed, options.get("component"))
            instance = None
        try:
            rendered = self.backend.render(live)
        except BackendCrashed:
            rendered = self.backend.render(live)  # the backend restarted itself: one retry
        rendered_at = time.perf_counter()
        if instance is None:
            instance = self._build_instance(live, rendered)
        else:  # a replayed instance keeps its annotation; the live boxes are what we measured
            instance = instance.model_copy(update={"boxes": rendered.boxes,
                                                   "scene": _scene_record(live, rendered)})
        self._instance = instance
        # info["instance"] in reset's and step's info: the instance is frozen, so dumped once.
        self._instance_json = instance.model_dump_json()
        self._capture()
        self._done = False
        self._state, self._actions = rendered.state, 0
        self._performed = []
        # A page's distractors as the render read them back: the first gesture's "before".
        self._distractors = rendered.distractor_states
        self._distance = self._distance_to_goal(rendered.state)
        self._boxes = instance.boxes.current
        self._oracle_actions = components.COMPONENTS[instance.component].oracle_actions(
            instance.live.params, instance.current_state, instance.goal_state)
        self._reach = self._oracle_actions  # a first screen shows the start of the route
        info = self._reset_info(instance, rendered.state)
        info.update(distance=self._distance, actions=0, oracle_actions=self._oracle_actions)
        if self.timings:
            info["timings"] = {"render": _ms(started, rendered_at),
                               "screenshot": _ms(rendered_at), "total": _ms(started)}
        return self._observation(), info

    def step(self, action: Any):
        if self._instance is None or self._done:
            raise ResetNeeded("call reset() before step(): the episode has ended"
                              if self._instance is not None else "call reset() before step()")
        started = time.perf_counter()
        instance = self._instance
        parsed = (action if isinstance(action, ParsedAction)
                  else parse_action(action, self.coord_mode, self.viewport))
        # Judged against the boxes of the screen the gesture acts on; a goal still more than
        # one gesture away is exact by no box.
        boxes, in_reach = self._boxes, self._reach == 1
        performed = parsed.error is None
        # A crash is never a verdict (docs/design.md §4b): the step is done again on a
        # fresh render with the episode's gestures performed again (_restore_episode), at
        # most `recoveries` times; past that, or when the episode cannot be restored, it is
        # truncated and unjudged.
        recovered = unjudged = None
        recovery_ms = 0.0
        for attempt in range(self.recoveries + 1):
            try:
                outcome = self._act(instance, parsed, boxes, in_reach)
                break
            except BackendCrashed as exc:
                cause = str(exc)
            if attempt == self.recoveries:
                unjudged = cause
                break
            recovery_started = time.perf_counter()
            try:
                self._restore_episode()
            except (BackendCrashed, EpisodeLost) as exc:
                unjudged = f"{cause}; then, restoring the episode: {exc}"
                break
            recovered = cause
            recovery_ms += _ms(recovery_started)
        self._actions += 1
        if unjudged is not None:
            return self._unjudged_step(instance, parsed, boxes, in_reach, unjudged, started)
        judged, captured, measured = outcome
        timings = {"action": 0.0, "readback": 0.0, "screenshot": 0.0, **judged.timings}
        if performed:
            self._performed.append((parsed.p0, parsed.p1))
            self._state, self._distractors = judged.state, judged.distractor_states
            self._distance = self._distance_to_goal(judged.state)
        if measured is not None:
            self._boxes, self._reach = measured
        success = judged.live_exact
        terminated = self.max_actions == 1 or (success and self.stop_at_goal)
        truncated = not terminated and self._actions >= self.max_actions
        self._done = terminated or truncated
        if captured is not None:
            timings["screenshot"] = captured
        timings["total"] = _ms(started)
        if recovered is not None:
            timings["recovery"] = recovery_ms
        info = self._step_info(instance, judged)
        info.update(recovered=recovered)
        if self.timings:
            info["timings"] = timings
        reuse = captured is None
        return self._observation(reuse), float(success), bool(terminated), bool(truncated), info

    def _act(self, instance: Instance, parsed: ParsedAction, boxes: Boxes, in_reach: bool):
        """Perform and judge one gesture, then capture and measure the screen it leaves:
        (judgement, the capture's ms or None when the last screenshot stands, the next
        screen's (boxes, reach) or None). Nothing of the env's episode changes here but its
        screenshot: BackendCrashed from any part leaves the step to be done again whole."""
        performed = parsed.error is None
        judged = perform_and_judge(self.backend, instance, parsed.p0, parsed.p1, boxes=boxes,
                                   action_error=parsed.error, shown_state=self._state,
                                   goal_in_reach=in_reach, distractors_shown=self._distractors)
        terminated = self.max_actions == 1 or (judged.live_exact and self.stop_at_goal)
        last = terminated or self._actions + 1 >= self.max_actions
        # Without input nothing changed: the last screenshot stays the observation.
        # terminal_obs="skip": a terminal state's value is 0 to every learner, so its pixels
        # are never learnt from; the screen is captured only if render() asks for it. A
        # truncated end is captured (a learner bootstraps from it).
        captured = None
        if performed and not (self.terminal_obs == "skip" and terminated):
            shot_started = time.perf_counter()
            self._capture()
            captured = _ms(shot_started)
        elif performed:
            self._full = None  # the screen changed uncaptured: render() takes it
        measured = None
        if performed and not last:  # the next gesture acts on a new screen: measure it
            found = self.backend.measure(instance.goal_state)
            # A type whose every goal is one gesture away leaves the count to its state.
            reach = found.reach if found.reach is not None else (
                0 if self._distance_to_goal(judged.state) == 0.0 else 1)
            measured = (found.boxes, reach)
        return judged, captured, measured

    def _restore_episode(self) -> None:
        """Show the episode again as it was before the step that crashed: the instance
        rendered afresh (the backend restarts itself), its gestures performed again, and
        the state (and a page's distractors) read back checked against what the episode
        had: renders are deterministic, so the screen is the one the agent saw. EpisodeLost
        when it is not."""
        instance = self._instance
        rendered = self.backend.render(instance.live)
        state, distractors = rendered.state, rendered.distractor_states
        for p0, p1 in self._performed:
            self.backend.perform(instance.gesture, tuple(p0), tuple(p1))
        if self._performed:
            if instance.live.scene is not None:
                state, distractors = self.backend.read_state_and_distractors()
            else:
                state = self.backend.read_state()
        if encode_state(state) != encode_state(self._state):
            raise EpisodeLost(f"the control shows {encode_state(state)} after the episode's "
                              f"{len(self._performed)} gestures again, not "
                              f"{encode_state(self._state)}")
        if tuple(distractors) != tuple(self._distractors):
            raise EpisodeLost("the page's other controls show other states after the "
                              "episode's gestures again")

    def _unjudged_step(self, instance: Instance, parsed: ParsedAction, boxes: Boxes,
                       in_reach: bool, cause: str, started: float):
        """A step whose gesture could not be judged: truncated (never terminated, never a
        failure or a false accept), reward 0.0 (Gymnasium needs a float), the cause in
        info["unjudged"], crosscheck "unjudged"; the next reset starts afresh."""
        self._done = True
        judged = judge(instance, parsed.p0, parsed.p1, None, boxes=boxes,
                       action_error=parsed.error, goal_in_reach=in_reach)
        info = self._step_info(instance, judged)
        info.update(state=encode_state(self._state), success=False,
                    live=dict.fromkeys(info["live"], False), crosscheck="unjudged",
                    unjudged=f"the backend crashed and the step could not be judged: {cause}",
                    recovered=None)
        if self.timings:
            info["timings"] = {"action": 0.0, "readback": 0.0, "screenshot": 0.0,
                               "total": _ms(started)}
        return self._observation(True), 0.0, False, True, info

    def _step_info(self, instance: Instance, judged: Any) -> dict[str, Any]:
        info = self._reset_info(instance, instance.current_state)
        info.update(
            state=encode_state(judged.state),
            success=judged.live_exact,
            static=judged.static.model_dump(),
            live=judged.live.model_dump(),
            crosscheck=judged.crosscheck,
            action_error=judged.action_error,
            # A page's distractors read back: did the action change anything but the
            # target (always False for a lone control), and which (JSON text of labels).
            collateral=judged.collateral,
            collateral_changed=json.dumps(list(judged.changed)),
            distance=self._distance,
            actions=self._actions,
            oracle_actions=self._oracle_actions,
            unjudged=None,
        )
        return info

    def render(self) -> np.ndarray | None:
        if self.render_mode != "rgb_array" or self._screenshot is None:
            return None
        # A skipped terminal capture, or one at a small observation's scale: the screen as
        # it is now, at full size (the observations' capture stays as it was).
        if self._full is None:
            try:
                self._full = self.backend.screenshot()
            except BackendCrashed:  # nothing left to capture: the last screenshot stands
                return self._screenshot.copy()
        return self._full.copy()

    def _capture(self) -> None:
        """The screenshot observations are built from: for a lone control, at the scale
        reset's options gave (a small observation's, env/observation.py)."""
        scale = self._capture_scale
        # Not on app pages: drawn at a small scale, 11 of 60 resets of a page gave other
        # pixels than the same seed's reset before (a few grey levels around its icons),
        # where lone controls of every type gave the same ones (230 of 230).
        if scale is not None and self._instance.live.scene is None:
            self._screenshot = self.backend.screenshot_scaled(scale)
        else:
            self._screenshot = self.backend.screenshot()
        self._captures += 1
        self._full = self._screenshot if self._screenshot.shape[1] == self.viewport[0] else None

    def close(self) -> None:
        self.backend.close()
        super().close()

    def set_level(self, level: int) -> None:
        """Move to curriculum `level` (env/curriculum.py) from the next reset on: its scene,
        and at level 3 goals up to max_actions gestures away (FAR_ACTIONS unless given at
        make time). Spaces do not change. Through wrappers and vector envs:
        `call("set_level", n)`."""
        spec = curriculum.LEVELS[curriculum.check_level(level)]
        max_actions = self._max_actions_given or (
            curriculum.FAR_ACTIONS if spec.far_goals else 1)
        if spec.far_goals and max_actions == 1:
            raise ValueError(f"level {level}'s goals are several gestures away: it needs "
                             "max_actions above 1")
        self._set_rung(spec.scene, max_actions, fixed=spec.fixed, far_goals=spec.far_goals)
        self.level = int(level)

    @property
    def instance(self) -> Instance | None:
        """The instance of the current episode (boxes in pixels)."""
        return self._instance

    @property
    def captures(self) -> int:
        """Screenshots taken for observations so far: an observation taken at the same
        count as the one before shows the same pixels (a step that captured nothing)."""
        return self._captures

    @property
    def shown_distractors(self) -> tuple[Any, ...]:
        """A page's distractor states as the screen shows them now (empty for a lone
        control): what the episode's next gesture starts from."""
        return tuple(self._distractors)

    @property
    def shown_state(self) -> Any:
        """The state the control shows now, as last read back: the rendered one after
        reset, then each performed gesture's (a gesture that performed nothing leaves it)."""
        return self._state

    # -- helpers -----------------------------------------------------------
    def _set_rung(self, scene: str, max_actions: int, *, fixed: bool, far_goals: bool) -> None:
        """What the next episodes show, in one place: the scene, the gestures an episode
        may take, level 0's fixed controls, and goals up to max_actions gestures away."""
        self._check_scene(scene)
        self.scene, self.max_actions = scene, max_actions
        self._fixed, self._far_goals = fixed, far_goals

    def _check_scene(self, scene: str) -> None:
        scenes.check_scene(scene, self.platform)
        if scene == "page" and not self.backend.renders_pages:
            raise ValueError(f"{self.backend!r} renders lone controls only: make the env "
                             "with scene='control' (or level 0 or 1)")
        if scene == "page":
            problem = scenes.page_viewport_problem(self.backend.layout_viewport, self.platform)
            if problem:
                raise ValueError(problem)

    def _sample_live(self, seed: int | None, component: str | None = None) -> LiveSpec:
        rng = self.np_random
        names = components.resolve(component) if component else self.components
        name = names[int(rng.integers(len(names)))]
        # Parameters are in the page's own units (CSS px), which a device scale
        # factor sets apart from the screenshot's pixels.
        # A phone's targets are sized for a finger (components.base.TOUCH_TARGET).
        touch = self.backend.platform == "mobile"
        scene = None
        if self.scene == "page":  # the page and the target, all drawn after the type
            sample, scene = scenes.sample_page(rng, self.platform, name,
                                               self.backend.layout_viewport, touch=touch)
        elif self._fixed:  # level 0: the type's one control, new states
            sample = curriculum.fixed_sample(rng, name, self.backend.layout_viewport, touch)
        else:
            sample = components.COMPONENTS[name].sample(rng, self.backend.layout_viewport,
                                                     touch=touch)
        if self._far_goals:  # goals up to max_actions gestures away, where the type allows
            sample = components.COMPONENTS[name].far_goal(rng, sample, self.max_actions)
        if self.theme is not None:
            theme = self.theme
        elif self._fixed:  # level 0's control looks the same in every episode
            theme = self.themes[0]
        else:
            theme = self.themes[int(rng.integers(len(self.themes)))]
        return LiveSpec(component=name, params=sample.params, current_state=sample.current_state,
                        goal_state=sample.goal_state, theme=theme,
                        viewport=Size(width=self.viewport[0], height=self.viewport[1]),
                        seed=seed, backend=type(self.backend).__name__, scene=scene)

    def _build_instance(self, live: LiveSpec, rendered: Rendered) -> Instance:
        component = components.COMPONENTS[live.component]
        sample = components.Sample(live.params, live.current_state, live.goal_state)
        if live.scene is None:
            instructions = component.instructions(self.np_random, sample)
        else:  # named by label and section: unambiguous on the page
            instructions = scenes.page_instructions(self.np_random, live.component, sample,
                                                    live.scene)
        # The id is a digest of everything that defines the instance: the same
        # seed gives the same id, and two different instances never share one.
        digest = hashlib.sha1(json.dumps(
            [live.model_dump(mode="json", exclude={"seed"}), instructions.model_dump()],
            sort_keys=True).encode()).hexdigest()[:12]
        return Instance(
            id=f"{self.platform}-{live.component}-{digest}", platform=self.platform,
            component=live.component, family=component.family, gesture=component.gesture,
            instructions=instructions, current_state=live.current_state,
            goal_state=live.goal_state, size=live.viewport, boxes=rendered.boxes, live=live,
            scene=_scene_record(live, rendered))

    def _reset_info(self, instance: Instance, shown_state: Any) -> dict[str, Any]:
        # One type per key in every episode (docs/design.md §4b): vector envs build
        # each info array from the first env's value.
        return {
            "instance": self._instance_json,
            "component": instance.component,
            "family": instance.family,
            "gesture": instance.gesture,
            "current_state": encode_state(shown_state),
            "goal_state": encode_state(instance.goal_state),
            # "current": the screen the next gesture acts on (re-measured mid-episode).
            "boxes": {"current": self._boxes_in_frame(self._boxes),
                      "target": self._boxes_in_frame(instance.boxes.target)},
        }

    def _distance_to_goal(self, state: Any) -> float:
        instance = self._instance
        return float(components.COMPONENTS[instance.component].distance(
            state, instance.goal_state, instance.live.params))

    def _boxes_in_frame(self, boxes: Boxes) -> dict[str, np.ndarray]:
        return {name: np.array(box_from_pixel(getattr(boxes, name), self.coord_mode,
                                              self.viewport), dtype=np.float64)
                for name in ("loc", "core", "goal", "now")}

    def _observation(self, reuse: bool = False) -> dict[str, Any]:
        """The observation of the screen shown; `reuse`: of the last screenshot, already
        handed out (a copy of it: the caller owns what it was given)."""
        screenshot = self._screenshot.copy() if reuse else self._screenshot
        return {"screenshot": screenshot, "instruction": self._instance.instructions.interact}


def read_instance(given: Any) -> Instance:
    """An instance given to `reset(options={"instance": ...})`: the model, its dict, or
    `info["instance"]`'s JSON text."""
    instance = (Instance.model_validate_json(given) if isinstance(given, str | bytes)
                else Instance.model_validate(given))
    # Checked against its type's own domain before anything is rendered: an instance
    # from a file or a client reaches the page (components/domain.py).
    check_instance(instance, "options['instance']")
    return instance


def _scene_record(live: LiveSpec, rendered: Rendered) -> SceneRecord | None:
    """What an instance records of its page: the template, and each distractor's type,
    label, section and measured loc box (None for a lone control)."""
    if live.scene is None:
        return None
    return SceneRecord(template=live.scene.template, section=live.scene.section, distractors=[
        SceneDistractor(component=d.component, label=d.label, section=d.section, loc=loc)
        for d, loc in zip(live.scene.distractors, rendered.distractor_locs, strict=True)])


RESET_OPTIONS = ("component", "instance", "capture_scale")


def _check_reset_options(options: Any) -> None:
    """Refuse what reset would not read: a misspelt key would otherwise be a silent default."""
    if not isinstance(options, dict):
        raise UsageError(f"reset options must be a dict, got {type(options).__name__}")
    unknown = sorted(repr(key) for key in options if key not in RESET_OPTIONS)
    if unknown:  # a UsageError is a ValueError: bad input, not a bug
        raise UsageError(f"unknown reset option{'s' if len(unknown) > 1 else ''} "
                         f"{', '.join(unknown)}; expected some of {list(RESET_OPTIONS)}")


def _capture_scale(scale: Any) -> float | None:
    if scale is None:
        return None
    if isinstance(scale, bool) or not isinstance(scale, int | float) or not 0 < scale <= 1:
        raise ValueError(f"options['capture_scale'] must be None or in (0, 1], got {scale!r}")
    return float(scale)


def resolve_viewport(platform: str, viewport: tuple[int, int] | str | None) -> tuple[int, int]:
    """The screenshot's (width, height) for `viewport` as given (None: the platform's
    default). 320 px: the smallest side on which every control fits whole (a month grid
    needs ~300 px); phones are 360 px wide and more."""
    return parse_size(viewport or DEFAULT_VIEWPORTS.get(platform, DEFAULT_VIEWPORT), 320,
                      "viewport")


def _ms(start: float, end: float | None = None) -> float:
    return round(((end if end is not None else time.perf_counter()) - start) * 1000.0, 3)
