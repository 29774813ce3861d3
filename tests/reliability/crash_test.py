"""Crash test: acknowledged writes survive SIGKILL.

Each cycle creates a table, then writes to it through the Python driver (32
requests in flight: inserts, then for some rows an update or a delete issued
once the insert is acknowledged) while the harness SIGKILLs tesseld at a
random moment. tesseld is restarted (sometimes killed again in the middle of
its own recovery first) and every row of the table is read back:

- commitlog_sync: batch    every acknowledged write must be there;
- commitlog_sync: periodic every write acknowledged more than the sync period
  (plus a small allowance for the sync itself) before the kill must be there;
- in both modes no row may be corrupt (its checksum column matches its
  value, its value is one this test wrote for that row) and none may appear
  that was never written; an acknowledged delete stays deleted.

Cycles alternate between the two modes. At the end every table of every
cycle is verified once more (later recoveries and compactions must not have
damaged earlier data), and the server must stop cleanly.

Usage: crash_test.py BUILD_DIR [--cycles N] [--seed S] [--modes batch,periodic]
"""

import argparse
import os
import random
import shutil
import sys
import tempfile
import threading
import time
import zlib
from collections import deque

sys.path.insert(0, os.path.dirname(__file__))
from tesseld_proc import Node, closing_line, connect, create_keyspace  # noqa: E402

PARTITIONS = 16
IN_FLIGHT = 32
SYNC_PERIOD_MS = 200
# Time a periodic sync may take after its period elapsed (fsync of the WAL).
SYNC_ALLOWANCE_S = 0.3


def payload(c, version):
    rnd = random.Random(c * 2 + version)
    body = "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz0123456789") for _ in range(rnd.randint(1, 400)))
    return f"v{version}:{c}:{body}"


class RowState:
    __slots__ = ("insert_ack", "update_issued", "update_ack", "delete_issued", "delete_ack")

    def __init__(self):
        self.insert_ack = None
        self.update_issued = False
        self.update_ack = None
        self.delete_issued = False
        self.delete_ack = None


class Writer:
    """Keeps IN_FLIGHT writes outstanding until stop() (or the server dies)."""

    def __init__(self, session, table, rnd):
        self.session = session
        self.rows = {}
        self.rnd = rnd
        self.ins = session.prepare(f"INSERT INTO {table} (p, c, v, h) VALUES (?, ?, ?, ?)")
        self.upd = session.prepare(f"UPDATE {table} SET v = ?, h = ? WHERE p = ? AND c = ?")
        self.dele = session.prepare(f"DELETE FROM {table} WHERE p = ? AND c = ?")
        self.slots = threading.Semaphore(IN_FLIGHT)
        self.follow_ups = deque()  # (kind, c): issued by the writer thread
        self.lock = threading.Lock()
        self.stopping = False
        self.errors = 0
        self.acks = 0
        self.outstanding = 0
        self.drained = threading.Condition(self.lock)

    def _send(self, kind, c):
        if kind == "insert":
            v = payload(c, 1)
            stmt, params = self.ins, (c % PARTITIONS, c, v, zlib.crc32(v.encode()))
        elif kind == "update":
            v = payload(c, 2)
            stmt, params = self.upd, (v, zlib.crc32(v.encode()), c % PARTITIONS, c)
        else:
            stmt, params = self.dele, (c % PARTITIONS, c)
        with self.lock:
            self.outstanding += 1
        try:
            future = self.session.execute_async(stmt, params)
        except Exception:
            self._done(kind, c, False)
            return
        future.add_callbacks(lambda _: self._done(kind, c, True),
                             lambda _: self._done(kind, c, False))

    def _done(self, kind, c, ok):
        now = time.monotonic()
        with self.lock:
            row = self.rows[c]
            if ok:
                self.acks += 1
                if kind == "insert":
                    row.insert_ack = now
                    draw = self.rnd.random()
                    if draw < 0.2:
                        row.update_issued = True
                        self.follow_ups.append(("update", c))
                    elif draw < 0.3:
                        row.delete_issued = True
                        self.follow_ups.append(("delete", c))
                elif kind == "update":
                    row.update_ack = now
                else:
                    row.delete_ack = now
            else:
                self.errors += 1
            self.outstanding -= 1
            self.drained.notify_all()
        self.slots.release()

    def run(self):
        c = 0
        while not self.stopping and self.errors == 0:
            self.slots.acquire()
            if self.stopping or self.errors:
                self.slots.release()
                break
            with self.lock:
                follow = self.follow_ups.popleft() if self.follow_ups else None
                if follow is None:
                    self.rows[c] = RowState()
            if follow:
                self._send(*follow)
            else:
                self._send("insert", c)
                c += 1

    def wait_drained(self, timeout):
        deadline = time.monotonic() + timeout
        with self.lock:
            while self.outstanding > 0 and time.monotonic() < deadline:
                self.drained.wait(0.1)
            return self.outstanding == 0


