"""Every Qt renderer, by component type name.

`renderers/<type>.py` holds that type's Control and ends with `CONTROL = <it>`,
as `widgets/web/<type>.js` defines it for the web. The other modules here hold
what several types share, and are named after no type: `ranges` (slider, knob,
seek_bar), `check_buttons` (checkbox, radio_group), `pickers` (color_picker,
date_picker, time_picker, list_box) and `tables` (scrollbar, table_column).
"""

import importlib

from finestate_env.components.qt import DESKTOP_TYPES


def _control(name: str) -> type:
    return importlib.import_module(f"finestate_env.components.qt.renderers.{name}").CONTROL


RENDERERS = {name: _control(name) for name in DESKTOP_TYPES}
