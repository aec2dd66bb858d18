"""The visual themes every web control is drawn in (widgets/web/stage.css).

A theme changes colours, fonts and corner radii, never what a control does;
it is part of an instance's `live` block, so a replay draws the same pixels.
The fonts come from Debian's fonts-dejavu-core, fonts-dejavu-extra and
fonts-liberation2, which `make` installs.
"""

THEMES = ("classic-light", "material-light", "bootstrap-light", "fluent-dark")
