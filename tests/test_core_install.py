"""The core install as a new user meets it: `pip install finestate-env` in a fresh venv
makes and steps the web env with no Qt, adb, OpenAI client or Playwright, and a feature
whose extra is missing says the `pip install 'finestate-env[...]'` to run (issue #35).

The venv is made once for the module from the wheel of this checkout; pip takes the core
dependencies from its cache or the registry, as a user's pip does."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OPTIONAL = ("PySide6", "pyautogui", "Xlib", "adbutils", "openai", "matplotlib", "jinja2",
            "playwright", "websockets", "pyarrow", "fastapi", "uvicorn", "torch", "ray")


@pytest.fixture(scope="module")
def core_python(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("core-install")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(folder / "wheel"), str(ROOT)], check=True, timeout=300)
    [wheel] = (folder / "wheel").glob("finestate_env-*.whl")
    venv.create(folder / "venv", with_pip=True)
    python = folder / "venv" / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(wheel)], check=True,
                   timeout=600)
    return python


def run(python: Path, code: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(python), "-c", code], capture_output=True, text=True,
                          cwd="/", timeout=300)


def test_the_core_install_makes_and_steps_the_web_env_without_the_extras(core_python):
    result = run(core_python, f"""
import importlib.util, json
import gymnasium as gym, numpy as np, finestate_env
env = gym.make("FineState-Web-v0", component="switch")
obs, info = env.reset(seed=0)
boxes = info["boxes"]["current"]
point = np.array([(boxes["goal"][0] + boxes["goal"][2]) / 2,
                  (boxes["goal"][1] + boxes["goal"][3]) / 2], np.float32)
_, reward, terminated, _, step = env.step({{"p0": point, "p1": point}})
env.close()
missing = [m for m in {OPTIONAL!r} if importlib.util.find_spec(m) is None]
print(json.dumps({{"shape": list(obs["screenshot"].shape), "reward": reward,
                   "terminated": terminated, "missing": missing}}))
""")
    assert result.returncode == 0, result.stderr[-3000:]
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary == {"shape": [720, 1280, 3], "reward": 1.0, "terminated": True,
                       "missing": list(OPTIONAL)}


def test_the_vector_envs_on_the_gymnasium_the_core_install_takes(core_python):
    """The newest Gymnasium the bound admits (the main venv has Ray's pin, 1.2.2): make_vec's
    own vector env in both autoreset modes, env i as a single env of seed i, and the
    AsyncVectorEnv whose close survives a dead worker. The fake backend: no browser."""
    result = run(core_python, """
import json
from functools import partial
import gymnasium as gym, numpy as np, finestate_env
from gymnasium.vector import AutoresetMode
from finestate_env.env.async_vector import AsyncVectorEnv
report = {"gymnasium": gym.__version__}
for mode in (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP):
    vec = gym.make_vec("FineState-Web-v0", num_envs=3, backend="fake", autoreset_mode=mode)
    obs, infos = vec.reset(seed=5)
    singles = [gym.make("FineState-Web-v0", backend="fake") for _ in range(3)]
    same = all(np.array_equal(obs["screenshot"][i], s.reset(seed=5 + i)[0]["screenshot"])
               for i, s in enumerate(singles))
    ends = [vec.step(vec.action_space.sample())[2].tolist() for _ in range(2)]
    report[mode.name] = {"type": type(vec).__name__, "same_as_single": same, "ends": ends}
    vec.close()
    for single in singles:
        single.close()
env_fns = [partial(gym.make, "FineState-Web-v0", backend="fake")] * 2
vec = AsyncVectorEnv(env_fns, shared_memory=False)
vec.reset(seed=0)
report["async"] = vec.step(vec.action_space.sample())[2].tolist()
vec.close()
print(json.dumps(report))
""")
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["gymnasium"].startswith("1.4.")
    # one gesture per episode: every step ends it; NEXT_STEP's next step is the reset
    assert report["NEXT_STEP"] == {"type": "ConcurrentVectorEnv", "same_as_single": True,
                                   "ends": [[True] * 3, [False] * 3]}
    assert report["SAME_STEP"] == {"type": "ConcurrentVectorEnv", "same_as_single": True,
                                   "ends": [[True] * 3, [True] * 3]}
    assert report["async"] == [True, True]


@pytest.mark.parametrize("code, extra", [
    ("import gymnasium as gym, finestate_env; gym.make('FineState-Desktop-v0')", "desktop"),
    ("import gymnasium as gym, finestate_env; "
     "gym.make('FineState-Mobile-v0', backend='adb', scene='control').reset(seed=0)", "android"),
    ("from finestate_env.agents.vlm_client import ChatClient; "
     "ChatClient('gpt-4o', base_url='http://127.0.0.1:9')", "agents"),
    ("from finestate_env.rewards.export import export_rl; export_rl('/tmp/x', n=1)", "rewards"),
])
def test_a_feature_without_its_extra_names_the_install_to_run(core_python, code, extra):
    result = run(core_python, code)
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("finestate_env.core.extras.MissingExtra: ")
    assert f"pip install 'finestate-env[{extra}]'" in last


def test_the_command_line_says_it_in_one_line(core_python):
    finestate = core_python.parent / "finestate"
    result = subprocess.run([str(finestate), "serve", "--port", "0"], capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip() == ("finestate: the reward server needs fastapi, which is not "
                                     "installed: pip install 'finestate-env[rewards]'")
