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


def test_the_readme_is_a_front_door_of_at_most_250_lines():
    assert len(README.read_text().splitlines()) <= 250


def test_every_relative_link_of_the_readme_and_the_docs_resolves():
    pages = [README, *sorted((README.parent / "docs").rglob("*.md"))]
    broken = [(page.name, target) for page in pages
              for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", page.read_text())
              if not target.startswith(("http://", "https://"))
              and not (page.parent / target).exists()]
    assert broken == []
