#!/usr/bin/env python3
"""Raw-socket protocol tests for tesseld (no driver): malformed, truncated and
oversized frames, bad version bytes, garbage bodies, pipelining. Checks the
exact error frames and that another connection keeps being served throughout.

Needs a running server: TESSEL_HOST / TESSEL_PORT (default 127.0.0.1:9042).
Prints a closing "N passed, N failed" line; exit status 1 on any failure.
"""

import os
import random
import socket
import struct
import sys
import unittest

HOST = os.environ.get("TESSEL_HOST", "127.0.0.1")
PORT = int(os.environ.get("TESSEL_PORT", "9042"))

OPTIONS, STARTUP, QUERY, RESULT, PREPARE, EXECUTE, REGISTER = 0x05, 0x01, 0x07, 0x08, 0x09, 0x0A, 0x0B
ERROR, READY, SUPPORTED = 0x00, 0x02, 0x06
PROTOCOL_ERROR = 0x000A


def string(s):
    b = s.encode()
    return struct.pack(">H", len(b)) + b


def long_string(s):
    b = s.encode()
    return struct.pack(">i", len(b)) + b


def string_map(m):
    out = struct.pack(">H", len(m))
    for k, v in m.items():
        out += string(k) + string(v)
    return out


def frame(opcode, body=b"", stream=1, version=4, flags=0):
    return struct.pack(">BBhBI", version, flags, stream, opcode, len(body)) + body


def query_body(cql, consistency=1, flags=0, extra=b""):
    return long_string(cql) + struct.pack(">HB", consistency, flags) + extra


