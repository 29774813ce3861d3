"""The web console on a cluster (etcd and tesseld on 127.0.0.1-2, each
serving its console on its own address): every node's /api/tablets lists
both nodes and each tablet's replicas, and the page is served by each.

Usage: console_cluster_test.py BUILD_DIR
"""

import json
import os
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from cluster_proc import TestCluster, shared_free_ports  # noqa: E402


def api(node, port, path):
    with urllib.request.urlopen(f"http://{node.address}:{port}{path}", timeout=10) as r:
        return json.load(r)


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    http = shared_free_ports(2, 1)[0]
    c = TestCluster(build, nodes=2, settings={"http_port": http})
    try:
        for n in c.nodes:
            n.settings["http_listen_address"] = n.address
        c.start()
        cluster, session = c.connect()
        session.execute("CREATE KEYSPACE cc WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 2}")
        session.execute("CREATE TABLE cc.t (k int PRIMARY KEY, v int)")
        assert cluster.control_connection.wait_for_schema_agreement(wait_time=10)
        for k in range(100):
            session.execute("INSERT INTO cc.t (k, v) VALUES (%s, %s)", (k, k))
        cluster.shutdown()
        addresses = {n.address for n in c.nodes}
        for n in c.nodes:
            d = api(n, http, "/api/tablets")
            nodes = {x["address"] for x in d["nodes"]}
            assert nodes == addresses, (n.address, d["nodes"])
            local = [x["address"] for x in d["nodes"] if x["local"]]
            assert local == [n.address], (n.address, d["nodes"])
            tables = [t for t in d["tables"] if t.get("keyspace") == "cc"]
            assert tables and tables[0]["tablets"], (n.address, d["tables"])
            for t in tables[0]["tablets"]:
                assert set(t["replicas"]) == addresses, (n.address, t)
            with urllib.request.urlopen(f"http://{n.address}:{http}/", timeout=10) as r:
                assert r.status == 200 and b"<html" in r.read().lower()
        print("console on a cluster: ok")
        return 0
    finally:
        c.close()


if __name__ == "__main__":
    sys.exit(main())
