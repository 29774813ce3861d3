#!/usr/bin/env python3
"""Server-side write sharding seen through the DataStax Python driver.

A table WITH write_sharding stores one logical partition as several physical
shards; the driver must see one ordinary partition: rows merged in clustering
order, paging (including a paging state resumed on another connection),
LIMIT and aggregates over the merged stream, and token(pk) equal to the token
the driver computes for routing (the logical key's token).

Run against a live server: TESSEL_HOST / TESSEL_PORT (default 127.0.0.1:9042).
    /usr/bin/python3 tests/drivers/python/test_sharding.py
Prints a closing "N passed, N failed" line; exit status 1 on any failure.
"""

import random
import sys
import unittest

from cassandra import InvalidRequest
from cassandra.concurrent import execute_concurrent_with_args
from cassandra.metadata import Murmur3Token
from cassandra.query import SimpleStatement

from driver_env import connect_fresh_keyspace, new_cluster, run

KS = "pysharding"
DAY = "2024-06-01"
ROWS = 2000


class WriteShardingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster, cls.session = connect_fresh_keyspace(KS)
        s = cls.session
        s.execute("CREATE TABLE events_by_day (day text, id int, v text, "
                  "PRIMARY KEY (day, id)) "
                  "WITH write_sharding = {'shards': 8, 'suffix': 'random'}")
        # A neighbouring logical partition must never leak into DAY's reads.
        s.execute("INSERT INTO events_by_day (day, id, v) VALUES ('2024-06-02', 5, 'other')")
        ins = s.prepare("INSERT INTO events_by_day (day, id, v) VALUES (?, ?, ?)")
        # Shuffled so that clustering order on read comes from the server's
        # merge, not from insertion order.
        ids = list(range(ROWS))
        random.Random(20240601).shuffle(ids)
        results = execute_concurrent_with_args(
            s, ins, [(DAY, i, f"v{i}") for i in ids], concurrency=32,
            raise_on_first_error=True)
        assert all(ok for ok, _ in results)

    @classmethod
    def tearDownClass(cls):
        cls.cluster.shutdown()

    def _select(self, cql, fetch_size=100):
        return self.session.execute(SimpleStatement(cql, fetch_size=fetch_size))

    def test_table_is_sharded_yet_ordinary_to_the_driver(self):
        # The driver's metadata shows the logical table: no hidden columns.
        self.cluster.refresh_table_metadata(KS, "events_by_day")
        t = self.cluster.metadata.keyspaces[KS].tables["events_by_day"]
        self.assertEqual([c.name for c in t.partition_key], ["day"])
        self.assertEqual([c.name for c in t.clustering_key], ["id"])
        self.assertEqual(list(t.columns), ["day", "id", "v"])
        # The server does hold it as 8 shards: lowering the count is refused
        # because stored rows would move.
        with self.assertRaises(InvalidRequest) as cm:
            self.session.execute(
                "ALTER TABLE events_by_day WITH write_sharding = {'shards': 4}")
        self.assertIn("from 8 to 4", str(cm.exception))

    # -- merged reads ---------------------------------------------------------

    def test_automatic_paging_returns_every_row_once_in_clustering_order(self):
        rs = self._select(f"SELECT day, id, v FROM events_by_day WHERE day = '{DAY}'")
        self.assertTrue(rs.has_more_pages)
        self.assertEqual(len(rs.current_rows), 100)
        rows = list(rs)
        self.assertEqual([r.id for r in rows], list(range(ROWS)))
        self.assertTrue(all(r.day == DAY and r.v == f"v{r.id}" for r in rows))

    def test_prepared_statement_pages_the_merged_partition(self):
        prep = self.session.prepare("SELECT id FROM events_by_day WHERE day = ?")
        bound = prep.bind([DAY])
        bound.fetch_size = 100
        rs = self.session.execute(bound)
        self.assertTrue(rs.has_more_pages)
        self.assertEqual([r.id for r in rs], list(range(ROWS)))

    def test_order_by_desc_pages_in_reverse(self):
        rs = self._select(
            f"SELECT id FROM events_by_day WHERE day = '{DAY}' ORDER BY id DESC")
        self.assertTrue(rs.has_more_pages)
        self.assertEqual([r.id for r in rs], list(range(ROWS - 1, -1, -1)))

    def test_limit_applies_to_merged_stream(self):
        rs = self._select(f"SELECT id FROM events_by_day WHERE day = '{DAY}' LIMIT 150")
        self.assertEqual([r.id for r in rs], list(range(150)))
        rs = self._select(
            f"SELECT id FROM events_by_day WHERE day = '{DAY}' ORDER BY id DESC LIMIT 150")
        self.assertEqual([r.id for r in rs], list(range(ROWS - 1, ROWS - 151, -1)))

    def test_count_over_all_shards(self):
        count = self.session.execute(
            f"SELECT COUNT(*) FROM events_by_day WHERE day = '{DAY}'").one()[0]
        self.assertEqual(count, ROWS)

    def test_clustering_slice_over_all_shards(self):
        rs = self._select(
            f"SELECT id FROM events_by_day WHERE day = '{DAY}' AND id >= 990 AND id < 1210",
            fetch_size=50)
        self.assertEqual([r.id for r in rs], list(range(990, 1210)))

    def test_paging_state_resumed_on_new_session(self):
        cql = f"SELECT id FROM events_by_day WHERE day = '{DAY}'"
        first = self._select(cql)
        self.assertEqual([r.id for r in first.current_rows], list(range(100)))
        state = first.paging_state
        self.assertIsNotNone(state)
        other = new_cluster()
        try:
            s2 = other.connect(KS)
            rs = s2.execute(SimpleStatement(cql, fetch_size=100), paging_state=state)
            self.assertEqual([r.id for r in rs.current_rows], list(range(100, 200)))
            self.assertEqual([r.id for r in rs], list(range(100, ROWS)))
        finally:
            other.shutdown()

    # -- token-aware routing --------------------------------------------------

    def test_routing_key_token_matches_server_for_unsharded_table(self):
        s = self.session
        s.execute("CREATE TABLE plain_by_day (day text, id int, v text, PRIMARY KEY (day, id))")
        token_class = self.cluster.metadata.token_map.token_class
        self.assertIs(token_class, Murmur3Token)
        ins = s.prepare("INSERT INTO plain_by_day (day, id, v) VALUES (?, ?, ?)")
        tok = s.prepare("SELECT token(day) FROM plain_by_day WHERE day = ?")
        self.assertEqual(ins.routing_key_indexes, [0])
        for day in ["2024-06-01", "2024-06-02", "\u00e9t\u00e9", "x" * 300]:
            bound = ins.bind([day, 1, "v"])
            s.execute(bound)
            client_token = token_class.from_key(bound.routing_key).value
            server_token = s.execute(tok, [day]).one()[0]
            self.assertEqual(client_token, server_token, day)

    def test_token_of_sharded_table_is_logical_key_token(self):
        # token(pk) on a sharded table returns the token of the LOGICAL key
        # (Murmur3 of the partition key without the hidden shard suffix), so
        # it equals both the driver's routing token and the token of the same
        # key in an unsharded table.
        s = self.session
        s.execute("CREATE TABLE IF NOT EXISTS plain_twin (day text PRIMARY KEY, v text)")
        token_class = self.cluster.metadata.token_map.token_class
        ins = s.prepare("INSERT INTO events_by_day (day, id, v) VALUES (?, ?, ?)")
        self.assertEqual(ins.routing_key_indexes, [0])
        tok = s.prepare("SELECT token(day) FROM events_by_day WHERE day = ?")
        twin_ins = s.prepare("INSERT INTO plain_twin (day, v) VALUES (?, ?)")
        twin_tok = s.prepare("SELECT token(day) FROM plain_twin WHERE day = ?")
        for day in [DAY, "2024-06-02", "2030-01-01"]:
            bound = ins.bind([day, 0, "t"])
            if day != DAY:  # DAY's rows are already there; keep them intact
                s.execute(bound)
            client_token = token_class.from_key(bound.routing_key).value
            server_tokens = {r[0] for r in s.execute(tok, [day])}
            self.assertEqual(server_tokens, {client_token}, day)
            s.execute(twin_ins, [day, "t"])
            self.assertEqual(s.execute(twin_tok, [day]).one()[0], client_token, day)
        # The routing key of a sharded insert is the logical key alone.
        self.assertEqual(ins.bind([DAY, 0, "t"]).routing_key, DAY.encode())


if __name__ == "__main__":
    sys.exit(run(WriteShardingTest))
