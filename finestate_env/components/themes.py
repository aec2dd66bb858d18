"""The visual themes every web control is drawn in (widgets/web/stage.css).

A theme changes colours, fonts and corner radii, never what a control does;
it is part of an instance's `live` block, so a replay draws the same pixels.
The fonts come from Debian's fonts-dejavu-core, fonts-dejavu-extra and
fonts-liberation2, which `make` installs.
"""

THEMES = ("classic-light", "material-light", "bootstrap-light", "fluent-dark")
# The phone looks of FineState-Mobile-v0: Material 3 and iOS colours and corners.
MOBILE_THEMES = ("material-mobile", "ios-mobile")


def themes_for(platform: str) -> tuple[str, ...]:
    """The themes an env of `platform` draws from."""
    return MOBILE_THEMES if platform == "mobile" else THEMES
