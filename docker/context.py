"""The build context of `make docker`, as a tar on stdout (docker build -).

The files git knows (tracked, and untracked ones not ignored: so no .venv, no build/), as they are
in the work tree (symlinks kept as symlinks), plus extra files under names of their own:
    python3 docker/context.py /opt/wheels/x.whl=docker/wheels/x.whl ... | docker build ... -
"""
import subprocess
import sys
import tarfile


def main(extras):
    names = subprocess.run(["git", "ls-files", "-z", "-co", "--exclude-standard"],
                           capture_output=True, check=True).stdout.decode().split("\0")
    # GNU format: docker tells a tar on stdin from a Dockerfile by its first 512 bytes, where a
    # pax header (tarfile's default) does not parse.
    with tarfile.open(fileobj=sys.stdout.buffer, mode="w|", format=tarfile.GNU_FORMAT) as tar:
        for name in sorted(set(filter(None, names))):
            try:
                tar.add(name, recursive=False)
            except FileNotFoundError:  # tracked, deleted in the work tree
                pass
        for extra in extras:
            src, _, arcname = extra.partition("=")
            tar.add(src, arcname=arcname)


if __name__ == "__main__":
    main(sys.argv[1:])
