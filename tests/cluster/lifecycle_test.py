"""Nodes joining and leaving, what is refused and what a removed node may
not do, with real processes (etcd and tesseld on 127.0.0.1-3) through
tessel-admin and the DataStax Python driver:

- a node that joins goes JOINING, then NORMAL once it serves (its log and
  system.cluster_nodes say so);
- removenode is refused for a live node (Cassandra's text), for this node
  itself, for a host id that is no member and for one that is not a host id;
- decommission is refused while the other nodes cannot hold a keyspace's
  replication factor, and changes nothing;
- a killed node removed with removenode is gone from system.peers, and when
  it is started again it is refused (it may not serve its stale data).

Migrations themselves (join, decommission and removenode moving data) are
in migration_test.py.

Usage: lifecycle_test.py BUILD_DIR
"""

import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from cluster_proc import TestCluster  # noqa: E402


def admin(c, node, *args):
    return subprocess.run([os.path.join(c.build, "bin", "tessel-admin"), "--host", node.address,
                           "--port", str(c.port), *args],
                          capture_output=True, text=True, timeout=300)


def wait_until(fn, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if fn():
            return
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}")


def host_id(c, node):
    cl, s = c.connect(node, whitelist=True)
    try:
        return str(s.execute("SELECT host_id FROM system.local").one().host_id)
    finally:
        cl.shutdown()


def statuses(c, node):
    cl, s = c.connect(node, whitelist=True)
    try:
        return {r.address: r.status for r in s.execute("SELECT * FROM system.cluster_nodes")}
    finally:
        cl.shutdown()


def expect_refused(out, text):
    assert out.returncode != 0, out.stdout
    assert text in out.stderr, out.stderr


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    c = TestCluster(build, nodes=3)
    try:
        c.start()
        # Joining, then normal: the first node had nothing to join.
        assert "this node is now JOINING" not in c.node(1).log()
        for n in c.nodes[1:]:
            assert "this node is now NORMAL" in n.log(), n.log()[-2000:]
        wait_until(lambda: set(statuses(c, c.node(1)).values()) == {"UN"}, 30,
                   "every node UN")

        cluster, session = c.connect()
        session.execute("CREATE KEYSPACE life WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 3}")
        session.execute("CREATE TABLE life.t (k int PRIMARY KEY, v int)")
        assert cluster.control_connection.wait_for_schema_agreement(wait_time=10)
        session.execute("INSERT INTO life.t (k, v) VALUES (1, 1)")

        # removenode: refused for a live node, self, a stranger, garbage.
        ids = {n.index: host_id(c, n) for n in c.nodes}
        expect_refused(admin(c, c.node(1), "removenode", ids[2]),
                       "is alive and owns this ID. Use decommission command")
        expect_refused(admin(c, c.node(1), "removenode", ids[1]), "Cannot remove self")
        expect_refused(admin(c, c.node(1), "removenode", "00000000-0000-0000-0000-000000000001"),
                       "Host ID not found")
        expect_refused(admin(c, c.node(1), "removenode", "not-a-host-id"), "Invalid host ID")

        # decommission: 2 nodes left cannot hold RF 3.
        out = admin(c, c.node(3), "decommission")
        expect_refused(out, "Not enough live nodes to maintain replication factor in keyspace "
                            "life (RF = 3, N = 2)")
        assert statuses(c, c.node(1))[c.node(3).address] == "UN"

        # removenode of a dead node; it may not come back.
        session.execute("ALTER KEYSPACE life WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 2}")
        c.node(3).kill()
        wait_until(lambda: statuses(c, c.node(1)).get(c.node(3).address) == "DN", 30,
                   "node 3 down")
        out = admin(c, c.node(1), "removenode", ids[3])
        assert out.returncode == 0, out.stdout + out.stderr
        assert "Removed" in out.stdout, out.stdout
        peers = {str(r.peer) for r in session.execute("SELECT peer FROM system.peers")}
        assert c.node(3).address not in peers, peers
        assert c.node(3).address not in statuses(c, c.node(1))
        try:
            c.node(3).start(timeout=30)
            raise AssertionError("a removed node started again")
        except RuntimeError as e:
            assert "may not come back with its old data" in str(e), str(e)
        cluster.shutdown()
        print("lifecycle: ok")
        return 0
    finally:
        c.close()


if __name__ == "__main__":
    sys.exit(main())
