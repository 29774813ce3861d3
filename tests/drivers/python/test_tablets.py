#!/usr/bin/env python3
"""system.tablets seen through the DataStax Python driver.

The columns decode with their declared types, and a hash table's tablets are
ranges of the very tokens the driver computes for routing: counting the keys
the driver puts in each [range_start, range_end] gives the rows system.tablets
reports per tablet, and a write-sharded partition's rows sit on several
tablets.

Run against a live server: TESSEL_HOST / TESSEL_PORT (default 127.0.0.1:9042).
    /usr/bin/python3 tests/drivers/python/test_tablets.py
Prints a closing "N passed, N failed" line; exit status 1 on any failure.
"""

import struct
import sys
import unittest

from cassandra.concurrent import execute_concurrent_with_args
from cassandra.metadata import Murmur3Token

from driver_env import connect_fresh_keyspace, run

KS = "pytablets"
KEYS = 500


class TabletsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster, cls.session = connect_fresh_keyspace(KS)
        s = cls.session
        s.execute("CREATE TABLE kv (k int PRIMARY KEY, v text)")
        s.execute("CREATE TABLE hot (day text, seq int, v int, PRIMARY KEY (day, seq)) "
                  "WITH write_sharding = {'shards': 16, 'suffix': 'random'}")
        ins = s.prepare("INSERT INTO kv (k, v) VALUES (?, 'x')")
        execute_concurrent_with_args(s, ins, [(k,) for k in range(KEYS)])
        hot = s.prepare("INSERT INTO hot (day, seq, v) VALUES ('d', ?, 1)")
        execute_concurrent_with_args(s, hot, [(i,) for i in range(300)])

    @classmethod
    def tearDownClass(cls):
        cls.cluster.shutdown()

    def tablets(self, table):
        return list(self.session.execute(
            "SELECT * FROM system.tablets WHERE keyspace_name = %s AND table_name = %s",
            (KS, table)))

    def test_columns_decode_with_their_types(self):
        rows = self.tablets("kv")
        self.assertEqual(len(rows), 4)
        for i, r in enumerate(rows):
            self.assertEqual(r.keyspace_name, KS)
            self.assertEqual(r.tablet_id, i)
            self.assertIsInstance(r.range_start, str)
            self.assertIsInstance(r.shard, int)
            self.assertIsInstance(r.size_bytes, int)
            self.assertIsInstance(r.rows, int)
            for rate in (r.reads_per_sec, r.writes_per_sec, r.bytes_per_sec):
                self.assertIsInstance(rate, float)
                self.assertGreaterEqual(rate, 0.0)
        self.assertEqual(int(rows[0].range_start), -2**63)
        self.assertEqual(int(rows[-1].range_end), 2**63 - 1)
        for a, b in zip(rows, rows[1:]):
            self.assertEqual(int(a.range_end) + 1, int(b.range_start))

    def test_tablets_are_the_drivers_token_ranges(self):
        rows = self.tablets("kv")
        expected = [0] * len(rows)
        for k in range(KEYS):
            token = Murmur3Token.from_key(struct.pack(">i", k)).value
            for i, r in enumerate(rows):
                if int(r.range_start) <= token <= int(r.range_end):
                    expected[i] += 1
        self.assertEqual([r.rows for r in rows], expected)
        self.assertEqual(sum(expected), KEYS)

    def test_hot_sharded_partition_spreads_over_tablets(self):
        rows = self.tablets("hot")
        self.assertEqual(sum(r.rows for r in rows), 300)
        self.assertGreaterEqual(sum(1 for r in rows if r.rows > 0), 3)
        count = self.session.execute("SELECT COUNT(*) FROM hot WHERE day = 'd'").one()[0]
        self.assertEqual(count, 300)


if __name__ == "__main__":
    sys.exit(run(TabletsTest))
