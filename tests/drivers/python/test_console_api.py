#!/usr/bin/env python3
"""The console's JSON endpoints on a real tesseld (tests/suites/console.sh).

Without TESSEL_CONSOLE_AUTH: the server runs the skewed load of
console_load.py (the hot-day example without sharding) with
partition_write_budget 20 and partition_size_warn_threshold 64KiB; the tests
check status codes, JSON shapes, bad parameters (400), unknown tables (404),
the read-only rule (405), and that the data shows the hot partition.
With TESSEL_CONSOLE_AUTH=1: the server runs PasswordAuthenticator; the tests
check 401 / redirect without a session, the login form, the session cookie,
and a login with a real role created over CQL.

Environment: TESSEL_HOST / TESSEL_PORT (CQL), TESSEL_HTTP_PORT (console),
CONSOLE_KS (the load's keyspace).
Prints a closing "N passed, N failed" line; exit status 1 on any failure.
"""

import http.client
import json
import os
import time
import unittest
import urllib.parse

from cassandra.auth import PlainTextAuthProvider

from driver_env import HOST, new_cluster, run

HTTP_PORT = int(os.environ.get("TESSEL_HTTP_PORT", "0"))
KS = os.environ.get("CONSOLE_KS", "consoleks")
TABLE = f"{KS}.events_unsharded"
HOT_DAY = "2024-06-01"


def request(method, path, body=None, headers=None):
    """(status, headers dict with lower-case names, body text); never
    follows redirects."""
    conn = http.client.HTTPConnection(HOST, HTTP_PORT, timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read().decode()
    finally:
        conn.close()


def get_json(path, cookie=None):
    status, headers, body = request("GET", path, headers={"Cookie": cookie} if cookie else {})
    assert headers.get("content-type", "").startswith("application/json"), (path, headers)
    return status, json.loads(body)


def wait_for(what, fn, timeout=180):
    """fn() until it returns something true; the last value otherwise fails."""
    deadline = time.monotonic() + timeout
    while True:
        value = fn()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}; last: {value!r}")
        time.sleep(1)


def login(user, password):
    body = urllib.parse.urlencode({"username": user, "password": password})
    return request("POST", "/login", body=body,
                   headers={"Content-Type": "application/x-www-form-urlencoded"})


