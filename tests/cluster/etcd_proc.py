"""A real single-member etcd for Python test harnesses.

The Python twin of tests/unit/cluster/etcd_process.h: /usr/bin/etcd in a
fresh temporary directory on free loopback ports (client and peer), logging
to etcd.log there; it can be stopped and restarted on the same directory and
ports, paused (SIGSTOP) and resumed (SIGCONT), and close() kills it and
removes the directory.

    with Etcd() as etcd:           # started; killed and removed at the end
        url = etcd.endpoint        # "http://127.0.0.1:PORT"
        etcd.restart()
        etcd.pause(); etcd.resume()

Raft timing is shortened (10 ms heartbeat, 100 ms election): start-up is
quick and the minimum lease TTL is 1 s. Running this file starts an etcd and
checks every operation once.
"""

import atexit
import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

ETCD_BINARY = "/usr/bin/etcd"

# Every Etcd still running, killed when the interpreter exits.
_live = set()


@atexit.register
def _kill_leftovers():
    for etcd in list(_live):
        etcd.close()


def _free_ports(count):
    """`count` distinct free loopback ports (all held until all are chosen)."""
    socks = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def free_port():
    return _free_ports(1)[0]


_opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def b64(text):
    """The gateway's encoding of a key or value (str or bytes)."""
    if isinstance(text, str):
        text = text.encode()
    return base64.b64encode(text).decode()


class StartFailed(Exception):
    pass


class Etcd:
    def __init__(self, start=True, timeout=30):
        self.dir = tempfile.mkdtemp(prefix="tessel-etcd-")
        self.log_path = os.path.join(self.dir, "etcd.log")
        self.client_port = 0
        self.peer_port = 0
        self.proc = None
        self.paused = False
        if start:
            self.start(timeout)

    @property
    def endpoint(self):
        return f"http://127.0.0.1:{self.client_port}"

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def start(self, timeout=30):
        """Picks free ports and starts etcd; returns once it answers."""
        last = None
        for attempt in range(3):
            if attempt > 0:
                shutil.rmtree(os.path.join(self.dir, "data"), ignore_errors=True)
            self.client_port, self.peer_port = _free_ports(2)
            try:
                self._launch(timeout)
                return
            except StartFailed as e:  # most likely a port taken meanwhile
                last = e
        raise last

    def restart(self, timeout=30):
        """Stops etcd (if running) and starts it again: same data, same ports."""
        if self.client_port == 0:
            raise RuntimeError("etcd was never started")
        self.stop()
        self._launch(timeout)

    def stop(self, timeout=10):
        """SIGTERM and wait (SIGKILL after `timeout` s, or at once if paused)."""
        if self.proc is None:
            return
        self.proc.send_signal(signal.SIGKILL if self.paused else signal.SIGTERM)
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._gone()

    def kill(self):
        """SIGKILL: no clean shutdown."""
        if self.proc is None:
            return
        self.proc.kill()
        self.proc.wait()
        self._gone()

    def pause(self):
        """SIGSTOP: connections stay open, nothing is answered."""
        if self.proc is not None and not self.paused:
            self.proc.send_signal(signal.SIGSTOP)
            self.paused = True

    def resume(self):
        if self.proc is not None and self.paused:
            self.proc.send_signal(signal.SIGCONT)
            self.paused = False

    def close(self):
        """Kills etcd and removes its directory."""
        self.kill()
        shutil.rmtree(self.dir, ignore_errors=True)

    def running(self):
        return self.proc is not None and self.proc.poll() is None

    def log(self):
        try:
            with open(self.log_path, errors="replace") as f:
                return f.read()
        except FileNotFoundError:
            return ""

    def post(self, path, body, timeout=2):
        """A raw request to the v3 JSON gateway: the decoded reply (an error
        reply too). Raises OSError when etcd does not answer."""
        request = urllib.request.Request(self.endpoint + path, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        try:
            with _opener.open(request, timeout=timeout) as reply:
                return json.loads(reply.read())
        except urllib.error.HTTPError as e:
            return json.loads(e.read() or b"{}")

    def put(self, key, value, lease=0):
        body = {"key": b64(key), "value": b64(value)}
        if lease:
            body["lease"] = str(lease)
        return int(self.post("/v3/kv/put", body)["header"]["revision"])

    def get(self, key):
        """The value of `key` (bytes), or None."""
        kvs = self.post("/v3/kv/range", {"key": b64(key)}).get("kvs", [])
        return base64.b64decode(kvs[0].get("value", "")) if kvs else None

    def compact(self, revision):
        reply = self.post("/v3/kv/compaction", {"revision": str(revision), "physical": True})
        return "header" in reply

    def _launch(self, timeout):
        client = self.endpoint
        peer = f"http://127.0.0.1:{self.peer_port}"
        args = [ETCD_BINARY, "--name=tessel-test", f"--data-dir={self.dir}/data",
                f"--listen-client-urls={client}", f"--advertise-client-urls={client}",
                f"--listen-peer-urls={peer}", f"--initial-advertise-peer-urls={peer}",
                f"--initial-cluster=tessel-test={peer}", "--heartbeat-interval=10",
                "--election-timeout=100", "--logger=zap", "--log-outputs=stderr"]
        # etcd reads ETCD_* variables as flags: keep the environment's out.
        env = {k: v for k, v in os.environ.items() if not k.startswith("ETCD_")}
        with open(self.log_path, "a") as log:
            self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=log,
                                         stderr=subprocess.STDOUT, env=env)
        self.paused = False
        _live.add(self)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                self._gone()
                raise StartFailed(f"etcd exited during start-up; its log:\n{self.log()}")
            try:
                with _opener.open(client + "/health", timeout=0.5) as reply:
                    if json.loads(reply.read()).get("health") == "true":
                        return
            except (OSError, ValueError):
                pass
            time.sleep(0.02)
        self.kill()
        raise StartFailed(f"etcd did not answer within {timeout}s; its log:\n{self.log()}")

    def _gone(self):
        self.proc = None
        self.paused = False
        _live.discard(self)


def _self_test():
    with Etcd() as etcd:
        rev = etcd.put("k", "v1")
        assert etcd.get("k") == b"v1" and rev > 0
        etcd.restart()
        assert etcd.get("k") == b"v1", "data survives a restart"
        etcd.kill()
        etcd.restart()
        assert etcd.put("k", "v2") > rev
        etcd.pause()
        try:
            etcd.post("/v3/kv/range", {"key": b64("k")}, timeout=0.3)
            raise AssertionError("a paused etcd answered")
        except OSError:
            pass
        etcd.resume()
        assert etcd.get("k") == b"v2"
        assert etcd.compact(etcd.put("k", "v3"))
        directory = etcd.dir
    assert not os.path.exists(directory)
    print("etcd_proc: ok")


if __name__ == "__main__":
    _self_test()
