"""A Ray cluster of two nodes on this machine, one CPU each, for as long as stdin is open.

Prints the cluster's address on its first line once both nodes are up. Run in a
process of its own so that the test process's Ray state (its connection, its cached
token) is its own: `python tests/support/two_node_cluster.py` with
RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 (loopback addresses) and RAY_AUTH_MODE=token.
"""

from __future__ import annotations

import sys

from ray.cluster_utils import Cluster


def main() -> None:
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
