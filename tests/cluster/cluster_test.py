"""A three-node Tessel cluster through the DataStax Python driver: etcd and
three tesseld on 127.0.0.1-3, replication factor 3.

- the driver discovers every node from one contact point (system.peers);
- schema made on one node is usable from every node at once (the driver's
  schema agreement passes), and the nodes report one schema version;
- data written at QUORUM reads back at QUORUM from every node; a paging
  state from one coordinator continues on another;
- a node SIGKILLed under QUORUM write load: no write fails after the
  driver's retries, nothing acknowledged is lost; once it is back its hints
  are replayed and it alone, read at ONE, has every row;
- ALL with a node down is Unavailable; with a node paused (SIGSTOP) it is
  Write_timeout / Read_timeout with the right counts, and works again after
  SIGCONT;
- concurrent lightweight transactions from several clients and nodes
  increment one value exactly once per applied CAS;
- counter increments coordinated by every node count once on every replica;
- two nodes creating one table at once: one applies, the other gets
  Already_exists, every node shows the winner's columns;
- etcd down: reads and writes go on, DDL fails with a clear error, and works
  again once etcd is back;
- tessel-admin status and repair on a two-node cluster with internode TLS
  and no hints: repair brings a replica what it missed while down.

Usage: cluster_test.py BUILD_DIR [test names...]
"""

import os
import sys
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from cluster_proc import TestCluster  # noqa: E402

from cassandra import ConsistencyLevel, ReadTimeout, Unavailable, WriteTimeout  # noqa: E402
from cassandra.query import SimpleStatement  # noqa: E402
from cassandra.cluster import NoHostAvailable  # noqa: E402

KS = "cl"


def stmt(cql, cl, **kwargs):
    return SimpleStatement(cql, consistency_level=cl, **kwargs)


