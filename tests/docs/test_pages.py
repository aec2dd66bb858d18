"""The pages are tests (#50): every fenced ```python and ```sh block of README.md and
docs/*.md runs here as a user would run it, and what the page says it prints or writes is
checked.

- One test per page: its blocks run in page order in one fresh folder (a later block reads
  what an earlier one wrote), Python blocks as scripts in a fresh interpreter of the
  project's venv, shell blocks one command at a time (`finestate ...`, `python ...`).
- The pages show real sizes (`--n 2000`); the test runs the same commands at the sizes of
  SIZES below, the one place where it changes a command. Files a page takes as given (a
  predictions file, FineState-Bench's release) are made by GIVEN, and the few names a Python
  block takes from the prose around it by CONTEXT.
- `finestate serve` and `finestate serve-env` run until their `/health` answers (and each
  endpoint its comment names exists), then are stopped. `--agent openai` and `eval` talk
  to a stand-in chat-completions endpoint that the openai client finds through
  OPENAI_BASE_URL.
- What a page says a command writes (`# runs/gpt4o/live/report.html`) or prints
  (`print(...)  # 1.0 29 agree False`) is checked.
- A block or command that needs what this machine lacks (a GPU, a model hub, a network, an
  Android device, a cluster) carries `<!-- not-run: WHY -->` (the whole block) or
  `` <!-- not-run `PREFIX`: WHY --> `` (its commands that start with PREFIX) just above its
  fence, and docs/cli.md lists every marker; `test_the_not_run_markers_are_listed` checks
  the list against the markers.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from itertools import product
from pathlib import Path

import doc_pages
import pytest
from doc_pages import ROOT, Block, Command

BIN = Path(sys.executable).parent           # the project's venv: finestate, python
DATA = ROOT / "tests" / "data"
TIMEOUT = 300                               # seconds, any one command or block

# --- What the test changes, all of it -------------------------------------------------------

# Sizes: each (pattern, replacement) applies to every command of every page, so that the
# commands as the pages show them run on a 2-core CI in seconds. `{port}` is a free port.
SIZES = [
    (r"--n \d+", "--n 3"),
    (r"--test-n \d+", "--test-n 1"),
    (r"--episodes \d+", "--episodes 2"),
    (r"--episodes-per-type \d+", "--episodes-per-type 1"),
    (r"--sigmas [\d,]+", "--sigmas 0,16"),
    (r"--gestures \d+", "--gestures 2"),
    (r"--density \d+", "--density 2"),
    (r"--port \d+", "--port {port}"),
    # every type in every theme: two types in every theme
    (r"^(finestate gallery --scene control\b.*)$", r"\1 --component slider,checkbox"),
]
# ... and the same sizes where a page leaves the option at its default.
ADDED = {
    "run": "--episodes 2",
    "audit": "--gestures 2 --start-points 2 --density 2",
    "serve": "--port {port}",
    "serve-env": "--port {port}",
}


def _released(folder: Path) -> None:
    """FineState-Bench's released web layout: the suite's sample of it (4 records)."""
    (folder / "released").mkdir(exist_ok=True)
    shutil.copy(DATA / "finestate_bench_web.jsonl", folder / "released" / "web.jsonl")
    shutil.copytree(DATA / "images", folder / "released" / "images", dirs_exist_ok=True)


def _oracle_predictions(folder: Path) -> None:
    """A model's predictions for data/instances.jsonl: the centres of `now` and `goal`."""
    def centre(box):
        return [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2]

    rows = [json.loads(line) for line in (folder / "data" / "instances.jsonl").open()]
    (folder / "preds.jsonl").write_text("".join(
        json.dumps({"id": row["id"], "p0": centre(row["boxes"]["current"]["now"]),
                    "p1": centre(row["boxes"]["current"]["goal"]), "coords": "pixel"}) + "\n"
        for row in rows))


# Files the pages take as given: made before the first command that names them.
GIVEN = {
    "released/web.jsonl": _released,
    "preds.jsonl": _oracle_predictions,
}

