"""A test cluster on this machine: one etcd and N tesseld nodes on loopback
addresses 127.0.0.1, 127.0.0.2, ... sharing one CQL port and one storage
port, each with its own data directory under one temporary directory.

    with TestCluster(build, nodes=3) as c:   # started; everything stopped at the end
        c.node(2).kill(); c.node(2).start()
        c.node(3).pause(); c.node(3).resume()  # SIGSTOP / SIGCONT
        cluster, session = c.connect()        # the Python driver, contact point node 1

Nodes start one after the other (each joins through etcd), then start()
waits until every node lists every other one in system.peers.
"""

import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "reliability"))

from etcd_proc import Etcd  # noqa: E402


def port_free_everywhere(port, count):
    """True when `port` can be bound on 127.0.0.1 .. 127.0.0.count."""
    socks = []
    try:
        for i in range(1, count + 1):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((f"127.0.0.{i}", port))
            socks.append(s)
        return True
    except OSError:
        return False
    finally:
        for s in socks:
            s.close()


def shared_free_ports(count, how_many=2):
    """`how_many` ports free on every node address."""
    chosen = []
    while len(chosen) < how_many:
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
        s.close()
        if port not in chosen and port_free_everywhere(port, count):
            chosen.append(port)
    return chosen


def _die_with_parent():
    """In the child: SIGKILL when the test process dies, however it dies."""
    PR_SET_PDEATHSIG = 1
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class ClusterNode:
    def __init__(self, build, index, work, etcd_url, port, storage_port, settings):
        self.index = index
        self.address = f"127.0.0.{index}"
        self.bin = os.path.join(build, "bin", "tesseld")
        self.data_dir = os.path.join(work, f"node{index}")
        self.log_path = os.path.join(work, f"node{index}.log")
        self.conf_path = os.path.join(work, f"node{index}.yaml")
        self.etcd_url = etcd_url
        self.port = port
        self.storage_port = storage_port
        self.settings = dict(settings)
        self.proc = None
        self.paused = False

    def _write_config(self):
        with open(self.conf_path, "w") as f:
            for key, value in self.settings.items():
                f.write(f"{key}: {value}\n")

    def start(self, timeout=60):
        self._write_config()
        log = open(self.log_path, "a")
        self.proc = subprocess.Popen(
            [self.bin, "--data-dir", self.data_dir, "--listen", self.address,
             "--port", str(self.port), "--storage-port", str(self.storage_port),
             "--etcd", self.etcd_url, "--smp", "1", "--config", self.conf_path],
            stdout=log, stderr=subprocess.STDOUT, preexec_fn=_die_with_parent)
        log.close()
        deadline = time.monotonic() + timeout
        start_len = len(self.log())
        while time.monotonic() < deadline:
            code = self.proc.poll()
            if code is not None:
                self.proc = None
                raise RuntimeError(f"node {self.index} exited with {code}:\n{self.log()[-3000:]}")
            if "tesseld ready on" in self.log()[start_len:]:
                return
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"node {self.index} did not start in {timeout}s:\n{self.log()[-3000:]}")

    def log(self):
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def kill(self):
        """SIGKILL: no flush, no goodbye (its lease expires later)."""
        if self.proc is None:
            return
        if self.paused:
            self.resume()
        try:
            self.proc.send_signal(signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        self.proc = None

    def stop(self, timeout=30):
        if self.proc is None:
            return 0
        if self.paused:
            self.resume()
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            code = -9
        self.proc = None
        return code

    def pause(self):
        self.proc.send_signal(signal.SIGSTOP)
        self.paused = True

    def resume(self):
        self.proc.send_signal(signal.SIGCONT)
        self.paused = False


class TestCluster:
    # Short leases and failure timeouts so tests see nodes go down quickly.
    DEFAULTS = {
        "cluster_name": "'Test Cluster'",
        "num_tokens": 8,
        "etcd_lease_ttl_in_s": 4,
        "internode_failure_timeout_in_ms": 3000,
        "commitlog_sync": "batch",
    }

    def __init__(self, build, nodes=3, settings=None):
        self.build = os.path.abspath(build)
        self.work = tempfile.mkdtemp(prefix="tessel-cluster-")
        self.etcd = Etcd()
        self.port, self.storage_port = shared_free_ports(nodes)
        merged = dict(self.DEFAULTS)
        merged.update(settings or {})
        self.nodes = [ClusterNode(self.build, i, self.work, self.etcd.endpoint, self.port,
                                  self.storage_port, merged)
                      for i in range(1, nodes + 1)]

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.close()

    def node(self, index):
        return self.nodes[index - 1]

    def start(self, timeout=60):
        for n in self.nodes:
            n.start(timeout)
        self.wait_for_peers(timeout)

    def wait_for_peers(self, timeout=60, nodes=None):
        """Until each running node lists every other running node in system.peers."""
        running = [n for n in (nodes or self.nodes) if n.alive()]
        deadline = time.monotonic() + timeout
        for n in running:
            want = {m.address for m in running if m is not n}
            cluster, session = self.connect(n, whitelist=True)
            try:
                while True:
                    peers = {str(r.peer) for r in session.execute("SELECT peer FROM system.peers")}
                    if want <= peers:
                        break
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"node {n.index} sees peers {peers}, want {want}")
                    time.sleep(0.2)
            finally:
                cluster.shutdown()

    def connect(self, node=None, keyspace=None, whitelist=False, timeout=30, **kwargs):
        """A driver session with `node` (default node 1) as contact point;
        with whitelist, the session uses that node only."""
        from cassandra.cluster import Cluster, ExecutionProfile, EXEC_PROFILE_DEFAULT
        from cassandra.policies import (ConstantReconnectionPolicy, WhiteListRoundRobinPolicy,
                                        TokenAwarePolicy, RoundRobinPolicy)
        node = node or self.nodes[0]
        policy = (WhiteListRoundRobinPolicy([node.address]) if whitelist
                  else TokenAwarePolicy(RoundRobinPolicy()))
        profile = ExecutionProfile(load_balancing_policy=policy, request_timeout=timeout)
        cluster = Cluster([node.address], port=self.port, protocol_version=4,
                          connect_timeout=10,
                          execution_profiles={EXEC_PROFILE_DEFAULT: profile},
                          reconnection_policy=ConstantReconnectionPolicy(0.5),
                          **kwargs)
        session = cluster.connect(keyspace)
        return cluster, session

    def close(self):
        for n in self.nodes:
            try:
                n.kill()
            except Exception:
                pass
        self.etcd.close()
        if os.environ.get("TESSEL_KEEP_CLUSTER_LOGS"):
            print(f"cluster logs kept in {self.work}")
        else:
            shutil.rmtree(self.work, ignore_errors=True)