def verify(session, table, rows, required):
    """Checks `table` against what was written; `required(ack_time)` says
    whether an acknowledgement must have survived. Returns (problems, number
    of writes checked, {c: v} of the rows found)."""
    problems = []
    checked = 0
    seen = {}  # c -> row
    for p in range(PARTITIONS):
        for r in session.execute(f"SELECT c, v, h FROM {table} WHERE p = %s", (p,)):
            seen[r.c] = r
            state = rows.get(r.c)
            if state is None or r.c % PARTITIONS != p:
                problems.append(f"{table}: row c={r.c} in partition {p} was never written")
                continue
            allowed = {payload(r.c, 1)}
            if state.update_issued:
                allowed.add(payload(r.c, 2))
            if r.v not in allowed or r.h != zlib.crc32((r.v or "").encode()):
                problems.append(f"{table}: row c={r.c} is corrupt: v={r.v!r:.60} h={r.h}")
    for c, state in rows.items():
        r = seen.get(c)
        if required(state.delete_ack):
            checked += 1
            if r is not None:
                problems.append(f"{table}: row c={c} deleted (acknowledged) but present")
            continue
        if required(state.insert_ack):
            checked += 1
            if r is None and not state.delete_issued:
                problems.append(f"{table}: row c={c} acknowledged but missing")
        if required(state.update_ack):
            checked += 1
            if r is None and not state.delete_issued:
                problems.append(f"{table}: row c={c} updated (acknowledged) but missing")
            elif r is not None and r.v != payload(c, 2):
                problems.append(f"{table}: row c={c} lost its acknowledged update")
    return problems, checked, {c: r.v for c, r in seen.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--cycles", type=int, default=int(os.environ.get("CRASH_CYCLES", "20")))
    ap.add_argument("--seed", type=int, default=int(os.environ.get("CRASH_SEED", time.time_ns() % 100000)))
    ap.add_argument("--modes", default="batch,periodic")
    ap.add_argument("--keep", action="store_true", help="keep the data directory")
    args = ap.parse_args()
    modes = args.modes.split(",")
    rnd = random.Random(args.seed)
    print(f"crash test: {args.cycles} cycles, modes {modes}, seed {args.seed}")

    work = tempfile.mkdtemp(prefix="tessel-crash.")
    node = Node(os.path.abspath(args.build), os.path.join(work, "data"))
    passed = failed = 0
    totals = {m: {"cycles": 0, "acks": 0, "checked": 0, "window": 0, "window_lost": 0} for m in modes}
    history = []  # (table, rows) of every cycle, for the final pass
    started = time.monotonic()
    try:
        for cycle in range(args.cycles):
            mode = modes[cycle % len(modes)]
            node.settings = {"commitlog_sync": mode, "commitlog_sync_period_in_ms": SYNC_PERIOD_MS}
            node.start()
            cluster, session = connect(node)
            if cycle == 0:
                create_keyspace(session, "crash")
            table = f"crash.t{cycle}"
            session.execute(f"CREATE TABLE {table} (p int, c int, v text, h bigint, "
                            "PRIMARY KEY (p, c))")
            writer = Writer(session, table, rnd)
            thread = threading.Thread(target=writer.run)
            thread.start()
            time.sleep(rnd.uniform(0.3, 1.5))
            kill_time = time.monotonic()
            node.kill()
            writer.stopping = True
            thread.join(60)
            writer.wait_drained(30)
            cluster.shutdown()

            # Sometimes die again while replaying the log.
            if rnd.random() < 0.2:
                node.start_and_kill(rnd.uniform(0.0, 0.15))

            node.start()
            cluster, session = connect(node)
            if mode == "batch":
                required = lambda t: t is not None  # noqa: E731
            else:
                cutoff = kill_time - SYNC_PERIOD_MS / 1000.0 - SYNC_ALLOWANCE_S
                required = lambda t, cutoff=cutoff: t is not None and t < cutoff  # noqa: E731
            problems, checked, found = verify(session, table, writer.rows, required)
            # Acknowledged inside the sync window (periodic): not required,
            # counted to show what SIGKILL actually lost.
            lost, all_acked, _ = verify(session, table, writer.rows, lambda t: t is not None)
            cluster.shutdown()
            node.kill()  # the next cycle starts from a crashed node too
            history.append((table, writer.rows, found))
            t = totals[mode]
            t["cycles"] += 1
            t["acks"] += writer.acks
            t["checked"] += checked
            t["window"] += all_acked - checked
            t["window_lost"] += len(lost) - len(problems)
            status = "ok" if not problems else "FAIL"
            print(f"cycle {cycle:3d} {mode:8s} {status}: {writer.acks} acks, "
                  f"{checked} required writes checked, {len(writer.rows)} rows issued")
            for line in problems[:20]:
                print("   " + line)
            if problems:
                failed += 1
            else:
                passed += 1

        # Final pass: everything written in every cycle is still as verified.
        node.settings = {"commitlog_sync": "batch"}
        node.start()
        cluster, session = connect(node)
        final_problems = 0
        final_checked = 0
        for table, rows, found in history:
            # What a recovery returned is durable from then on: exactly the
            # same rows with the same values must come back now.
            problems, _, now = verify(session, table, rows, lambda t: False)
            if now != found:
                diff = set(now.items()) ^ set(found.items())
                problems.append(f"{table}: {len(diff)} rows differ from the cycle's own check")
            final_checked += len(now)
            final_problems += len(problems)
            for line in problems[:10]:
                print("   final: " + line)
        cluster.shutdown()
        code = node.stop()
        if code != 0:
            print(f"FAIL: tesseld exited with {code} after SIGTERM")
            failed += 1
        elif final_problems:
            print(f"FAIL: final pass found {final_problems} problems")
            failed += 1
        else:
            print(f"final pass ok: {len(history)} tables, {final_checked} rows re-read, clean stop")
            passed += 1
    except Exception as e:  # a failed start-up is a failure, with its log
        print(f"FAIL: {type(e).__name__}: {e}")
        print(node.log()[-3000:])
        failed += 1
        node.kill()
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    for m, t in totals.items():
        print(f"{m}: {t['cycles']} cycles, {t['acks']} acknowledged writes, "
              f"{t['checked']} required and checked, {t['window']} more acknowledged "
              f"inside the sync window ({t['window_lost']} of them lost)")
    print(f"elapsed {time.monotonic() - started:.1f}s")
    return closing_line(passed, failed)


if __name__ == "__main__":
    sys.exit(main())
