#!/usr/bin/env python3
"""Paging seen through the DataStax Python driver: aggregates over many
pages, GROUP BY results paged by groups, paging states resumed on another
connection, refused when forged, and pages fetched across an ALTER TABLE.

Run against a live server: TESSEL_HOST / TESSEL_PORT (default 127.0.0.1:9042).
    /usr/bin/python3 tests/drivers/python/test_paging.py
Prints a closing "N passed, N failed" line; exit status 1 on any failure.
"""

import sys
import unittest

from cassandra import InvalidRequest
from cassandra.concurrent import execute_concurrent_with_args
from cassandra.query import SimpleStatement

from driver_env import connect_fresh_keyspace, new_cluster, run

KS = "pypaging"
PARTITIONS = 6
GROUPS = 100  # groups (g values) per partition
ROWS_PER_GROUP = 20
TOTAL = PARTITIONS * GROUPS * ROWS_PER_GROUP  # 12,000 rows


def value(p, g, c):
    return p * 100000 + g * 100 + c


class PagingTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster, cls.session = connect_fresh_keyspace(KS)
        s = cls.session
        s.execute("CREATE TABLE events (p int, g int, c int, v bigint, PRIMARY KEY (p, g, c))")
        ins = s.prepare("INSERT INTO events (p, g, c, v) VALUES (?, ?, ?, ?)")
        args = [(p, g, c, value(p, g, c)) for p in range(PARTITIONS) for g in range(GROUPS)
                for c in range(ROWS_PER_GROUP)]
        results = execute_concurrent_with_args(s, ins, args, concurrency=64,
                                               raise_on_first_error=True)
        assert all(ok for ok, _ in results)

    @classmethod
    def tearDownClass(cls):
        cls.cluster.shutdown()

    def _select(self, cql, fetch_size, session=None, **kwargs):
        return (session or self.session).execute(SimpleStatement(cql, fetch_size=fetch_size),
                                                 **kwargs)

    # -- aggregates without GROUP BY: one row, however many pages of input -----

    def test_count_over_more_rows_than_a_page(self):
        rs = self._select("SELECT COUNT(*), sum(v), max(c) FROM events", fetch_size=100)
        rows = list(rs)
        self.assertEqual(len(rows), 1)
        self.assertFalse(rs.has_more_pages)
        expected_sum = sum(value(p, g, c) for p in range(PARTITIONS) for g in range(GROUPS)
                           for c in range(ROWS_PER_GROUP))
        self.assertEqual(tuple(rows[0]), (TOTAL, expected_sum, ROWS_PER_GROUP - 1))

    def test_count_of_one_partition_larger_than_the_page(self):
        prep = self.session.prepare("SELECT COUNT(*) FROM events WHERE p = ?")
        bound = prep.bind([3])
        bound.fetch_size = 10
        self.assertEqual(list(self.session.execute(bound))[0][0], GROUPS * ROWS_PER_GROUP)

    # -- GROUP BY: pages of groups ------------------------------------------

    def test_group_by_clustering_prefix_pages_by_groups(self):
        rs = self._select("SELECT p, g, COUNT(*), sum(v) FROM events GROUP BY p, g",
                          fetch_size=50)
        self.assertTrue(rs.has_more_pages)
        self.assertEqual(len(rs.current_rows), 50)
        rows = list(rs)
        self.assertEqual(len(rows), PARTITIONS * GROUPS)
        self.assertEqual(len({(r.p, r.g) for r in rows}), PARTITIONS * GROUPS)
        for r in rows:
            self.assertEqual(r.count, ROWS_PER_GROUP)
            self.assertEqual(r[3], sum(value(r.p, r.g, c) for c in range(ROWS_PER_GROUP)))
        # Within a partition, groups come in clustering order and contiguously.
        by_partition = {}
        for r in rows:
            by_partition.setdefault(r.p, []).append(r.g)
        self.assertEqual(len(by_partition), PARTITIONS)
        for gs in by_partition.values():
            self.assertEqual(gs, list(range(GROUPS)))

    def test_group_by_partition_each_group_spans_many_pages(self):
        rs = self._select("SELECT p, COUNT(*), min(g), max(g) FROM events GROUP BY p",
                          fetch_size=2)
        self.assertEqual(len(rs.current_rows), 2)
        self.assertTrue(rs.has_more_pages)
        rows = list(rs)
        self.assertEqual(sorted(r.p for r in rows), list(range(PARTITIONS)))
        for r in rows:
            self.assertEqual(tuple(r)[1:], (GROUPS * ROWS_PER_GROUP, 0, GROUPS - 1))

    def test_group_by_with_limit_and_per_partition_limit_across_pages(self):
        rows = list(self._select("SELECT p, g, COUNT(*) FROM events GROUP BY p, g LIMIT 130",
                                 fetch_size=50))
        self.assertEqual(len(rows), 130)
        rows = list(self._select(
            "SELECT p, g, COUNT(*) FROM events GROUP BY p, g PER PARTITION LIMIT 7",
            fetch_size=5))
        self.assertEqual(len(rows), PARTITIONS * 7)
        self.assertTrue(all(r.g < 7 for r in rows))

    def test_prepared_group_by_pages_reversed(self):
        prep = self.session.prepare(
            "SELECT g, COUNT(*) FROM events WHERE p = ? GROUP BY p, g ORDER BY g DESC")
        bound = prep.bind([2])
        bound.fetch_size = 30
        rs = self.session.execute(bound)
        self.assertEqual(len(rs.current_rows), 30)
        rows = list(rs)
        self.assertEqual([r.g for r in rows], list(range(GROUPS - 1, -1, -1)))
        self.assertTrue(all(r.count == ROWS_PER_GROUP for r in rows))

    def test_group_by_paging_state_resumes_on_new_connection(self):
        cql = "SELECT p, g, COUNT(*) FROM events WHERE p = 4 GROUP BY p, g"
        first = self._select(cql, fetch_size=7)
        self.assertEqual([r.g for r in first.current_rows], list(range(7)))
        other = new_cluster()
        try:
            s2 = other.connect(KS)
            rs = self._select(cql, fetch_size=7, session=s2, paging_state=first.paging_state)
            self.assertEqual([r.g for r in rs.current_rows], list(range(7, 14)))
            self.assertEqual([r.g for r in rs], list(range(7, GROUPS)))
        finally:
            other.shutdown()

    # -- paging states -------------------------------------------------------

    def test_forged_paging_state_is_refused(self):
        cql = "SELECT c FROM events WHERE p = 1"
        first = self._select(cql, fetch_size=10)
        state = bytearray(first.paging_state)
        state[len(state) // 2] ^= 0x01
        with self.assertRaises(InvalidRequest) as cm:
            self._select(cql, fetch_size=10, paging_state=bytes(state))
        self.assertIn("Invalid paging state", str(cm.exception))
        # A genuine state of another query is refused too.
        with self.assertRaises(InvalidRequest):
            self._select("SELECT c FROM events WHERE p = 2", fetch_size=10,
                         paging_state=first.paging_state)

    def test_page_after_alter_table(self):
        s = self.session
        s.execute("CREATE TABLE altered (k int, c int, v int, PRIMARY KEY (k, c))")
        ins = s.prepare("INSERT INTO altered (k, c, v) VALUES (?, ?, ?)")
        execute_concurrent_with_args(s, ins, [(0, c, c) for c in range(300)])
        star = self._select("SELECT * FROM altered WHERE k = 0", fetch_size=100)
        named = self._select("SELECT c, v FROM altered WHERE k = 0", fetch_size=100)
        self.assertTrue(star.has_more_pages and named.has_more_pages)
        s.execute("ALTER TABLE altered ADD w text")
        # SELECT * now has another column: the next page is refused, never
        # sent with columns the first page's metadata does not describe.
        with self.assertRaises(InvalidRequest) as cm:
            self._select("SELECT * FROM altered WHERE k = 0", fetch_size=100,
                         paging_state=star.paging_state)
        self.assertIn("altered since the previous page", str(cm.exception))
        # The columns of an explicit selection did not change: it continues.
        rest = self._select("SELECT c, v FROM altered WHERE k = 0", fetch_size=100,
                            paging_state=named.paging_state)
        self.assertEqual([r.c for r in rest], list(range(100, 300)))
        # A dropped selected column fails as the statement does.
        s.execute("ALTER TABLE altered DROP v")
        with self.assertRaises(InvalidRequest) as cm:
            self._select("SELECT c, v FROM altered WHERE k = 0", fetch_size=100,
                         paging_state=named.paging_state)
        self.assertIn("Undefined column name v", str(cm.exception))


if __name__ == "__main__":
    sys.exit(run(PagingTest))
