# The README's commands. Each target installs what is missing first, so that on
# a fresh Debian machine with Python 3.11 `make run` and `make test` need nothing else.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The VLM trainers (TRL, verl, OpenRLHF's client) in a venv of their own: verl pins
# tensordict<=0.10, which TorchRL in .venv cannot share (pyproject.toml, the extras).
TRAIN_VENV ?= .venv-train
TRAIN_STAMP := $(TRAIN_VENV)/.installed
# OpenRLHF pins flash-attn and deepspeed (GPU builds): its client module, without them.
OPENRLHF ?= 0.11.2
# finestate serve-env's OpenEnv, without the web UI, hub and CLI packages its metadata pulls.
OPENENV ?= 0.10.0
SYSTEM_STAMP := $(VENV)/.system
# The desktop env: the X server, and the libraries Qt's xcb platform plugin loads
# (`ldd` on PySide6's libqxcb.so; a missing one shows up as a libxcb-cursor0 error).
DESKTOP_PACKAGES := xvfb libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 \
	libxcb-randr0 libxcb-render-util0 libxcb-shape0 libxcb-sync1 libxcb-xfixes0 libxcb-xkb1 \
	libx11-xcb1 libxkbcommon-x11-0 libegl1 libgl1 libfontconfig1 libdbus-1-3 libglib2.0-0
# The Android app's build (android/build.py): the JDK, aapt with API 29's framework-res.apk,
# zipalign, apksigner, dexdump, and Guava for dx (dx itself comes from a .deb that is unpacked,
# not installed: android/build.py), and Android 10's org.json, which tests/android checks the
# app's org.json stubs and runs its JSON code against.
ANDROID_PACKAGES := default-jdk-headless libguava-java aapt android-framework-res zipalign \
	apksigner dexdump libandroid-json-java
# Debian packages: the browser, and fonts so that rendering is the same everywhere.
APT_PACKAGES := chromium chromium-headless-shell fonts-dejavu-core fonts-dejavu-extra fonts-liberation2 \
	$(DESKTOP_PACKAGES) $(ANDROID_PACKAGES)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
EPISODES ?= 100
TORCH ?= 2.13.0
# The noisy oracle: a few pixels of Gaussian noise on both points, enough episodes for the
# box proxy and the control to disagree (deterministic from the seed).
NOISY_EPISODES ?= 200
# Instances of the two-point audit in make run (every type, the paper's family shares).
AUDIT_INSTANCES ?= 46
# Gestures per episode of `make android-device-test` (above 1: far goals too).
MAX_ACTIONS ?= 1

.PHONY: run test test-fast bench soak lint install install-train system clean android android-device-test

run: install
	$(VENV)/bin/finestate run --agent oracle --episodes $(EPISODES) --seed 0
	$(VENV)/bin/finestate run --agent random --episodes $(EPISODES) --seed 0
	$(VENV)/bin/finestate run --agent noisy-oracle --sigma-p0 6 --sigma-p1 2 \
	  --episodes $(NOISY_EPISODES) --seed 0 --out out/noisy-oracle --report
	# The two-point audit: of the gestures each static rule pays in full, how many reach
	# the goal live (one line; the tables and pictures are in out/audit/report.html).
	$(VENV)/bin/finestate generate --n $(AUDIT_INSTANCES) --seed 0 --out out/audit-data --overwrite >/dev/null
	$(VENV)/bin/finestate audit --instances out/audit-data/instances.jsonl --out out/audit \
	  --workers 2 --quiet --brief

# pytest exits 5 when it collects no test: that is a broken suite, not a pass.
# One worker per core (pytest-xdist): a test drives one browser or display at a time and
# keeps about one core busy; worksteal evens out the long tests at the end.
TEST_WORKERS ?= auto
test: install install-train android
	@$(PY) -m pytest -q -n $(TEST_WORKERS) --dist worksteal; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: pytest collected no tests" >&2; exit 1; fi; \
	exit $$rc

# The tier that needs no browser, X display, device or JDK (tests marked `fast`; the fake
# backend stands in for a renderer: tests/conftest.py, backends/fake.py): the env's
# contract, the types, scoring and formats in under two minutes, where make test takes
# twenty. make test runs these too.
test-fast: install
	@$(PY) -m pytest -q -m fast -n $(TEST_WORKERS) --dist worksteal; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test-fast: pytest collected no tests" >&2; exit 1; fi; \
	exit $$rc

