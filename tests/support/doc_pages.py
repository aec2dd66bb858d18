"""The documentation's fenced blocks, read as the doc test runs them (tests/docs).

- `blocks(page)`: every fenced block of README.md or docs/*.md with its page, index, line
  and language, and the `<!-- not-run ... -->` markers on the lines just above its fence:
  `<!-- not-run: REASON -->` leaves the whole block out, `` <!-- not-run `PREFIX`: REASON
  --> `` the block's commands that start with PREFIX.
- `Block.commands()`: a shell block's commands, continuation lines joined, each with the
  comment written after it (on its line, or on the comment lines right below it) and the
  marker that leaves it out, if any.
- `options_section()`: the options of every `finestate` command as docs/cli.md lists them,
  generated from the parser (finestate_env/cli/main.py); `python tests/support/doc_pages.py
  --write-cli` writes it into docs/cli.md, and tests/docs/test_cli_help.py checks it.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLI_PAGE = ROOT / "docs" / "cli.md"
# The block kinds the test runs; a fence with no language (a diagram, a transcript, a
# config excerpt) is text, never run.
PYTHON = ("python",)
SHELL = ("sh", "bash", "console", "shell")

_FENCE = re.compile(r"^(?P<indent>\s*)```(?P<lang>[\w+-]*)\s*$")
_MARKER = re.compile(r"^\s*<!-- not-run(?: `(?P<prefix>[^`]+)`)?: (?P<reason>.+?) -->\s*$")


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def page_name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@dataclass(frozen=True)
class Marker:
    page: str
    line: int                 # the marker's own line in the page
    prefix: str | None        # None: the whole block
    reason: str


@dataclass(frozen=True)
class Command:
    text: str                 # continuation lines joined, comment removed
    line: int                 # the page line it starts on
    comment: str              # what the page says after it (its output, often)
    not_run: Marker | None


@dataclass(frozen=True)
class Block:
    page: str
    index: int                # the block's place among the page's fences, from 0
    line: int                 # the opening fence's line in the page
    lang: str
    text: str
    markers: tuple[Marker, ...] = field(default=())

    @property
    def first_line(self) -> str:
        return next((line.strip() for line in self.text.splitlines() if line.strip()), "")

    @property
    def label(self) -> str:
        """The first line without its comment: how docs/cli.md's list names the block."""
        return split_comment(self.first_line)[0] if self.lang in SHELL else self.first_line

    @property
    def id(self) -> str:
        first = self.first_line
        return f"{self.page}#{self.index}:{first[:60]}{'...' if len(first) > 60 else ''}"

    @property
    def runs(self) -> bool:
        return self.lang in PYTHON + SHELL

    @property
    def not_run(self) -> Marker | None:
        """The marker that leaves the whole block out."""
        return next((m for m in self.markers if m.prefix is None), None)

    def commands(self) -> list[Command]:
        """A shell block's commands in order (blank lines and lone comments dropped)."""
        out: list[Command] = []
        lines = self.text.splitlines()
        i, attach = 0, False
        while i < len(lines):
            start = i
            text = lines[i].rstrip()
            while text.endswith("\\") and i + 1 < len(lines):
                i += 1
                text = text[:-1].rstrip() + " " + lines[i].strip()
            i += 1
            stripped = text.strip()
            if not stripped:
                attach = False
                continue
            if stripped.startswith("#"):
                if attach:      # a comment line right below a command says more of it
                    last = out[-1]
                    out[-1] = Command(last.text, last.line,
                                      f"{last.comment} {stripped[1:].strip()}".strip(),
                                      last.not_run)
                continue
            command, comment = split_comment(stripped)
            marker = next((m for m in self.markers
                           if m.prefix is not None and command.startswith(m.prefix)), None)
            out.append(Command(command, self.line + 1 + start, comment, marker))
            attach = True
        return out