class Conn:
    def __init__(self):
        self.sock = socket.create_connection((HOST, PORT), timeout=10)
        self.buf = b""

    def send(self, data):
        self.sock.sendall(data)

    def _read_exact(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("connection closed by the server")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def read_frame(self):
        header = self._read_exact(9)
        version, flags, stream, opcode, length = struct.unpack(">BBhBI", header)
        body = self._read_exact(length)
        return version, flags, stream, opcode, body, header

    def request(self, opcode, body=b"", stream=1, **kw):
        self.send(frame(opcode, body, stream, **kw))
        return self.read_frame()

    def startup(self):
        v, f, s, op, body, _ = self.request(STARTUP, string_map({"CQL_VERSION": "3.4.4"}))
        assert op == READY, (op, body)

    def is_closed(self, timeout=5):
        """True when the server closed the connection (EOF after pending data)."""
        try:
            self.sock.settimeout(timeout)
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return True
        except (ConnectionResetError, BrokenPipeError):
            return True
        except socket.timeout:
            return False

    def close(self):
        self.sock.close()


def error_of(body):
    code = struct.unpack(">i", body[:4])[0]
    n = struct.unpack(">H", body[4:6])[0]
    return code, body[6:6 + n].decode()


class RawProtocolTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        # A connection that must keep working whatever the others send.
        cls.bystander = Conn()
        cls.bystander.startup()

    @classmethod
    def tearDownClass(cls):
        cls.bystander.close()

    def tearDown(self):
        v, f, s, op, body, _ = self.bystander.request(OPTIONS, stream=77)
        self.assertEqual((op, s), (SUPPORTED, 77), "bystander connection stopped being served")

    def assert_protocol_error(self, reply, stream, contains=""):
        v, f, s, op, body, _ = reply
        self.assertEqual(op, ERROR)
        self.assertEqual(s, stream)
        code, msg = error_of(body)
        self.assertEqual(code, PROTOCOL_ERROR, msg)
        self.assertIn(contains, msg)
        return msg

    def test_options_supported(self):
        c = Conn()
        v, f, s, op, body, _ = c.request(OPTIONS, stream=5)
        self.assertEqual((v, s, op), (0x84, 5, SUPPORTED))
        n = struct.unpack(">H", body[:2])[0]
        pos, keys = 2, {}
        for _ in range(n):
            kl = struct.unpack(">H", body[pos:pos + 2])[0]
            key = body[pos + 2:pos + 2 + kl].decode()
            pos += 2 + kl
            cnt = struct.unpack(">H", body[pos:pos + 2])[0]
            pos += 2
            vals = []
            for _ in range(cnt):
                vl = struct.unpack(">H", body[pos:pos + 2])[0]
                vals.append(body[pos + 2:pos + 2 + vl].decode())
                pos += 2 + vl
            keys[key] = vals
        self.assertEqual(keys["CQL_VERSION"], ["3.4.4"])
        self.assertIn("lz4", keys["COMPRESSION"])
        self.assertEqual(keys["PROTOCOL_VERSIONS"], ["3/v3", "4/v4"])
        c.close()

    def test_bad_version_exact_error_bytes(self):
        for version in (0x42, 0x41, 0x05, 0x06, 0x7F, 0x01):
            c = Conn()
            c.send(frame(OPTIONS, stream=3, version=version))
            v, f, s, op, body, header = c.read_frame()
            msg = ("Invalid or unsupported protocol version (%d); supported versions are "
                   "(3/v3, 4/v4)" % version).encode()
            expected_body = struct.pack(">i", PROTOCOL_ERROR) + struct.pack(">H", len(msg)) + msg
            self.assertEqual(header, struct.pack(">BBhBI", 0x84, 0, 3, ERROR, len(expected_body)))
            self.assertEqual(body, expected_body)
            self.assertTrue(c.is_closed())
            c.close()

    def test_bad_version_with_a_body_that_never_comes(self):
        c = Conn()
        c.send(struct.pack(">BBhBI", 0x05, 0, 9, OPTIONS, 1 << 20))
        v, f, s, op, body, _ = c.read_frame()
        self.assertEqual((v, s, op), (0x84, 9, ERROR))
        self.assertIn("Invalid or unsupported protocol version (5)", error_of(body)[1])
        c.close()

    def test_response_direction_bit_is_refused(self):
        c = Conn()
        v, f, s, op, body, _ = c.request(OPTIONS, stream=4, version=0x84)
        self.assertEqual(op, ERROR)
        self.assertEqual(error_of(body)[0], PROTOCOL_ERROR)
        c.close()

    def test_requests_before_startup(self):
        c = Conn()
        self.assert_protocol_error(c.request(QUERY, query_body("SELECT * FROM system.local"),
                                             stream=2), 2, "STARTUP")
        self.assert_protocol_error(c.request(REGISTER, b"\x00\x00", stream=3), 3)
        # The connection is still usable.
        c.startup()
        c.close()

    def test_startup_errors(self):
        c = Conn()
        self.assert_protocol_error(c.request(STARTUP, string_map({})), 1, "CQL_VERSION")
        self.assert_protocol_error(
            c.request(STARTUP, string_map({"CQL_VERSION": "3.4.4", "COMPRESSION": "zip"})), 1,
            "compression")
        c.startup()
        self.assert_protocol_error(c.request(STARTUP, string_map({"CQL_VERSION": "3.4.4"})), 1,
                                   "already")
        c.close()

    def test_garbage_bodies_keep_the_connection(self):
        c = Conn()
        c.startup()
        bodies = [
            (QUERY, b""),
            (QUERY, b"\x00\x00\x00\x20SELECT"),  # long string longer than the body
            (QUERY, long_string("SELECT * FROM system.local")),  # no consistency
            (QUERY, query_body("x", flags=0x01, extra=b"\x00\x01\xff\xff\xff\xf0")),  # value -16
            (PREPARE, b"\xff\xff\xff\xff"),
            (EXECUTE, b"\x00\x10abc"),
            (REGISTER, b"\x00\x05"),
            (0x0D, b"\x07"),  # BATCH with a bad type
            (STARTUP, b"\x00"),
        ]
        rnd = random.Random(42)
        for _ in range(20):
            bodies.append((rnd.choice([QUERY, PREPARE, EXECUTE, 0x0D, REGISTER]),
                           bytes(rnd.getrandbits(8) for _ in range(rnd.randint(1, 40)))))
        for i, (op, body) in enumerate(bodies):
            v, f, s, rop, rbody, _ = c.request(op, body, stream=100 + i)
            self.assertEqual(s, 100 + i)
            if rop == ERROR:
                code, msg = error_of(rbody)
                self.assertIn(code, (PROTOCOL_ERROR, 0x2000, 0x2200, 0x2500), msg)
        v, f, s, op, body, _ = c.request(OPTIONS, stream=9)
        self.assertEqual(op, SUPPORTED)
        c.close()

    def test_unknown_and_response_opcodes(self):
        c = Conn()
        c.startup()
        for op in (0x04, 0x1F, 0xFF, RESULT, READY, ERROR, SUPPORTED):
            self.assert_protocol_error(c.request(op, b"", stream=11), 11)
        v, f, s, op, body, _ = c.request(OPTIONS, stream=12)
        self.assertEqual(op, SUPPORTED)
        c.close()

    def test_compressed_flag_without_negotiation(self):
        c = Conn()
        c.startup()
        self.assert_protocol_error(
            c.request(QUERY, query_body("SELECT * FROM system.local"), stream=6, flags=0x01), 6,
            "compress")
        v, f, s, op, body, _ = c.request(OPTIONS, stream=7)
        self.assertEqual(op, SUPPORTED)
        c.close()

    def test_oversized_frame_is_refused_and_skipped(self):
        c = Conn()
        c.startup()
        c.send(struct.pack(">BBhBI", 4, 0, 21, QUERY, 0x7FFFFFF0) + b"\x00" * 1000)
        msg = self.assert_protocol_error(c.read_frame(), 21, "too big")
        self.assertIn(str(0x7FFFFFF0), msg)
        # As Cassandra: the body is skipped as it arrives and the connection
        # stays open (tests/reliability/limits_test.py uses it afterwards).
        self.assertFalse(c.is_closed(timeout=1))
        c.close()

    def test_truncated_frames_then_disconnect(self):
        for data in (b"\x04", b"\x04\x00\x00\x01\x07\x00\x00", frame(QUERY, query_body("SELECT 1"))[:15]):
            c = Conn()
            c.send(data)
            c.close()
        c = Conn()
        c.startup()
        # Half a frame, then the rest later: the server waits for the boundary.
        whole = frame(OPTIONS, stream=33)
        c.send(whole[:4])
        c.send(whole[4:])
        v, f, s, op, body, _ = c.read_frame()
        self.assertEqual((s, op), (33, SUPPORTED))
        c.close()

    def test_random_garbage_streams(self):
        rnd = random.Random(7)
        for _ in range(10):
            c = Conn()
            c.send(bytes(rnd.getrandbits(8) for _ in range(rnd.randint(9, 2000))))
            try:
                c.is_closed()
            except OSError:
                pass
            c.close()

    def test_pipelined_streams(self):
        c = Conn()
        c.startup()
        c.send(b"".join(frame(OPTIONS, stream=s) for s in range(200)))
        streams = []
        for _ in range(200):
            v, f, s, op, body, _ = c.read_frame()
            self.assertEqual(op, SUPPORTED)
            streams.append(s)
        self.assertEqual(sorted(streams), list(range(200)))
        c.close()

    def test_system_tables_answer_rows(self):
        c = Conn()
        c.startup()
        for q in ("SELECT * FROM system.peers", "SELECT * FROM system_schema.keyspaces",
                  "SELECT * FROM system.local WHERE key='local'",
                  "SELECT * FROM system.peers_v2", "SELECT * FROM system_virtual_schema.tables"):
            v, f, s, op, body, _ = c.request(QUERY, query_body(q), stream=40)
            self.assertEqual(op, RESULT, error_of(body) if op == ERROR else "")
            self.assertEqual(struct.unpack(">i", body[:4])[0], 2)  # Rows
        # A table that does not exist is Invalid, never a protocol error.
        v, f, s, op, body, _ = c.request(QUERY, query_body("SELECT * FROM system.peers_v3"),
                                         stream=41)
        self.assertEqual(op, ERROR)
        self.assertEqual(error_of(body)[0], 0x2200)
        c.close()


def main():
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(RawProtocolTest)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    failed = len(result.failures) + len(result.errors)
    passed = max(0, result.testsRun - failed)
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and result.testsRun > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
