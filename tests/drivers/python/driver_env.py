"""What the Python driver tests share: where the server is, how to connect,
a fresh keyspace per test class, and the runner that prints the closing
"N passed, N failed" line."""

import os
import sys
import unittest

from cassandra.cluster import Cluster

HOST = os.environ.get("TESSEL_HOST", "127.0.0.1")
PORT = int(os.environ.get("TESSEL_PORT", "9042"))


def new_cluster(**kwargs):
    # No protocol_version: the driver starts at DSE_V2 (0x42) and must be
    # negotiated down to v4 by the server's version error.
    return Cluster([HOST], port=PORT, connect_timeout=10, **kwargs)


def connect_fresh_keyspace(keyspace):
    """A new cluster and a session USEing `keyspace`, dropped and recreated."""
    cluster = new_cluster()
    session = cluster.connect()
    session.default_timeout = 30
    session.execute(f"DROP KEYSPACE IF EXISTS {keyspace}")
    session.execute(
        f"CREATE KEYSPACE {keyspace} WITH replication = "
        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    session.set_keyspace(keyspace)
    return cluster, session


def run(test_case):
    """Runs `test_case` (names on the command line filter it); exit status."""
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(test_case)
    if len(sys.argv) > 1:
        suite = unittest.TestSuite(t for t in suite if any(a in t.id() for a in sys.argv[1:]))
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    failed = len(result.failures) + len(result.errors)
    passed = max(0, result.testsRun - failed - len(result.skipped))
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and result.testsRun > 0 else 1
