#include "server/config.h"

#include <charconv>
#include <fstream>
#include <sstream>

#include "auth/auth_service.h"
#include "server/cluster_config.h"
#include "server/tablet_config.h"

namespace tessel::server {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) {
        s.remove_prefix(1);
    }
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
        s.remove_suffix(1);
    }
    return s;
}

// Drops a trailing `# comment` that is outside quotes.
std::string_view strip_comment(std::string_view s) {
    char quote = 0;
    for (size_t i = 0; i < s.size(); ++i) {
        char c = s[i];
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
            quote = c;
        } else if (c == '#' && (i == 0 || s[i - 1] == ' ' || s[i - 1] == '\t')) {
            return s.substr(0, i);
        }
    }
    return s;
}

std::string unquote(std::string_view s) {
    s = trim(s);
    if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) {
        return std::string(s.substr(1, s.size() - 2));
    }
    return std::string(s);
}

// Applies one scalar setting. `known` is cleared for keys we do not handle.
Status apply_scalar(int line, const std::string& key, const std::string& value,
                    ServerConfig* config, bool* known) {
    *known = true;
    if (key == "cluster_name") {
        config->db.cluster_name = value;
    } else if (key == "native_transport_port") {
        TESSEL_ASSIGN_OR_RETURN(long long port, parse_int(line, key, value, 0, 65535));
        config->port = static_cast<int>(port);
    } else if (key == "listen_address") {
        if (value.empty()) return bad_value(line, key, value, "an address");
        config->listen_address = value;
    } else if (key == "rpc_address" || key == "broadcast_rpc_address") {
        if (value.empty()) return bad_value(line, key, value, "an address");
        config->db.rpc_address = value;
    } else if (key == "commitlog_sync") {
        if (value == "periodic") {
            config->db.commitlog_sync = CommitlogSync::kPeriodic;
        } else if (value == "batch") {
            config->db.commitlog_sync = CommitlogSync::kBatch;
        } else {
            return bad_value(line, key, value, "periodic or batch");
        }
    } else if (key == "commitlog_sync_period_in_ms") {
        TESSEL_ASSIGN_OR_RETURN(long long ms, parse_int(line, key, value, 1, 3600 * 1000));
        config->db.commitlog_sync_period_ms = static_cast<int>(ms);
    } else if (key == "native_transport_max_frame_size_in_mb") {
        TESSEL_ASSIGN_OR_RETURN(long long mb, parse_int(line, key, value, 1, 2047));
        config->max_frame_bytes = static_cast<size_t>(mb) << 20;
    } else if (key == "native_transport_max_concurrent_connections") {
        TESSEL_ASSIGN_OR_RETURN(long long n, parse_int(line, key, value, -1, 1 << 20));
        config->max_connections = static_cast<int>(n);
    } else if (key == "native_transport_max_requests_per_connection") {
        TESSEL_ASSIGN_OR_RETURN(long long n, parse_int(line, key, value, 1, 1 << 20));
        config->max_requests_per_connection = static_cast<size_t>(n);
    } else if (key == "native_transport_max_concurrent_requests_in_bytes") {
        TESSEL_ASSIGN_OR_RETURN(long long n, parse_int(line, key, value, 1, 1ll << 40));
        config->max_request_bytes = static_cast<size_t>(n);
    } else if (key == "max_value_size_in_mb") {
        TESSEL_ASSIGN_OR_RETURN(long long mb, parse_int(line, key, value, 1, 2047));
        config->max_value_bytes = static_cast<size_t>(mb) << 20;
    } else if (key == "read_request_timeout_in_ms" || key == "range_request_timeout_in_ms" ||
               key == "write_request_timeout_in_ms") {
        TESSEL_ASSIGN_OR_RETURN(long long ms, parse_int(line, key, value, 0, 24ll * 3600 * 1000));
        int* target = key == "read_request_timeout_in_ms"    ? &config->db.read_request_timeout_ms
                      : key == "range_request_timeout_in_ms" ? &config->db.range_request_timeout_ms
                                                             : &config->db.write_request_timeout_ms;
        *target = static_cast<int>(ms);
    } else if (key == "smp" || key == "native_transport_event_loops") {
        TESSEL_ASSIGN_OR_RETURN(long long n, parse_int(line, key, value, 0, 1024));
        config->smp = static_cast<int>(n);
    } else if (key == "authenticator") {
        if (!auth::parse_authenticator(value).is_ok()) {
            return bad_value(line, key, value, "AllowAllAuthenticator or PasswordAuthenticator");
        }
        config->db.authenticator = value;
    } else if (key == "authorizer") {
        if (!auth::parse_authorizer(value).is_ok()) {
            return bad_value(line, key, value, "AllowAllAuthorizer or CassandraAuthorizer");
        }
        config->db.authorizer = value;
    } else if (key == "batch_size_warn_threshold_in_kb" ||
               key == "batch_size_fail_threshold_in_kb") {
        TESSEL_ASSIGN_OR_RETURN(long long kb, parse_int(line, key, value, 1, 1 << 30));
        (key == "batch_size_warn_threshold_in_kb" ? config->db.batch_size_warn_threshold_bytes
                                                  : config->db.batch_size_fail_threshold_bytes) =
            static_cast<size_t>(kb) << 10;
    } else if (key == "commitlog_segment_size_in_mb") {
        // Cassandra's maximum mutation size is half a commit log segment.
        TESSEL_ASSIGN_OR_RETURN(long long mb, parse_int(line, key, value, 1, 2047));
        config->db.max_mutation_size_bytes = static_cast<size_t>(mb) << 19;
    } else if (key == "block_cache_size_in_mb") {
        TESSEL_ASSIGN_OR_RETURN(long long mb, parse_int(line, key, value, 1, 1 << 20));
        config->db.block_cache_bytes = static_cast<size_t>(mb) << 20;
    } else if (key.starts_with("tablet_")) {
        TESSEL_RETURN_IF_ERROR(apply_tablet_setting(line, key, value, &config->db.tablets, known));
        if (*known) return Status::ok();
        // tablet_balancer_*: the cluster's balancer.
        return apply_cluster_setting(line, key, value, &config->db.cluster, known);
    } else {
        TESSEL_RETURN_IF_ERROR(apply_cluster_setting(line, key, value, &config->db.cluster, known));
        if (*known) return Status::ok();
        return apply_health_setting(line, key, value, config, known);
    }
    return Status::ok();
}

