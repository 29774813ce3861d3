#!/usr/bin/env python3
"""Partition health of a real tesseld, through the DataStax Python driver,
tessel-admin and the /metrics endpoint.

The server runs with lowered thresholds (tests/suites/health.sh):
partition_size_warn_threshold 20KiB, partition_size_fail_threshold 200KiB,
tombstone_warn_threshold 10, tombstone_failure_threshold 50,
partition_write_budget 20 writes/s, hot-partition windows of 10 s.

Environment: TESSEL_HOST / TESSEL_PORT (CQL), TESSEL_METRICS_PORT,
TESSELD_LOG (the server's log), TESSEL_ADMIN (tessel-admin binary),
TESSEL_EXAMPLES (the examples folder).
Prints a closing "N passed, N failed" line; exit status 1 on any failure.
"""

import os
import random
import re
import subprocess
import threading
import time
import unittest
import urllib.request

from cassandra import InvalidRequest, ReadFailure
from cassandra.concurrent import execute_concurrent_with_args

from driver_env import HOST, PORT, connect_fresh_keyspace, run

KS = "pyhealth"
ADMIN = os.environ.get("TESSEL_ADMIN", "build/bin/tessel-admin")
METRICS_PORT = int(os.environ.get("TESSEL_METRICS_PORT", "0"))
LOG = os.environ.get("TESSELD_LOG", "")
EXAMPLES = os.environ.get("TESSEL_EXAMPLES", "examples")
VALUE = "x" * 100


def admin(*args, timeout=60):
    out = subprocess.run([ADMIN, "--host", HOST, "--port", str(PORT), *args],
                         capture_output=True, text=True, timeout=timeout)
    if out.returncode != 0:
        raise AssertionError(f"tessel-admin {' '.join(args)} failed: {out.stderr}")
    return out.stdout


def sampler_rows(output, kind):
    """The (partition, count, error) rows of one toppartitions sampler."""
    lines = output.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith(kind.upper() + " Sampler"))
    rows = []
    in_table = False
    for line in lines[start + 1:]:
        if not line.strip():
            break
        if line.strip().startswith("---"):
            in_table = True
            continue
        if in_table:
            key, count, err = line.split()
            rows.append((key, int(count), int(err)))
    return rows


def scrape():
    with urllib.request.urlopen(f"http://127.0.0.1:{METRICS_PORT}/metrics", timeout=10) as r:
        return r.headers.get("Content-Type"), r.read().decode()


def sample(text, name, labels=""):
    m = re.search(r"^" + re.escape(name + labels) + r" (\S+)$", text, re.M)
    return float(m.group(1)) if m else None


def hot_day_table(name, options=""):
    """The events table of examples/hot_day.cql under another name."""
    with open(os.path.join(EXAMPLES, "hot_day.cql")) as f:
        text = f.read()
    m = re.search(r"CREATE TABLE events_unsharded (\(.*\));", text)
    assert m, "examples/hot_day.cql no longer has events_unsharded"
    return f"CREATE TABLE {name} {m.group(1)}{options}"


def daily_workload(session, table, writes, days=5):
    """The seed's daily hot partition: nearly every event goes to today's
    partition, a few to the previous days."""
    ins = session.prepare(
        f"INSERT INTO {table} (day, at, user_id, action) VALUES (?, ?, ?, ?)")
    base = 1717228800000  # 2024-06-01 08:00:00 UTC
    rows = []
    for i in range(writes):
        day = "2024-06-01" if i % 50 else f"2024-05-{30 - (i // 50) % days:02d}"
        rows.append((day, base + i, i % 97, "view"))
    results = execute_concurrent_with_args(session, ins, rows, concurrency=64,
                                           raise_on_first_error=True)
    assert all(ok for ok, _ in results)


def advice(session, table):
    rows = session.execute(
        "SELECT rank, kind, message, statement FROM system.partition_advice "
        f"WHERE keyspace_name = '{KS}' AND table_name = '{table}'")
    return sorted(rows, key=lambda r: r.rank)


