// The settings of the messaging service (cassandra.yaml's names where it has one).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tessel::cluster {

// server_encryption_options: TLS 1.2+ on every internode connection, both
// directions. The connector always verifies the acceptor's certificate
// chain against `ca` (no host name check, as Cassandra's default
// require_endpoint_verification: false); the acceptor verifies the
// connector's certificate when require_client_auth is set. A node presents
// `certificate` on both sides, so it should allow serverAuth and clientAuth.
struct MessagingTlsOptions {
    bool enabled = false;
    std::string certificate;  // PEM chain (keystore)
    std::string private_key;  // PEM key; empty: in `certificate`
    std::string ca;           // PEM CA certificates (truststore)
    bool require_client_auth = false;
};

struct MessagingOptions {
    std::string listen_address = "127.0.0.1";   // also the source address of outbound connections
    int storage_port = 7000;                    // 0: any free port (see MessagingService::port())
    int threads = 1;                            // io threads, >= 1
    std::string cluster_name = "Test Cluster";  // peers with another name are refused
    std::string host_id;                        // this node's id, 16 raw bytes

    uint32_t max_frame_bytes = 256u << 20;                 // a frame's payload, either direction
    size_t max_pending_bytes_per_peer = size_t{64} << 20;  // queued and unsent, per peer
    int heartbeat_interval_ms = 1000;
    int failure_timeout_ms = 5000;
    // Connect, TLS and handshake of one attempt; an inbound connection
    // must finish its handshake in the same time.
    int connect_timeout_ms = 2000;
    // After a failed attempt the next one waits min, then doubles up to max.
    int reconnect_backoff_min_ms = 100;
    int reconnect_backoff_max_ms = 2000;

    MessagingTlsOptions tls;
};

}  // namespace tessel::cluster
