"""Recovery tests: restarting on damaged or full storage.

- torn WAL tail: after a SIGKILL the newest RocksDB WAL (*.log) is cut in the
  middle of its last record (and, in a second run, its tail is overwritten
  with garbage): tesseld must start and serve every row written before the
  torn record (RocksDB's point-in-time WAL recovery), and keep working after
  a further crash;
- missing or corrupt catalog, missing storage: tesseld must refuse to start
  with a message naming the problem, and leave the directory as it was;
- full disk (root only: a 128 MiB tmpfs, 80 MiB of it a file deleted
  later: RocksDB resumes writes once a write buffer, 64 MiB, is free): writes fail with a clear error, reads
  keep being served, and writes work again once space is freed.

Usage: recovery_test.py BUILD_DIR [test names...]
"""

import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from tesseld_proc import Node, Skip, connect, create_keyspace, run_tests  # noqa: E402

KS = "recovery"


def newest_wal(store_dir):
    logs = [f for f in os.listdir(store_dir) if f.endswith(".log")]
    if not logs:
        raise AssertionError(f"no WAL file in {store_dir}")
    return os.path.join(store_dir, max(logs, key=lambda f: int(f.split(".")[0])))


def value(i, size=2000):
    return (f"row{i}:" + "x" * size)[:size]


def create_schema(session):
    create_keyspace(session, KS)
    session.execute(f"CREATE TABLE {KS}.t (k int PRIMARY KEY, v text)")


def check_rows(session, expected, absent=()):
    rows = {r.k: r.v for r in session.execute(f"SELECT k, v FROM {KS}.t")}
    for k in expected:
        assert rows.get(k) == value(k), f"row {k} missing or wrong after recovery"
    for k in absent:
        assert k not in rows, f"row {k} (written after the torn point) came back"
    return len(rows)


def torn_wal(build, work, damage):
    node = Node(build, os.path.join(work, "data"), {"commitlog_sync": "batch"})
    node.start()
    cluster, session = connect(node)
    create_schema(session)
    wal = None
    sizes = []
    n = 200
    insert = session.prepare(f"INSERT INTO {KS}.t (k, v) VALUES (?, ?)")
    for i in range(n):
        session.execute(insert, (i, value(i)))
        if wal is None:
            wal = newest_wal(os.path.join(node.data_dir, "store"))
        sizes.append(os.path.getsize(wal))
    cluster.shutdown()
    node.kill()
    assert wal == newest_wal(os.path.join(node.data_dir, "store")), "the WAL switched"
    # The last record lies between the sizes after the last two acknowledgements.
    cut = (sizes[-2] + sizes[-1]) // 2
    with open(wal, "r+b") as f:
        if damage == "truncate":
            f.truncate(cut)
        else:
            f.seek(cut)
            f.write(b"\xa5" * (sizes[-1] - cut))
    print(f"   {os.path.basename(wal)}: {damage} at byte {cut} of {sizes[-1]}")
    node.start()
    cluster, session = connect(node)
    served = check_rows(session, range(n - 1), absent=[n - 1])
    # Still a working node: more writes, another crash, everything there.
    for i in range(n, n + 50):
        session.execute(insert, (i, value(i)))
    cluster.shutdown()
    node.kill()
    node.start()
    cluster, session = connect(node)
    check_rows(session, list(range(n - 1)) + list(range(n, n + 50)), absent=[n - 1])
    cluster.shutdown()
    assert node.stop() == 0, "unclean stop"
    print(f"   served {served} rows written before the torn record; the torn one is gone")


def test_torn_wal_truncated(build, work):
    torn_wal(build, work, "truncate")


def test_torn_wal_garbage(build, work):
    torn_wal(build, work, "garbage")


def stopped_node_with_data(build, work):
    node = Node(build, os.path.join(work, "data"), {"commitlog_sync": "batch"})
    node.start()
    cluster, session = connect(node)
    create_schema(session)
    for i in range(10):
        session.execute(f"INSERT INTO {KS}.t (k, v) VALUES ({i}, '{value(i)}')")
    cluster.shutdown()
    assert node.stop() == 0
    return node


