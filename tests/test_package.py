"""The installed distribution as a new user meets it: one import root, registration the
Gymnasium 1.x way, nothing run at interpreter start, layers checked by import-linter."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from finestate_env import ENV_IDS

# Needs no browser, X display, device or JDK: the fast tier (make test-fast).
pytestmark = pytest.mark.fast

ROOT = Path(__file__).resolve().parents[1]


def _fresh(code: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run `code` in a fresh interpreter of this venv, outside the checkout unless `cwd`."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=cwd or Path("/"), timeout=120)


@pytest.mark.parametrize("idiom", [
    "import finestate_env",
    "import finestate_env; gym.register_envs(finestate_env)",
])
def test_importing_the_package_registers_every_id(idiom):
    result = _fresh(f"import gymnasium as gym; {idiom}; "
                    f"missing = [i for i in {list(ENV_IDS)!r} if i not in gym.registry]; "
                    "import sys; print(missing); "
                    # Registration names the env by a string: no backend, no env module yet.
                    "assert 'finestate_env.env.environment' not in sys.modules; "
                    "assert 'playwright' not in sys.modules; sys.exit(1 if missing else 0)")
    assert result.returncode == 0, result.stdout + result.stderr


def test_nothing_is_registered_before_the_package_is_imported():
    # Nothing of the project runs at interpreter start (no .pth hook): gymnasium
    # alone knows no FineState id.
    result = _fresh("import gymnasium as gym, sys; "
                    f"print(sorted(i for i in {list(ENV_IDS)!r} if i in gym.registry)); "
                    "print(sorted(m for m in sys.modules if m.startswith('finestate')))")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["[]", "[]"]


def test_importtime_of_gymnasium_imports_nothing_of_the_project():
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", "import gymnasium"],
                            capture_output=True, text=True, cwd="/", timeout=120)
    assert result.returncode == 0
    ours = [line for line in result.stderr.splitlines()
            if any(name in line for name in ("finestate", "widgets", "replay", "__editable__"))]
    assert ours == []


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_make_with_module_prefix_and_make_vec(env_id):
    # gym.make("module:ID") imports the module itself; make_vec must find the id too.
    result = _fresh(
        "import gymnasium as gym; "
        f"env = gym.make('finestate_env:{env_id}'); env.close(); "
        f"vec = gym.make_vec('finestate_env:{env_id}', num_envs=1, "
        "vectorization_mode='sync'); print(vec.num_envs); vec.close()")
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().splitlines()[-1] == "1"


def test_the_code_lives_where_its_import_paths_say_and_the_top_folders_link_to_it():
    # finestate_env.components and finestate_env.replay are real folders, so that lint,
    # coverage and tracebacks see the paths git lists; widgets/ and replay/ at the
    # repository's top are links to them, for the paths the docs and comments name.
    result = _fresh("import finestate_env.components as c, finestate_env.replay.probe as p; "
                    "print(c.__file__); print(p.__file__)", cwd=ROOT)
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.split()
    assert Path(first) == ROOT / "finestate_env" / "components" / "__init__.py"
    assert Path(second) == ROOT / "finestate_env" / "replay" / "probe.py"
    for link, target in (("widgets", "finestate_env/components"),
                         ("replay", "finestate_env/replay")):
        assert (ROOT / link).is_symlink() and (ROOT / link).readlink() == Path(target)
    for package in ("components", "replay"):
        assert not (ROOT / "finestate_env" / package).is_symlink()


def test_the_wheel_holds_one_import_root_and_no_pth(tmp_path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(tmp_path), str(ROOT)], check=True, timeout=300)
    (wheel,) = tmp_path.glob("finestate_env-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(
        ".dist-info")}
    assert tops == {"finestate_env"}
    assert not [n for n in names if n.endswith(".pth")]
    assert not [n for n in names if "__pycache__" in n]
    # The component types, their web and Qt renderers and the report template are inside.
    for needed in ("finestate_env/components/slider.py", "finestate_env/components/web/slider.js",
                   "finestate_env/components/web/stage.html", "finestate_env/components/qt/app.py",
                   "finestate_env/replay/templates/report.html.j2",
                   "finestate_env/cli/commands/run.py"):
        assert needed in names
    # make bench's and make soak's tools stay in the checkout (benchmarks/), under no name.
    tools = {path.stem for path in (ROOT / "benchmarks").glob("*.py")} - {"__init__"}
    assert {"bench", "peer_bench", "soak"} <= tools
    assert not [name for name in names if Path(name).stem in tools]
    entry_points = zipfile.ZipFile(wheel).read(
        next(n for n in names if n.endswith("entry_points.txt"))).decode()
    assert "gymnasium.envs" not in entry_points  # dead on gymnasium >= 1.0
    assert "finestate = finestate_env.cli.main:main" in entry_points


def test_layers_hold(tmp_path):
    # import-linter's contracts are in pyproject.toml; a module importing from a layer
    # above its own breaks them.
    lint_imports = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    result = subprocess.run([lint_imports, "--no-cache"], capture_output=True, text=True,
                            cwd=ROOT, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "Contracts: 2 kept, 0 broken." in result.stdout
