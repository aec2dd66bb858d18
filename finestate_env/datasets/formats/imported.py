"""What an imported static record does not say, and how it is filled in.

- **size**: read from the image file (Pillow reads the header only), else from
  the record (`width`/`height`, or ScreenSpot's `img_size`), else the caller's
  `image_size`. With none of them a normalised FineState-Bench record is still an
  instance, with `size` and pixel `boxes` null: it scores in [0, 1] against
  normalised and 0-1000 predictions, and only a pixel prediction asks for the size.
  A ScreenSpot record needs one (its boxes may be pixels).
- **type**: the released names in any case and spacing ("Check Box", "Seek Bar",
  "Steeper", "Dropdown" ...) map onto the 23 types (`canonical_type`); an unknown
  name is kept as its own group (lower case, words joined by `_`) and counted.
- **id**: the record's `id`, else its `image` path; when several records share
  an image, the second is `PATH#2`, the third `PATH#3`, in file order.
- **family**: the record's `family` when it is one of the four, else the
  category folder in the image path (`ANumericRange240/...`), else a keyword in
  the component type (slider, toggle, date ...), else None.
- **platform**: the caller's `platform`, else the record's, else from the path
  (a `mobile` folder), else the layout's (desktop for the desktop layout, web otherwise).
- **boxes**: imported records have one configuration: `target` repeats `current`.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from pathlib import Path
from typing import Any

from finestate_env.components import COMPONENTS, TYPE_NAMES
from finestate_env.core import files
from finestate_env.core.coords import convert_box
from finestate_env.core.errors import UsageError
from finestate_env.core.schema import FAMILIES, Boxes, BoxSet, Family, Instance, Platform, Size
from finestate_env.datasets.formats.jsonl import FormatError, shown
from finestate_env.datasets.formats.project import locate_image

# First match wins: the order settles words that contain others ("slider" before
# "slide", "table" before "tab", "expand" before "pan").
_FAMILY_KEYWORDS: tuple[tuple[str, Family], ...] = (
    *((word, "numeric_range") for word in (
        "slider", "seek", "progress", "knob", "dial", "stepper", "spin", "chart", "range",
        "volume", "gauge", "numeric")),
    *((word, "toggle_option") for word in (
        "accordion", "expan", "collaps", "switch", "toggle", "checkbox", "check", "radio",
        "segment")),
    *((word, "specific_data") for word in (
        "rating", "star", "colour", "color", "date", "time", "calendar", "clock", "list",
        "dropdown", "select", "combo", "picker", "menu")),
    *((word, "view_manipulation") for word in (
        "table", "column", "scroll", "drag", "reorder", "zoom", "carousel", "tree", "resiz",
        "split", "pane", "pan", "map", "view")),
    *((word, "toggle_option") for word in ("tab", "option", "button")),
)

# The released data's category folders: ANumericRange240, BToggleOption200, ...
_CATEGORY_FOLDERS: tuple[tuple[str, Family], ...] = (
    ("numericrange", "numeric_range"), ("toggleoption", "toggle_option"),
    ("specificdata", "specific_data"), ("viewmanip", "view_manipulation"),
)

_PLATFORM_WORDS: dict[str, Platform] = {
    "web": "web", "mobile": "mobile", "android": "mobile", "ios": "mobile", "phone": "mobile",
    "desktop": "desktop", "windows": "desktop", "macos": "desktop", "mac": "desktop",
    "linux": "desktop",
}


def family_from_type(component_type: str) -> Family | None:
    """The family a component type name suggests, by keyword; None when none matches."""
    name = component_type.lower()
    for word, family in _FAMILY_KEYWORDS:
        if word in name:
            return family
    return None


def infer_family(record: dict[str, Any], image: str, component_type: str) -> Family | None:
    given = record.get("family")
    if given in FAMILIES:
        return given
    folded = image.replace("\\", "/").lower().replace("_", "").replace("-", "")
    for folder, family in _CATEGORY_FOLDERS:
        if folder in folded:
            return family
    return family_from_type(component_type)


def infer_platform(record: dict[str, Any], image: str, default: Platform,
                   override: Platform | None = None) -> Platform:
    if override is not None:
        return override
    for key in ("platform", "data_source"):
        value = record.get(key)
        if isinstance(value, str) and value.lower() in _PLATFORM_WORDS:
            return _PLATFORM_WORDS[value.lower()]
    folders = [part.lower() for part in image.replace("\\", "/").split("/")[:-1]]
    if any(part.startswith("mobile") for part in folders):
        return "mobile"
    return default


def normalise_type(value: str) -> str:
    """A component type as a grouping key: lower case, words joined by underscores."""
    return re.sub(r"[\s\-]+", "_", value.strip().lower())


def _folded(value: str) -> str:
    """Case, spacing and punctuation dropped: "Check Box", "check-box", "CHECKBOX" alike."""
    return re.sub(r"[^0-9a-z]+", "", value.lower())


# Every name of the 23 types, folded: each type's own and its other names (`aliases` on
# the type: the paper's figure and the released records, "Steeper" included, and the
# obvious variants).
_CANONICAL: dict[str, str] = {
    **{_folded(name): name for name in TYPE_NAMES},
    **{_folded(alias): name for name, kind in COMPONENTS.items() for alias in kind.aliases},
}


def canonical_type(value: str) -> str:
    """One of the 23 type names for a released or variant name ("Check Box" -> checkbox,
    "Steeper" -> stepper, "Dropdown" -> list_box); any other name as its own grouping key
    (`normalise_type`), which `is_known_type` tells apart."""
    return _CANONICAL.get(_folded(value), normalise_type(value))


def is_known_type(name: str) -> bool:
    return name in TYPE_NAMES


class SizeFinder:
    """The image size of a record, by the rule in the module docstring (cached per file,
    the `CACHED` files read last: a file of any length is read in bounded memory, and
    records of one image, which are usually together, read its header once)."""

    CACHED = 4096

    def __init__(self, base_dir: Path, images_root: str | Path | None,
                 image_size: tuple[int, int] | None, trusted: bool = False) -> None:
        self.base_dir, self.images_root, self.image_size = base_dir, images_root, image_size
        self.trusted = trusted
        self._cache: OrderedDict[Path, tuple[int, int]] = OrderedDict()

    def __call__(self, image: str | None, recorded: tuple[int, int] | None, path: Path,
                 line: int, field: str, required: bool = True) -> tuple[int, int] | None:
        """The size, or None when nothing tells it and it is not `required`."""
        try:
            found = locate_image(image, self.base_dir, self.images_root, self.trusted)
            if found is not None and found not in self._cache:
                self._cache[found] = files.image_size(found)
                if len(self._cache) > self.CACHED:
                    self._cache.popitem(last=False)
        except UsageError as exc:  # out of the folder, too big, not an image
            raise FormatError(path, line, field, "", "", problem=str(exc)) from None
        except OSError as exc:
            raise FormatError(path, line, field, "a readable image file",
                              f"{found} ({exc.strerror or exc})") from None
        if found is not None:
            self._cache.move_to_end(found)
            return self._cache[found]
        if recorded is not None:
            return recorded
        if self.image_size is not None:
            return self.image_size
        if not required:
            return None
        root = self.images_root if self.images_root is not None else self.base_dir
        raise FormatError(path, line, field, f"an image file under {root} to read the size "
                          "from, or width/height in the record (pass --images DIR or "
                          "--image-size WxH)", f"{shown(image)}, which was not found")


def with_size(instance: Instance, size: tuple[int, int] | None) -> Instance:
    """A normalised instance with its image size and pixel boxes filled in (unchanged when
    `size` is None or the instance has a size already)."""
    if size is None or instance.size is not None or instance.normalized_boxes is None:
        return instance
    normalized = instance.normalized_boxes
    pixels = Boxes(**{name: convert_box(getattr(normalized, name), "normalized", "pixel", size)
                      for name in ("loc", "core", "goal", "now")})
    return instance.model_copy(update={"size": Size(width=size[0], height=size[1]),
                                       "boxes": BoxSet(current=pixels, target=pixels)})


def recorded_size(record: dict[str, Any], path: Path, line: int,
                  strict: bool = True) -> tuple[int, int] | None:
    """`width`/`height` or `img_size: [w, h]` when the record carries them (positive ints).
    Not `strict` (a layout whose own code never reads them), bad values are None."""
    if "img_size" in record:
        value = record["img_size"]
        field = "img_size"
    elif "width" in record or "height" in record:
        value = [record.get("width"), record.get("height")]
        field = "width/height"
    else:
        return None
    if (isinstance(value, list) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)):
        return value[0], value[1]
    if not strict:
        return None
    raise FormatError(path, line, field, "two positive integers (width, height)", shown(value))


class IdAssigner:
    """Record ids: explicit ones must be unique; image-path ids get `#N` on repeats."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lines: dict[str, int] = {}
        self._repeats: dict[str, int] = {}

    def __call__(self, record: dict[str, Any], image: str, line: int) -> str:
        given = record.get("id")
        if given is not None:
            if isinstance(given, bool) or not isinstance(given, str | int):
                raise FormatError(self.path, line, "id", "a string", shown(given))
            ident = str(given)
            if ident in self._lines:
                raise FormatError(self.path, line, "id", "an id used once",
                                  f"{shown(ident)}, already on line {self._lines[ident]}")
        else:
            base = image.replace("\\", "/")
            count = self._repeats.get(base, 0) + 1
            self._repeats[base] = count
            ident = base if count == 1 else f"{base}#{count}"
            while ident in self._lines:  # an explicit id elsewhere took this one
                count += 1
                self._repeats[base] = count
                ident = f"{base}#{count}"
        self._lines[ident] = line
        return ident
