"""The FineState component types (DESIGN.md §2): one definition each.

`COMPONENTS` maps a type name to its definition; `resolve` turns the env's
`component=` / `family=` options into a list of type names.
"""

from __future__ import annotations

from collections.abc import Iterable

from finestate_env.schema import FAMILIES
from widgets.base import ComponentType, Sample
from widgets.color_picker import ColorPicker
from widgets.date_picker import DatePicker
from widgets.drag_reorder import DragReorder
from widgets.knob import Knob
from widgets.slider import Slider
from widgets.switch import Switch

# In the order of DESIGN.md §2: numeric range, toggle/option, specific data, view.
COMPONENTS: dict[str, ComponentType] = {t.name: t for t in (
    Slider(), Knob(), Switch(), DatePicker(), ColorPicker(), DragReorder())}

__all__ = ["COMPONENTS", "ComponentType", "Sample", "resolve"]


def resolve(component: str | Iterable[str] | None = None,
            family: str | Iterable[str] | None = None) -> list[str]:
    """Type names selected by `component` and/or `family` (None means all), in a fixed order."""
    names = list(COMPONENTS)
    if family is not None:
        families = [family] if isinstance(family, str) else list(family)
        unknown = [f for f in families if f not in FAMILIES]
        if unknown:
            raise ValueError(f"unknown family {unknown}; expected one of {list(FAMILIES)}")
        names = [n for n in names if COMPONENTS[n].family in families]
    if component is not None:
        wanted = [component] if isinstance(component, str) else list(component)
        unknown = [c for c in wanted if c not in COMPONENTS]
        if unknown:
            raise ValueError(f"unknown component {unknown}; implemented: {list(COMPONENTS)}")
        names = [n for n in names if n in wanted]
    if not names:
        raise ValueError(f"no component type matches component={component!r} family={family!r}")
    return names