# MiniWoB++, run beside us by make bench, drives chromium through Debian's chromium-driver.
bench: EXTRA_PACKAGES := chromium-driver
bench: install install-browsergym
	# Beside MiniWoB++ in the same rounds: ours by default, then the RL path (84x84, flat
	# action; terminal screenshot captured, then skipped), one env and make_vec of 4.
	$(PY) -m benchmarks.peer_bench --rounds 4 --episodes 40 --out bench-miniwob.json
	# A short soak: each process's slope over 1,500 episodes in one env (make soak runs the
	# long ones). A failed check is reported by the summary at the end, after every other
	# figure.
	-$(PY) -m benchmarks.soak --episodes 1500 --out bench-soak.json
	# Envs of one process share a browser: memory and episodes/s at 1, 2, 4, 8 envs, make_vec's
	# own vector env (envs stepped at the same time) beside sync (one after the other).
	$(PY) -m benchmarks.vector_bench --steps 40 --out bench-vector.json
	$(PY) -m benchmarks.vector_bench --env FineState-Mobile-v0 --steps 10 --out bench-vector-mobile.json
	# The scaling table (#34): make_vec (its envs spread over a browser per 3 cores), every
	# page in one browser, a browser per env and Gymnasium's async vector env, on the RL
	# path and the default path, at the env counts a 2-core machine allows. About 6 min.
	$(PY) -m benchmarks.scale_bench --envs 1,2,4 --seconds 8 --out bench-scale.json
	# Lone controls beside app pages: speed, and what locating the named control asks.
	$(PY) -m benchmarks.scene_bench --episodes 230 --out bench-scenes.json
	# Per type: lone controls (with the box audit and replay), then pages, the default scene.
	$(PY) -m benchmarks.bench --scene control --episodes 40 --out bench.json
	$(PY) -m benchmarks.bench --scene page --episodes 20 --audit-density 0 --replay-instances 0 --out bench-page.json
	$(PY) -m benchmarks.bench --env FineState-Desktop-v0 --scene control --episodes 40 --out bench-desktop.json
	$(PY) -m benchmarks.bench --env FineState-Mobile-v0 --scene control --episodes 20 --out bench-mobile.json
	# The adb backend against the stand-in device: the host side's cost, not a real phone's.
	# Its screen is 360x760 CSS px, short of a phone page's 800: lone controls.
	$(PY) tests/support/adb_standin.py -- $(PY) -m benchmarks.bench --env FineState-Mobile-v0 \
	  --backend adb --backend-options '{"serial": "{serial}", "adb_port": {adb_port}}' \
	  --scene control --episodes 5 --component slider,switch,date_picker,drag_reorder --audit-density 2 \
	  --replay-instances 0 --out bench-adb.json
	# And a phone page (the default scene) on a taller stand-in, whose browser shows 840 CSS px.
	$(PY) tests/support/adb_standin.py --tall -- $(PY) -m benchmarks.bench \
	  --env FineState-Mobile-v0 --viewport 1080x2640 --backend adb \
	  --backend-options '{"serial": "{serial}", "adb_port": {adb_port}}' --scene page \
	  --episodes 5 --component slider,switch,date_picker,drag_reorder --audit-density 0 \
	  --replay-instances 0 --out bench-adb-page.json
	# Live rewards for GRPO groups of 8 (#33), app pages and lone controls: RewardScorer in
	# process as TRL calls it, finestate serve under 8 clients sending one completion a request
	# as OpenRLHF does, and the static box reward on the same rows. About a minute. Rewards that
	# differ between the paths, or go unjudged, are reported by the summary at the end.
	-$(PY) -m benchmarks.reward_bench --groups 24 --passes 2 --out bench-rewards.json
	# The learning result: SB3 DQN on curriculum levels 0 and 1, success on 200 held-out seeds
	# before and after (and a random tap), a plot beside each JSON. About 19 min in all.
	$(PY) -m benchmarks.learn_bench --level 0 --budget-minutes 9 --out bench-learn-level0.json
	$(PY) -m benchmarks.learn_bench --level 1 --budget-minutes 8 --out bench-learn-level1.json
	# What a crash costs (#46): per backend, an oracle step beside the same step after its
	# backend was killed and recovered (render, replay, gesture again); fails when a killed
	# step is not recovered with the undisturbed verdict. About a minute.
	$(PY) -m benchmarks.recovery_bench --episodes 8 --out bench-recovery.json
	# The two-point audit (#47): 23 types x 20 page instances x 4 rules x 20 gestures, 2 cores.
	$(PY) -m benchmarks.precision_bench --per-type 20 --workers 2 --out bench-precision.json
	# The file commands stream (#49): each one's peak RSS over 100,000 lines (import, score,
	# export; replay and audit with 2 live instances among them), under 300 MB. About 2 min.
	$(PY) -m benchmarks.stream_bench --lines 100000 --out bench-stream.json
	# Multi-turn sessions (#41): turns/s, CPU per turn, latency and memory per session at
	# 1, 8 and 32 sessions open, beside the Gymnasium env's step. About a minute.
	$(PY) -m benchmarks.session_bench --sessions 1,8,32 --seconds 10 --out bench-sessions.json
	# OpenEnv's own BrowserGym env (third_party/openenv, MiniWoB++ click-checkboxes) beside
	# finestate serve-env, both driven by OpenEnv's GenericEnvClient at 1, 4 and 16 sessions:
	# steps/s, CPU per step, bytes per observation, PSS per session (#42). 4-9 min.
	$(PY) -m benchmarks.openenv_bench --sessions 1,4,16 --seconds 8 --out bench-openenv.json
	# Every figure beside its target, from the files above (bench-summary.json).
	$(PY) -m benchmarks.bench_summary