// One `key: value` line of the client_encryption_options mapping.
Status apply_tls_option(int line, std::string_view text, ClientTlsOptions* tls) {
    size_t colon = text.find(':');
    if (colon == std::string_view::npos) {
        return Status::config("config line " + std::to_string(line) +
                              ": expected 'key: value', got '" + std::string(text) + "'");
    }
    std::string key(trim(text.substr(0, colon)));
    std::string value = unquote(text.substr(colon + 1));
    auto flag = [&](bool* out) {
        if (value != "true" && value != "false") {
            return bad_value(line, key, value, "true or false");
        }
        *out = value == "true";
        return Status::ok();
    };
    if (key == "enabled") return flag(&tls->enabled);
    if (key == "require_client_auth") return flag(&tls->require_client_auth);
    if (key == "optional") return flag(&tls->optional);
    if (key == "keystore" || key == "certificate") {
        tls->certificate = value;
    } else if (key == "private_key" || key == "keystore_key") {
        tls->private_key = value;
    } else if (key == "truststore") {
        tls->truststore = value;
    }  // other keys (protocol, cipher_suites, passwords) keep their defaults
    return Status::ok();
}

}  // namespace

Status bad_value(int line, std::string_view key, std::string_view value, std::string_view want) {
    return Status::config("config line " + std::to_string(line) + ": invalid value '" +
                          std::string(value) + "' for " + std::string(key) + " (expected " +
                          std::string(want) + ")");
}

Result<long long> parse_int(int line, std::string_view key, const std::string& value, long long lo,
                            long long hi) {
    long long v = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || p != value.data() + value.size() || v < lo || v > hi) {
        return bad_value(line, key, value,
                         "an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
    }
    return v;
}

Status apply_config_text(std::string_view text, ServerConfig* config,
                         std::vector<std::string>* ignored_keys) {
    std::string list_key;  // the key whose `- item` lines follow
    bool first_item = false;
    int line_no = 0;
    while (!text.empty()) {
        size_t nl = text.find('\n');
        std::string_view raw = text.substr(0, nl);
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
        ++line_no;
        std::string_view line = trim(strip_comment(raw));
        if (line.empty() || line == "---") continue;
        bool indented = raw.front() == ' ' || raw.front() == '\t';
        if (line.front() == '-') {
            // A list item belongs to the last top-level key with an empty value.
            if (list_key == "data_file_directories" && first_item) {
                config->db.data_dir = unquote(line.substr(1));
                first_item = false;
            } else if (list_key == "etcd_endpoints") {
                config->db.cluster.etcd_endpoints.push_back(unquote(line.substr(1)));
            }
            continue;
        }
        if (indented) {
            if (list_key == "client_encryption_options") {
                TESSEL_RETURN_IF_ERROR(apply_tls_option(line_no, line, &config->client_tls));
            } else if (list_key == "server_encryption_options") {
                const size_t colon = line.find(':');
                if (colon == std::string_view::npos) {
                    return Status::config("config line " + std::to_string(line_no) +
                                          ": expected 'key: value', got '" + std::string(line) +
                                          "'");
                }
                TESSEL_RETURN_IF_ERROR(apply_internode_tls_option(
                    line_no, std::string(trim(line.substr(0, colon))),
                    unquote(line.substr(colon + 1)), &config->db.cluster));
            }
            continue;  // nested mapping under a key we do not read
        }
        size_t colon = line.find(':');
        if (colon == std::string_view::npos) {
            return Status::config("config line " + std::to_string(line_no) +
                                  ": expected 'key: value', got '" + std::string(line) + "'");
        }
        std::string key(trim(line.substr(0, colon)));
        std::string value = unquote(line.substr(colon + 1));
        list_key.clear();
        if (value.empty()) {
            list_key = key;
            first_item = true;
            if (key != "data_file_directories" && key != "client_encryption_options" &&
                key != "server_encryption_options" && key != "etcd_endpoints" && ignored_keys) {
                ignored_keys->push_back(key);
            }
            continue;
        }
        if (key == "data_file_directories") {
            // Flow style: [a, b]
            std::string v = value;
            if (!v.empty() && v.front() == '[') {
                v = v.substr(1, v.find_first_of(",]") - 1);
            }
            config->db.data_dir = unquote(v);
            continue;
        }
        bool known = false;
        TESSEL_RETURN_IF_ERROR(apply_scalar(line_no, key, value, config, &known));
        if (!known && ignored_keys) ignored_keys->push_back(key);
    }
    return Status::ok();
}

Status apply_config_file(const std::string& path, ServerConfig* config,
                         std::vector<std::string>* ignored_keys) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Status::config("cannot read config file " + path);
    std::stringstream ss;
    ss << in.rdbuf();
    return apply_config_text(ss.str(), config, ignored_keys);
}

}  // namespace tessel::server