def write_skew(session, table):
    """max/mean of writes_per_sec over the table's tablets (system.tablets)."""
    rates = [r.writes_per_sec for r in session.execute(
        "SELECT writes_per_sec FROM system.tablets "
        f"WHERE keyspace_name = '{KS}' AND table_name = '{table}'")]
    assert rates, f"no tablets listed for {table}"
    mean = sum(rates) / len(rates)
    assert mean > 0, f"no write load on the tablets of {table}: {rates}"
    return max(rates) / mean


class PartitionHealthTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster, cls.session = connect_fresh_keyspace(KS)
        s = cls.session
        s.execute("CREATE TABLE big (k int, c int, v text, PRIMARY KEY (k, c))")
        cls.ins = s.prepare("INSERT INTO big (k, c, v) VALUES (?, ?, ?)")
        # Partition 1 grows past the 20 KiB warn threshold (about 130 bytes a row).
        execute_concurrent_with_args(s, cls.ins, [(1, c, VALUE) for c in range(400)],
                                     concurrency=16, raise_on_first_error=True)
        execute_concurrent_with_args(s, cls.ins, [(2, c, VALUE) for c in range(10)],
                                     concurrency=16, raise_on_first_error=True)

    @classmethod
    def tearDownClass(cls):
        cls.cluster.shutdown()

    def test_large_partition_is_listed_and_logged_once(self):
        deadline = time.time() + 5
        rows = []
        while time.time() < deadline:
            rows = list(self.session.execute(
                "SELECT * FROM system.large_partitions "
                f"WHERE keyspace_name = '{KS}' AND table_name = 'big'"))
            if rows:
                break
            time.sleep(0.2)
        self.assertEqual([r.partition_key for r in rows], ["1"])
        r = rows[0]
        self.assertGreaterEqual(r.partition_size, 20 * 1024)
        self.assertEqual(r.rows, 400)
        self.assertEqual(r.tombstones, 0)
        self.assertLessEqual(r.first_seen, r.last_seen)
        out = admin("largepartitions", f"{KS}.big")
        self.assertIn(f"{KS}.big", out)
        self.assertIn("(1 large partitions)", out)
        if LOG:
            with open(LOG) as f:
                lines = [l for l in f if f"Writing large partition {KS}.big '1'" in l
                         and "partition_size_warn_threshold of 20 KB" in l]
            self.assertEqual(len(lines), 1, lines)

    def test_fail_threshold_rejects_writes_with_invalid(self):
        s = self.session
        s.execute("CREATE TABLE capped (k int, c int, v text, PRIMARY KEY (k, c))")
        ins = s.prepare("INSERT INTO capped (k, c, v) VALUES (?, ?, ?)")
        error = None
        for c in range(3000):
            try:
                s.execute(ins, (7, c, VALUE))
            except InvalidRequest as e:
                error = str(e)
                break
        self.assertIsNotNone(error, "no write was refused past 200 KiB")
        self.assertIn(f"Partition {KS}.capped '7' is", error)
        self.assertIn("over the partition_size_fail_threshold of 200 KB", error)
        # Other partitions are still writable, and the full one can be deleted.
        s.execute(ins, (8, 0, VALUE))
        s.execute("DELETE FROM capped WHERE k = 7 AND c = 0")

    def test_tombstone_warning_then_read_failure(self):
        s = self.session
        s.execute("CREATE TABLE tomb (k int, c int, v text, PRIMARY KEY (k, c))")
        for c in range(20):
            s.execute(f"DELETE FROM tomb WHERE k = 1 AND c = {c}")
        s.execute("INSERT INTO tomb (k, c, v) VALUES (1, 100, 'live')")
        result = s.execute("SELECT * FROM tomb WHERE k = 1")
        self.assertEqual(len(list(result)), 1)
        self.assertEqual(result.response_future.warnings, [
            "Read 1 live rows and 20 tombstone cells for query SELECT * FROM tomb WHERE k = 1 "
            "(see tombstone_warn_threshold)"])
        for c in range(20, 60):
            s.execute(f"DELETE FROM tomb WHERE k = 1 AND c = {c}")
        with self.assertRaises(ReadFailure) as ctx:
            s.execute("SELECT * FROM tomb WHERE k = 1")
        self.assertIn("Scanned over 60 tombstones", str(ctx.exception))

    def test_toppartitions_ranks_the_skewed_key_first(self):
        s = self.session
        s.execute("CREATE TABLE skewed (k int, c int, v text, PRIMARY KEY (k, c))")
        ins = s.prepare("INSERT INTO skewed (k, c, v) VALUES (?, ?, ?)")
        stop = threading.Event()
        counts = {}

        def load():
            rnd = random.Random(7)
            c = 0
            while not stop.is_set():
                batch = []
                for _ in range(100):
                    k = 42 if rnd.random() < 0.4 else rnd.randrange(100, 200)
                    counts[k] = counts.get(k, 0) + 1
                    c += 1
                    batch.append((k, c, "v"))
                execute_concurrent_with_args(s, ins, batch, concurrency=32,
                                             raise_on_first_error=True)
                time.sleep(0.1)  # paced: key 42 stays under the 200 KiB fail threshold

        worker = threading.Thread(target=load)
        worker.start()
        try:
            time.sleep(0.5)
            out = admin("toppartitions", KS, "skewed", "--duration", "3s", "-k", "5")
        finally:
            stop.set()
            worker.join()
        writes = sampler_rows(out, "writes")
        self.assertTrue(writes, out)
        key, count, err = writes[0]
        self.assertEqual(key, "42", out)
        self.assertGreater(count, 0)
        self.assertLessEqual(err, count)
        if len(writes) > 1:
            self.assertGreater(count - err, writes[1][1], out)  # ranks apart beyond error
        bytes_rows = sampler_rows(out, "bytes")
        self.assertEqual(bytes_rows[0][0], "42", out)

    def test_advisor_on_the_daily_hot_partition(self):
        s = self.session
        s.execute(hot_day_table("events_unsharded"))
        daily_workload(s, "events_unsharded", 2000)
        skew_before = write_skew(s, "events_unsharded")
        recs = advice(s, "events_unsharded")
        sharding = [r for r in recs if r.kind == "write_sharding"]
        self.assertEqual(len(sharding), 1, recs)
        rec = sharding[0]
        self.assertIn("Partition '2024-06-01' takes", rec.message)
        self.assertIn("over the per-partition budget of 20 writes/s", rec.message)
        self.assertIn("ALTER TABLE cannot add write_sharding to the unsharded table", rec.message)
        shards = int(re.search(r"'shards': (\d+)", rec.statement).group(1))
        self.assertGreater(shards, 1)
        self.assertTrue(rec.statement.startswith(f"CREATE TABLE {KS}.events_unsharded_v2 ("),
                        rec.statement)
        out = admin("advise", f"{KS}.events_unsharded")
        self.assertIn("[write_sharding] Partition '2024-06-01' takes", out)
        self.assertIn(f"CREATE TABLE {KS}.events_unsharded_v2", out)
        # Applying the advice: the new table, then the same workload on it.
        s.execute(rec.statement)
        meta = s.execute(f"DESCRIBE TABLE {KS}.events_unsharded_v2").one()
        self.assertIn(f"'shards': '{shards}'", meta.create_statement)
        daily_workload(s, "events_unsharded_v2", 2000)
        # The hot day's writes now spread over the tablets: the skew drops.
        skew_after = write_skew(s, "events_unsharded_v2")
        print(f"write skew across tablets (max/mean): {skew_before:.2f} unsharded, "
              f"{skew_after:.2f} with {shards} shards")
        self.assertGreater(skew_before, 3.0)
        self.assertLess(skew_after, skew_before / 2,
                        f"skew {skew_before:.2f} -> {skew_after:.2f}")
        for r in advice(s, "events_unsharded_v2"):
            # Still over budget is possible with a short window; the advice is
            # then to raise the count of the now-sharded table, never a new one.
            if r.kind == "write_sharding":
                self.assertTrue(r.statement.startswith("ALTER TABLE"), r.statement)

    def test_advisor_raises_the_shards_of_a_sharded_table(self):
        s = self.session
        s.execute(hot_day_table("events_two",
                                " WITH write_sharding = {'shards': 2, 'suffix': 'random'}"))
        daily_workload(s, "events_two", 2000)
        recs = [r for r in advice(s, "events_two") if r.kind == "write_sharding"]
        self.assertEqual(len(recs), 1)
        self.assertIn("(with 2 shards now)", recs[0].message)
        self.assertTrue(
            recs[0].statement.startswith(f"ALTER TABLE {KS}.events_two WITH write_sharding = "),
            recs[0].statement)
        shards = int(re.search(r"'shards': (\d+)", recs[0].statement).group(1))
        self.assertGreater(shards, 2)
        s.execute(recs[0].statement)  # main accepts raising the count
        meta = s.execute(f"DESCRIBE TABLE {KS}.events_two").one()
        self.assertIn(f"'shards': '{shards}'", meta.create_statement)

    def test_metrics_endpoint(self):
        s = self.session
        with self.assertRaises(Exception):
            s.execute("SELEKT nothing")
        ctype, text = scrape()
        self.assertTrue(ctype.startswith("text/plain"), ctype)
        self.assertGreater(sample(text, "tessel_requests_total", '{type="QUERY"}'), 0)
        self.assertGreater(sample(text, "tessel_requests_total", '{type="EXECUTE"}'), 0)
        self.assertGreaterEqual(
            sample(text, "tessel_request_errors_total", '{code="Syntax_error"}'), 1)
        self.assertGreater(
            sample(text, "tessel_request_latency_seconds_count", '{type="QUERY"}'), 0)
        self.assertIn('tessel_request_latency_seconds_bucket{type="QUERY",le="0.001"}', text)
        self.assertGreater(sample(text, "tessel_bytes_received_total"), 0)
        self.assertGreater(sample(text, "tessel_bytes_sent_total"), 0)
        self.assertGreaterEqual(sample(text, "tessel_connections"), 1)
        self.assertEqual(
            sample(text, "tessel_large_partitions", f'{{keyspace="{KS}",table="big"}}'), 1)
        self.assertIsNotNone(sample(
            text, "tessel_hottest_partition_writes_per_second",
            f'{{keyspace="{KS}",table="big"}}'))
        self.assertIsNotNone(sample(text, "tessel_rocksdb_memtables_size_bytes"))
        self.assertIsNotNone(sample(text, "tessel_rocksdb_live_data_size_bytes"))

    def test_admin_commands(self):
        out = admin("status")
        self.assertIn("UN  127.0.0.1", out)
        out = admin("info")
        self.assertIn("Native Protocol  : 4", out)
        out = admin("tablestats", KS)
        self.assertIn("Table: big", out)
        self.assertIn("Flushed", admin("flush", KS, "big"))
        self.assertIn("Compacted", admin("compact", KS, "big"))
        rows = list(self.session.execute("SELECT count(*) FROM big WHERE k = 2"))
        self.assertEqual(rows[0].count, 10)
        # Per-tablet load and skew, from system.tablets.
        out = admin("tablets", f"{KS}.big")
        self.assertRegex(out, rf"Table {KS}\.big: \d+ tablets")
        self.assertRegex(out, r"Skew \(writes/s\): (no load|max \S+, mean \S+, max/mean [0-9.]+, CV [0-9.]+)")
        _, text = scrape()
        self.assertGreaterEqual(sample(text, "tessel_tablets", f'{{keyspace="{KS}",table="big"}}'), 1)


if __name__ == "__main__":
    raise SystemExit(run(PartitionHealthTest))
