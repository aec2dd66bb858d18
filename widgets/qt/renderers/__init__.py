"""Every Qt renderer, by component type name."""

from widgets.qt.renderers import data, numeric, toggle, view, view_drag

RENDERERS = {**numeric.RENDERERS, **toggle.RENDERERS, **data.RENDERERS, **view.RENDERERS,
             **view_drag.RENDERERS}
