#!/usr/bin/env python3
"""tesseld against the DataStax Python driver (Debian python3-cassandra 3.25).

Run against a live server: TESSEL_HOST / TESSEL_PORT (default 127.0.0.1:9042).
    python3 tests/drivers/python/test_python_driver.py
Prints a closing "N passed, N failed" line; exit status 1 on any failure.
"""

import datetime
import decimal
import ipaddress
import sys
import time
import unittest
import uuid

from cassandra import AlreadyExists, InvalidRequest, ProtocolVersion
from cassandra.concurrent import execute_concurrent_with_args
from cassandra.metadata import Murmur3Token
from cassandra.query import BatchStatement, BatchType, SimpleStatement
from cassandra.protocol import SyntaxException
from cassandra.util import Date, Duration, Time

from driver_env import PORT, connect_fresh_keyspace, new_cluster, run

KS = "pydriver"


class DriverTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster, cls.session = connect_fresh_keyspace(KS)

    @classmethod
    def tearDownClass(cls):
        cls.cluster.shutdown()

    # -- connection and metadata -------------------------------------------

    def test_connect_negotiates_v4(self):
        self.assertEqual(self.cluster.protocol_version, ProtocolVersion.V4)
        row = self.session.execute("SELECT * FROM system.local WHERE key='local'").one()
        self.assertEqual(row.key, "local")
        # Cassandra 4.0: the driver uses its 4.0 schema parser (virtual
        # keyspaces) and peers_v2.
        self.assertEqual(row.release_version, "4.0.11")
        self.assertEqual(row.rpc_port, PORT)
        self.assertEqual(row.partitioner, "org.apache.cassandra.dht.Murmur3Partitioner")
        self.assertEqual(row.data_center, "datacenter1")
        self.assertIsInstance(row.host_id, uuid.UUID)
        self.assertIsInstance(row.schema_version, uuid.UUID)
        self.assertEqual(len(row.tokens), 1)
        int(next(iter(row.tokens)))
        self.assertEqual(list(self.session.execute("SELECT * FROM system.peers")), [])
        self.assertEqual(list(self.session.execute("SELECT * FROM system.peers_v2")), [])
        virtual = self.cluster.metadata.keyspaces.get("system_virtual_schema")
        self.assertIsNotNone(virtual)
        self.assertTrue(virtual.virtual)
        self.assertEqual(sorted(virtual.tables), ["columns", "keyspaces", "tables"])

    def test_protocol_v3_still_served(self):
        other = new_cluster(protocol_version=3)
        try:
            s = other.connect(KS)
            self.assertEqual(other.protocol_version, 3)
            s.execute("CREATE TABLE IF NOT EXISTS v3_t (k int PRIMARY KEY, v text)")
            s.execute(s.prepare("INSERT INTO v3_t (k, v) VALUES (?, ?)"), [1, "one"])
            self.assertEqual(s.execute("SELECT v FROM v3_t WHERE k = 1").one().v, "one")
        finally:
            other.shutdown()

    def test_metadata_tables_columns_types(self):
        s = self.session
        s.execute("CREATE TYPE IF NOT EXISTS address (street text, zip int)")
        s.execute("CREATE TABLE meta_t (a int, b text, c timestamp, d bigint, v text, "
                  "addr frozen<address>, tags set<text>, "
                  "PRIMARY KEY ((a, b), c, d)) WITH CLUSTERING ORDER BY (c DESC, d ASC)")
        self.cluster.refresh_schema_metadata()
        ks = self.cluster.metadata.keyspaces[KS]
        self.assertEqual(ks.replication_strategy.replication_factor, 1)
        t = ks.tables["meta_t"]
        self.assertEqual([c.name for c in t.partition_key], ["a", "b"])
        self.assertEqual([c.name for c in t.clustering_key], ["c", "d"])
        self.assertTrue(t.columns["c"].is_reversed)
        self.assertFalse(t.columns["d"].is_reversed)
        self.assertEqual(t.columns["v"].cql_type, "text")
        self.assertEqual(t.columns["tags"].cql_type, "set<text>")
        self.assertEqual(t.columns["addr"].cql_type, "frozen<address>")
        self.assertIn("address", ks.user_types)
        self.assertEqual(ks.user_types["address"].field_names, ["street", "zip"])
        self.assertEqual(ks.user_types["address"].field_types, ["text", "int"])
        self.assertIn("system_schema", self.cluster.metadata.keyspaces)
        self.assertIn("CREATE TABLE pydriver.meta_t", t.export_as_string())

    def test_token_map(self):
        tm = self.cluster.metadata.token_map
        self.assertIsNotNone(tm)
        self.assertEqual(len(tm.ring), 1)
        replicas = self.cluster.metadata.get_replicas(KS, b"\x00\x00\x00\x01")
        self.assertEqual(len(replicas), 1)

    # -- prepared statements --------------------------------------------------

    def test_prepared_every_type(self):
        s = self.session
        s.execute("CREATE TYPE IF NOT EXISTS point (x int, y int)")
        s.execute(
            "CREATE TABLE all_types (k int PRIMARY KEY, a ascii, bi bigint, bl blob, "
            "bo boolean, da date, de decimal, do double, fl float, ine inet, i int, "
            "si smallint, te text, ti time, ts timestamp, tu timeuuid, tiny tinyint, "
            "u uuid, vc varchar, vi varint, du duration, l list<int>, st set<text>, "
            "m map<text, int>, tup tuple<int, text>, p frozen<point>)")
        cols = ["k", "a", "bi", "bl", "bo", "da", "de", "do", "fl", "ine", "i", "si", "te",
                "ti", "ts", "tu", "tiny", "u", "vc", "vi", "du", "l", "st", "m", "tup", "p"]
        ins = s.prepare(f"INSERT INTO all_types ({', '.join(cols)}) "
                        f"VALUES ({', '.join('?' for _ in cols)})")
        ts = datetime.datetime(2024, 5, 6, 7, 8, 9, 123000)
        tu = uuid.uuid1()
        u = uuid.uuid4()
        values = [1, "ascii", -(2 ** 40), b"\x00\xffblob", True, Date(datetime.date(2020, 2, 29)),
                  decimal.Decimal("-12.345"), 1.25, 0.5, ipaddress.ip_address("10.1.2.3"),
                  -7, 300, "tëxt", Time(datetime.time(13, 14, 15, 16)), ts, tu, -3, u,
                  "varchar", 2 ** 70, Duration(1, 2, 3), [3, 1, 2], {"b", "a"},
                  {"x": 1, "y": 2}, (5, "five"), None]
        s.execute(ins, values)
        sel = s.prepare("SELECT * FROM all_types WHERE k = ?")
        row = s.execute(sel, [1]).one()
        self.assertEqual(row.a, "ascii")
        self.assertEqual(row.bi, -(2 ** 40))
        self.assertEqual(row.bl, b"\x00\xffblob")
        self.assertIs(row.bo, True)
        self.assertEqual(row.da, Date(datetime.date(2020, 2, 29)))
        self.assertEqual(row.de, decimal.Decimal("-12.345"))
        self.assertEqual(row.do, 1.25)
        self.assertEqual(row.fl, 0.5)
        self.assertEqual(row.ine, "10.1.2.3")
        self.assertEqual(row.i, -7)
        self.assertEqual(row.si, 300)
        self.assertEqual(row.te, "tëxt")
        self.assertEqual(row.ti, Time(datetime.time(13, 14, 15, 16)))
        self.assertEqual(row.ts, ts)
        self.assertEqual(row.tu, tu)
        self.assertEqual(row.tiny, -3)
        self.assertEqual(row.u, u)
        self.assertEqual(row.vc, "varchar")
        self.assertEqual(row.vi, 2 ** 70)
        self.assertEqual(row.du, Duration(1, 2, 3))
        self.assertEqual(row.l, [3, 1, 2])
        self.assertEqual(set(row.st), {"a", "b"})
        self.assertEqual(dict(row.m), {"x": 1, "y": 2})
        self.assertEqual(tuple(row.tup), (5, "five"))
        self.assertIsNone(row.p)
        # Same text -> same id (deterministic prepared ids).
        self.assertEqual(s.prepare("SELECT * FROM all_types WHERE k = ?").query_id,
                         sel.query_id)
        # A UDT value through a prepared statement.
        upd = s.prepare("UPDATE all_types SET p = ? WHERE k = ?")
        s.execute(upd, [(1, 2), 1])  # the driver binds a UDT from a tuple or an object
        p = s.execute(sel, [1]).one().p
        self.assertEqual((p.x, p.y), (1, 2))

    def test_routing_key_token_matches_server(self):
        s = self.session
        s.execute("CREATE TABLE rk1 (k int PRIMARY KEY, v int)")
        s.execute("CREATE TABLE rk2 (a int, b text, c int, v int, PRIMARY KEY ((a, b), c))")
        s.execute("CREATE TABLE rk3 (k text PRIMARY KEY, v int)")
        ins1 = s.prepare("INSERT INTO rk1 (k, v) VALUES (?, ?)")
        ins2 = s.prepare("INSERT INTO rk2 (a, b, c, v) VALUES (?, ?, ?, ?)")
        ins3 = s.prepare("INSERT INTO rk3 (v, k) VALUES (?, ?)")
        self.assertEqual(ins1.routing_key_indexes, [0])
        self.assertEqual(ins2.routing_key_indexes, [0, 1])
        self.assertEqual(ins3.routing_key_indexes, [1])
        cases = [
            (ins1, [1, 0], "SELECT token(k) FROM rk1 WHERE k = 1"),
            (ins1, [-123456, 0], "SELECT token(k) FROM rk1 WHERE k = -123456"),
            (ins2, [1, "abc", 0, 0], "SELECT token(a, b) FROM rk2 WHERE a = 1 AND b = 'abc'"),
            (ins3, [0, "\u00e9\u00ff"], "SELECT token(k) FROM rk3 WHERE k = '\u00e9\u00ff'"),
        ]
        for stmt, vals, q in cases:
            bound = stmt.bind(vals)
            s.execute(bound)
            client_token = Murmur3Token.from_key(bound.routing_key).value
            server_token = s.execute(q).one()[0]
            self.assertEqual(client_token, server_token, q)
        self.assertEqual(s.execute("SELECT token(k) FROM rk1 WHERE k = 1").one()[0],
                         -4069959284402364209)

    # -- paging ---------------------------------------------------------------

    @classmethod
    def _fill_paging_table(cls):
        if getattr(cls, "_paging_filled", False):
            return
        s = cls.session
        s.execute("CREATE TABLE IF NOT EXISTS paged (p int, c int, v text, PRIMARY KEY (p, c))")
        ins = s.prepare("INSERT INTO paged (p, c, v) VALUES (?, ?, ?)")
        args = [(i % 50, i, f"v{i}") for i in range(10000)]
        results = execute_concurrent_with_args(s, ins, args, concurrency=64,
                                               raise_on_first_error=True)
        assert all(ok for ok, _ in results)
        cls._paging_filled = True

    def test_automatic_paging_10000_rows(self):
        self._fill_paging_table()
        stmt = SimpleStatement("SELECT * FROM paged", fetch_size=100)
        rs = self.session.execute(stmt)
        self.assertTrue(rs.has_more_pages)
        self.assertEqual(len(rs.current_rows), 100)
        seen = set()
        for row in rs:
            seen.add(row.c)
        self.assertEqual(len(seen), 10000)
        # Prepared statements page as well.
        prep = self.session.prepare("SELECT c FROM paged WHERE p = ?")
        bound = prep.bind([7])
        bound.fetch_size = 100
        self.assertEqual(sorted(r.c for r in self.session.execute(bound)),
                         list(range(7, 10000, 50)))

    def test_paging_state_resumed_on_new_session(self):
        self._fill_paging_table()
        stmt = SimpleStatement("SELECT c FROM paged", fetch_size=100)
        first = self.session.execute(stmt)
        first_rows = [r.c for r in first.current_rows]
        state = first.paging_state
        self.assertIsNotNone(state)
        other = new_cluster()
        try:
            s2 = other.connect(KS)
            rs = s2.execute(SimpleStatement("SELECT c FROM paged", fetch_size=100),
                            paging_state=state)
            second = [r.c for r in rs.current_rows]
            self.assertEqual(len(second), 100)
            self.assertFalse(set(first_rows) & set(second))
            rest = first_rows + [r.c for r in rs]
            self.assertEqual(len(rest), 10000)
            self.assertEqual(len(set(rest)), 10000)
        finally:
            other.shutdown()

    # -- batches and LWT --------------------------------------------------------

    def test_batches(self):
        s = self.session
        s.execute("CREATE TABLE batched (k int, c int, v text, PRIMARY KEY (k, c))")
        ins = s.prepare("INSERT INTO batched (k, c, v) VALUES (?, ?, ?)")
        for btype in (BatchType.LOGGED, BatchType.UNLOGGED):
            b = BatchStatement(batch_type=btype)
            for c in range(5):
                b.add(ins, (int(btype.value), c, f"p{c}"))
            b.add(SimpleStatement("INSERT INTO batched (k, c, v) VALUES (%s, %s, %s)"),
                  (int(btype.value), 99, "simple"))
            s.execute(b)
            rows = list(s.execute(f"SELECT c, v FROM batched WHERE k = {int(btype.value)}"))
            self.assertEqual([r.c for r in rows], [0, 1, 2, 3, 4, 99])
        s.execute("CREATE TABLE counts (k int PRIMARY KEY, n counter)")
        b = BatchStatement(batch_type=BatchType.COUNTER)
        b.add(SimpleStatement("UPDATE counts SET n = n + 2 WHERE k = 1"))
        b.add(SimpleStatement("UPDATE counts SET n = n + 3 WHERE k = 1"))
        s.execute(b)
        self.assertEqual(s.execute("SELECT n FROM counts WHERE k = 1").one().n, 5)

    def test_lwt_was_applied(self):
        s = self.session
        s.execute("CREATE TABLE lwt (k int PRIMARY KEY, v int)")
        self.assertTrue(s.execute("INSERT INTO lwt (k, v) VALUES (1, 1) IF NOT EXISTS")
                        .was_applied)
        rs = s.execute("INSERT INTO lwt (k, v) VALUES (1, 2) IF NOT EXISTS")
        self.assertFalse(rs.was_applied)
        self.assertEqual(rs.one().v, 1)
        self.assertTrue(s.execute("UPDATE lwt SET v = 3 WHERE k = 1 IF v = 1").was_applied)
        self.assertFalse(s.execute("UPDATE lwt SET v = 4 WHERE k = 1 IF v = 1").was_applied)
        prep = s.prepare("UPDATE lwt SET v = ? WHERE k = ? IF v = ?")
        self.assertTrue(s.execute(prep, [5, 1, 3]).was_applied)
        self.assertEqual(s.execute("SELECT v FROM lwt WHERE k = 1").one().v, 5)

    # -- errors ----------------------------------------------------------------

    def test_errors_as_driver_exceptions(self):
        s = self.session
        with self.assertRaises(InvalidRequest):
            s.execute("SELECT * FROM no_such_table")
        with self.assertRaises(InvalidRequest):
            s.execute("SELECT * FROM no_such_ks.t")
        with self.assertRaises(SyntaxException):
            s.execute("SELEC * FROM x")
        s.execute("CREATE TABLE dup (k int PRIMARY KEY)")
        with self.assertRaises(AlreadyExists) as cm:
            s.execute("CREATE TABLE dup (k int PRIMARY KEY)")
        self.assertEqual(cm.exception.keyspace, KS)
        self.assertEqual(cm.exception.table, "dup")
        with self.assertRaises(AlreadyExists) as cm:
            s.execute(f"CREATE KEYSPACE {KS} WITH replication = "
                      "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        self.assertEqual(cm.exception.keyspace, KS)
        # The connection survives errors.
        self.assertEqual(s.execute("SELECT key FROM system.local").one().key, "local")

    # -- schema events ------------------------------------------------------------

    def test_schema_change_reaches_second_cluster(self):
        other = new_cluster()
        try:
            other.connect()
            self.assertNotIn("evt_t", other.metadata.keyspaces[KS].tables)
            self.session.execute("CREATE TABLE evt_t (k int PRIMARY KEY, v text)")
            deadline = time.time() + 15
            while time.time() < deadline:
                ks = other.metadata.keyspaces.get(KS)
                if ks is not None and "evt_t" in ks.tables:
                    break
                time.sleep(0.1)
            self.assertIn("evt_t", other.metadata.keyspaces[KS].tables)
            self.assertEqual(
                [c.name for c in other.metadata.keyspaces[KS].tables["evt_t"].partition_key],
                ["k"])
        finally:
            other.shutdown()


if __name__ == "__main__":
    sys.exit(run(DriverTest))
