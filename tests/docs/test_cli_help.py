"""`finestate COMMAND --help` and the pages agree (#50): both come from one definition, the
parser the command modules build (finestate_env/cli/main.py, cli/commands/).

- docs/cli.md's list of every command's options is generated from the parser
  (`python tests/support/doc_pages.py --write-cli`) and must equal what it generates now:
  an option added, renamed or removed in the program and not on the page fails, naming it.
- Every `finestate COMMAND --option` a page writes (in any fenced shell block, marked
  not-run or not, and in inline code), and every `--option` docs/cli.md's prose gives a
  command, is an option of that command's parser.
"""

from __future__ import annotations

import re

import doc_pages
import pytest
from doc_pages import CLI_PAGE, ROOT

pytestmark = pytest.mark.fast

WRITE = "python tests/support/doc_pages.py --write-cli"


@pytest.fixture(scope="module")
def parsers():
    return doc_pages.subparsers()


def test_docs_cli_lists_every_option_of_every_command(parsers):
    written = doc_pages.written_options_section()
    assert written is not None, f"docs/cli.md has no options list: add its two markers, {WRITE}"
    generated = doc_pages.options_section()
    if written == generated:
        return
    page, program = doc_pages.listed_options(written), doc_pages.listed_options(generated)
    problems = [f"command {name}: not on the page" for name in program if name not in page]
    problems += [f"command {name}: on the page, not in the program"
                 for name in page if name not in program]
    for name in sorted(set(page) & set(program)):
        if missing := sorted(program[name] - page[name]):
            problems.append(f"finestate {name} --help has {missing}, docs/cli.md does not")
        if extra := sorted(page[name] - program[name]):
            problems.append(f"docs/cli.md gives finestate {name} {extra}, its parser has not")
    problems.append("otherwise the wording (help texts, choices) changed")
    pytest.fail(f"docs/cli.md's options list is not the parser's; run `{WRITE}`\n  "
                + "\n  ".join(problems))


def test_every_command_has_a_help(parsers):
    """`finestate COMMAND --help` prints; and `finestate --help` names every command."""
    for name, parser in parsers.items():
        assert parser.format_help().startswith(f"usage: finestate {name}"), name
        assert doc_pages.command_help(name), f"finestate {name} has no help line"


def _commands_in(text: str) -> list[str]:
    """`finestate COMMAND ...` as written in shell lines and inline code."""
    return [found.group(0) for found in
            re.finditer(r"(?<![\w/-])finestate ([A-Za-z][\w-]*)([^`\n|]*)", text)]


def _written_commands() -> list[tuple[str, str]]:
    """(where, command) for every finestate command a page writes."""
    out = []
    for path in doc_pages.pages():
        name = doc_pages.page_name(path)
        for block in doc_pages.blocks(path):
            if block.lang in doc_pages.SHELL:
                for command in block.commands():
                    for written in _commands_in(command.text):
                        out.append((f"{name}:{command.line}", written))
        prose = re.sub(r"```.*?```", "", path.read_text(), flags=re.S)
        section = doc_pages.written_options_section(prose) or ""
        prose = prose.replace(section, "")
        for span in re.findall(r"`([^`]+)`", prose):
            for written in _commands_in(" ".join(span.split())):
                out.append((name, written))
    return out


def test_every_option_a_page_gives_a_command_is_one_of_its_options(parsers):
    problems = []
    for where, written in _written_commands():
        name = written.split()[1]
        if name not in parsers:
            if not re.fullmatch(r"[A-Z_]+|COMMAND", name):      # `finestate COMMAND --help`
                problems.append(f"{where}: `{written}`: no command {name}")
            continue
        known = doc_pages.parser_options(parsers[name])
        for option in re.findall(r"(?<![\w-])--[\w-]+", written):
            if option not in known:
                problems.append(f"{where}: `{written}`: finestate {name} has no {option}")
    assert problems == []


def _sentences(text: str) -> list[str]:
    return re.split(r"(?<=[.;])\s+(?=[A-Z`])", " ".join(text.split()))


def test_every_option_docs_cli_names_in_its_prose_is_its_commands(parsers):
    """An option in docs/cli.md's prose belongs to the command its sentence names (`run
    --out DIR`, "`serve` binds ... unless `--host`"); a sentence that names none speaks of
    every command that reads a file, and its option must be one of some command's."""
    text = CLI_PAGE.read_text()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = text.replace(doc_pages.written_options_section(text) or "", "")
    text = text.split("## What the documentation test does not run")[0]
    every = set().union(*(doc_pages.parser_options(p) for p in parsers.values()))
    problems = []
    for paragraph in text.split("\n\n"):
        for sentence in _sentences(paragraph):
            spans = re.findall(r"`([^`]+)`", sentence)
            named = [span.split()[0] for span in spans if span.split()[0] in parsers]
            for span in spans:
                for option in re.findall(r"(?<![\w-])--[\w-]+", span):
                    owner = span.split()[0] if span.split()[0] in parsers else \
                        (named[-1] if named else None)
                    known = doc_pages.parser_options(parsers[owner]) if owner else every
                    if option not in known:
                        problems.append(f"docs/cli.md: {option} ({owner or 'no command'}): "
                                        f"{sentence[:100]}")
    assert problems == []


def test_the_pages_are_the_ones_the_doc_test_reads():
    assert (ROOT / "README.md") in doc_pages.pages() and CLI_PAGE in doc_pages.pages()
