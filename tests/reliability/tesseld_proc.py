"""A tesseld process the reliability tests start, kill and restart.

Each Node owns a data directory and a config file; start() waits for the
"ready" line, kill() sends SIGKILL (no flush, no clean close), stop() sends
SIGTERM and expects exit status 0. Shared by crash_test.py, recovery_test.py
and limits_test.py, with the runner of the last two (run_tests).
"""

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "drivers", "python"))


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


class StartFailed(Exception):
    def __init__(self, code, log):
        super().__init__(f"tesseld exited with status {code} during start-up:\n{log}")
        self.code = code
        self.log = log


class Node:
    def __init__(self, build, data_dir, settings=None, smp=2):
        self.bin = os.path.join(build, "bin", "tesseld")
        self.data_dir = data_dir
        self.settings = dict(settings or {})
        self.smp = smp
        self.port = free_port()
        self.proc = None
        self.log_path = data_dir.rstrip("/") + ".log"
        self.conf_path = data_dir.rstrip("/") + ".yaml"

    def _write_config(self):
        with open(self.conf_path, "w") as f:
            for key, value in self.settings.items():
                f.write(f"{key}: {value}\n")

    def _command(self):
        return [self.bin, "--data-dir", self.data_dir, "--listen", "127.0.0.1",
                "--port", str(self.port), "--smp", str(self.smp), "--config", self.conf_path]

    def start(self, timeout=60, expect_failure=False):
        """Starts tesseld; returns once it is ready. With expect_failure, waits
        for it to exit instead and returns (exit status, log text)."""
        self._write_config()
        log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            self._command(),
            stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            code = self.proc.poll()
            if code is not None:
                text = self.log()
                self.proc = None
                if expect_failure:
                    return code, text
                raise StartFailed(code, text)
            if not expect_failure and "tesseld ready on" in self.log():
                return None
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"tesseld did not {'exit' if expect_failure else 'start'} "
                           f"within {timeout}s:\n{self.log()}")

    def start_and_kill(self, delay):
        """Starts tesseld and SIGKILLs it `delay` seconds later, ready or not
        (a crash in the middle of recovering from the previous crash)."""
        self._write_config()
        proc = subprocess.Popen(
            self._command(),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        proc.kill()
        proc.wait()

    def log(self):
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        """SIGKILL: the process gets no chance to flush or sync anything."""
        if self.proc is None:
            return
        try:
            self.proc.send_signal(signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        self.proc = None

    def stop(self, timeout=60):
        """SIGTERM; returns the exit status (0 expected)."""
        if self.proc is None:
            return 0
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            code = -9
        self.proc = None
        return code


def connect(node, keyspace=None, timeout=30):
    """A driver session on `node` (protocol v4, no reconnection storms)."""
    from cassandra.cluster import Cluster
    from cassandra.policies import ConstantReconnectionPolicy

    cluster = Cluster(["127.0.0.1"], port=node.port, protocol_version=4, connect_timeout=10,
                      reconnection_policy=ConstantReconnectionPolicy(0.5, max_attempts=2))
    session = cluster.connect(keyspace)
    session.default_timeout = timeout
    return cluster, session


def create_keyspace(session, name):
    """Keyspace `name` with SimpleStrategy, replication factor 1."""
    session.execute(f"CREATE KEYSPACE {name} WITH replication = "
                    "{'class': 'SimpleStrategy', 'replication_factor': 1}")


def closing_line(passed, failed):
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


class Skip(Exception):
    """Raised by a test that cannot run here (reported, not counted as failed)."""


def run_tests(namespace, prefix):
    """Runs every test_* function of `namespace` (a module's globals()) whose
    name contains one of the command line's names (all without names), each
    as fn(build, work) with a fresh temporary work directory. Argument 1 is
    the build directory. Returns the exit status: 0 when none failed and at
    least one passed."""
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    names = sys.argv[2:]
    tests = [(n, f) for n, f in sorted(namespace.items()) if n.startswith("test_") and callable(f)]
    if names:
        tests = [(n, f) for n, f in tests if any(x in n for x in names)]
    passed = failed = skipped = 0
    for name, fn in tests:
        work = tempfile.mkdtemp(prefix=prefix)
        print(f"--- {name}")
        try:
            fn(build, work)
            print(f"ok: {name}")
            passed += 1
        except Skip as e:
            print(f"skipped: {name}: {e}")
            skipped += 1
        except Exception as e:
            print(f"FAIL: {name}: {e}")
            traceback.print_exc(limit=4)
            failed += 1
        finally:
            shutil.rmtree(work, ignore_errors=True)
    if skipped:
        print(f"{skipped} skipped")
    return closing_line(passed, failed)
