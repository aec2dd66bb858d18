"""Reading what a file names, and writing only where a command was told (issue #49).

Datasets, predictions and run folders come from people the user may not trust. So:

- **Reads stay inside.** A path written in a file (an instance's `image`) is resolved in
  the dataset's folder and must stay there: an absolute path, `..` out of it or a
  symlink out of it is refused (`outside_problem`, `resolve_inside`), unless the user
  says the data is trusted (`--trusted-paths`).
- **Only regular files are opened**, without blocking (`open_regular`): a FIFO would hang
  the reader and `/dev/zero` never ends.
- **Sizes are bounded before reading**: a line (`MAX_LINE_BYTES`), an image file
  (`MAX_IMAGE_BYTES`) and an image's pixels (`MAX_IMAGE_PIXELS`, checked on the header,
  before anything is decoded; Pillow's own bomb check is set to the same figure).
- **Writes never follow a symlink** (`refuse_symlink`, `write_new`): a link planted in an
  output folder must not turn a write into the truncation of the file it points to.
- **Text from files reaches a terminal escaped** (`for_terminal`): an id holding an escape
  sequence could rewrite the screen or a window title.
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO

from PIL import Image

from finestate_env.core.errors import UsageError, shown

# A page instance is ~20 kB; a line past this is not a record but an attack or an accident.
MAX_LINE_BYTES = 8 * 1024 * 1024
# A 4K screenshot PNG is a few MB; 8K x 8K at 4 bytes a pixel is 256 MB decoded.
MAX_IMAGE_BYTES = 64 * 1024 * 1024
MAX_IMAGE_PIXELS = 8192 * 8192
# Pillow warns past MAX_IMAGE_PIXELS and refuses past twice that; we refuse at the figure
# itself, on the header, so its check is only a second line behind ours.
Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def open_regular(path: str | Path) -> BinaryIO:
    """`path` opened for reading in binary, when it is a regular file (a symlink to one is
    followed: where it may point is the caller's check). Opened without blocking, so a FIFO
    is refused instead of waited on; a device, a folder or a socket is refused too."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except IsADirectoryError:
        raise UsageError(f"{path}: a folder, not a file") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UsageError(f"{path}: {_kind(mode)}; finestate reads only regular files")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


class LineTooLong:
    """A line of more than MAX_LINE_BYTES: what `bounded_lines` yields in its place."""

    def __init__(self, size: int) -> None:
        self.size = size


def bounded_lines(f: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[bytes | LineTooLong]:
    """The lines of `f` (their ends stripped of nothing), a line longer than `limit` bytes
    replaced by LineTooLong and skipped to its end without being held in memory."""
    while True:
        line = f.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit or line.endswith(b"\n"):  # a whole line of <= limit bytes
            yield line
            continue
        size = len(line)
        while not line.endswith(b"\n"):
            line = f.readline(limit)
            if not line:
                break
            size += len(line)
        yield LineTooLong(size)


def json_object(raw: bytes | LineTooLong) -> tuple[dict | None, str | None]:
    """One line's JSON object and None, or None and why it is none (too long, not UTF-8, not
    JSON, nested too deep, a number too long to read, not an object, a lone surrogate no
    UTF-8 file can hold); (None, None) for a blank line."""
    if isinstance(raw, LineTooLong):
        return None, f"a line of {raw.size:,} bytes (the limit is {MAX_LINE_BYTES:,})"
    try:
        text = raw.decode("utf-8").strip()
    except UnicodeDecodeError as exc:
        return None, (f"bytes that are not UTF-8 (byte {exc.start + 1}: "
                      f"{raw[exc.start]:#04x})")
    if not text:
        return None, None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, f"invalid JSON ({exc.msg} at column {exc.colno})"
    except RecursionError:
        return None, "JSON nested too deep to read"
    except ValueError as exc:  # an integer of thousands of digits (int_max_str_digits)
        return None, f"a value that cannot be read ({exc})"
    if not isinstance(value, dict):
        return None, f"a JSON {type(value).__name__}: {shown(value)}"
    if "\\u" in text and _has_lone_surrogate(value):
        return None, ("a lone surrogate escape (\\ud800-\\udfff alone), which no UTF-8 "
                      "file can hold")
    return value, None


def _has_lone_surrogate(value: Any) -> bool:
    """A string that \\u escapes made half a UTF-16 pair: it would fail every later write."""
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def file_name(ident: str, limit: int = 100) -> str:
    """A file name for an id: its ASCII letters, digits, - and _ (others as _, at most
    `limit`), and a hash of the whole id, so that two ids never share a file."""
    readable = "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "_"
                       for c in ident)[:limit]
    digest = hashlib.sha1(ident.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{readable}-{digest}"


def outside_problem(name: str) -> str | None:
    """Why a path written in a file leaves the folder it is relative to (absolute, a drive,
    `..` above it), or None. Windows separators count as separators."""
    text = name.replace("\\", "/")
    if text.startswith("/") or (len(text) > 1 and text[1] == ":"):
        return (f"{name!r} is an absolute path; paths in a dataset are relative to its "
                "folder (pass --trusted-paths to read outside it)")
    depth = 0
    for part in PurePosixPath(text).parts:
        if part == "..":
            depth -= 1
            if depth < 0:
                return (f"{name!r} leads out of the dataset's folder (..); pass "
                        "--trusted-paths to read outside it")
        elif part not in (".", ""):
            depth += 1
    return None


def resolve_inside(root: str | Path, name: str, trusted: bool = False) -> Path:
    """The file `name` (relative to `root`) names, resolved; it must stay inside `root`
    once symlinks are followed (UsageError otherwise), unless `trusted`."""
    text = name.replace("\\", "/")
    if not trusted and (problem := outside_problem(name)) is not None:
        raise UsageError(problem)
    base = Path(root).resolve()
    path = (base / text).resolve()
    if not trusted and not path.is_relative_to(base):
        raise UsageError(f"{name!r} is a link out of the dataset's folder {base} (to {path}); "
                         "pass --trusted-paths to read outside it")
    return path


def read_bounded(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of regular file `path`, refused before reading when over `limit`."""
    with open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        if size > limit:
            raise UsageError(f"{path}: {what} of {size:,} bytes; the limit is {limit:,}")
        return f.read(limit + 1)[:limit]


def open_image(data: bytes, where: str | Path) -> Image.Image:
    """The image encoded in `data`, its pixel count checked on the header before decoding
    (UsageError naming `where` when too large or not an image)."""
    try:
        image = Image.open(io.BytesIO(data))
    except Image.DecompressionBombError as exc:  # Pillow's own check, past twice our limit
        raise UsageError(f"{where}: {exc}; the limit is {MAX_IMAGE_PIXELS:,} pixels") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"{where}: not an image Pillow can read ({exc})") from None
    width, height = image.size
    if width * height > MAX_IMAGE_PIXELS:
        raise UsageError(f"{where}: an image of {width}x{height} pixels; the limit is "
                         f"{MAX_IMAGE_PIXELS:,} pixels")
    try:
        image.load()
    except (OSError, Image.DecompressionBombError, ValueError, SyntaxError) as exc:
        raise UsageError(f"{where}: a broken image ({exc})") from None
    return image


def read_image(path: str | Path) -> Image.Image:
    """A bounded image file, decoded (both limits of this module)."""
    return open_image(read_bounded(path, MAX_IMAGE_BYTES, "an image file"), path)


def image_size(path: str | Path) -> tuple[int, int]:
    """(width, height) from the header of a bounded regular image file, nothing decoded."""
    data = read_bounded(path, MAX_IMAGE_BYTES, "an image file")
    try:
        with Image.open(io.BytesIO(data)) as image:
            return image.size
    except Image.DecompressionBombError as exc:
        raise UsageError(f"{path}: {exc}; the limit is {MAX_IMAGE_PIXELS:,} pixels") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"{path}: not an image Pillow can read ({exc})") from None


def refuse_symlink(path: str | Path) -> None:
    """A command writes files of its own, never through a link someone left in their place."""
    if os.path.islink(path):
        raise UsageError(f"{path} is a symbolic link (to {os.readlink(path)}); finestate does "
                         "not write through links: remove it or choose another --out")


def write_new(path: str | Path, mode: str = "w", **kwargs):
    """`path` opened for writing after refusing a symlink there; the open itself does not
    follow one either (O_NOFOLLOW), so a link made in between fails instead of being
    written through."""
    refuse_symlink(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
    flags |= os.O_APPEND if "a" in mode else os.O_TRUNC
    try:
        fd = os.open(path, flags, 0o644)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            refuse_symlink(path)
        raise
    return os.fdopen(fd, mode, **kwargs)


def sha256_of(path: str | Path) -> str:
    """The SHA-256 of a regular file, read in blocks."""
    digest = hashlib.sha256()
    with open_regular(path) as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def write_text(path: str | Path, text: str) -> Path:
    """`text` written to `path` whole or not at all (through `path.partial`), never through
    a link at either name."""
    path = Path(path)
    refuse_symlink(path)
    partial = path.with_name(path.name + ".partial")
    refuse_symlink(partial)
    with write_new(partial, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    os.replace(partial, path)
    return path


_CONTROLS = {code: f"\\x{code:02x}" for code in (*range(0x00, 0x20), *range(0x7F, 0xA0))
             if code not in (0x0A,)}
_CONTROLS[0x0A] = "\\n"


def for_terminal(text: str, keep_lines: bool = False) -> str:
    """`text` with every control character (C0, DEL, C1) written as an escape: text that
    came from a file cannot move the cursor, clear the screen or set a window title.
    `keep_lines`: line ends and tabs stay (the output's own layout)."""
    return text.translate(_LAYOUT_KEPT if keep_lines else _CONTROLS)


_LAYOUT_KEPT = {code: text for code, text in _CONTROLS.items() if code not in (0x09, 0x0A)}


class TerminalText(io.TextIOBase):
    """A text stream that writes to `stream` with control characters escaped
    (`for_terminal`, lines and tabs kept): what a command prints is text, whatever the
    ids and names it prints came from."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(for_terminal(text, keep_lines=True))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def encoding(self) -> str:
        return self._stream.encoding