# What a Python block takes from the prose around it (page, the block's first line):
# code run before it, and after it (checks of what its comments say, and clean-up).
CONTEXT = {
    ("docs/multi-step.md", 'env = gym.make("FineState-Web-v0", component="slider", '
                           'max_actions=5, reward="shaped")'): (
        "import gymnasium as gym\nimport finestate_env\n"
        "from finestate_env.agents.scripted import OracleAgent\n"
        "my_agent = OracleAgent().act      # 'my_agent': the reader's own\n",
        "env.close()\n"),
    ("docs/rl-libraries.md", "from functools import partial"): (
        "import gymnasium as gym\nimport finestate_env\n",
        "envs.reset(seed=0)\nenvs.close()\n"),
    ("docs/learning.md", "import gymnasium as gym"): (
        "",
        "# obs = {'image': uint8 (54, 96, 3), 'goal': float32 (24,)}, Discrete(32 * 18)\n"
        "said = {'image': ('uint8', (54, 96, 3)), 'goal': ('float32', (24,))}\n"
        "got = {key: (value.dtype.name, value.shape) for key, value in obs.items()}\n"
        "assert got == said, f'obs = {got}, the page says {said}'\n"
        "assert env.action_space.n == 32 * 18, env.action_space\n"
        "env.close()\n"),
    ("docs/adding-a-type.md", "from finestate_env.components.base import ComponentType, "
                              "Grab, Slot"): (
        "",
        # The sketch's members (the commented-out ones too) are ComponentType's, its methods
        # take the same parameters, and it sets every member ComponentType leaves unset.
        "import inspect\n"
        "declared = {*vars(ComponentType), *ComponentType.__annotations__}\n"
        "for member in ('relative_drag', 'goal_box_is_region', 'goal_region',\n"
        "               *[k for k in vars(Gauge) if not k.startswith('_')]):\n"
        "    assert member in declared, f'ComponentType has no {member}'\n"
        "    mine, base = vars(Gauge).get(member), getattr(ComponentType, member, None)\n"
        "    if inspect.isfunction(mine):\n"
        "        take, want = ([(p.name, p.default) for p in inspect.signature(f).parameters\n"
        "                       .values()] for f in (mine, base))\n"
        "        assert take == want, f'{member}{take}: ComponentType.{member} takes {want}'\n"
        "unset = [k for k in ComponentType.__annotations__ if not hasattr(ComponentType, k)]\n"
        "missing = [k for k in unset if k not in vars(Gauge)]\n"
        "assert not missing, f'the sketch sets no {missing}'\n"),
}

# Commands that fail because of a known bug of the program (not of the page), with the
# issue item: each must fail (a fixed one fails the test until it leaves this table).
KNOWN_BUGS: dict[tuple[str, str], str] = {
    # (page, command prefix): "#50 item N: what is wrong"
}

# --------------------------------------------------------------------------------------------


def runnable_pages() -> list[str]:
    return [doc_pages.page_name(path) for path in doc_pages.pages()
            if any(b.runs and b.not_run is None for b in doc_pages.blocks(path))]


