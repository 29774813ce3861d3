#include "server/tablet_config.h"

#include <charconv>
#include <cmath>

#include "server/config.h"

namespace tessel::server {
namespace {

Result<long long> integer(int line, const std::string& key, const std::string& value,
                          long long lo) {
    long long v = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || p != value.data() + value.size() || v < lo) {
        return bad_value(line, key, value,
                         lo > 0 ? "a positive integer" : "a non-negative integer");
    }
    return v;
}

Result<double> rate(int line, const std::string& key, const std::string& value) {
    double v = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || p != value.data() + value.size() || !std::isfinite(v) || v < 0) {
        return bad_value(line, key, value, "a non-negative number");
    }
    return v;
}

}  // namespace

Status apply_tablet_setting(int line, const std::string& key, const std::string& value,
                            TabletOptions* t, bool* known) {
    *known = true;
    TabletThresholds& th = t->thresholds;
    if (key == "tablet_initial_count") {
        TESSEL_ASSIGN_OR_RETURN(long long n, integer(line, key, value, 1));
        if (n > 1024) return bad_value(line, key, value, "an integer in 1..1024");
        t->initial_tablets = static_cast<int>(n);
    } else if (key == "tablet_shards") {
        TESSEL_ASSIGN_OR_RETURN(long long n, integer(line, key, value, 0));
        if (n > 1024) return bad_value(line, key, value, "an integer in 0..1024");
        t->shards = static_cast<int>(n);
    } else if (key == "tablet_split_size_bytes") {
        TESSEL_ASSIGN_OR_RETURN(long long n, integer(line, key, value, 1));
        th.split_size_bytes = static_cast<uint64_t>(n);
    } else if (key == "tablet_merge_size_bytes") {
        TESSEL_ASSIGN_OR_RETURN(long long n, integer(line, key, value, 0));
        th.merge_size_bytes = static_cast<uint64_t>(n);
    } else if (key == "tablet_split_writes_per_sec") {
        TESSEL_ASSIGN_OR_RETURN(th.split_writes_per_sec, rate(line, key, value));
    } else if (key == "tablet_split_bytes_per_sec") {
        TESSEL_ASSIGN_OR_RETURN(th.split_bytes_per_sec, rate(line, key, value));
    } else if (key == "tablet_merge_writes_per_sec") {
        TESSEL_ASSIGN_OR_RETURN(th.merge_writes_per_sec, rate(line, key, value));
    } else if (key == "tablet_merge_bytes_per_sec") {
        TESSEL_ASSIGN_OR_RETURN(th.merge_bytes_per_sec, rate(line, key, value));
    } else if (key == "tablet_min_age_ms") {
        TESSEL_ASSIGN_OR_RETURN(th.min_age_ms, integer(line, key, value, 0));
    } else if (key == "tablet_evaluation_interval_ms") {
        TESSEL_ASSIGN_OR_RETURN(t->evaluation_interval_ms, integer(line, key, value, 0));
    } else {
        *known = false;
    }
    return Status::ok();
}

}  // namespace tessel::server