# The Android app (android/): built from source, then verified (apksigner, aapt, dexdump).
# The same sources give the same bytes. About 15 s, 20 s the first time (dx's .deb).
android: system
	$(PYTHON) android/build.py

# The oracle on every type on a real device or emulator (adb devices lists it): per-type
# success, static beside live. Nothing here runs Android: this needs the user's device.
SERIAL ?=
android-device-test: install android
	@if [ -z "$(SERIAL)" ]; then echo "make android-device-test: give SERIAL=... (adb devices)" >&2; exit 2; fi
	$(PY) -m finestate_env.cli.android_device_test --serial $(SERIAL) --apk build/android/finestate-views.apk \
		--max-actions $(MAX_ACTIONS)

# Memory over long runs (issue #36): every process's slope in KiB per episode after a
# warm-up of 500, the renderer's across its renewal cycles; a process whose slope gives
# more than 5 MiB over 10,000 episodes (the renderer 10) fails the run, as does a failed
# episode or a process left (benchmarks/soak.py). Each run prints its table of slopes.
# The paths: app pages (the default), the RL path (lone slider, 84x84, flat action,
# terminal screenshot skipped), make_vec of 4, the phone, the desktop and the reward
# server under steady load (an episode is a group of 8), then finestate serve-env's sessions
# opened and closed by OpenEnv's client (benchmarks/openenv_soak.py). About 4-5 h on 2 cores.
SOAKS = default:FineState-Web-v0:10000:web rl:FineState-Web-v0:10000:rl \
	vec4:FineState-Web-v0:10000:vec4 default:FineState-Mobile-v0:3000:mobile \
	default:FineState-Desktop-v0:5000:desktop server:FineState-Web-v0:3000:server
soak: install
	@rc=0; for soak in $(SOAKS); do set -- $$(echo $$soak | tr : ' '); \
	  echo "== soak $$4: $$1 path, $$2, $$3 episodes"; \
	  $(PY) -m benchmarks.soak --path $$1 --env $$2 --episodes $$3 --out soak-$$4.json || rc=1; \
	done; \
	echo "== soak openenv: finestate serve-env, 10000 client sessions in a row (#42)"; \
	$(PY) -m benchmarks.openenv_soak --sessions 10000 --out soak-openenv.json || rc=1; \
	exit $$rc

lint: install
	$(VENV)/bin/ruff check finestate_env benchmarks tests examples

install: system $(STAMP)

