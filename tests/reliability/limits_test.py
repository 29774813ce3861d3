"""Limits against a real tesseld: each is configured small and exceeded.

- native_transport_max_frame_size_in_mb: a larger frame gets a Protocol
  error ("Request is too big"), its body is skipped, the connection is still
  served;
- native_transport_max_requests_per_connection and
  native_transport_max_concurrent_requests_in_bytes: requests past them are
  answered Overloaded (0x1001) without being executed; the connection stays
  usable;
- native_transport_max_concurrent_connections: connections past it are
  closed at once; a place freed is usable again;
- read_/range_/write_request_timeout_in_ms: Read_timeout and Write_timeout
  (the write is not applied);
- key components over 65535 bytes, bound values over max_value_size_in_mb:
  Invalid;
- a mutation over the maximum mutation size (half of
  commitlog_segment_size_in_mb, 16 MiB by default): Invalid at once, nothing
  applied; a batch over several partitions larger than
  batch_size_warn_threshold_in_kb gets a client warning, larger than
  batch_size_fail_threshold_in_kb is refused ("Batch too large");
- deeply nested collections and parentheses: Syntax error or Invalid, the
  server keeps running;
- pages are cut by bytes: an unpaged read of rows larger than the page byte
  bound comes back in several pages.

Usage: limits_test.py BUILD_DIR [test names...]
"""

import os
import socket
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "drivers", "protocol"))
import raw_protocol_test as raw  # noqa: E402
from tesseld_proc import Node, connect, create_keyspace, run_tests  # noqa: E402

OVERLOADED, WRITE_TIMEOUT, READ_TIMEOUT = 0x1001, 0x1100, 0x1200
SYNTAX, INVALID, PROTOCOL = 0x2000, 0x2200, 0x000A
KS = "limits"


def raw_conn(node):
    raw.HOST, raw.PORT = "127.0.0.1", node.port
    c = raw.Conn()
    c.startup()
    return c


def query(cql, stream):
    return raw.frame(raw.QUERY, raw.query_body(cql), stream=stream)


def read_answers(c, n):
    """Reads n responses; returns {stream: (opcode, error code or None, message)}."""
    out = {}
    for _ in range(n):
        v, f, s, op, body, _ = c.read_frame()
        if op == raw.ERROR:
            code, msg = raw.error_of(body)
            out[s] = (op, code, msg)
        else:
            out[s] = (op, None, "")
    return out


def with_node(build, work, settings, fn):
    node = Node(build, os.path.join(work, "data"), settings)
    node.start()
    try:
        fn(node)
        assert node.alive(), "tesseld died"
        assert node.stop() == 0, "unclean stop"
    finally:
        node.kill()


def test_frame_size(build, work):
    def run(node):
        c = raw_conn(node)
        cql = "SELECT * FROM system.local WHERE key = '" + "x" * (1536 * 1024) + "'"
        c.send(query(cql, 9))
        v, f, s, op, body, _ = c.read_frame()
        code, msg = raw.error_of(body)
        assert (op, s, code) == (raw.ERROR, 9, PROTOCOL), (op, s, hex(code), msg)
        assert "Request is too big" in msg and str(1 << 20) in msg, msg
        # The rest of that body is skipped; the next frame is served.
        v, f, s, op, body, _ = c.request(raw.OPTIONS, stream=10)
        assert (op, s) == (raw.SUPPORTED, 10), (op, s)
        c.close()
        print(f"   {msg}; the connection is still served")

    with_node(build, work, {"native_transport_max_frame_size_in_mb": 1}, run)


def burst(node, n, cql="SELECT release_version FROM system.local"):
    c = raw_conn(node)
    c.send(b"".join(query(cql, i + 1) for i in range(n)))
    answers = read_answers(c, n)
    results = sum(1 for op, code, _ in answers.values() if op == raw.RESULT)
    overloaded = [msg for op, code, msg in answers.values() if code == OVERLOADED]
    others = [(op, code, msg) for op, code, msg in answers.values()
              if op != raw.RESULT and code != OVERLOADED]
    assert not others, others[:3]
    # Still usable afterwards.
    v, f, s, op, body, _ = c.request(raw.QUERY, raw.query_body(cql), stream=5000)
    assert op == raw.RESULT, raw.error_of(body)
    c.close()
    return results, overloaded


