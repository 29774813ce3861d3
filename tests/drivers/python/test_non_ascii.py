#!/usr/bin/env python3
"""Non-ASCII identifiers and literals through every error path: each error
reaches the DataStax Python driver as the right exception, its message quotes
the text whole (never cut inside a UTF-8 sequence), and the connection that
carried it stays open. A message cut mid-sequence fails the driver's decoding
of the ERROR frame and makes it drop the connection.

Run against a live server: TESSEL_HOST / TESSEL_PORT (default 127.0.0.1:9042).
    /usr/bin/python3 tests/drivers/python/test_non_ascii.py
Prints a closing "N passed, N failed" line; exit status 1 on any failure.
"""

import unittest

from cassandra import InvalidRequest
from cassandra.protocol import SyntaxException

from driver_env import connect_fresh_keyspace, run

KS = "pyutf8"
HEBREW = "עברית"


class NonAsciiErrorTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster, cls.session = connect_fresh_keyspace(KS)
        cls.session.execute("CREATE TABLE t (k int PRIMARY KEY, v int, s text)")

    @classmethod
    def tearDownClass(cls):
        cls.cluster.shutdown()

    def connection(self):
        pools = list(self.session._pools.values())
        self.assertEqual(len(pools), 1)
        return pools[0]._connection

    def expect_error(self, cql, exception, quoted):
        """`cql` fails with `exception` whose message contains `quoted`, on
        the same, still open connection."""
        before = self.connection()
        with self.assertRaises(exception) as cm:
            self.session.execute(cql)
        self.assertIn(quoted, str(cm.exception))
        self.assertEqual(self.session.execute("SELECT k FROM t WHERE k = 0").all(), [])
        after = self.connection()
        self.assertIs(after, before, "the connection was replaced")
        self.assertFalse(after.is_defunct)
        self.assertFalse(after.is_closed)
        return str(cm.exception)

    def test_unquoted_identifier_is_a_syntax_error_naming_the_character(self):
        msg = self.expect_error(f"CREATE TABLE {KS}.tab{HEBREW} (k int PRIMARY KEY)",
                                SyntaxException, "'ע'")
        self.assertIn("no viable alternative at character", msg)

    def test_invalid_quoted_table_name(self):
        self.expect_error(f'CREATE TABLE "tab{HEBREW}" (k int PRIMARY KEY)', InvalidRequest,
                          f'"tab{HEBREW}" is not a valid table name')

    def test_unknown_table_and_column(self):
        self.expect_error(f'SELECT * FROM "tab{HEBREW}"', InvalidRequest, f"tab{HEBREW}")
        self.expect_error(f'SELECT "col{HEBREW}" FROM t', InvalidRequest, f"col{HEBREW}")
        self.expect_error(f'INSERT INTO t (k, "é") VALUES (1, 2)', InvalidRequest, "é")

    def test_literal_of_the_wrong_type(self):
        self.expect_error(f"INSERT INTO t (k, v) VALUES (1, '{HEBREW}')", InvalidRequest,
                          HEBREW)

    def test_syntax_error_quoting_non_ascii_input(self):
        self.expect_error(f"SELECT * FROM t WHERE s = '{HEBREW}' AND", SyntaxException, "")
        self.expect_error(f"SELECT * FROM t WHERE k = 1 {HEBREW}", SyntaxException, "ע")

    def test_unknown_function(self):
        self.expect_error(f'SELECT "f{HEBREW}"(v) FROM t', InvalidRequest, f"f{HEBREW}")

    def test_message_over_the_string_limit_is_cut_at_a_character(self):
        # A [string] holds 65,535 bytes: a name of 40,000 two-byte characters
        # makes the message longer, and the cut must fall between characters.
        name = "é" * 40000
        msg = self.expect_error(f'CREATE TABLE "{name}" (k int PRIMARY KEY)', InvalidRequest,
                                "éééé")
        self.assertLessEqual(len(msg.encode("utf-8")), 65535 + 200)

    def test_non_ascii_values_still_work(self):
        self.session.execute("INSERT INTO t (k, s) VALUES (7, %s)", [HEBREW])
        self.assertEqual(self.session.execute("SELECT s FROM t WHERE k = 7").one().s, HEBREW)


if __name__ == "__main__":
    raise SystemExit(run(NonAsciiErrorTest))
