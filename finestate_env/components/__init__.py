"""The FineState component types (docs/design.md §2): one definition each.

`COMPONENTS` maps a type name to its definition; `resolve` turns the env's
`component=` / `family=` options into a list of type names.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from finestate_env.components.base import ComponentType, Sample
from finestate_env.core.schema import FAMILIES

# The 23 types in the order of docs/design.md §2. Module name == type name, and each
# module defines exactly one ComponentType subclass of its own.
TYPE_NAMES = (
    "slider", "knob", "stepper", "seek_bar", "chart_point",
    "switch", "checkbox", "radio_group", "tabs", "segmented", "accordion",
    "rating", "color_picker", "date_picker", "time_picker", "list_box",
    "drag_reorder", "zoom_pan", "resizable_pane", "carousel", "tree_view", "scrollbar",
    "table_column",
)


def _load() -> dict[str, ComponentType]:
    loaded: dict[str, ComponentType] = {}
    for name in TYPE_NAMES:
        module = importlib.import_module(f"finestate_env.components.{name}")
        (cls,) = [v for v in vars(module).values() if isinstance(v, type)
                  and issubclass(v, ComponentType) and v.__module__ == module.__name__]
        loaded[cls.name] = cls()
    return loaded


COMPONENTS: dict[str, ComponentType] = _load()

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