def test_requests_per_connection(build, work):
    def run(node):
        results, overloaded = burst(node, 400)
        assert overloaded and results >= 50, (results, len(overloaded))
        assert "native_transport_max_requests_per_connection" in overloaded[0], overloaded[0]
        print(f"   400 pipelined: {results} answered, {len(overloaded)} Overloaded: {overloaded[0][:90]}")

    with_node(build, work, {"native_transport_max_requests_per_connection": 50}, run)


def test_request_bytes_per_server(build, work):
    def run(node):
        results, overloaded = burst(node, 400)
        assert overloaded and results >= 1, (results, len(overloaded))
        assert "native_transport_max_concurrent_requests_in_bytes" in overloaded[0], overloaded[0]
        print(f"   400 pipelined: {results} answered, {len(overloaded)} Overloaded: {overloaded[0][:90]}")

    with_node(build, work, {"native_transport_max_concurrent_requests_in_bytes": 4096}, run)


def closed_by_server(sock):
    sock.settimeout(5)
    try:
        sock.sendall(raw.frame(raw.OPTIONS, stream=3))
        return sock.recv(100) == b""
    except (ConnectionResetError, BrokenPipeError):
        return True
    except socket.timeout:
        return False


def test_max_connections(build, work):
    def run(node):
        open_ = [raw_conn(node) for _ in range(3)]
        extra = socket.create_connection(("127.0.0.1", node.port), timeout=5)
        assert closed_by_server(extra), "a 4th connection was served"
        extra.close()
        open_.pop().close()
        deadline = time.monotonic() + 5
        while True:  # the server notices the close on its loop
            try:
                c = raw_conn(node)
                break
            except (ConnectionError, OSError, AssertionError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        v, f, s, op, body, _ = c.request(raw.OPTIONS, stream=4)
        assert op == raw.SUPPORTED
        for x in open_ + [c]:
            x.close()
        assert "refusing connection" in node.log()
        print("   3 connections served, the 4th closed at once, a freed place reused")

    with_node(build, work, {"native_transport_max_concurrent_connections": 3}, run)


def load_wide_partition(node, rows=20000):
    from cassandra.concurrent import execute_concurrent_with_args
    cluster, session = connect(node)
    create_keyspace(session, KS)
    session.execute(f"CREATE TABLE {KS}.wide (p int, c int, v text, PRIMARY KEY (p, c))")
    session.execute(f"CREATE TABLE {KS}.kv (k int PRIMARY KEY, v text)")
    insert = session.prepare(f"INSERT INTO {KS}.wide (p, c, v) VALUES (0, ?, 'some text')")
    execute_concurrent_with_args(session, insert, [(i,) for i in range(rows)], concurrency=64)
    cluster.shutdown()


def test_timeouts(build, work):
    node = Node(build, os.path.join(work, "data"))
    node.start()
    try:
        load_wide_partition(node)
        assert node.stop() == 0
        # Reads of one partition time out after 1 ms; scans have a minute,
        # then the other way round. Raw connections: a driver's own start-up
        # queries would time out too with such short timeouts.
        for read_ms, range_ms, cql, what in (
                (1, 60000, f"SELECT * FROM {KS}.wide WHERE p = 0", "partition read"),
                (60000, 1, f"SELECT * FROM {KS}.wide", "scan")):
            node.settings = {"read_request_timeout_in_ms": read_ms,
                             "range_request_timeout_in_ms": range_ms}
            node.start()
            c = raw_conn(node)
            c.send(query(cql, 1) + query(f"SELECT * FROM {KS}.kv WHERE k = 1", 2) +
                   query(f"SELECT * FROM {KS}.kv LIMIT 1", 3))
            answers = read_answers(c, 3)
            op, code, msg = answers[1]
            assert code == READ_TIMEOUT, (what, op, code, msg)
            # Queued behind it, the kind with the long timeout is still served.
            assert answers[3 if read_ms == 1 else 2][0] == raw.RESULT, (what, answers)
            c.close()
            print(f"   {what}: Read_timeout ({msg})")
            assert node.stop() == 0
        # A write queued behind a slow read on the same connection has
        # waited past its 1 ms: Write_timeout, and it is not applied.
        node.settings = {"write_request_timeout_in_ms": 1}
        node.start()
        c = raw_conn(node)
        c.send(query(f"SELECT * FROM {KS}.wide WHERE p = 0", 1) +
               query(f"INSERT INTO {KS}.kv (k, v) VALUES (1, 'late')", 2))
        answers = read_answers(c, 2)
        assert answers[1][0] == raw.RESULT, answers[1]
        op, code, msg = answers[2]
        assert code == WRITE_TIMEOUT, (op, code, msg)
        v, f, s, op, body, _ = c.request(raw.QUERY, raw.query_body(f"SELECT * FROM {KS}.kv"),
                                         stream=3)
        assert op == raw.RESULT and struct.unpack(">i", body[:4])[0] == 2
        assert struct.unpack(">i", body[-4:])[0] == 0, "the timed-out write was applied"
        c.close()
        print(f"   queued write: Write_timeout ({msg}), not applied")
        assert node.stop() == 0
    finally:
        node.kill()


def test_key_and_value_sizes(build, work):
    from cassandra import InvalidRequest

    def run(node):
        cluster, session = connect(node)
        create_keyspace(session, KS)
        session.execute(f"CREATE TABLE {KS}.t (p text, c text, v blob, PRIMARY KEY (p, c))")
        ins = session.prepare(f"INSERT INTO {KS}.t (p, c, v) VALUES (?, ?, ?)")
        session.execute(ins, ("p" * 65535, "c" * 65535, b"v"))  # at the limit: fine
        for p, c, what in (("p" * 65536, "c", "partition key"), ("p", "c" * 65536, "clustering key")):
            try:
                session.execute(ins, (p, c, b"v"))
                raise AssertionError(f"a {what} component of 65536 bytes was accepted")
            except InvalidRequest as e:
                assert "Key length of 65536 is longer than maximum of 65535" in str(e), str(e)
        try:
            session.execute(f"SELECT * FROM {KS}.t WHERE p = %s", ("p" * 70000,))
            raise AssertionError("a read with a 70000-byte key was accepted")
        except InvalidRequest as e:
            assert "Key length of 70000" in str(e), str(e)
        try:
            session.execute(ins, ("p", "c", b"x" * ((1 << 20) + 1)))
            raise AssertionError("a value over max_value_size_in_mb was accepted")
        except InvalidRequest as e:
            assert "maximum value size" in str(e), str(e)
        session.execute(ins, ("p", "c", b"x" * (1 << 20)))
        cluster.shutdown()
        print("   65535-byte key components accepted, 65536 refused; 1 MiB value ok, 1 MiB + 1 refused")

    with_node(build, work, {"max_value_size_in_mb": 1}, run)


def test_mutation_and_batch_sizes(build, work):
    from cassandra import InvalidRequest
    from cassandra.query import BatchStatement, BatchType

    def expect_invalid(session, stmt, args, text):
        try:
            session.execute(stmt, args)
        except InvalidRequest as e:
            assert text in str(e), str(e)
            return str(e)
        raise AssertionError(f"accepted, expected Invalid with {text!r}")

    def batch_of(ins, rows):
        b = BatchStatement(batch_type=BatchType.UNLOGGED)
        for r in rows:
            b.add(ins, r)
        return b

    def run_small(node):
        cluster, session = connect(node)
        create_keyspace(session, KS)
        session.execute(f"CREATE TABLE {KS}.m (k int, c int, v blob, PRIMARY KEY (k, c))")
        ins = session.prepare(f"INSERT INTO {KS}.m (k, c, v) VALUES (?, ?, ?)")
        # commitlog_segment_size_in_mb 2: at most 1 MiB per partition and statement.
        msg = expect_invalid(session, ins, (1, 1, b"x" * (1536 * 1024)),
                             "Rejected an oversized mutation (")
        assert "/1048576) for keyspace: limits. Top keys are: m.1" in msg, msg
        assert not session.execute(f"SELECT * FROM {KS}.m WHERE k = 1").all()
        session.execute(ins, (1, 1, b"x" * (900 * 1024)))
        # Two statements on one partition add up to one mutation.
        big = batch_of(ins, [(2, 1, b"x" * (600 * 1024)), (2, 2, b"x" * (600 * 1024))])
        expect_invalid(session, big, None, "Top keys are: m.2")
        assert not session.execute(f"SELECT * FROM {KS}.m WHERE k = 2").all()
        # Batches over several partitions: warn over 1 KiB, refuse over 4 KiB.
        future = session.execute_async(batch_of(ins, [(3, 1, b"x" * 700), (4, 1, b"x" * 700)]))
        future.result()
        warnings = future.warnings or []
        assert any(w.startswith(f"Batch for [{KS}.m] is of size ") and
                   "exceeding specified threshold of 1024 by" in w for w in warnings), warnings
        expect_invalid(session, batch_of(ins, [(5, 1, b"x" * 3000), (6, 1, b"x" * 3000)]), None,
                       "Batch too large")
        assert not session.execute(f"SELECT * FROM {KS}.m WHERE k IN (5, 6)").all()
        # One partition is never a "batch too large", and gets no warning.
        future = session.execute_async(batch_of(ins, [(7, 1, b"x" * 3000), (7, 2, b"x" * 3000)]))
        future.result()
        assert not future.warnings, future.warnings
        cluster.shutdown()
        print("   1.5 MiB mutation refused (max 1 MiB), batch warned at 1.4 KiB, refused at 6 KiB")

    with_node(build, work, {"commitlog_segment_size_in_mb": 2,
                            "batch_size_warn_threshold_in_kb": 1,
                            "batch_size_fail_threshold_in_kb": 4}, run_small)

    def run_default(node):
        cluster, session = connect(node)
        ks = KS + "_default"  # the same data directory as above
        create_keyspace(session, ks)
        session.execute(f"CREATE TABLE {ks}.m (k int PRIMARY KEY, v blob)")
        ins = session.prepare(f"INSERT INTO {ks}.m (k, v) VALUES (?, ?)")
        msg = expect_invalid(session, ins, (1, b"x" * (20 << 20)), "Rejected an oversized mutation (")
        assert f"/16777216) for keyspace: {ks}. Top keys are: m.1" in msg, msg
        session.execute(ins, (1, b"x" * (15 << 20)))
        cluster.shutdown()
        print("   default: a 20 MiB value refused at once, 15 MiB accepted")

    with_node(build, work, {}, run_default)


def test_nesting_depth(build, work):
    from cassandra import InvalidRequest
    from cassandra.protocol import SyntaxException

    def run(node):
        cluster, session = connect(node)
        create_keyspace(session, KS)
        session.execute(f"CREATE TABLE {KS}.t (k int PRIMARY KEY, l list<frozen<list<int>>>)")
        cases = {
            "parentheses": "SELECT * FROM system.local WHERE key = " + "(" * 100000 + "'local'" + ")" * 100000,
            "collection literal": f"INSERT INTO {KS}.t (k, l) VALUES (1, " + "[" * 100000 + "]" * 100000 + ")",
            "nested type": f"CREATE TABLE {KS}.deep (k int PRIMARY KEY, v " + "frozen<list<" * 5000 + "int" + ">>" * 5000 + ")",
            "function calls": "SELECT " + "blobAsInt(intAsBlob(" * 20000 + "1" + "))" * 20000 + " FROM system.local",
        }
        for name, cql in cases.items():
            try:
                session.execute(cql)
                raise AssertionError(f"deeply nested {name} accepted")
            except (SyntaxException, InvalidRequest) as e:
                print(f"   {name} ({len(cql)} chars): {type(e).__name__}: {str(e)[:100]}")
        assert session.execute("SELECT release_version FROM system.local").one() is not None
        cluster.shutdown()

    with_node(build, work, {}, run)


def test_pages_cut_by_bytes(build, work):
    def run(node):
        cluster, session = connect(node)
        create_keyspace(session, KS)
        session.execute(f"CREATE TABLE {KS}.big (p int, c int, v blob, PRIMARY KEY (p, c))")
        ins = session.prepare(f"INSERT INTO {KS}.big (p, c, v) VALUES (0, ?, ?)")
        for i in range(24):
            session.execute(ins, (i, b"x" * (512 * 1024)))
        # 12 MiB asked for in one page of 5000 rows: pages stop near 4 MiB.
        rs = session.execute(f"SELECT * FROM {KS}.big WHERE p = 0")
        first = len(rs.current_rows)
        assert first < 24 and rs.has_more_pages, first
        total = len(list(rs))
        assert total == 24, total
        cluster.shutdown()
        print(f"   24 rows of 512 KiB: the first page holds {first} rows")

    with_node(build, work, {}, run)


if __name__ == "__main__":
    sys.exit(run_tests(globals(), "tessel-limits."))
