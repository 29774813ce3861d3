#include "server/cluster_config.h"

#include "server/config.h"

namespace tessel::server {
std::vector<std::string> split_list(std::string_view value) {
    std::vector<std::string> out;
    while (!value.empty()) {
        const size_t comma = value.find(',');
        std::string_view item = value.substr(0, comma);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t'))
            item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t'))
            item.remove_suffix(1);
        if (!item.empty()) out.emplace_back(item);
        if (comma == std::string_view::npos) break;
        value.remove_prefix(comma + 1);
    }
    return out;
}

Status apply_cluster_setting(int line, const std::string& key, const std::string& value,
                             ClusterOptions* c, bool* known) {
    *known = true;
    if (key == "etcd_endpoints") {
        c->etcd_endpoints = split_list(value);
    } else if (key == "storage_port") {
        TESSEL_ASSIGN_OR_RETURN(long long port, parse_int(line, key, value, 0, 65535));
        c->storage_port = static_cast<int>(port);
    } else if (key == "dc") {
        if (value.empty()) return bad_value(line, key, value, "a data centre name");
        c->dc = value;
    } else if (key == "rack") {
        if (value.empty()) return bad_value(line, key, value, "a rack name");
        c->rack = value;
    } else if (key == "num_tokens") {
        TESSEL_ASSIGN_OR_RETURN(long long n, parse_int(line, key, value, 1, 1024));
        c->num_tokens = static_cast<int>(n);
    } else if (key == "etcd_lease_ttl_in_s") {
        TESSEL_ASSIGN_OR_RETURN(long long n, parse_int(line, key, value, 1, 3600));
        c->lease_ttl_seconds = static_cast<int>(n);
    } else if (key == "internode_failure_timeout_in_ms") {
        TESSEL_ASSIGN_OR_RETURN(long long n, parse_int(line, key, value, 100, 3600 * 1000));
        c->failure_timeout_ms = static_cast<int>(n);
    } else if (key == "internode_messaging_threads") {
        TESSEL_ASSIGN_OR_RETURN(long long n, parse_int(line, key, value, 1, 64));
        c->messaging_threads = static_cast<int>(n);
    } else if (key == "stream_throughput_outbound_megabits_per_sec") {
        TESSEL_ASSIGN_OR_RETURN(c->stream_throughput_outbound_megabits_per_sec,
                                parse_int(line, key, value, 0, 1'000'000));
    } else if (key == "tablet_balancer_enabled") {
        if (value != "true" && value != "false")
            return bad_value(line, key, value, "true or false");
        c->balancer_enabled = value == "true";
    } else if (key == "tablet_balancer_interval_in_ms") {
        TESSEL_ASSIGN_OR_RETURN(long long n, parse_int(line, key, value, 100, 3600 * 1000));
        c->balancer_interval_ms = static_cast<int>(n);
    } else if (key == "max_tablet_migrations_in") {
        TESSEL_ASSIGN_OR_RETURN(long long n, parse_int(line, key, value, 1, 64));
        c->max_migrations_in = static_cast<int>(n);
    } else if (key == "max_tablet_migrations_out") {
        TESSEL_ASSIGN_OR_RETURN(long long n, parse_int(line, key, value, 1, 64));
        c->max_migrations_out = static_cast<int>(n);
    } else if (key == "max_hint_window_in_ms") {
        TESSEL_ASSIGN_OR_RETURN(c->max_hint_window_ms,
                                parse_int(line, key, value, 0, 30ll * 24 * 3600 * 1000));
    } else {
        *known = false;
    }
    return Status::ok();
}

Status apply_internode_tls_option(int line, const std::string& key, const std::string& value,
                                  ClusterOptions* c) {
    auto flag = [&](bool* out) {
        if (value != "true" && value != "false")
            return bad_value(line, key, value, "true or false");
        *out = value == "true";
        return Status::ok();
    };
    if (key == "internode_encryption") {
        if (value == "all") {
            c->tls_enabled = true;
        } else if (value == "none") {
            c->tls_enabled = false;
        } else {
            return bad_value(line, key, value, "all or none");
        }
    } else if (key == "enabled") {
        return flag(&c->tls_enabled);
    } else if (key == "require_client_auth") {
        return flag(&c->tls_require_client_auth);
    } else if (key == "keystore" || key == "certificate") {
        c->tls_certificate = value;
    } else if (key == "private_key" || key == "keystore_key") {
        c->tls_private_key = value;
    } else if (key == "truststore") {
        c->tls_ca = value;
    }  // protocol, cipher suites, passwords: defaults
    return Status::ok();
}

}  // namespace tessel::server