def expect_refusal(node, words):
    before = sorted(os.listdir(node.data_dir))
    code, log = node.start(expect_failure=True)
    assert code != 0, f"tesseld exited with 0 on a damaged data directory:\n{log}"
    for w in words:
        assert w in log, f"start-up message lacks '{w}':\n{log}"
    after = sorted(os.listdir(node.data_dir))
    assert before == after, f"the data directory changed: {before} -> {after}"
    line = [ln for ln in log.splitlines() if "Cannot open" in ln or "cannot open" in ln]
    print(f"   exit {code}: {(line or [log.strip()])[-1][:220]}")


def tamper(build, node, action):
    out = subprocess.run([os.path.join(build, "bin", "store_tamper"),
                          os.path.join(node.data_dir, "store"), action],
                         capture_output=True, text=True)
    assert out.returncode == 0, f"store_tamper {action} failed: {out.stderr}"


def test_corrupt_catalog(build, work):
    node = stopped_node_with_data(build, work)
    tamper(build, node, "corrupt-catalog")
    expect_refusal(node, ["catalog", "refusing to start"])


def test_missing_catalog(build, work):
    node = stopped_node_with_data(build, work)
    tamper(build, node, "drop-catalog")
    expect_refusal(node, ["catalog is missing", "refusing to start"])


def test_missing_storage(build, work):
    node = stopped_node_with_data(build, work)
    shutil.rmtree(os.path.join(node.data_dir, "store"))
    expect_refusal(node, ["storage", "refusing to start"])
    assert not os.path.exists(os.path.join(node.data_dir, "store")), "an empty store was created"


def test_full_disk(build, work):
    disk = os.path.join(work, "disk")
    os.makedirs(disk)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=128m", "tmpfs", disk],
                             capture_output=True, text=True)
    if mounted.returncode != 0:
        raise Skip(f"cannot mount a tmpfs ({mounted.stderr.strip()})")
    node = None
    try:
        # Space that can be given back later.
        with open(os.path.join(disk, "ballast"), "wb") as f:
            f.write(b"\0" * (80 << 20))
        node = Node(build, os.path.join(disk, "data"), {"commitlog_sync": "batch"})
        node.start()
        cluster, session = connect(node, timeout=30)
        create_schema(session)
        insert = session.prepare(f"INSERT INTO {KS}.t (k, v) VALUES (?, ?)")
        error = None
        written = 0
        for i in range(100000):
            try:
                session.execute(insert, (i, value(i, 64 * 1024)))
                written += 1
            except Exception as e:  # the driver raises its own classes
                error = e
                break
        assert error is not None, "the disk never filled"
        text = f"{type(error).__name__}: {error}"
        print(f"   write {written} failed with: {text[:300]}")
        # The driver reports a Server error (0x0000) as NoHostAvailable after
        # trying its one host: the server's code and message are inside.
        assert "code=0000 [Server error]" in text or type(error).__name__ == "WriteFailure", text
        assert "space" in text.lower(), f"the error does not say the disk is full: {text}"
        # Reads are still served.
        row = session.execute(f"SELECT v FROM {KS}.t WHERE k = 0").one()
        assert row is not None and row.v == value(0, 64 * 1024), "read after disk full failed"
        for _ in range(3):  # the failure is reported again, not a hang or a crash
            try:
                session.execute(insert, (written, value(written, 64 * 1024)))
                break
            except Exception:
                pass
        assert node.alive(), "tesseld died on a full disk"
        os.remove(os.path.join(disk, "ballast"))
        deadline = time.monotonic() + 60
        while True:
            try:
                session.execute(insert, (written, value(written, 1000)))
                break
            except Exception as e:
                if time.monotonic() > deadline:
                    raise AssertionError(f"writes did not recover after space returned: {e}\n"
                                         f"{node.log()[-1500:]}")
                time.sleep(0.5)
        recovered = time.monotonic() - (deadline - 60)
        assert session.execute(f"SELECT v FROM {KS}.t WHERE k = {written}").one() is not None
        cluster.shutdown()
        print(f"   writes recovered {recovered:.1f}s after space was freed")
        code = node.stop()
        assert code == 0, f"unclean stop after the full disk: {code}\n{node.log()[-2000:]}"
        node = None
    finally:
        if node is not None:
            node.kill()
        subprocess.run(["umount", "-l", disk])


if __name__ == "__main__":
    sys.exit(run_tests(globals(), "tessel-recovery."))