class ConsoleApiTest(unittest.TestCase):
    def table_json(self, data, name=TABLE):
        for t in data["tables"]:
            if t["name"] == name:
                return t
        self.fail(f"{name} not in {[t['name'] for t in data['tables']]}")

    def hot_partitions(self):
        status, data = get_json(f"/api/hot?table={TABLE}")
        self.assertEqual(status, 200, data)
        return data["partitions"]

    def test_tablets(self):
        status, data = get_json("/api/tablets")
        self.assertEqual(status, 200, data)
        self.assertIsInstance(data["time"], int)
        self.assertEqual(len(data["nodes"]), 1, data["nodes"])
        node = data["nodes"][0]
        self.assertTrue(node["local"])
        self.assertEqual(node["address"], HOST)
        self.assertEqual(len(node["host_id"]), 36)
        t = self.table_json(data)
        self.assertEqual((t["keyspace"], t["table"]), (KS, "events_unsharded"))
        self.assertFalse(t["ordered"])
        self.assertIsInstance(t["history"], list)
        tablets = t["tablets"]
        self.assertGreaterEqual(len(tablets), 1)
        for key in ("id", "range_start", "range_end", "shard", "size_bytes", "rows",
                    "reads_per_sec", "writes_per_sec", "bytes_per_sec", "replicas",
                    "stage", "y0", "y1"):
            self.assertIn(key, tablets[0])
        # The bands cover the token ring in order, without gaps.
        self.assertEqual(tablets[0]["range_start"], str(-2**63))
        self.assertEqual(tablets[-1]["range_end"], str(2**63 - 1))
        self.assertAlmostEqual(tablets[0]["y0"], 0.0)
        self.assertAlmostEqual(tablets[-1]["y1"], 1.0)
        for a, b in zip(tablets, tablets[1:]):
            self.assertEqual(int(a["range_end"]) + 1, int(b["range_start"]))
            self.assertAlmostEqual(a["y1"], b["y0"])
        # One table only, unknown tables and malformed names.
        status, one = get_json(f"/api/tablets?table={TABLE}")
        self.assertEqual(status, 200)
        self.assertEqual([x["name"] for x in one["tables"]], [TABLE])
        status, err = get_json(f"/api/tablets?table={KS}.nope")
        self.assertEqual(status, 404)
        self.assertIn(f"unknown table {KS}.nope", err["error"])
        for bad in ("events_unsharded", "a.b.c", ".x", "x."):
            status, err = get_json("/api/tablets?table=" + urllib.parse.quote(bad))
            self.assertEqual(status, 400, bad)
            self.assertIn("keyspace.table", err["error"])

    def test_heatmap(self):
        def hot_column():
            status, data = get_json(f"/api/heatmap?table={TABLE}&metric=writes&since=1h")
            self.assertEqual(status, 200, data)
            cols = [c for c in data["columns"] if any(b["value"] > 0 for b in c["bands"])]
            return (data, cols[-1]) if cols else None
        data, col = wait_for("a heat-map column with writes", hot_column)
        self.assertEqual(data["metric"], "writes")
        self.assertEqual(data["unit"], "writes/s")
        self.assertEqual(data["table"], TABLE)
        self.assertEqual(data["resolution_ms"], 10000)
        self.assertEqual(data["since_ms"], 3600000)
        self.assertEqual([t["name"] for t in data["tables"]], [TABLE])
        self.assertGreater(data["max"], 0)
        for c in data["columns"]:
            self.assertGreaterEqual(c["at"], data["now"] - data["since_ms"] - c["span_ms"])
            for b in c["bands"]:
                self.assertEqual(b["table"], TABLE)
                self.assertTrue(0 <= b["y0"] < b["y1"] <= 1.0 + 1e-9, b)
        # The hottest band is the tablet of the hot partition.
        hottest = max(col["bands"], key=lambda b: b["value"])
        hot = wait_for("hot partitions", self.hot_partitions)
        self.assertEqual(hot[0]["partition_key"], HOT_DAY)
        self.assertEqual(hottest["range_start"], hot[0]["tablet"]["range_start"])
        # Every metric, ranges, all tables.
        for metric, unit in (("reads", "reads/s"), ("bytes_written", "bytes/s"), ("size", "bytes")):
            status, d = get_json(f"/api/heatmap?table={TABLE}&metric={metric}&since=15m")
            self.assertEqual((status, d["metric"], d["unit"]), (200, metric, unit))
            self.assertEqual(d["since_ms"], 900000)
        # A point in time (ms since the epoch) instead of a duration.
        status, d = get_json(f"/api/heatmap?table={TABLE}&since={int(time.time() * 1000) - 60000}")
        self.assertEqual(status, 200, d)
        self.assertTrue(55000 <= d["since_ms"] <= 120000, d["since_ms"])
        status, err = get_json(f"/api/heatmap?since={int(time.time() * 1000) + 3600000}")
        self.assertEqual(status, 400)
        status, d = get_json("/api/heatmap?since=1d")
        self.assertEqual(status, 200)
        self.assertIn(TABLE, [t["name"] for t in d["tables"]])
        self.assertIsNone(d["table"])
        for query, word in (("metric=bogus", "metric"), ("since=0", "since"),
                            ("since=abc", "since"), ("since=2d", "since"),
                            ("since=-1", "since"), ("table=nodot", "keyspace.table")):
            status, err = get_json("/api/heatmap?" + query)
            self.assertEqual(status, 400, query)
            self.assertIn(word, err["error"])
        status, err = get_json(f"/api/heatmap?table={KS}.nope")
        self.assertEqual(status, 404)

    def test_hot(self):
        hot = wait_for("hot partitions", self.hot_partitions)
        first = hot[0]
        self.assertEqual(first["partition_key"], HOT_DAY)
        self.assertEqual(first["table"], TABLE)
        self.assertEqual(first["rank"], 1)
        self.assertGreaterEqual(first["count"], first["error"])
        self.assertEqual(first["lower_bound"], first["count"] - first["error"])
        self.assertIsNotNone(first["tablet"])
        self.assertIn("range_start", first["tablet"])
        if len(hot) > 1:
            # Ranked apart beyond the error bounds.
            self.assertGreater(first["lower_bound"], hot[1]["count"])
        status, d = get_json(f"/api/hot?table={TABLE}&limit=1")
        self.assertEqual((status, len(d["partitions"])), (200, 1))
        self.assertEqual(d["kind"], "writes")
        status, d = get_json("/api/hot?kind=bytes")
        self.assertEqual((status, d["kind"]), (200, "bytes"))
        status, d = get_json("/api/hot?kind=reads")
        self.assertEqual(status, 200)
        for query, word in (("kind=bogus", "kind"), ("limit=0", "limit"),
                            ("limit=x", "limit"), ("limit=1001", "limit")):
            status, err = get_json("/api/hot?" + query)
            self.assertEqual(status, 400, query)
            self.assertIn(word, err["error"])
        status, err = get_json(f"/api/hot?table={KS}.nope")
        self.assertEqual(status, 404)

    def test_large(self):
        def large():
            status, data = get_json(f"/api/large?table={TABLE}")
            self.assertEqual(status, 200, data)
            return data if data["partitions"] else None
        data = wait_for("the hot partition over the size warn threshold", large)
        p = data["partitions"][0]
        self.assertEqual((p["table"], p["partition_key"]), (TABLE, HOT_DAY))
        self.assertGreaterEqual(p["size_bytes"], 64 * 1024)
        for key in ("rows", "tombstones", "first_seen", "last_seen"):
            self.assertIn(key, p)
        self.assertEqual(data["thresholds"]["partition_size_warn_threshold"], 64 * 1024)
        status, _ = get_json(f"/api/large?table={KS}.nope")
        self.assertEqual(status, 404)

    def test_advice(self):
        def sharding():
            status, data = get_json(f"/api/advice?table={TABLE}")
            self.assertEqual(status, 200, data)
            return [a for a in data["advice"] if a["kind"] == "write_sharding"]
        advice = wait_for("write_sharding advice", sharding)[0]
        self.assertEqual(advice["table"], TABLE)
        self.assertIn(f"Partition '{HOT_DAY}' takes", advice["message"])
        self.assertTrue(advice["statement"].startswith(
            f"CREATE TABLE {TABLE}_v2 ("), advice["statement"])
        status, _ = get_json(f"/api/advice?table={KS}.nope")
        self.assertEqual(status, 404)

    def test_pages_and_methods(self):
        status, headers, body = request("GET", "/")
        self.assertEqual(status, 200)
        self.assertIn('id="heatmap"', body)
        self.assertIn("default-src 'self'", headers["content-security-policy"])
        status, headers, body = request("GET", "/assets/echarts.min.js")
        self.assertEqual(status, 200)
        self.assertTrue(headers["content-type"].startswith("text/javascript"))
        self.assertGreater(len(body), 100000)
        self.assertEqual(request("GET", "/assets/missing.js")[0], 404)
        status, err = get_json("/api/nope")
        self.assertEqual(status, 404)
        self.assertIn("/api/nope", err["error"])
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            status, headers, body = request(method, "/api/tablets", body="")
            self.assertEqual(status, 405, method)
            self.assertIn("read-only", body)
        # No login needed: /login sends to the console.
        status, headers, _ = request("GET", "/login")
        self.assertEqual((status, headers.get("location")), (302, "/"))


class ConsoleAuthTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cluster = new_cluster(auth_provider=PlainTextAuthProvider("cassandra", "cassandra"))
        cls.session = cls.cluster.connect()
        cls.session.default_timeout = 30
        cls.session.execute("CREATE ROLE IF NOT EXISTS console_viewer "
                            "WITH PASSWORD = 'viewer-pass' AND LOGIN = true")
        cls.session.execute("CREATE ROLE IF NOT EXISTS console_nologin "
                            "WITH PASSWORD = 'nologin-pass' AND LOGIN = false")

    @classmethod
    def tearDownClass(cls):
        cls.cluster.shutdown()

    def session_cookie(self, user, password):
        status, headers, _ = login(user, password)
        self.assertEqual(status, 303)
        self.assertEqual(headers.get("location"), "/")
        cookie = headers["set-cookie"]
        self.assertIn("HttpOnly", cookie)
        self.assertIn("SameSite=Strict", cookie)
        self.assertIn("Path=/", cookie)
        return cookie.split(";")[0]

    def test_without_a_session(self):
        status, err = get_json("/api/tablets")
        self.assertEqual(status, 401)
        self.assertIn("login required", err["error"])
        for endpoint in ("heatmap", "hot", "large", "advice"):
            self.assertEqual(get_json(f"/api/{endpoint}")[0], 401, endpoint)
        status, headers, _ = request("GET", "/")
        self.assertEqual((status, headers.get("location")), (302, "/login"))
        status, err = get_json("/api/tablets", cookie="tessel_console=forged")
        self.assertEqual(status, 401)
        # The login form and the assets it needs are public.
        status, _, body = request("GET", "/login")
        self.assertEqual(status, 200)
        self.assertIn('name="password"', body)
        self.assertEqual(request("GET", "/assets/console.css")[0], 200)

    def test_wrong_passwords_and_roles_that_cannot_log_in(self):
        for user, password in (("cassandra", "wrong"), ("nobody", "x"),
                               ("console_nologin", "nologin-pass")):
            status, headers, body = login(user, password)
            self.assertEqual(status, 401, user)
            self.assertNotIn("set-cookie", headers)
            self.assertIn("Wrong username or password", body)

    def test_login_with_a_real_role(self):
        cookie = self.session_cookie("console_viewer", "viewer-pass")
        status, data = get_json("/api/tablets", cookie=cookie)
        self.assertEqual(status, 200, data)
        self.assertEqual(len(data["nodes"]), 1)
        status, _, body = request("GET", "/", headers={"Cookie": cookie})
        self.assertEqual(status, 200)
        self.assertIn('id="heatmap"', body)
        # Still read-only when logged in.
        status, _, _ = request("DELETE", "/api/tablets", headers={"Cookie": cookie})
        self.assertEqual(status, 405)
        # Logging out ends the session.
        status, headers, _ = request("POST", "/logout", body="", headers={"Cookie": cookie})
        self.assertEqual((status, headers.get("location")), (303, "/login"))
        self.assertIn("Max-Age=0", headers["set-cookie"])
        self.assertEqual(get_json("/api/tablets", cookie=cookie)[0], 401)

    def test_superuser_login(self):
        cookie = self.session_cookie("cassandra", "cassandra")
        self.assertEqual(get_json("/api/advice", cookie=cookie)[0], 200)