class StandInChat:
    """A chat-completions endpoint that answers every request with the same two points."""

    ANSWER = '{"p0": [100, 100], "p1": [200, 200]}'

    def __init__(self) -> None:
        answer = self.ANSWER

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                body = json.dumps({
                    "id": "stand-in", "object": "chat.completion", "created": 0,
                    "model": "stand-in", "choices": [{
                        "index": 0, "finish_reason": "stop",
                        "message": {"role": "assistant", "content": answer}}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1,
                              "total_tokens": 2}}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def sized(command: str, port: int) -> str:
    """The command as the test runs it: SIZES, ADDED, and the optional `[...]` groups of a
    synopsis line: kept with their first alternative, or dropped when they hold a
    placeholder (`[--workers N]`)."""
    def group(found: re.Match) -> str:
        inner = found.group(1)
        if re.search(r"\b[A-Z][A-Za-z]*\b", inner):
            return ""
        return re.sub(r"(\S+?)(\|\S+)+", r"\1", inner)

    command = re.sub(r"\s*\[([^\[\]]*)\]", lambda m: " " + group(m), command).strip()
    for pattern, replacement in SIZES:
        command = re.sub(pattern, replacement, command)
    words = command.split()
    if words[0] == "finestate" and len(words) > 1:
        for option, value in re.findall(r"(--[\w-]+) (\S+)", ADDED.get(words[1], "")):
            if option not in words:
                command += f" {option} {value}"
    return command.replace("{port}", str(port))


def stated_files(comment: str) -> list[str]:
    """The files a command's comment says it writes (`rl/{trl,verl}/*.parquet`, `images/`)."""
    out = []
    for token in re.findall(r"[\w.{},*/-]+", comment):
        token = token.rstrip(".,")
        if token.startswith("/"):
            continue            # an endpoint
        parts = re.split(r"\{([^{}]*)\}", token)
        choices = [[p] if i % 2 == 0 else p.split(",") for i, p in enumerate(parts)]
        for pieces in product(*choices):
            path = "".join(pieces)
            if path.endswith("/") or Path(path).suffix in (".jsonl", ".json", ".html", ".png",
                                                           ".parquet"):
                out.append(path)
    return out


def stated_endpoints(comment: str) -> list[tuple[str, str]]:
    return re.findall(r"\b(GET|POST) (/\w+)", comment)


class PageRun:
    """One page's blocks, run in order in one folder."""

    def __init__(self, page: str, folder: Path, chat: StandInChat) -> None:
        self.page, self.folder = page, folder
        self.env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}",
                    "OPENAI_API_KEY": "doc-test-stand-in", "OPENAI_BASE_URL": chat.url}
        self.failures: list[str] = []
        self.expected_failures: list[str] = []
        # The repository's scripts, where a page's `python examples/...` finds them.
        for name in ("examples", "benchmarks"):
            (folder / name).symlink_to(ROOT / name)

    def fail(self, where: str, what: str, result=None) -> None:
        text = f"{where}: {what}"
        if result is not None:
            out = ((result.stdout or "") + (result.stderr or "")).strip()
            text += f" (exit {result.returncode})\n    " + "\n    ".join(out.splitlines()[-25:])
        self.failures.append(text)

    def block(self, block: Block) -> None:
        if block.lang in doc_pages.PYTHON:
            self.python(block)
        else:
            for command in block.commands():
                if command.not_run is None:
                    self.command(block, command)

    def python(self, block: Block) -> None:
        before, after = CONTEXT.get((block.page, block.first_line), ("", ""))
        script = self.folder / f"block{block.index}.py"
        script.write_text(before + block.text + after)
        where = f"{block.page}:{block.line} ({block.id})"
        start = time.monotonic()
        try:
            result = subprocess.run([sys.executable, script.name], cwd=self.folder,
                                    env=self.env, capture_output=True, text=True,
                                    timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return self.fail(where, f"still running after {TIMEOUT} s")
        print(f"{time.monotonic() - start:6.1f} s  {where}")
        if result.returncode != 0:
            return self.fail(where, "the block failed", result)
        # What each print line promises: the comment after it, line for line.
        promised = [line.split("# ", 1)[1].strip() for line in block.text.splitlines()
                    if line.startswith("print(") and "# " in line]
        if promised and result.stdout.splitlines() != promised:
            self.fail(where, f"printed {result.stdout.splitlines()}, the page says {promised}")

    def command(self, block: Block, command: Command) -> None:
        where = f"{block.page}:{command.line} `{command.text}`"
        for name, make in GIVEN.items():
            if name in command.text.split() and not (self.folder / name).exists():
                make(self.folder)
        port = free_port()
        text = sized(command.text, port)
        argv = shlex.split(text)
        if argv[0] not in ("finestate", "python", "bash"):
            return self.fail(where, f"the test runs finestate, python and bash commands, not "
                                    f"{argv[0]}: mark it <!-- not-run `{argv[0]}`: WHY -->")
        if argv[0] == "python":
            argv[0] = sys.executable
        bug = next((reason for (page, prefix), reason in KNOWN_BUGS.items()
                    if page == block.page and command.text.startswith(prefix)), None)
        start = time.monotonic()
        if argv[0] == "finestate" and argv[1:2] in (["serve"], ["serve-env"]):
            failed = self.serve(where, argv, port, command.comment)
        else:
            failed = self.run(where, argv, text, command.comment)
        print(f"{time.monotonic() - start:6.1f} s  {where}")
        if bug is not None:
            if failed:
                self.failures.pop()
                self.expected_failures.append(f"{where}: {bug}")
            else:
                self.fail(where, f"passes now: take it out of KNOWN_BUGS ({bug})")

    def run(self, where: str, argv: list[str], text: str, comment: str) -> bool:
        try:
            result = subprocess.run(argv, cwd=self.folder, env=self.env, capture_output=True,
                                    text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            self.fail(where, f"still running after {TIMEOUT} s (run as `{text}`)")
            return True
        if result.returncode != 0:
            self.fail(where, f"failed (run as `{text}`)", result)
            return True
        out = None
        if "--out" in argv:
            out = self.folder / argv[argv.index("--out") + 1]
        missing = [path for path in stated_files(comment)
                   if not any(any(base.glob(path.rstrip("/")))
                              for base in (self.folder, out) if base is not None)]
        if missing:
            self.fail(where, f"the page says it writes {missing}; it did not")
            return True
        return False

    def serve(self, where: str, argv: list[str], port: int, comment: str) -> bool:
        process = subprocess.Popen(argv, cwd=self.folder, env=self.env, text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120
            while True:
                if process.poll() is not None:
                    self.fail(where, f"exited with {process.returncode} before serving: "
                                     f"{process.stdout.read()[-2000:]}")
                    return True
                try:
                    with urllib.request.urlopen(f"{base}/health", timeout=5):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        self.fail(where, "no /health after 120 s")
                        return True
                    time.sleep(0.5)
            for method, path in stated_endpoints(comment):
                request = urllib.request.Request(f"{base}{path}", method=method,
                                                 data=b"{}" if method == "POST" else None,
                                                 headers={"Content-Type": "application/json"})
                try:
                    urllib.request.urlopen(request, timeout=30).close()
                except urllib.error.HTTPError as exc:
                    if exc.code in (404, 405):
                        self.fail(where, f"the page names {method} {path}: {exc.code}")
                        return True
            return False
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.communicate()


@pytest.fixture(scope="module")
def chat():
    server = StandInChat()
    yield server
    server.close()


@pytest.mark.parametrize("page", runnable_pages())
def test_the_page_runs_as_written(page, tmp_path, chat):
    run = PageRun(page, tmp_path, chat)
    for block in doc_pages.blocks(ROOT / page):
        if block.runs and block.not_run is None:
            run.block(block)
    if run.failures:
        pytest.fail(f"{page}: {len(run.failures)} failed\n" + "\n".join(run.failures),
                    pytrace=False)
    if run.expected_failures:
        pytest.xfail("; ".join(run.expected_failures))


@pytest.mark.fast
def test_every_block_either_runs_or_says_why_not():
    """Every ```python and ```sh block is run by the test above unless marked; a marker
    stands just above a fence of a block the test would run, and a prefix marker names
    commands of its block; a block in another language is text (a transcript, a diagram)."""
    problems = []
    attached = set()
    for block in doc_pages.all_blocks():
        for marker in block.markers:
            attached.add((marker.page, marker.line))
            if not block.runs:
                problems.append(f"{block.page}:{marker.line}: marks a ```{block.lang} block, "
                                "which the test never runs")
            elif marker.prefix is not None and block.lang not in doc_pages.SHELL:
                problems.append(f"{block.page}:{marker.line}: a prefix marks commands of a "
                                "shell block; mark a Python block whole")
            elif marker.prefix is not None and not any(
                    c.not_run == marker for c in block.commands()):
                problems.append(f"{block.page}:{marker.line}: no command of the block starts "
                                f"with `{marker.prefix}`")
    for marker in doc_pages.all_markers():
        if marker.reason.startswith("MALFORMED"):
            problems.append(f"{marker.page}:{marker.line}: {marker.reason}")
        elif (marker.page, marker.line) not in attached:
            problems.append(f"{marker.page}:{marker.line}: not just above a fence")
    assert problems == []


@pytest.mark.fast
def test_the_tables_above_name_blocks_and_commands_of_the_pages():
    """A CONTEXT entry names a Python block that runs, a KNOWN_BUGS entry commands that run:
    an entry the pages no longer match would change nothing, silently."""
    blocks = [b for b in doc_pages.all_blocks() if b.runs and b.not_run is None]
    contexts = {(b.page, b.first_line) for b in blocks if b.lang in doc_pages.PYTHON}
    commands = [(b.page, c.text) for b in blocks if b.lang in doc_pages.SHELL
                for c in b.commands() if c.not_run is None]
    assert sorted(set(CONTEXT) - contexts) == [], "CONTEXT entries that match no block"
    assert [key for key in KNOWN_BUGS if not any(
        page == key[0] and text.startswith(key[1]) for page, text in commands)] == []


# Where the markers are listed: one table, in docs/cli.md.
LIST_HEADING = "## What the documentation test does not run"


def listed_markers() -> set[tuple[str, str, str]]:
    text = doc_pages.CLI_PAGE.read_text()
    assert LIST_HEADING in text, f"docs/cli.md has no section {LIST_HEADING!r}"
    section = text.split(LIST_HEADING, 1)[1].split("\n## ", 1)[0]
    rows = set()
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 3 and not set(cells[0]) <= set("-") \
                and cells[0] != "page":
            rows.add((cells[0].strip("`[]").split("](")[0], cells[1].strip("`"), cells[2]))
    return rows


@pytest.mark.fast
def test_the_not_run_markers_are_listed():
    """docs/cli.md's table lists each marker: its page, the block's first line or the
    commands' prefix, and the reason, word for word; a reason `run by tests/X.py` names a
    test file that runs it."""
    markers = set()
    problems = []
    for block in doc_pages.all_blocks():
        for marker in block.markers:
            what = marker.prefix if marker.prefix is not None else block.label
            markers.add((block.page, what, marker.reason))
            if found := re.search(r"run by (tests/\S+\.py)", marker.reason):
                test = ROOT / found.group(1)
                script = re.search(r"examples/(\S+)", what)
                if not test.exists() or (script and script.group(1) not in test.read_text()):
                    problems.append(f"{block.page}:{marker.line}: {found.group(1)} does not "
                                    f"run {what}")
    listed = listed_markers()
    assert problems == []
    assert sorted(markers - listed) == [], "markers that docs/cli.md does not list"
    assert sorted(listed - markers) == [], "docs/cli.md lists markers that no page has"


def test_the_multi_step_transcript_is_what_the_oracle_does():
    """docs/multi-step.md's transcript (a text block: what the oracle's episode prints), run
    with the settings its paragraph names, number for number."""
    import gymnasium as gym

    import finestate_env  # noqa: F401 (registers the ids)
    from finestate_env.agents.scripted import OracleAgent

    page = (ROOT / "docs" / "multi-step.md").read_text()
    block = next(b for b in doc_pages.blocks(ROOT / "docs" / "multi-step.md")
                 if b.first_line.startswith("oracle_actions"))
    paragraph = page[:page.index(block.text)].rsplit("\n\n", 2)[-2]
    settings = {key: json.loads(value) for key, value in
                re.findall(r"`(\w+)=([^`]+)`", paragraph)}
    seed = int(re.search(r"seed (\d+)", paragraph).group(1))
    head = re.match(r"oracle_actions (\d+) · current (\S+) · goal (\S+) · distance ([\d.]+)",
                    block.first_line)
    steps = re.findall(r"step (\d+)\s+p1 \(([\d.]+), ([\d.]+)\).*?state (\S+)\s+distance "
                       r"([\d.]+)\s+reward ([\d.]+)", block.text)
    assert head and steps and settings, "the transcript's layout changed: change this test"

    def plain(state) -> str:
        return str(state).strip('"')

    env = gym.make("FineState-Web-v0", **settings)
    try:
        obs, info = env.reset(seed=seed)
        said = [head.group(1), head.group(2), head.group(3), float(head.group(4))]
        done = [str(info["oracle_actions"]), plain(info["current_state"]),
                plain(info["goal_state"]), round(info["distance"], 3)]
        assert done == said, f"the episode starts {done}, the page says {said}"
        agent, finished = OracleAgent(), False
        for number, x, y, state, distance, reward in steps:
            assert not finished, f"the episode ended before step {number}"
            action = agent.act(obs, info)
            obs, got, terminated, truncated, info = env.step(action)
            did = [[float(v) for v in action["p1"]], plain(info["state"]),
                   round(info["distance"], 3), round(got, 3)]
            page_said = [[float(x), float(y)], state, float(distance), float(reward)]
            assert did == page_said, f"step {number}: {did}, the page says {page_said}"
            finished = terminated or truncated
        assert finished, "the episode goes on past the page's last step"
    finally:
        env.close()


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.fast
def test_speed_figures_live_in_figures_md():
    """docs/figures.md is the one place of the speed figures (episodes/s, rewards/s, env
    steps/s): a section of another page that gives one links to it, and every link to one
    of its sections finds that section."""
    figures = ROOT / "docs" / "figures.md"
    anchors = {_anchor(line.lstrip("#")) for line in figures.read_text().splitlines()
               if line.startswith("#")}
    speed = re.compile(r"(?<![\w/])(?:episodes|rewards|env steps)/s\b")
    problems = []
    for path in doc_pages.pages():
        name = doc_pages.page_name(path)
        text = path.read_text()
        for target in re.findall(r"\]\((?:docs/)?figures\.md#([^)]+)\)", text):
            if target not in anchors:
                problems.append(f"{name}: figures.md#{target} is no section of figures.md")
        if path == figures:
            continue
        prose = re.sub(r"```.*?```", "", text, flags=re.S)
        for section in re.split(r"\n(?=#+ )", prose):
            if speed.search(section) and "figures.md" not in section:
                problems.append(f"{name}: section {section.splitlines()[0][:60]!r} gives "
                                "speed figures without a link to docs/figures.md")
    assert problems == []
