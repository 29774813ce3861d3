// The partition health and metrics keys of tesseld's config file.
#include <charconv>
#include <cstdint>
#include <string_view>

#include "server/config.h"

namespace tessel::server {
namespace {

// "1048576", "100MiB", "100 MB", "512KiB", "1GB": a size in bytes (binary
// units, as Cassandra's configuration reads them).
Result<uint64_t> parse_size(int line, std::string_view key, std::string_view value) {
    uint64_t n = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || p == value.data()) {
        return bad_value(line, key, value, "a size in bytes, or with a unit such as 100MiB");
    }
    std::string_view unit(p, static_cast<size_t>(value.data() + value.size() - p));
    while (!unit.empty() && unit.front() == ' ')
        unit.remove_prefix(1);
    uint64_t scale = 1;
    if (unit.empty() || unit == "B" || unit == "bytes") {
        scale = 1;
    } else if (unit == "KB" || unit == "KiB") {
        scale = 1ull << 10;
    } else if (unit == "MB" || unit == "MiB") {
        scale = 1ull << 20;
    } else if (unit == "GB" || unit == "GiB") {
        scale = 1ull << 30;
    } else {
        return bad_value(line, key, value, "a size in bytes, or with a unit such as 100MiB");
    }
    if (n > UINT64_MAX / scale) return bad_value(line, key, value, "a smaller size");
    return n * scale;
}

Result<uint64_t> parse_count(int line, std::string_view key, std::string_view value) {
    uint64_t n = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec != std::errc() || p != value.data() + value.size()) {
        return bad_value(line, key, value, "a non-negative integer");
    }
    return n;
}

}  // namespace

Status apply_health_setting(int line, const std::string& key, const std::string& value,
                            ServerConfig* config, bool* known) {
    *known = true;
    auto& large = config->db.large_partitions;
    auto& tomb = config->db.tombstones;
    struct SizeKey {
        const char* name;
        uint64_t* field;
    };
    const SizeKey sizes[] = {
        {"partition_size_warn_threshold", &large.partition_size_warn_threshold},
        {"partition_size_fail_threshold", &large.partition_size_fail_threshold},
        {"row_size_warn_threshold", &large.row_size_warn_threshold},
        {"row_size_fail_threshold", &large.row_size_fail_threshold},
        {"cell_size_warn_threshold", &large.cell_size_warn_threshold},
        {"cell_size_fail_threshold", &large.cell_size_fail_threshold},
    };
    for (const auto& s : sizes) {
        if (key != s.name) continue;
        TESSEL_ASSIGN_OR_RETURN(*s.field, parse_size(line, key, value));
        return Status::ok();
    }
    const SizeKey counts[] = {
        {"partition_rows_warn_threshold", &large.partition_rows_warn_threshold},
        {"partition_rows_fail_threshold", &large.partition_rows_fail_threshold},
        {"tombstone_warn_threshold", &tomb.tombstone_warn_threshold},
        {"tombstone_failure_threshold", &tomb.tombstone_failure_threshold},
    };
    for (const auto& c : counts) {
        if (key != c.name) continue;
        TESSEL_ASSIGN_OR_RETURN(*c.field, parse_count(line, key, value));
        return Status::ok();
    }
    if (key == "hot_partitions_window_ms") {
        TESSEL_ASSIGN_OR_RETURN(uint64_t ms, parse_count(line, key, value));
        if (ms < 1 || ms > 86400000) return bad_value(line, key, value, "1..86400000");
        config->db.hot_partitions_window_ms = static_cast<int64_t>(ms);
    } else if (key == "hot_partitions_capacity") {
        TESSEL_ASSIGN_OR_RETURN(uint64_t n, parse_count(line, key, value));
        if (n < 8 || n > 65536) return bad_value(line, key, value, "8..65536");
        config->db.hot_partitions_capacity = static_cast<size_t>(n);
    } else if (key == "partition_write_budget") {
        TESSEL_ASSIGN_OR_RETURN(uint64_t budget, parse_count(line, key, value));
        if (budget < 1) return bad_value(line, key, value, "writes per second, at least 1");
        config->db.advisor.partition_write_budget = static_cast<double>(budget);
    } else if (key == "metrics_port") {
        TESSEL_ASSIGN_OR_RETURN(uint64_t port, parse_count(line, key, value));
        if (port > 65535) return bad_value(line, key, value, "a port in 0..65535");
        config->metrics_port = static_cast<int>(port);
    } else if (key == "http_port") {
        TESSEL_ASSIGN_OR_RETURN(uint64_t port, parse_count(line, key, value));
        if (port > 65535) return bad_value(line, key, value, "a port in 0..65535");
        config->http_port = static_cast<int>(port);
    } else if (key == "http_listen_address") {
        if (value.empty()) return bad_value(line, key, value, "an address");
        config->http_listen_address = value;
    } else if (key == "metrics_listen_address") {
        if (value.empty()) return bad_value(line, key, value, "an address");
        config->metrics_listen_address = value;
    } else {
        *known = false;
    }
    return Status::ok();
}

}  // namespace tessel::server