# apt-get only runs when something is missing; the check itself costs ~50 ms.
system:
	@missing=""; \
	for pkg in $(APT_PACKAGES) $(EXTRA_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$pkg 2>/dev/null | grep -q "ok installed" || missing="$$missing $$pkg"; \
	done; \
	if ! $(PYTHON) -c "import ensurepip, venv" >/dev/null 2>&1; then missing="$$missing python3-venv"; fi; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	# torch first, pinned to the CPU build this kind of machine keeps on disk; the rl
	# extra's `torch>=2.8` is then satisfied instead of pulling a CUDA build (GBs).
	$(PY) -m pip install -q 'torch==$(TORCH)'
	$(PY) -m pip install -q -e '.[test,all]'
	# OpenEnv for finestate serve-env (pyproject.toml's openenv extras): what its server and
	# client import, then openenv itself without gradio, openai, huggingface_hub and typer.
	$(PY) -m pip install -q -e '.[openenv-runtime]'
	$(PY) -m pip install -q --no-deps 'openenv==$(OPENENV)'
	touch $(STAMP)

# OpenEnv's BrowserGym env for make bench (benchmarks/openenv_bench.py), in a venv of its own:
# its server/requirements.txt pins playwright 1.44 and greenlet 3.0.3. openenv as .venv has
# it (--no-deps, beside what its server and client import); miniwob --no-deps for its
# MiniWoB++ pages (html/), which BrowserGym's tasks load.
BROWSERGYM_VENV ?= .venv-browsergym
BROWSERGYM_STAMP := $(BROWSERGYM_VENV)/.installed
BROWSERGYM_REQUIREMENTS := third_party/openenv/envs/browsergym_env/server/requirements.txt
.PHONY: install-browsergym
install-browsergym: system $(BROWSERGYM_STAMP)

$(BROWSERGYM_STAMP): $(BROWSERGYM_REQUIREMENTS)
	$(PYTHON) -m venv $(BROWSERGYM_VENV)
	$(BROWSERGYM_VENV)/bin/python -m pip install -q --upgrade pip
	$(BROWSERGYM_VENV)/bin/python -m pip install -q -r $(BROWSERGYM_REQUIREMENTS) \
	  'fastapi>=0.116' 'uvicorn>=0.29' 'websockets>=15.0.1' 'httpx>=0.28.1' 'requests>=2.25' \
	  'fastmcp>=3,<4' 'pyyaml>=6' 'pydantic>=2'
	$(BROWSERGYM_VENV)/bin/python -m pip install -q --no-deps 'openenv==$(OPENENV)' 'miniwob==1.1.0'
	touch $(BROWSERGYM_STAMP)

# TRL, verl and OpenRLHF's client, as tests/examples/test_trainers.py runs them.
install-train: system $(TRAIN_STAMP)

$(TRAIN_STAMP): pyproject.toml
	$(PYTHON) -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/python -m pip install -q --upgrade pip
	$(TRAIN_VENV)/bin/python -m pip install -q 'torch==$(TORCH)'
	$(TRAIN_VENV)/bin/python -m pip install -q -e '.[test,rewards,trl,verl]'
	$(TRAIN_VENV)/bin/python -m pip install -q --no-deps 'openrlhf==$(OPENRLHF)'
	$(TRAIN_VENV)/bin/python -m pip install -q pylatexenc aiohttp jmespath
	touch $(TRAIN_STAMP)

# verifiers 0.4 (Prime Intellect) in the trainers' venv too (none of its pins conflicts with
# theirs), with uv, which runs the chat program of its null harness, and the env package its
# loader imports for the taskset id finestate-verifiers (examples/agentic/finestate_verifiers):
# tests/examples/test_agentic_verifiers.py runs them.
VERIFIERS ?= 0.4.0
VERIFIERS_STAMP := $(TRAIN_VENV)/.verifiers-installed
install-train: $(VERIFIERS_STAMP)

$(VERIFIERS_STAMP): $(TRAIN_STAMP) examples/agentic/finestate_verifiers/pyproject.toml
	$(TRAIN_VENV)/bin/python -m pip install -q 'verifiers==$(VERIFIERS)' uv
	$(TRAIN_VENV)/bin/python -m pip install -q --no-deps -e examples/agentic/finestate_verifiers
	touch $(VERIFIERS_STAMP)

clean:
	rm -rf $(VENV) $(TRAIN_VENV) $(BROWSERGYM_VENV) .pytest_cache .ruff_cache build dist *.egg-info

# docker/Dockerfile built and run (docker/README.md): the engine (Debian's dockerd, started for
# this run when none answers), a base from Debian's packages when debian:bookworm-slim can't be
# pulled, docker build, then a subset of the tests in the image (TEST_CMD="make test" for all).
.PHONY: docker
docker:
	sh docker/make-docker.sh
