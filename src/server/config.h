// ServerConfig: everything tesseld needs to start, and the reader of its
// configuration file.
//
// The file is a small subset of YAML (the shape of cassandra.yaml): one
// `key: value` per line, `#` comments, quoted or bare scalars, and `- item`
// lists under a key. Keys use cassandra.yaml's names where one exists, so an
// operator can reuse what they know; unknown keys are reported, not fatal
// (a real cassandra.yaml has hundreds we do not need).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "tessel/database.h"

namespace tessel::server {

// cassandra.yaml's client_encryption_options, with PEM files instead of Java
// keystores.
struct ClientTlsOptions {
    bool enabled = false;
    std::string certificate;  // PEM certificate chain (`keystore`)
    std::string private_key;  // PEM private key; empty: in the certificate file
    // Also accept plain connections (told apart by their first byte), as
    // Cassandra's `optional: true` does while clients move to TLS.
    bool optional = false;
    bool require_client_auth = false;
    std::string truststore;  // PEM CA certificates that sign client certificates
};

struct ServerConfig {
    DatabaseOptions db;  // data_dir, commitlog, cluster_name, rpc_address, native_port
    std::string listen_address = "127.0.0.1";
    int port = 9042;
    // Event loops (threads); 0 means one per hardware thread.
    int smp = 0;
    // Frames with a longer body are refused with Protocol_error and the
    // connection is closed (cassandra.yaml native_transport_max_frame_size_in_mb).
    size_t max_frame_bytes = 256ull << 20;
    // authenticator / authorizer: in db (DatabaseOptions), checked when the
    // database opens.
    // client_encryption_options: a nested mapping of the ClientTlsOptions keys
    // (enabled, keystore, private_key, require_client_auth, truststore).
    ClientTlsOptions client_tls;
    // Limits (docs/architecture.md, "Reliability"): connections beyond
    // max_connections are closed as soon as they are accepted (-1: no limit,
    // native_transport_max_concurrent_connections); a request that arrives
    // while its connection already has max_requests_per_connection requests,
    // or the whole server max_request_bytes of request frames, not yet
    // answered is refused with Overloaded
    // (native_transport_max_requests_per_connection,
    // native_transport_max_concurrent_requests_in_bytes); a bound value longer
    // than max_value_bytes is Invalid (max_value_size_in_mb).
    int max_connections = -1;
    size_t max_requests_per_connection = 32768;  // v4's stream ids
    size_t max_request_bytes = 256ull << 20;
    size_t max_value_bytes = 256ull << 20;
    // Prometheus exposition (GET /metrics over HTTP): off unless a port is
    // configured (metrics_port; 0 picks a free port, logged at start-up).
    std::string metrics_listen_address = "127.0.0.1";
    int metrics_port = -1;
    // The web console (GET / and /api/... over HTTP, src/console): off unless
    // a port is configured (http_port, --http-port; 0 picks a free port,
    // logged at start-up); http_listen_address defaults to the CQL address.
    std::string http_listen_address;
    int http_port = -1;
};

// Config_error "config line N: invalid value 'V' for KEY (expected WANT)",
// the one message of every config file reader.
Status bad_value(int line, std::string_view key, std::string_view value, std::string_view want);
// An integer setting in [lo, hi]; bad_value's error otherwise.
Result<long long> parse_int(int line, std::string_view key, const std::string& value, long long lo,
                            long long hi);

// Partition health and metrics settings (health_config.cpp): the
// thresholds of DatabaseOptions::large_partitions and ::tombstones under
// their field names (sizes in bytes, or with a unit: 100MiB, 512KiB, 1GB),
// hot_partitions_window_ms, hot_partitions_capacity, partition_write_budget (the advisor's writes/s
// per partition), metrics_port and metrics_listen_address, http_port and http_listen_address.
// Sets *known to false for any other key.
Status apply_health_setting(int line, const std::string& key, const std::string& value,
                            ServerConfig* config, bool* known);

// Applies the settings of a config file's text on top of *config. Returns
// Config_error naming the line for a malformed line or a bad value. Keys the
// reader does not know are appended to *ignored_keys (may be null).
Status apply_config_text(std::string_view text, ServerConfig* config,
                         std::vector<std::string>* ignored_keys);

// Reads the file at `path` and applies it (Config_error if unreadable).
Status apply_config_file(const std::string& path, ServerConfig* config,
                         std::vector<std::string>* ignored_keys);

}  // namespace tessel::server
