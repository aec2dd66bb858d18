"""The README's first example runs as written and prints what its comments say."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).parents[1] / "README.md"


def test_the_readme_example_prints_what_its_comments_say():
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    # What each print line promises: the comment after it.
    promised = [line.split("# ", 1)[1].strip() for line in code.splitlines()
                if line.startswith("print(") and "# " in line]
    assert promised, "the example's print lines carry their output as comments"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(README), "exec"), {"__name__": "readme"})
    assert out.getvalue().splitlines() == promised
