"""What the user gives the commands, read and judged: files, and option values that the
library judges by its own rules.

The library raises UsageError (finestate_env.core.errors) for a malformed file or a bad
value of its own options. The env, its backends and the component names keep Gymnasium's
convention, a plain ValueError, which a bug raises as well: the commands turn those into
UsageError here, only around the calls that judge the command line's values (building an
env, resolving component names), so that an error anywhere else keeps its traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Collection, Iterable, Iterator
from typing import Any

from finestate_env.core.errors import UsageError
from finestate_env.core.files import for_terminal


@contextlib.contextmanager
def reading(path: str | None = None) -> Iterator[None]:
    """An input file that cannot be read (missing, a folder, no permission) is a usage
    error naming it (`path`, or the file the error names)."""
    try:
        yield
    except OSError as exc:
        raise UsageError(f"cannot read {path or exc.filename}: {exc.strerror or exc}") from None


@contextlib.contextmanager
def judged() -> Iterator[None]:
    """The ValueError of a call that judges the command line's values (and Gymnasium's
    error for an id it does not know) as a usage error."""
    import gymnasium as gym

    try:
        yield
    except UsageError:
        raise
    except (ValueError, gym.error.Error) as exc:
        raise UsageError(str(exc)) from exc


def make_env(env_id: str, **options: Any):
    """The env the options ask for (`.unwrapped`), its refusal of them a usage error. Making
    it starts nothing: the browser, display or device is started by the first reset."""
    import gymnasium as gym

    with judged():
        return gym.make(env_id, **options).unwrapped


def check_env(env_id: str, **options: Any) -> None:
    """Refuse, before any work, options that the env a command makes later would refuse."""
    make_env(env_id, **options).close()


def check_components(component: list[str] | None, family: list[str] | None = None) -> None:
    from finestate_env.components import resolve

    with judged():
        resolve(component, family)


def say_skipped(path: str, skipped: list[str]) -> None:
    if skipped:
        print(for_terminal(f"finestate: skipped {len(skipped)} invalid lines of {path} "
                           f"(first: {skipped[0]})"), file=sys.stderr)


def say_unknown_types(path: str, unknown: dict[str, int]) -> None:
    if unknown:
        names = ", ".join(f"{json.dumps(name)} {count}" for name, count in
                          sorted(unknown.items(), key=lambda item: (-item[1], item[0])))
        print(for_terminal(f"finestate: {sum(unknown.values())} records of {path} name a "
                           f"component type that is none of the 23 ({names}); each is kept "
                           "as its own group"), file=sys.stderr)


def static_reader(args: argparse.Namespace, path: str):
    """Instances in any layout, as options.add_static_input_options describes them, read
    one at a time (`formats.InstanceReader`); `say_read` once they were."""
    from finestate_env.datasets.formats import InstanceReader

    return InstanceReader(path, skip_invalid=args.skip_invalid, platform=args.platform,
                          images=args.images, image_size=args.image_size,
                          trusted_paths=args.trusted_paths)


def say_read(path: str, reader) -> None:
    """What a pass of `reader` left out: its skipped lines, and the types it did not know."""
    say_skipped(path, reader.skipped)
    say_unknown_types(path, reader.unknown_types)


def read_through(items: Iterable[Any], path: str | None = None) -> Iterator[Any]:
    """`items` (a file being read) as they come, a file that cannot be read a usage error as
    `reading` says it; an error of the caller between two items is its own."""
    with reading(path):
        yield from items


def check_pixel_sizes(sizeless: Collection[str], predictions, path: str) -> None:
    """A pixel prediction for an instance without an image size (its id in `sizeless`) is
    the one thing that needs a size: stop at the first such prediction, naming its line
    (docs/design.md §5)."""
    from finestate_env.core.static_scoring import has_pixel_points
    from finestate_env.datasets.formats import FormatError

    if not sizeless:
        return
    for prediction, line in zip(predictions.items, predictions.lines, strict=True):
        if prediction.id in sizeless and has_pixel_points(prediction):
            raise FormatError(path, line, "coords", '"normalized" or "1000", or the image '
                              f"size of instance {json.dumps(prediction.id)}, whose boxes "
                              "are normalised and whose image was not found (pass --images "
                              'DIR or --image-size WxH to compare pixels with them)',
                              '"pixel"')


def model_failure() -> type[Exception]:
    """What a VLM command stops on after the endpoint's retries (exit 1: resumable)."""
    from finestate_env.agents.vlm_client import ModelRequestFailed

    return ModelRequestFailed
