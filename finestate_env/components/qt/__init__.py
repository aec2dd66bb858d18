"""The desktop renderers: native Qt controls (PySide6) for the component types.

`app.py` is the process the desktop backend starts inside its X display;
`renderers/` holds one module per type, `renderers/<type>.py`, as `web/` holds
`web/<type>.js`. Importing this package does not import Qt: the backend only
starts the app as a child.
"""

from pathlib import Path

from finestate_env.components import TYPE_NAMES

# The types with a Qt renderer (widgets/qt/renderers/<type>.py), in TYPE_NAMES
# order; the desktop env offers these alone. Found by the file, not by importing
# it: the renderers import Qt, which the backend's process must not.
# tests/backends/test_desktop.py checks that this list and the renderers agree.
DESKTOP_TYPES = tuple(name for name in TYPE_NAMES
                      if (Path(__file__).parent / "renderers" / f"{name}.py").is_file())