def split_comment(line: str) -> tuple[str, str]:
    """`cmd --x 1   # what it does` -> ("cmd --x 1", "what it does"); quotes respected."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1:].strip()
    return line, ""


def blocks(path: Path) -> list[Block]:
    name = page_name(path)
    lines = path.read_text().splitlines()
    out: list[Block] = []
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, lang = opening["indent"], opening["lang"]
        markers = []
        j = i - 1
        while j >= 0 and (found := _MARKER.match(lines[j])):
            markers.insert(0, Marker(name, j + 1, found["prefix"], found["reason"]))
            j -= 1
        body = []
        k = i + 1
        while k < len(lines) and lines[k].strip() != "```":
            body.append(lines[k][len(indent):] if lines[k].startswith(indent) else lines[k])
            k += 1
        out.append(Block(name, len(out), i + 1, lang, "\n".join(body) + "\n", tuple(markers)))
        i = k + 1
    return out


def all_blocks() -> list[Block]:
    return [block for path in pages() for block in blocks(path)]


def all_markers(text_of=None) -> list[Marker]:
    """Every `<!-- not-run ... -->` in the pages, wherever it stands (one that is not just
    above a fence marks nothing, and the test says so)."""
    out = []
    for path in pages():
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if not line.lstrip().startswith("<!-- not-run"):
                continue
            if found := _MARKER.match(line):
                out.append(Marker(page_name(path), number, found["prefix"], found["reason"]))
            else:
                out.append(Marker(page_name(path), number, None, f"MALFORMED: {line.strip()}"))
    return out


# ---------------------------------------------------------------------------------------------
# docs/cli.md's list of options, generated from the parser

OPTIONS_BEGIN = "<!-- options: generated from the parser by `python tests/support/doc_pages.py " \
                "--write-cli`; tests/docs/test_cli_help.py checks it -->"
OPTIONS_END = "<!-- /options -->"


def subparsers() -> dict[str, argparse.ArgumentParser]:
    from finestate_env.cli.main import build_parser

    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def option_words(action: argparse.Action) -> str:
    """`--agent {oracle,random}`, `--n`, `INSTANCES`: an option as docs/cli.md lists it."""
    if not action.option_strings:
        return (action.metavar or action.dest).upper()
    name = max(action.option_strings, key=len)
    if action.choices is not None and action.nargs != 0:
        return name + " {" + ",".join(map(str, action.choices)) + "}"
    return name


def command_help(name: str) -> str:
    from finestate_env.cli.main import build_parser

    action = next(a for a in build_parser()._actions
                  if isinstance(a, argparse._SubParsersAction))
    return next((a.help or "" for a in action._choices_actions if a.dest == name), "")


def options_section() -> str:
    """One line per command: what `finestate --help` says of it, and its arguments."""
    rows = []
    for name, parser in subparsers().items():
        takes = [option_words(a) for a in parser._actions if not a.option_strings]
        words = [option_words(a) for a in parser._actions
                 if a.option_strings and not isinstance(a, argparse._HelpAction)]
        rows.append(f"- `finestate {' '.join([name, *takes])}`: {command_help(name)}. "
                    "Options: " + ", ".join(f"`{w}`" for w in words))
    return "\n".join([OPTIONS_BEGIN, *rows, OPTIONS_END])


def listed_options(section: str) -> dict[str, set[str]]:
    """The options each command's line of the section names."""
    out = {}
    for line in section.splitlines():
        if found := re.match(r"- `finestate ([\w-]+)`", line):
            out[found.group(1)] = set(re.findall(r"(?<![\w-])--[\w-]+", line))
    return out


def parser_options(parser: argparse.ArgumentParser) -> set[str]:
    return {option for action in parser._actions for option in action.option_strings
            if option.startswith("--")}


def written_options_section(text: str | None = None) -> str | None:
    text = CLI_PAGE.read_text() if text is None else text
    begin, end = text.find(OPTIONS_BEGIN), text.find(OPTIONS_END)
    if begin < 0 or end < 0:
        return None
    return text[begin:end + len(OPTIONS_END)]


def write_cli() -> None:
    text = CLI_PAGE.read_text()
    old = written_options_section(text)
    if old is None:
        raise SystemExit(f"{CLI_PAGE}: no {OPTIONS_BEGIN!r} ... {OPTIONS_END!r} to replace")
    CLI_PAGE.write_text(text.replace(old, options_section()))


if __name__ == "__main__":
    if sys.argv[1:] == ["--write-cli"]:
        write_cli()
    else:
        print(options_section())
