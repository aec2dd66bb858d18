"""A Ray cluster of two nodes on this machine, one CPU each.

`two_node_cluster()` runs it in a process of its own, so that the test process's Ray
state (a connection, the token it read when it imported Ray) stays its own, and
yields its address and that process's pid; every node listens on loopback only.
Run as a script, it starts the cluster, prints the address on its first line and
keeps it until stdin closes.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

# Ray addresses this machine by its loopback address, never by its network one; a
# driver joining a cluster by address shows the token (~/.ray/auth_token) only when told.
RAY_SETTINGS = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "token"}
RAY_ENV = {**os.environ, **RAY_SETTINGS}


@dataclass(frozen=True)
class RunningCluster:
    address: str
    pid: int  # the process every node's processes (raylets, actors) descend from


@contextlib.contextmanager
def two_node_cluster() -> Iterator[RunningCluster]:
    ray_cli = Path(sys.executable).parent / "ray"
    subprocess.run([str(ray_cli), "get-auth-token", "--generate"], check=True, timeout=60,
                   capture_output=True)  # the token stays in its file, unprinted
    cluster = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True, env=RAY_ENV)
    try:
        address = cluster.stdout.readline().strip()
        assert address, "the two-node Ray cluster did not start"
        yield RunningCluster(address, cluster.pid)
    finally:
        cluster.stdin.close()
        try:
            cluster.wait(timeout=60)
        except subprocess.TimeoutExpired:
            cluster.kill()
            cluster.wait()


def main() -> None:
    from ray.cluster_utils import Cluster

    cluster = Cluster(initialize_head=True, head_node_args={
        "num_cpus": 1, "node_ip_address": "127.0.0.1", "include_dashboard": False})
    try:
        cluster.add_node(num_cpus=1, node_ip_address="127.0.0.1")
        cluster.wait_for_nodes(timeout=120)
        print(cluster.address, flush=True)
        sys.stdin.read()  # until the test closes it
    finally:
        cluster.shutdown()


if __name__ == "__main__":
    main()