def wait_until(fn, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if fn():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_discovery_schema_and_quorum(c):
    cluster, session = c.connect()
    try:
        hosts = sorted(str(h.address) for h in cluster.metadata.all_hosts())
        assert hosts == ["127.0.0.1", "127.0.0.2", "127.0.0.3"], hosts
        peers = list(session.execute("SELECT peer, data_center, tokens, schema_version "
                                     "FROM system.peers"))
        assert len(peers) == 2, peers
        assert all(len(p.tokens) == 8 for p in peers)
        # Cassandra 4.0's peers_v2, which the Python driver reads first: the
        # same peers with their client address and port.
        # System tables are the coordinator's own view: ask node 1 alone.
        one_cluster, one = c.connect(c.node(1), whitelist=True)
        try:
            v2 = list(one.execute("SELECT peer, peer_port, native_address, native_port, "
                                  "host_id, release_version, tokens FROM system.peers_v2"))
        finally:
            one_cluster.shutdown()
        assert sorted(str(p.peer) for p in v2) == ["127.0.0.2", "127.0.0.3"], v2
        assert all(str(p.native_address) == str(p.peer) and p.native_port == c.nodes[0].port
                   and p.peer_port > 0 and p.release_version.startswith("4.0.")
                   and len(p.tokens) == 8 for p in v2), v2
        session.execute(f"CREATE KEYSPACE {KS} WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 3}")
        session.execute(f"CREATE TABLE {KS}.t (k int, c int, v text, PRIMARY KEY (k, c))")
        assert cluster.control_connection.wait_for_schema_agreement(wait_time=10)

        def one_version_everywhere():
            # Each node shows every peer's reported version: all the same.
            seen = set()
            for n in c.nodes:
                cl, s = c.connect(n, whitelist=True)
                try:
                    seen |= {r.schema_version for r in s.execute(
                        "SELECT schema_version FROM system.peers")}
                    seen.add(s.execute("SELECT schema_version FROM system.local").one()
                             .schema_version)
                finally:
                    cl.shutdown()
            return len(seen) == 1

        wait_until(one_version_everywhere, 10, "one schema version on every node")
        insert = session.prepare(f"INSERT INTO {KS}.t (k, c, v) VALUES (?, ?, ?)")
        insert.consistency_level = ConsistencyLevel.QUORUM
        for k in range(50):
            for ck in range(6):
                session.execute(insert, (k, ck, f"v{k}.{ck}"))
    finally:
        cluster.shutdown()
    # Every node, alone, reads it all back at QUORUM.
    for n in c.nodes:
        cl, s = c.connect(n, whitelist=True)
        try:
            rows = list(s.execute(stmt(f"SELECT k, c, v FROM {KS}.t", ConsistencyLevel.QUORUM,
                                       fetch_size=40)))
            assert len(rows) == 300, (n.index, len(rows))
            one = s.execute(stmt(f"SELECT v FROM {KS}.t WHERE k = 7 AND c = 3",
                                 ConsistencyLevel.QUORUM)).one()
            assert one.v == "v7.3"
        finally:
            cl.shutdown()


def test_paging_state_continues_on_another_node(c):
    first_cluster, first = c.connect(c.node(1), KS, whitelist=True)
    second_cluster, second = c.connect(c.node(2), KS, whitelist=True)
    try:
        page = first.execute(stmt("SELECT k, c FROM t WHERE k = 5", ConsistencyLevel.QUORUM,
                                  fetch_size=2))
        got = [(r.k, r.c) for r in page.current_rows]
        state = page.paging_state
        assert state and len(got) == 2
        rest = second.execute(stmt("SELECT k, c FROM t WHERE k = 5", ConsistencyLevel.QUORUM,
                                   fetch_size=100), paging_state=state)
        got += [(r.k, r.c) for r in rest.current_rows]
        assert got == [(5, i) for i in range(6)], got
    finally:
        first_cluster.shutdown()
        second_cluster.shutdown()


def test_node_killed_under_quorum_load_loses_nothing(c):
    cluster, session = c.connect(keyspace=KS)
    session.execute("CREATE TABLE IF NOT EXISTS load (k int PRIMARY KEY, v int)")
    assert cluster.control_connection.wait_for_schema_agreement(wait_time=10)
    insert = session.prepare("INSERT INTO load (k, v) VALUES (?, ?)")
    insert.consistency_level = ConsistencyLevel.QUORUM
    acknowledged = []
    failures = []
    stop = threading.Event()

    def writer(start):
        k = start
        while not stop.is_set():
            try:
                session.execute(insert, (k, k * 7))
                acknowledged.append(k)
            except Exception as e:  # counted: the test requires none
                failures.append(repr(e))
            k += 4

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    time.sleep(2)
    c.node(3).kill()
    time.sleep(6)  # writes go on while node 3 is down (hinted)
    stop.set()
    for t in threads:
        t.join()
    cluster.shutdown()
    assert not failures, failures[:5]
    assert len(acknowledged) > 200, len(acknowledged)
    c.node(3).start()
    c.wait_for_peers(60)
    # Node 3 alone, at ONE, ends up holding every acknowledged row (hints).
    cl3, s3 = c.connect(c.node(3), KS, whitelist=True)
    try:
        want = set(acknowledged)

        def complete():
            rows = s3.execute(stmt("SELECT k, v FROM load", ConsistencyLevel.ONE, fetch_size=1000))
            got = {r.k: r.v for r in rows}
            return want <= set(got) and all(got[k] == k * 7 for k in want)

        wait_until(complete, 60, "node 3 to hold every acknowledged row")
    finally:
        cl3.shutdown()


def test_all_is_unavailable_or_times_out_without_every_replica(c):
    cluster, session = c.connect(keyspace=KS, whitelist=True)
    try:
        write = stmt("INSERT INTO t (k, c, v) VALUES (1000, 1, 'x')", ConsistencyLevel.ALL)
        read = stmt("SELECT * FROM t WHERE k = 7", ConsistencyLevel.ALL)
        session.execute(write)
        # Paused: its lease and heartbeats still look fine for a few
        # seconds, so the coordinator asks it and times out.
        c.node(3).pause()
        try:
            session.execute(write)
            raise AssertionError("ALL write with a paused replica succeeded")
        except WriteTimeout as e:
            assert e.required_responses == 3 and e.received_responses == 2, e
            assert e.write_type == 0 or str(e.write_type) in ("SIMPLE", "0"), e.write_type
        try:
            session.execute(read)
            raise AssertionError("ALL read with a paused replica succeeded")
        except ReadTimeout as e:
            assert e.required_responses == 3 and e.received_responses < 3, e
        # Once it is known down: Unavailable, nothing sent.
        def unavailable():
            try:
                session.execute(write)
                return False
            except Unavailable as e:
                assert e.required_replicas == 3 and e.alive_replicas == 2, e
                return True
            except NoHostAvailable as e:
                # The default retry policy tries the next host once; the
                # whitelist has none, so the driver wraps the Unavailable.
                errors = list(e.errors.values())
                assert errors and isinstance(errors[0], Unavailable), errors
                assert errors[0].required_replicas == 3 and errors[0].alive_replicas == 2, errors
                return True
            except WriteTimeout:
                return False

        wait_until(unavailable, 20, "Unavailable with node 3 paused")
        c.node(3).resume()
        wait_until(lambda: _succeeds(session, write), 30, "ALL to work again after SIGCONT")
        assert session.execute(read).one() is not None
    finally:
        if c.node(3).paused:
            c.node(3).resume()
        cluster.shutdown()


def _succeeds(session, statement):
    try:
        session.execute(statement)
        return True
    except Exception:
        return False


def test_concurrent_lwt_increments_apply_once(c):
    cluster, session = c.connect(keyspace=KS)
    session.execute("CREATE TABLE IF NOT EXISTS counter_like "
                    "(k int PRIMARY KEY, v int, log map<int, text>)")
    assert cluster.control_connection.wait_for_schema_agreement(wait_time=10)
    session.execute("INSERT INTO counter_like (k, v) VALUES (0, 0)")
    cluster.shutdown()
    applied = []
    uncertain = []

    def client(node, rounds, name):
        cl, s = c.connect(node, KS, whitelist=True)
        # Each applied CAS also logs who set the value: log[v] = token.
        cas = s.prepare("UPDATE counter_like SET v = ?, log[?] = ? WHERE k = 0 IF v = ?")
        read = stmt("SELECT v, log FROM counter_like WHERE k = 0", ConsistencyLevel.SERIAL)

        def serial_read():
            while True:
                try:
                    return s.execute(read).one()
                except (ReadTimeout, WriteTimeout):
                    continue  # contention: the round did not finish in time

        try:
            done = attempt = 0
            while done < rounds:
                current = serial_read().v
                attempt += 1
                token = f"{name}.{attempt}"
                try:
                    ok = s.execute(cas, (current + 1, current + 1, token, current)).was_applied
                except WriteTimeout:
                    # Outcome unknown (Cassandra's CAS timeout): a SERIAL
                    # read settles it, and the log says whose it was.
                    uncertain.append(token)
                    ok = (serial_read().log or {}).get(current + 1) == token
                if ok:
                    applied.append(current + 1)
                    done += 1
        finally:
            cl.shutdown()

    threads = [threading.Thread(target=client, args=(c.node(i % 3 + 1), 15, f"c{i}"))
               for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    final = c.connect(keyspace=KS)
    try:
        row = final[1].execute(stmt("SELECT v, log FROM counter_like WHERE k = 0",
                                    ConsistencyLevel.SERIAL)).one()
    finally:
        final[0].shutdown()
    assert len(applied) == 90, (len(applied), len(uncertain))
    assert sorted(applied) == list(range(1, 91)), "a value was applied twice"
    assert row.v == 90, row.v
    assert sorted(row.log) == list(range(1, 91)), sorted(row.log)
    print(f"90 CAS applied by 6 clients, {len(uncertain)} timed out and were settled by a read")


def test_counters_count_each_increment_once(c):
    cluster, session = c.connect(keyspace=KS)
    session.execute("CREATE TABLE IF NOT EXISTS hits (k int PRIMARY KEY, n counter)")
    assert cluster.control_connection.wait_for_schema_agreement(wait_time=10)
    cluster.shutdown()

    def client(node):
        cl, s = c.connect(node, KS, whitelist=True)
        inc = s.prepare("UPDATE hits SET n = n + 1 WHERE k = ?")
        inc.consistency_level = ConsistencyLevel.QUORUM
        try:
            for i in range(60):
                s.execute(inc, (i % 3,))
        finally:
            cl.shutdown()

    threads = [threading.Thread(target=client, args=(n,)) for n in c.nodes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Every coordinator led its own increments; each replica merges the
    # leaders' shards: 3 clients x 20 increments of each key.
    for n in c.nodes:
        cl, s = c.connect(n, KS, whitelist=True)
        try:
            for cl_level in (ConsistencyLevel.ALL, ConsistencyLevel.ONE):
                got = {r.k: r.n for r in s.execute(stmt("SELECT k, n FROM hits", cl_level))}
                assert got == {0: 60, 1: 60, 2: 60}, (n.index, cl_level, got)
        finally:
            cl.shutdown()


def test_conflicting_ddl_one_wins(c):
    """Two nodes create one table with different columns at once: one
    statement applies, the other gets Already_exists; no split catalog."""
    from cassandra import AlreadyExists
    sessions = [c.connect(c.node(i), KS, whitelist=True) for i in (1, 2)]
    barrier = threading.Barrier(2)
    outcome = {}

    def create(i, column):
        barrier.wait()
        try:
            sessions[i][1].execute(f"CREATE TABLE race (k int PRIMARY KEY, {column} int)")
            outcome[i] = "applied"
        except AlreadyExists:
            outcome[i] = "exists"

    try:
        threads = [threading.Thread(target=create, args=(i, col))
                   for i, col in ((0, "from_one"), (1, "from_two"))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(outcome.values()) == ["applied", "exists"], outcome
        winner = "from_one" if outcome[0] == "applied" else "from_two"
        assert sessions[0][0].control_connection.wait_for_schema_agreement(wait_time=10)
    finally:
        for cl, _ in sessions:
            cl.shutdown()
    for n in c.nodes:
        cl, s = c.connect(n, whitelist=True)
        try:
            cols = {r.column_name for r in s.execute(
                "SELECT column_name FROM system_schema.columns "
                f"WHERE keyspace_name = '{KS}' AND table_name = 'race'")}
            assert cols == {"k", winner}, (n.index, cols)
        finally:
            cl.shutdown()


def test_etcd_down_keeps_the_data_path_and_refuses_ddl(c):
    from cassandra.protocol import ServerError
    c.etcd.stop()
    try:
        for n in c.nodes:
            cl, s = c.connect(n, KS, whitelist=True)
            try:
                insert = s.prepare("INSERT INTO t (k, c, v) VALUES (?, ?, ?)")
                insert.consistency_level = ConsistencyLevel.QUORUM
                s.execute(insert, (2000 + n.index, 0, "while etcd is down"))
                got = s.execute(stmt(f"SELECT v FROM t WHERE k = {2000 + n.index}",
                                     ConsistencyLevel.QUORUM)).one()
                assert got.v == "while etcd is down"
            finally:
                cl.shutdown()
        cl, s = c.connect(keyspace=KS, whitelist=True)
        try:
            s.execute("CREATE TABLE outage (k int PRIMARY KEY)")
            raise AssertionError("DDL succeeded with etcd down")
        except (ServerError, NoHostAvailable) as e:
            # The default retry policy tries the next host on a server error;
            # with a whitelist there is none and the driver wraps the error.
            assert "etcd" in str(e), e
        finally:
            cl.shutdown()
    finally:
        c.etcd.restart()
    cl, s = c.connect(keyspace=KS, whitelist=True)
    try:
        wait_until(lambda: _succeeds(s, "CREATE TABLE IF NOT EXISTS outage (k int PRIMARY KEY)"),
                   30, "DDL to work again once etcd is back")
    finally:
        cl.shutdown()
    c.wait_for_peers(30)


def _admin(build, port, host, *args):
    import subprocess
    return subprocess.run([os.path.join(build, "bin", "tessel-admin"), "--host", host,
                           "--port", str(port), *args],
                          capture_output=True, text=True, timeout=120)


def _internode_tls(work):
    """A CA and one certificate for every node (IP SANs 127.0.0.1-3)."""
    import subprocess
    script = """
set -e
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=Tessel test CA" \
  -keyout ca.key -out ca.pem
printf 'subjectAltName=IP:127.0.0.1,IP:127.0.0.2,IP:127.0.0.3\n' > san.cnf
openssl req -newkey rsa:2048 -nodes -subj "/CN=node" -keyout node.key -out node.csr
openssl x509 -req -in node.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
  -extfile san.cnf -out node.pem
"""
    subprocess.run(["bash", "-c", script], cwd=work, check=True, capture_output=True)
    return ("\n  internode_encryption: all"
            f"\n  keystore: {work}/node.pem"
            f"\n  private_key: {work}/node.key"
            f"\n  truststore: {work}/ca.pem"
            "\n  require_client_auth: true")


def test_status_and_repair_on_a_tls_cluster(c):
    """A second cluster, two nodes with internode TLS and no hints: rows one
    replica missed while it was down reach it through tessel-admin repair."""
    import tempfile
    certs = tempfile.mkdtemp(prefix="tessel-certs-")
    settings = {"max_hint_window_in_ms": 0,
                "server_encryption_options": _internode_tls(certs),
                "write_request_timeout_in_ms": 1500, "read_request_timeout_in_ms": 1500}
    with TestCluster(c.build, nodes=2, settings=settings) as r:
        status = _admin(r.build, r.port, "127.0.0.1", "status")
        assert status.returncode == 0, status.stderr
        lines = [ln for ln in status.stdout.splitlines() if ln.startswith("UN")]
        assert len(lines) == 2 and "127.0.0.2" in status.stdout, status.stdout
        cluster, session = r.connect()
        try:
            session.execute("CREATE KEYSPACE rep WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 2}")
            session.execute("CREATE TABLE rep.t (k int PRIMARY KEY, v int)")
            assert cluster.control_connection.wait_for_schema_agreement(wait_time=10)
            for k in range(50):
                session.execute(stmt(f"INSERT INTO rep.t (k, v) VALUES ({k}, {k})",
                                     ConsistencyLevel.ALL))
        finally:
            cluster.shutdown()
        # Each tablet's replicas, in system.tablets and tessel-admin tablets.
        tablets = _admin(r.build, r.port, "127.0.0.1", "tablets", "rep.t")
        assert tablets.returncode == 0, tablets.stderr
        assert "replicas" in tablets.stdout and "127.0.0.2" in tablets.stdout, tablets.stdout
        r.node(2).kill()
        wait_until(lambda: "DN" in _admin(r.build, r.port, "127.0.0.1", "status").stdout, 30,
                   "node 2 to be down for node 1")
        cl, s = r.connect(r.node(1), whitelist=True)
        try:
            for k in range(50, 100):
                s.execute(stmt(f"INSERT INTO rep.t (k, v) VALUES ({k}, {k})",
                               ConsistencyLevel.ONE))
        finally:
            cl.shutdown()
        r.node(2).start()
        r.wait_for_peers(30)

        def count_on_two():
            cl, s = r.connect(r.node(2), whitelist=True)
            try:
                return len(list(s.execute(stmt("SELECT k FROM rep.t", ConsistencyLevel.ONE))))
            finally:
                cl.shutdown()

        assert count_on_two() == 50, "node 2 should miss what was written while it was down"
        rep = _admin(r.build, r.port, "127.0.0.2", "repair", "rep")
        assert rep.returncode == 0, rep.stdout + rep.stderr
        assert count_on_two() == 100
        print(f"repair: {rep.stdout.strip()}")


def test_node_driver_sees_every_node(c):
    import shutil
    import subprocess
    node_dir = os.path.join(HERE, "..", "drivers", "node")
    if not os.path.isdir(os.path.join(node_dir, "node_modules", "cassandra-driver")):
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"],
                       cwd=node_dir, check=True)
    assert shutil.which("node"), "node is not installed"
    out = subprocess.run(["node", "cluster/hosts.js", "127.0.0.1", str(c.port), "3"],
                         cwd=node_dir, capture_output=True, text=True, timeout=120)
    print(out.stdout.strip())
    assert out.returncode == 0, out.stdout + out.stderr


TESTS = [
    test_discovery_schema_and_quorum,
    test_node_driver_sees_every_node,
    test_paging_state_continues_on_another_node,
    test_all_is_unavailable_or_times_out_without_every_replica,
    test_node_killed_under_quorum_load_loses_nothing,
    test_concurrent_lwt_increments_apply_once,
    test_counters_count_each_increment_once,
    test_conflicting_ddl_one_wins,
    test_etcd_down_keeps_the_data_path_and_refuses_ddl,
    test_status_and_repair_on_a_tls_cluster,
]


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    names = sys.argv[2:]
    tests = [t for t in TESTS if not names or any(n in t.__name__ for n in names)]
    passed = failed = 0
    settings = {"write_request_timeout_in_ms": 1500, "read_request_timeout_in_ms": 1500}
    with TestCluster(build, nodes=3, settings=settings) as c:
        for t in tests:
            print(f"--- {t.__name__}", flush=True)
            started = time.monotonic()
            try:
                t(c)
                print(f"ok: {t.__name__} ({time.monotonic() - started:.1f}s)", flush=True)
                passed += 1
            except Exception as e:
                print(f"FAIL: {t.__name__}: {e}", flush=True)
                traceback.print_exc(limit=6)
                failed += 1
                for n in c.nodes:
                    print(f"--- node {n.index} log tail:\n{n.log()[-2000:]}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
