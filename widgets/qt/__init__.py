"""The desktop renderers: native Qt controls (PySide6) for the component types.

`app.py` is the process the desktop backend starts inside its X display;
`renderers/` holds one Control per type, grouped by family. Importing this
package does not import Qt: the backend only starts the app as a child.
"""

# The types with a Qt renderer (widgets/qt/renderers), in TYPE_NAMES order;
# the desktop env offers these alone. tests/test_desktop.py checks that this
# list and the renderers agree.
DESKTOP_TYPES = (
    "slider", "knob", "stepper", "seek_bar", "chart_point",
    "switch", "checkbox", "radio_group", "tabs", "segmented", "accordion",
    "rating", "color_picker", "date_picker", "time_picker", "list_box",
    "drag_reorder", "zoom_pan", "resizable_pane", "carousel", "tree_view", "scrollbar",
    "table_column",
)
