#!/usr/bin/env python3
"""Bind markers (? and :name) in every place CQL accepts a term, through the
DataStax Python driver's prepared statements: keys, IN lists, tuple slices,
token() bounds, LIMIT, PER PARTITION LIMIT, USING TTL/TIMESTAMP, collection
operations, element deletions, LWT conditions, CONTAINS filters, function
arguments and batches.

Run against a live server: TESSEL_HOST / TESSEL_PORT (default 127.0.0.1:9042).
    /usr/bin/python3 tests/drivers/python/test_bind_markers.py
Prints a closing "N passed, N failed" line; exit status 1 on any failure.
"""

import datetime
import sys
import unittest

from cassandra.metadata import Murmur3Token
from cassandra import InvalidRequest
from cassandra.query import UNSET_VALUE, BatchStatement, BatchType

from driver_env import connect_fresh_keyspace, run

KS = "pybind"


class BindMarkerTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster, cls.session = connect_fresh_keyspace(KS)
        s = cls.session
        s.execute("CREATE TABLE t (k int, a int, b int, v int, l list<int>, m map<text, int>, "
                  "st set<text>, PRIMARY KEY (k, a, b)) "
                  "WITH CLUSTERING ORDER BY (a ASC, b DESC)")
        ins = s.prepare("INSERT INTO t (k, a, b, v) VALUES (:k, :a, :b, :v)")
        for k in range(3):
            for a in range(3):
                for b in range(3):
                    s.execute(ins, {"k": k, "a": a, "b": b, "v": k * 100 + a * 10 + b})

    @classmethod
    def tearDownClass(cls):
        cls.cluster.shutdown()

    def rows(self, cql, *args, **named):
        stmt = self.session.prepare(cql)
        return list(self.session.execute(stmt, named if named else args))

    def test_keys_in_lists_and_limits(self):
        got = self.rows("SELECT a, b FROM t WHERE k = :k AND a IN :as LIMIT :n",
                        k=1, **{"as": [0, 2]}, n=4)
        self.assertEqual([(r.a, r.b) for r in got], [(0, 2), (0, 1), (0, 0), (2, 2)])
        got = self.rows("SELECT k, a, b FROM t WHERE k IN ? PER PARTITION LIMIT ?", [0, 2], 1)
        self.assertEqual(sorted((r.k, r.a, r.b) for r in got), [(0, 0, 2), (2, 0, 2)])

    def test_tuple_slice_over_mixed_order_columns(self):
        got = self.rows("SELECT a, b FROM t WHERE k = ? AND (a, b) > ? AND (a, b) <= (?, ?)",
                        0, (0, 1), 1, 1)
        # a ASC, b DESC: (0, 2) from a = 0, then a = 1 with b <= 1 in b DESC order.
        self.assertEqual([(r.a, r.b) for r in got], [(0, 2), (1, 1), (1, 0)])

    def test_token_bounds(self):
        tok = Murmur3Token.from_key(b"\x00\x00\x00\x01").value
        got = self.rows("SELECT DISTINCT k FROM t WHERE token(k) >= ? AND token(k) <= ?",
                        tok, tok)
        self.assertEqual([r.k for r in got], [1])
        got = self.rows("SELECT DISTINCT k FROM t WHERE token(k) > token(?)", 1)
        self.assertNotIn(1, [r.k for r in got])

    def test_writes_with_ttl_timestamp_and_collections(self):
        s = self.session
        s.execute(s.prepare("INSERT INTO t (k, a, b, v, l) VALUES (?, ?, ?, ?, ?) "
                            "USING TTL ? AND TIMESTAMP ?"), (5, 0, 0, 1, [1], 3600, 1234))
        r = self.rows("SELECT ttl(v), writetime(v) FROM t WHERE k = ? AND a = ? AND b = ?",
                      5, 0, 0)[0]
        self.assertTrue(3500 < r[0] <= 3600)
        self.assertEqual(r[1], 1234)
        s.execute(s.prepare("UPDATE t SET l = l + ?, m[:key] = :val, st = st + :items, "
                            "v = :v WHERE k = :k AND a = :a AND b = :b"),
                  {"k": 5, "a": 0, "b": 0, "l": [1], "key": "x", "val": 7, "items": {"p", "q"},
                   "v": 2})
        s.execute(s.prepare("UPDATE t SET l[?] = ? WHERE k = ? AND a = ? AND b = ?"),
                  (0, 9, 5, 0, 0))
        s.execute(s.prepare("DELETE st[?] FROM t WHERE k = ? AND a = ? AND b = ?"),
                  ("p", 5, 0, 0))
        r = self.rows("SELECT l, m, st, v FROM t WHERE k = ? AND a = ? AND b = ?", 5, 0, 0)[0]
        self.assertEqual((r.l, dict(r.m), set(r.st), r.v), ([9, 1], {"x": 7}, {"q"}, 2))
        # A marker left out of the named values is unset: the column keeps its value.
        s.execute(s.prepare("UPDATE t SET l = l + ?, v = :v WHERE k = 5 AND a = 0 AND b = 0"),
                  {"v": 3})
        r = self.rows("SELECT l, v FROM t WHERE k = ? AND a = ? AND b = ?", 5, 0, 0)[0]
        self.assertEqual((r.l, r.v), ([9, 1], 3))
        got = self.rows("SELECT k FROM t WHERE m CONTAINS KEY ? ALLOW FILTERING", "x")
        self.assertEqual([r.k for r in got], [5])

    def test_conditions(self):
        s = self.session
        ins = s.prepare("INSERT INTO t (k, a, b, v) VALUES (?, ?, ?, ?) IF NOT EXISTS")
        self.assertTrue(s.execute(ins, (6, 0, 0, 1)).one()[0])
        self.assertFalse(s.execute(ins, (6, 0, 0, 2)).one()[0])
        upd = s.prepare("UPDATE t SET v = :new WHERE k = :k AND a = 0 AND b = 0 IF v = :old")
        res = s.execute(upd, {"new": 3, "k": 6, "old": 2}).one()
        self.assertEqual((res[0], res.v), (False, 1))
        self.assertTrue(s.execute(upd, {"new": 3, "k": 6, "old": 1}).one()[0])
        dele = s.prepare("DELETE FROM t WHERE k = ? AND a = ? AND b = ? IF v IN ?")
        self.assertTrue(s.execute(dele, (6, 0, 0, [3, 4])).one()[0])

    def test_function_arguments_and_batch(self):
        s = self.session
        s.execute("CREATE TABLE IF NOT EXISTS times (k int, t timeuuid, PRIMARY KEY (k, t))")
        s.execute("INSERT INTO times (k, t) VALUES (1, now())")
        start = datetime.datetime(2000, 1, 1)
        got = self.rows("SELECT toDate(t) FROM times WHERE k = ? AND t > minTimeuuid(?)", 1, start)
        self.assertEqual(len(got), 1)
        batch = BatchStatement(batch_type=BatchType.UNLOGGED)
        ins = s.prepare("INSERT INTO t (k, a, b, v) VALUES (?, ?, ?, ?) USING TIMESTAMP ?")
        batch.add(ins, (7, 0, 0, 1, 10))
        batch.add(ins, (7, 0, 1, 2, 10))
        s.execute(batch)
        got = self.rows("SELECT v FROM t WHERE k = ?", 7)
        self.assertEqual(sorted(r.v for r in got), [1, 2])

    def test_type_hinted_markers_as_function_arguments(self):
        # `(type)?` fixes the marker's type; a blob parameter takes any value.
        s = self.session
        got = self.rows("SELECT blobAsInt((blob)?) FROM t WHERE k = ? LIMIT 1",
                        b"\x00\x00\x00\x07", 0)
        self.assertEqual(got[0][0], 7)
        stmt = s.prepare("SELECT blobAsBigint((bigint)?) FROM t WHERE k = 0 LIMIT 1")
        self.assertEqual(stmt.column_metadata[0].type.typename, "bigint")
        self.assertEqual(list(s.execute(stmt, [5]))[0][0], 5)

    def test_frozen_collections_bound_unsorted_are_stored_sorted(self):
        # Python lists keep the order given, so the driver sends the set and
        # the map keys unsorted and with a duplicate; Cassandra stores and
        # compares the canonical form.
        s = self.session
        s.execute("CREATE TABLE IF NOT EXISTS frozen_keys (k frozen<set<int>>, "
                  "c frozen<map<text, int>>, v frozen<set<text>>, PRIMARY KEY (k, c))")
        ins = s.prepare("INSERT INTO frozen_keys (k, c, v) VALUES (?, ?, ?)")
        s.execute(ins, ([3, 1, 2, 1], {"b": 2, "a": 1}, ["z", "y", "x"]))
        got = self.rows("SELECT k, c, v FROM frozen_keys WHERE k = ?", [1, 2, 3])
        self.assertEqual(len(got), 1)
        self.assertEqual(list(got[0].k), [1, 2, 3])
        self.assertEqual(list(got[0].c.items()), [("a", 1), ("b", 2)])
        self.assertEqual(list(got[0].v), ["x", "y", "z"])
        # The same key bound in another order names the same partition and row.
        got = self.rows("SELECT v FROM frozen_keys WHERE k = ? AND c = ?", [2, 3, 1],
                        {"a": 1, "b": 2})
        self.assertEqual(len(got), 1)

    def test_unset_inside_collections_tuples_and_udts(self):
        # Cassandra 4.0: an unset list/set element or map value leaves the
        # whole column unwritten; an unset map key, tuple field or UDT field
        # is refused; null inside a collection is refused.
        s = self.session
        s.execute("CREATE TYPE IF NOT EXISTS pt (x int, y int)")
        s.execute("CREATE TABLE IF NOT EXISTS unsets (k int PRIMARY KEY, l list<int>, "
                  "st set<int>, m map<int, int>, tp frozen<tuple<int, int>>, u frozen<pt>)")
        s.execute("INSERT INTO unsets (k, l, st, m) VALUES (1, [9], {9}, {9: 9})")
        upd = s.prepare("UPDATE unsets SET l = [?, ?], st = {?}, m = {1: ?} WHERE k = 1")
        s.execute(upd, (1, UNSET_VALUE, UNSET_VALUE, UNSET_VALUE))
        row = s.execute("SELECT l, st, m FROM unsets WHERE k = 1").one()
        self.assertEqual((list(row.l), set(row.st), dict(row.m)), ([9], {9}, {9: 9}))
        cases = [
            ("UPDATE unsets SET m = {?: 1} WHERE k = 1", (UNSET_VALUE,),
             "unset value is not supported for map keys"),
            ("UPDATE unsets SET tp = (?, ?) WHERE k = 1", (1, UNSET_VALUE),
             "Invalid unset value for tuple field number 1"),
            ("UPDATE unsets SET u = {x: ?, y: ?} WHERE k = 1", (UNSET_VALUE, 2),
             "Invalid unset value for field 'x' of user defined type pt"),
            ("UPDATE unsets SET l = [?] WHERE k = 1", (None,),
             "null is not supported inside collections"),
        ]
        for cql, args, text in cases:
            with self.assertRaises(InvalidRequest) as cm:
                s.execute(s.prepare(cql), args)
            self.assertIn(text, str(cm.exception))


if __name__ == "__main__":
    sys.exit(run(BindMarkerTest))
