#!/usr/bin/env python3
"""The skewed write load of the console test: the hot-day example without
sharding (examples/hot_day.cql, events_unsharded) in keyspace KS, nearly every
write to today's partition. Writes about RATE rows a second until stopped
(SIGTERM); prints "load running" once the first writes are in.

Environment: TESSEL_HOST / TESSEL_PORT, TESSEL_EXAMPLES (the examples folder),
CONSOLE_KS (keyspace, default consoleks), CONSOLE_LOAD_RATE (default 200),
TESSEL_USER / TESSEL_PASSWORD (when the server requires a login).
"""

import os
import re
import signal
import sys
import time

from cassandra.auth import PlainTextAuthProvider
from cassandra.concurrent import execute_concurrent_with_args

from driver_env import connect_fresh_keyspace, new_cluster

KS = os.environ.get("CONSOLE_KS", "consoleks")
RATE = int(os.environ.get("CONSOLE_LOAD_RATE", "200"))
EXAMPLES = os.environ.get("TESSEL_EXAMPLES", "examples")
HOT_DAY = "2024-06-01"

stopping = False


def stop(*_):
    global stopping
    stopping = True


def main():
    signal.signal(signal.SIGTERM, stop)
    user = os.environ.get("TESSEL_USER")
    if user:
        cluster = new_cluster(auth_provider=PlainTextAuthProvider(
            user, os.environ.get("TESSEL_PASSWORD", "")))
        session = cluster.connect()
        session.default_timeout = 30
        session.execute(f"CREATE KEYSPACE IF NOT EXISTS {KS} WITH replication = "
                        "{'class': 'SimpleStrategy', 'replication_factor': 1}")
        session.set_keyspace(KS)
    else:
        cluster, session = connect_fresh_keyspace(KS)
    with open(os.path.join(EXAMPLES, "hot_day.cql")) as f:
        m = re.search(r"CREATE TABLE events_unsharded (\(.*\));", f.read())
    assert m, "examples/hot_day.cql no longer has events_unsharded"
    session.execute(f"CREATE TABLE IF NOT EXISTS events_unsharded {m.group(1)}")
    ins = session.prepare(
        "INSERT INTO events_unsharded (day, at, user_id, action) VALUES (?, ?, ?, ?)")
    base = 1717228800000  # 2024-06-01 08:00:00 UTC
    i = 0
    batch = max(1, RATE // 5)
    announced = False
    while not stopping:
        started = time.monotonic()
        rows = []
        for _ in range(batch):
            # 49 of 50 writes to the hot day, the rest to five earlier days.
            day = HOT_DAY if i % 50 else f"2024-05-{30 - (i // 50) % 5:02d}"
            rows.append((day, base + i, i % 97, "view"))
            i += 1
        execute_concurrent_with_args(session, ins, rows, concurrency=16,
                                     raise_on_first_error=True)
        if not announced:
            print("load running", flush=True)
            announced = True
        time.sleep(max(0.0, 0.2 - (time.monotonic() - started)))
    print(f"load stopped after {i} writes", flush=True)
    cluster.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
