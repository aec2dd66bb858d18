"""The error that bad input raises, apart from the errors that bugs raise."""

from __future__ import annotations


class UsageError(ValueError):
    """Bad input from whoever runs the code: a malformed file, an option value out of its
    range, a name that names nothing, an environment that lacks what a run asks for.

    The message says what was wrong and is meant to be shown as it is: the `finestate`
    command prints it on one line and exits 2, with no traceback, while any other
    exception (a bug) keeps its traceback. It is a ValueError, so that code catching
    ValueError (Gymnasium's convention for a bad argument) catches it too.
    """
