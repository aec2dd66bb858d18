"""Checking a live block against its types' own domains, where an instance enters.

An instance's `live` block is all a renderer is handed (schema.LiveSpec.renderer_spec):
the type, its params, the states, the theme, the page around it. A file line, a reset
option, a trainer's ground truth or a client's task can hold anything there, so it is
checked before anything is rendered or judged (`check_live`): the type is one of the 23,
its params fit the type's model (params.py: typed, bounded, complete), the current and goal
states are states that control can hold (`ComponentType.state_code`), the theme and the page
template exist, and the page's blocks and distractors are typed the same way. A value that
does not fit raises InvalidLive naming the field, the value and what is allowed: never a
page that runs it, never a reward judged on it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, ValidationError

from finestate_env.components import COMPONENTS, scenes
from finestate_env.components.params import (
    MAX_PIXELS,
    Index,
    Int,
    Num,
    Params,
    Pixels,
    Text,
    list_of,
)
from finestate_env.components.themes import MOBILE_THEMES, THEMES, themes_for
from finestate_env.core.errors import UsageError, field_path, shown
from finestate_env.core.schema import Instance, LiveSpec, SceneSpec

# Chrome and text blocks every template may draw; the templates add their drawn images.
_CHROME_BLOCKS = ("heading", "title", "text", "appbar", "sidebar", "titlebar", "menubar",
                  "toolbar", "statusbar", "dock", "dialog", "phone_appbar", "bottomnav")
_TEMPLATE_BLOCKS = tuple(sorted({kind for platform in scenes.PAGE_PLATFORMS
                                 for template in scenes.templates(platform).values()
                                 for kind in (template.hero, *template.fillers)}))
BLOCK_KINDS = tuple(sorted(set(_CHROME_BLOCKS) | set(_TEMPLATE_BLOCKS)))

Leaf = Int | Num | Text
# A drawn block's own seed (scenes draw rng.integers(1 << 30)).
Seed = Annotated[int, Field(strict=True, ge=0, lt=1 << 32)]
Rect = list_of(Pixels, 4, 4)


class Block(Params):
    """One thing a page draws around its controls (scenes: `blocks`), in CSS px."""

    kind: Literal[BLOCK_KINDS]  # type: ignore[valid-type]
    rect: Rect
    text: Text | None = None
    title: Text | None = None
    icon: Text | None = None
    seed: Seed | None = None
    active: Index | None = None
    time: Text | None = None
    battery: Int | None = None
    signal: Int | None = None
    nav: list_of(Text) | None = None
    actions: list_of(Text) | None = None
    icons: list_of(Text) | None = None
    texts: list_of(Text) | None = None
    buttons: list_of(Text) | None = None
    items: list_of(Text | list_of(Text)) | None = None
    words: dict[Text, list_of(Leaf | list_of(Leaf))] | None = None


class InvalidLive(UsageError):
    """A live block that no renderer may be handed: the message names the field, the value
    and what is allowed (`field`, then `problem`)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field, self.problem = field, problem


def check_live(live: LiveSpec, platform: str | None = None, where: str = "live") -> None:
    """InvalidLive unless `live` fits its types' domains (the module docstring). `platform`
    (the instance's) picks its themes and page templates; `where` prefixes field names."""
    kind = _component(live.component, f"{where}.component")
    _validate(kind.params_model, live.params, f"{where}.params")
    for name in ("current_state", "goal_state"):
        _check_state(kind, getattr(live, name), live.params, f"{where}.{name}")
    allowed = themes_for(platform) if platform else THEMES + MOBILE_THEMES
    if live.theme not in allowed:
        raise InvalidLive(f"{where}.theme", f"{shown(live.theme)} is not a theme of "
                          f"{platform or 'any platform'}; expected one of {list(allowed)}")
    if max(live.viewport.width, live.viewport.height) > MAX_PIXELS:
        raise InvalidLive(f"{where}.viewport", f"{live.viewport.width}x"
                          f"{live.viewport.height} is larger than {MAX_PIXELS} px on a side")
    if live.scene is not None:
        _check_scene(live.scene, platform, f"{where}.scene")


def check_instance(instance: Instance, where: str = "instance") -> None:
    """InvalidLive unless `instance`'s live block fits (check_live) and the instance says
    what its live block shows: the same type, its family and gesture, the same states (the
    verdict is judged against the instance's goal, the page shows the live block's). An
    instance without a live block is never rendered, and passes."""
    live = instance.live
    if live is None:
        return
    check_live(live, instance.platform, f"{where}.live")
    kind = COMPONENTS[live.component]
    for name, value, shows in (("component", instance.component, live.component),
                               ("family", instance.family, kind.family),
                               ("gesture", instance.gesture, kind.gesture),
                               ("current_state", instance.current_state, live.current_state),
                               ("goal_state", instance.goal_state, live.goal_state)):
        if value != shows:
            raise InvalidLive(f"{where}.{name}", f"{shown(value)}, but its live block shows a "
                              f"{live.component} whose {name} is {shown(shows)}")


def _component(name: str, where: str):
    if name not in COMPONENTS:
        raise InvalidLive(where, f"{shown(name)} is not a component type; expected one of "
                                 f"{list(COMPONENTS)}")
    return COMPONENTS[name]


def _check_state(kind, state: Any, params: dict[str, Any], where: str) -> None:
    if kind.state_code(state, params) is None:
        raise InvalidLive(where, f"{shown(state)} is not a state this {kind.name} can hold "
                                 f"(its params allow states such as the sampler draws)")


def _check_scene(scene: SceneSpec, platform: str | None, where: str) -> None:
    platforms = [platform] if platform in scenes.PAGE_PLATFORMS else scenes.PAGE_PLATFORMS
    known = sorted({name for p in platforms for name in scenes.templates(p)})
    if scene.template not in known:
        raise InvalidLive(f"{where}.template", f"{shown(scene.template)} is not a page "
                          f"template of {platform or 'any platform'}; expected one of {known}")
    _validate(_SceneTexts, {"label": scene.label, "section": scene.section,
                            "rect": list(scene.rect)}, where)
    for index, block in enumerate(scene.blocks):
        _validate(Block, block, f"{where}.blocks[{index}]")
    for index, control in enumerate(scene.distractors):
        at = f"{where}.distractors[{index}]"
        kind = _component(control.component, f"{at}.component")
        _validate(_SceneTexts, {"label": control.label, "section": control.section,
                                "rect": list(control.rect)}, at)
        _validate(kind.params_model, control.params, f"{at}.params")
        _check_state(kind, control.state, control.params, f"{at}.state")


class _SceneTexts(Params):
    label: Text | None = None
    section: Text
    rect: Rect


def _validate(model: type[BaseModel], value: Any, where: str) -> None:
    try:
        model.model_validate(value)
    except ValidationError as exc:
        error = exc.errors()[0]
        raise InvalidLive(f"{where}{field_path(error['loc'])}",
                          f"{error['msg']} (got {shown(error.get('input'))})") from None