class ConsoleSplitTest(unittest.TestCase):
    """On the PasswordAuthenticator server, which splits tablets past
    tablet_split_size_bytes 32 KiB every second: a split shows in the
    table's history."""

    def test_a_split_shows_in_the_history(self):
        status, headers, _ = login("cassandra", "cassandra")
        self.assertEqual(status, 303)
        cookie = headers["set-cookie"].split(";")[0]
        cluster = new_cluster(auth_provider=PlainTextAuthProvider("cassandra", "cassandra"))
        try:
            s = cluster.connect()
            s.default_timeout = 30
            s.execute("CREATE KEYSPACE IF NOT EXISTS consolesplit WITH replication = "
                      "{'class': 'SimpleStrategy', 'replication_factor': 1}")
            s.execute("CREATE TABLE IF NOT EXISTS consolesplit.t (k int PRIMARY KEY, v text)")
            table = "consolesplit.t"

            def sampled():
                status, data = get_json(f"/api/heatmap?table={table}", cookie=cookie)
                self.assertEqual(status, 200, data)
                return any(c["bands"] for c in data["columns"])
            # The sampler has seen the table before it grows.
            wait_for("the table in the heat map", sampled)
            status, before = get_json(f"/api/tablets?table={table}", cookie=cookie)
            count_before = len(before["tables"][0]["tablets"])
            ins = s.prepare("INSERT INTO consolesplit.t (k, v) VALUES (?, ?)")
            for k in range(600):
                s.execute(ins, (k, "x" * 200))

            def split():
                status, data = get_json(f"/api/tablets?table={table}", cookie=cookie)
                self.assertEqual(status, 200, data)
                t = data["tables"][0]
                return t if any(h["kind"] == "split" for h in t["history"]) else None
            t = wait_for("a split in the tablet history", split)
            self.assertGreater(len(t["tablets"]), count_before)
            h = next(h for h in t["history"] if h["kind"] == "split")
            self.assertEqual(len(h["from"]), 1)
            self.assertGreaterEqual(len(h["to"]), 2)
            self.assertEqual(h["from"][0]["range_start"], h["to"][0]["range_start"])
            self.assertEqual(h["from"][0]["range_end"], h["to"][-1]["range_end"])
            self.assertIsInstance(h["at"], int)
        finally:
            cluster.shutdown()


if __name__ == "__main__":
    if os.environ.get("TESSEL_CONSOLE_AUTH") == "1":
        failures = [run(ConsoleAuthTest), run(ConsoleSplitTest)]
        raise SystemExit(max(failures))
    raise SystemExit(run(ConsoleApiTest))
