"""The env's browser listens on no TCP port (issue #29): it is driven over a DevTools pipe
(backends/cdp.py), so no other user of the machine can attach to it.

Each test starts an env, then looks at every process below this one (the browser and its
children, found through /proc/<pid>/task/*/children) for a listening TCP socket: the
sockets in state LISTEN in /proc/net/tcp and tcp6, matched by inode to the processes'
open descriptors. The first test shows that the check finds a listening port of a child.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import pytest

import finestate_env  # noqa: F401 (registers the ids)

LISTEN = "0A"  # a socket's `st` column in /proc/net/tcp{,6}


def tree(pid: int) -> set[int]:
    """Every process below `pid`, from each thread's list of the children it started."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        parent = todo.pop()
        for task in Path(f"/proc/{parent}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:  # the thread or process ended meanwhile
                continue
            for child in map(int, children):
                if child not in found:
                    found.add(child)
                    todo.append(child)
    return found


def listening_inodes() -> dict[int, str]:
    """inode -> local address (hex, as the kernel writes it) of every listening TCP socket."""
    found = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == LISTEN:
                found[int(fields[9])] = fields[1]
    return found


def socket_inodes(pid: int) -> set[int]:
    inodes = set()
    try:
        descriptors = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return inodes
    for fd in descriptors:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[len("socket:["):-1]))
    return inodes


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(
            errors="replace")
    except OSError:
        return ""


def listeners_below(pid: int) -> dict[int, list[str]]:
    """pid -> the listening TCP addresses it holds, for every process below `pid`."""
    listening = listening_inodes()
    found = {}
    for child in tree(pid):
        held = [listening[inode] for inode in socket_inodes(child) if inode in listening]
        if held:
            found[child] = held
    return found


def assert_no_port(processes_before: set[int]) -> None:
    started = tree(os.getpid()) - processes_before
    browsers = [pid for pid in started if "chrom" in command_line(pid)]
    assert browsers, "the env started no browser process: is the browser real?"
    listeners = {pid: held for pid, held in listeners_below(os.getpid()).items()
                 if pid in started}
    assert listeners == {}, {pid: (held, command_line(pid)[:200])
                             for pid, held in listeners.items()}
    assert not [pid for pid in browsers if "--remote-debugging-port" in command_line(pid)]


def test_the_check_finds_a_listening_port_of_a_child():
    before = tree(os.getpid())
    code = ("import socket, sys; s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); "
            "print('ready', flush=True); sys.stdin.read()")
    child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE)
    try:
        assert child.stdout.readline().strip() == b"ready"
        assert child.pid in tree(os.getpid()) - before
        assert child.pid in listeners_below(os.getpid())
    finally:
        child.stdin.close()
        child.wait()
        child.stdout.close()


@pytest.mark.parametrize("env_id", ["FineState-Web-v0", "FineState-Mobile-v0"])
def test_the_envs_browser_listens_on_no_port(env_id):
    before = tree(os.getpid())
    # A browser of its own: one another test of this process started may be shared.
    env = gym.make(env_id, component="switch", scene="control",
                   backend_options={"shared_browser": False})
    try:
        env.reset(seed=0)
        assert_no_port(before)
    finally:
        env.close()


def test_the_vector_envs_shared_browser_listens_on_no_port():
    before = tree(os.getpid())
    # A screen no other test asks for: this vector env's browser is its own.
    vec = gym.make_vec("FineState-Web-v0", num_envs=2, component="switch", scene="control",
                       viewport=(1280, 704), browsers=1)
    try:
        vec.reset(seed=0)
        assert len({id(env.backend._browser) for env in vec.unwrapped.envs}) == 1
        assert_no_port(before)
    finally:
        vec.close()
