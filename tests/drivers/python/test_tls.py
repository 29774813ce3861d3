#!/usr/bin/env python3
"""Client TLS (client_encryption_options) through the DataStax Python driver.

Needs a server started with TLS on (tests/suites/tls.sh generates the
certificates and starts it). Environment:
    TESSEL_TLS_CA      the CA certificate that signed the server's (and client's) certificate
    TESSEL_TLS_CLIENT  "cert.pem:key.pem" of a client certificate, when the server
                       requires client authentication (TESSEL_TLS_REQUIRE_CLIENT_AUTH=1)
    TESSEL_TLS_OPTIONAL=1  the server also accepts plain connections (optional: true)
Prints a closing "N passed, N failed" line; exit status 1 on any failure.
"""

import os
import socket
import ssl
import unittest

from cassandra.cluster import Cluster, NoHostAvailable

from driver_env import HOST, PORT, new_cluster, run

CA = os.environ["TESSEL_TLS_CA"]
REQUIRE_CLIENT_AUTH = os.environ.get("TESSEL_TLS_REQUIRE_CLIENT_AUTH") == "1"
OPTIONAL = os.environ.get("TESSEL_TLS_OPTIONAL") == "1"
CLIENT = os.environ.get("TESSEL_TLS_CLIENT", "")


def tls_context(with_client_cert):
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.load_verify_locations(CA)
    ctx.check_hostname = True
    if with_client_cert:
        cert, key = CLIENT.split(":")
        ctx.load_cert_chain(cert, key)
    return ctx


class TlsTest(unittest.TestCase):
    def test_tls_connection_runs_queries(self):
        cluster = new_cluster(ssl_context=tls_context(REQUIRE_CLIENT_AUTH),
                              ssl_options={"server_hostname": HOST})
        try:
            session = cluster.connect()
            self.assertEqual(session.execute("SELECT key FROM system.local").one().key, "local")
            session.execute("CREATE KEYSPACE IF NOT EXISTS pytls WITH replication = "
                            "{'class': 'SimpleStrategy', 'replication_factor': 1}")
            session.execute("CREATE TABLE IF NOT EXISTS pytls.t (k int PRIMARY KEY, v text)")
            session.execute("INSERT INTO pytls.t (k, v) VALUES (1, %s)", ["x" * 100000])
            row = session.execute("SELECT v FROM pytls.t WHERE k = 1").one()
            self.assertEqual(len(row.v), 100000)
        finally:
            cluster.shutdown()

    @unittest.skipIf(OPTIONAL, "the server also accepts plain connections")
    def test_plain_connection_is_refused(self):
        # The server closes at once; the driver then waits out its connect timeout.
        cluster = Cluster([HOST], port=PORT, connect_timeout=2)
        try:
            with self.assertRaises(NoHostAvailable):
                cluster.connect()
        finally:
            cluster.shutdown()

    @unittest.skipIf(OPTIONAL, "the server also accepts plain connections")
    def test_plain_bytes_get_no_cql_answer(self):
        # An OPTIONS frame in clear: the server closes without answering it.
        with socket.create_connection((HOST, PORT), timeout=10) as s:
            s.sendall(bytes([0x04, 0, 0, 1, 0x05, 0, 0, 0, 0]))
            data = b""
            try:
                while True:
                    chunk = s.recv(4096)
                    if not chunk:
                        break
                    data += chunk
            except (ConnectionResetError, socket.timeout):
                pass
            self.assertFalse(data.startswith(b"\x84"), data[:16])

    @unittest.skipUnless(OPTIONAL, "the server requires TLS")
    def test_plain_connection_works_when_optional(self):
        cluster = new_cluster()
        try:
            session = cluster.connect()
            self.assertEqual(session.execute("SELECT key FROM system.local").one().key, "local")
        finally:
            cluster.shutdown()

    @unittest.skipUnless(REQUIRE_CLIENT_AUTH, "the server does not require client certificates")
    def test_client_without_certificate_is_refused(self):
        cluster = new_cluster(ssl_context=tls_context(False), ssl_options={"server_hostname": HOST})
        try:
            with self.assertRaises(NoHostAvailable):
                cluster.connect()
        finally:
            cluster.shutdown()


if __name__ == "__main__":
    raise SystemExit(run(TlsTest))
