#!/bin/sh
# make docker: build docker/Dockerfile and run the tests in it (docker/README.md).
#  1. an engine: the running one (`docker info` answers), or else Debian's dockerd started here
#     for this run alone (apt-get install docker.io when missing) and stopped at the end;
#  2. a base: $BASE if given, else debian:bookworm-slim when it can be pulled, else
#     finestate-base:bookworm, made once from Debian's packages (debootstrap, docker import);
#  3. docker build with the files git knows (tracked and untracked-not-ignored: no .venv, no
#     build/) as the context, plus the wheels in $WHEELS (default /opt/wheels when present) as
#     docker/wheels/ and the CA bundle $PIP_CERT (when set) as docker/certs/pip.pem;
#  4. docker run $IMAGE $TEST_CMD (default: a subset of the suite; TEST_CMD="make test" for all);
#  5. finestate serve-env in $IMAGE, checked from the host (docker/serve_check.py: /health, the
#     token, one WebSocket episode with OpenEnv's client), when the host's .venv has openenv
#     (SERVE_CHECK=0 skips it).
# Build and run use the host's network (--network host): no bridge, no NAT.
set -eu

IMAGE=${IMAGE:-finestate-env}
BASE=${BASE:-}
MIRROR=${MIRROR:-}  # a Debian mirror for debootstrap; empty: debootstrap's default
DEFAULT_TEST_CMD='.venv/bin/python -m pytest -q -p no:cacheprovider tests/test_package.py tests/env/test_env.py'
TEST_CMD=${TEST_CMD:-$DEFAULT_TEST_CMD}
if [ -z "${WHEELS+x}" ] && [ -d /opt/wheels ]; then WHEELS=/opt/wheels; fi
WHEELS=${WHEELS:-}
SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
STATE=build/docker
mkdir -p "$STATE"

say() { printf '== make docker: %s\n' "$*" >&2; }
stamp() { date +%s; }
T0=$(stamp)

# 1. The engine.
DOCKERD_PID=
stop_dockerd() {
  if [ -n "$DOCKERD_PID" ]; then
    say "stopping the dockerd started here (pid $DOCKERD_PID)"
    $SUDO kill "$DOCKERD_PID" 2>/dev/null || true
    i=0; while $SUDO kill -0 "$DOCKERD_PID" 2>/dev/null && [ $i -lt 30 ]; do sleep 1; i=$((i+1)); done
  fi
}
trap stop_dockerd EXIT
trap 'exit 130' INT TERM

if ! command -v docker >/dev/null 2>&1 || ! command -v dockerd >/dev/null 2>&1; then
  if ! docker info >/dev/null 2>&1; then
    say "installing Debian's docker.io (dockerd, containerd, runc)"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq docker.io
  fi
fi
if ! docker info >/dev/null 2>&1; then
  # No bridge and no iptables rules: build and run use the host's network.
  say "no engine answers: starting dockerd (log: $STATE/dockerd.log)"
  $SUDO dockerd --bridge=none --iptables=false >"$STATE/dockerd.log" 2>&1 &
  DOCKERD_PID=$!
  i=0
  until docker info >/dev/null 2>&1; do
    if ! kill -0 "$DOCKERD_PID" 2>/dev/null || [ $i -ge 60 ]; then
      say "dockerd did not come up; the end of its log:"; tail -20 "$STATE/dockerd.log" >&2
      exit 1
    fi
    sleep 1; i=$((i+1))
  done
fi
say "engine: $(docker version -f 'server {{.Server.Version}}, client {{.Client.Version}}')"

