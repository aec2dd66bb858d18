"""OpenEnv's own BrowserGym server (third_party/openenv/envs/browsergym_env), as
benchmarks/openenv_bench.py runs it: MiniWoB++ pages served on loopback, Debian's
Chromium in place of Playwright's download, OpenEnv's `server/app.py` app under uvicorn.

Run by the BrowserGym venv's interpreter (make's .venv-browsergym: BrowserGym's pins
would move ours), as a script, so that it imports only the standard library before
the upstream code:

    .venv-browsergym/bin/python benchmarks/openenv_browsergym_server.py --port 8000 \
        --task click-checkboxes [--tuned] [--max-sessions 16]

What it changes, and nothing more (openenv_bench.py's docstring says why):

- the MiniWoB++ HTML (the `miniwob` package's html/ folder) is served over HTTP on
  loopback from a thread of this process, as the upstream Dockerfile's start.sh serves
  it with `python -m http.server` beside the app, and MINIWOB_URL names it;
- Playwright 1.44 (BrowserGym's pin) finds Debian's `chromium` where it looks for its own
  build (PLAYWRIGHT_BROWSERS_PATH with a link at its revision's path): BrowserGym
  launches two browsers per env (the page's and its chat window's), and only this way
  do both use Debian's;
- the observation's metadata goes through `_json_safe` (numpy arrays as lists): the
  upstream env puts BrowserGym's `active_page_index` and `elapsed_time` (numpy arrays)
  in it, which OpenEnv 0.10.0's WS reply (`model_dump_json`) cannot serialize: every
  reset fails with "Unable to serialize unknown type: <class 'numpy.ndarray'>";
- `--tuned`: BrowserGym's own public knobs `pre_observation_delay=0` (default: a 0.5 s
  sleep in every step) and `slow_mo=0` (MiniWoB tasks: 100 ms per Playwright
  operation), passed to the upstream env's constructor (its **gym_kwargs).

The app, the env class, its models and OpenEnv's `create_app` are the upstream ones:
the env class is replaced by a subclass (the two changes above) before app.py imports it.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import importlib.util
import json
import os
import shutil
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UPSTREAM = ROOT / "third_party" / "openenv" / "envs"  # holds the browsergym_env package


def miniwob_html() -> Path:
    """The `miniwob` package's html/ folder (its files only: the package is not imported)."""
    spec = importlib.util.find_spec("miniwob")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("the miniwob package (its MiniWoB++ HTML) is not installed in "
                         f"{sys.prefix}: make .venv-browsergym")
    html = Path(next(iter(spec.submodule_search_locations))) / "html"
    if not (html / "miniwob").is_dir():
        raise SystemExit(f"no MiniWoB++ pages in {html}")
    return html


def serve_html(folder: Path) -> int:
    """Serve `folder` on 127.0.0.1 from a daemon thread; returns the port."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Quiet, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server.server_address[1]


def debian_chromium_for_playwright() -> Path:
    """A browsers folder where Playwright finds Debian's chromium at its own revision."""
    import playwright

    browsers = Path(playwright.__file__).parent / "driver" / "package" / "browsers.json"
    revision = next(b["revision"] for b in json.loads(browsers.read_text())["browsers"]
                    if b["name"] == "chromium")
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("Debian's chromium is not installed (apt-get install chromium)")
    folder = Path(sys.prefix) / "ms-playwright"
    link = folder / f"chromium-{revision}" / "chrome-linux" / "chrome"
    link.parent.mkdir(parents=True, exist_ok=True)
    if not link.is_symlink() or os.readlink(link) != chromium:
        tmp = link.with_name("chrome.tmp")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(chromium)
        tmp.replace(link)
    return folder


def _json_safe(value):
    """`value` with numpy arrays and scalars as lists and Python numbers."""
    if isinstance(value, dict):
        return {key: _json_safe(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_json_safe(item) for item in value]
    if hasattr(value, "tolist"):  # numpy arrays and numpy scalars
        return value.tolist()
    return value


def patch_upstream(gym_kwargs: dict) -> None:
    """Replace the upstream env class by a subclass with JSON-safe metadata and
    `gym_kwargs` added to its constructor's, before server/app.py imports it."""
    sys.path.insert(0, str(UPSTREAM))
    from browsergym_env.server import browsergym_environment as upstream

    base = upstream.BrowserGymEnvironment

    class BenchBrowserGymEnvironment(base):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **{**gym_kwargs, **kwargs})

        def _create_observation(self, obs, info, done, reward):
            observation = super()._create_observation(obs, info, done, reward)
            observation.metadata = _json_safe(observation.metadata)
            return observation

    BenchBrowserGymEnvironment.__name__ = base.__name__
    upstream.BrowserGymEnvironment = BenchBrowserGymEnvironment


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--task", default="click-checkboxes", help="a MiniWoB++ task name")
    parser.add_argument("--max-sessions", type=int, default=16, help="MAX_CONCURRENT_ENVS")
    parser.add_argument("--viewport", default="1280x720",
                        help="WxH CSS px (server/app.py's default 1280x720; MiniWoB's own: "
                             "332x214)")
    parser.add_argument("--tuned", action="store_true",
                        help="pre_observation_delay=0 and slow_mo=0 (BrowserGym's own kwargs)")
    args = parser.parse_args(argv)

    os.environ["MINIWOB_URL"] = f"http://127.0.0.1:{serve_html(miniwob_html())}/miniwob/"
    os.environ["PLAYWRIGHT_BROWSERS_PATH"] = str(debian_chromium_for_playwright())
    # server/app.py reads its settings from the environment (the upstream Dockerfile's).
    width, height = args.viewport.split("x")
    os.environ.update({"BROWSERGYM_BENCHMARK": "miniwob", "BROWSERGYM_TASK_NAME": args.task,
                       "BROWSERGYM_HEADLESS": "true", "MAX_CONCURRENT_ENVS":
                       str(args.max_sessions), "BROWSERGYM_VIEWPORT_WIDTH": width,
                       "BROWSERGYM_VIEWPORT_HEIGHT": height})
    patch_upstream({"pre_observation_delay": 0.0, "slow_mo": 0} if args.tuned else {})
    import uvicorn
    from browsergym_env.server.app import app

    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