# 2. The base.
if [ -z "$BASE" ]; then
  if docker image inspect debian:bookworm-slim >/dev/null 2>&1 \
     || docker pull -q debian:bookworm-slim >/dev/null 2>&1; then
    BASE=debian:bookworm-slim
  else
    BASE=${BASE_IMAGE:-finestate-base:bookworm}
    if ! docker image inspect "$BASE" >/dev/null 2>&1; then
      say "debian:bookworm-slim can't be pulled: making $BASE with debootstrap"
      command -v debootstrap >/dev/null 2>&1 || {
        $SUDO apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq debootstrap
      }
      ROOTFS=$(mktemp -d /var/tmp/finestate-rootfs.XXXXXX)
      $SUDO debootstrap --variant=minbase bookworm "$ROOTFS" $MIRROR >"$STATE/debootstrap.log" 2>&1 \
        || { tail -20 "$STATE/debootstrap.log" >&2; exit 1; }
      MIRROR=$(awk '$1 == "deb" {print $2; exit}' "$ROOTFS/etc/apt/sources.list")
      # The apt sources of debian:bookworm-slim: the release, its updates and security.
      $SUDO rm -f "$ROOTFS/etc/apt/sources.list"
      printf '%s\n' 'Types: deb' "URIs: $MIRROR" 'Suites: bookworm bookworm-updates' \
        'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' '' \
        'Types: deb' "URIs: ${MIRROR%/debian}/debian-security" 'Suites: bookworm-security' \
        'Components: main' 'Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg' \
        | $SUDO tee "$ROOTFS/etc/apt/sources.list.d/debian.sources" >/dev/null
      $SUDO rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/*.bin \
        "$ROOTFS"/var/cache/apt/archives/*.deb
      $SUDO tar -C "$ROOTFS" -c . | docker import -c 'CMD ["bash"]' - "$BASE" >/dev/null
      $SUDO rm -rf "$ROOTFS"
    fi
  fi
fi
say "base: $BASE"
T1=$(stamp)

# 3. The build: the context is the files git knows (docker/context.py), plus the wheels, plus the
# CA bundle that pip uses here when PIP_CERT names one (where egress re-signs TLS, pip in the
# build needs the same bundle to reach PyPI); the build's pip uses it, nothing else does.
set --
if [ -n "$WHEELS" ]; then
  for w in "$WHEELS"/*.whl; do
    if [ -e "$w" ]; then set -- "$@" "$w=docker/wheels/$(basename "$w")"; fi
  done
fi
if [ -n "${PIP_CERT:-}" ] && [ -f "$PIP_CERT" ]; then set -- "$@" "$PIP_CERT=docker/certs/pip.pem"; fi
say "building $IMAGE (added to the context: ${*:-nothing})"
OLD_ID=$(docker image inspect -f '{{.Id}}' "$IMAGE" 2>/dev/null || true)
python3 docker/context.py "$@" \
  | docker build --force-rm --network host --build-arg BASE="$BASE" -f docker/Dockerfile -t "$IMAGE" -
# The image this build replaced, now untagged: its layers go (not any other dangling image).
NEW_ID=$(docker image inspect -f '{{.Id}}' "$IMAGE")
if [ -n "$OLD_ID" ] && [ "$OLD_ID" != "$NEW_ID" ]; then docker rmi "$OLD_ID" >/dev/null 2>&1 || true; fi
T2=$(stamp)

# 4. The tests.
say "running in $IMAGE: $TEST_CMD"
docker run --rm --network host --shm-size 1g "$IMAGE" sh -c "$TEST_CMD"
T3=$(stamp)

# 5. The OpenEnv server in the image, from the host.
if [ "${SERVE_CHECK:-1}" != 0 ]; then
  if [ -x .venv/bin/python ] && .venv/bin/python -c 'import openenv.core' 2>/dev/null; then
    say "serve-env in $IMAGE, checked from the host"
    .venv/bin/python docker/serve_check.py --image "$IMAGE"
  else
    say "serve-env check skipped: the host's .venv has no openenv (make install)"
  fi
fi
T4=$(stamp)
say "done: base $((T1-T0)) s, build $((T2-T1)) s, tests $((T3-T2)) s, serve-env $((T4-T3)) s"
