#include "diagnostics/large_partitions.h"

#include <fmt/format.h>

#include <functional>
#include <limits>

namespace tessel::diagnostics {

namespace {

constexpr unsigned kOverSize = 1;
constexpr unsigned kOverRows = 2;
constexpr TimeMs kRowWarnIntervalMs = 10000;

bool reached(uint64_t value, uint64_t threshold) {
    return threshold != 0 && value >= threshold;
}

std::string partition_name(std::string_view ks, std::string_view table, std::string_view key) {
    return fmt::format("{}.{} '{}'", ks, table, key);
}

}  // namespace

std::string format_size(uint64_t bytes) {
    constexpr uint64_t kKiB = 1024;
    constexpr uint64_t kGiB = kMiB * 1024;
    if (bytes >= kGiB && bytes % kGiB == 0) return fmt::format("{} GB", bytes / kGiB);
    if (bytes >= kMiB && bytes % kMiB == 0) return fmt::format("{} MB", bytes / kMiB);
    if (bytes >= kKiB && bytes % kKiB == 0) return fmt::format("{} KB", bytes / kKiB);
    return fmt::format("{} bytes", bytes);
}

LargePartitionTracker::LargePartitionTracker(LargePartitionThresholds thresholds)
    : thresholds_(thresholds) {}

LargePartitionTracker::Stripe& LargePartitionTracker::stripe_for(std::string_view keyspace,
                                                                 std::string_view table,
                                                                 std::string_view key) {
    size_t h = std::hash<std::string_view>{}(key);
    h ^= std::hash<std::string_view>{}(table) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= std::hash<std::string_view>{}(keyspace) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return stripes_[h % stripes_.size()];
}

Observation LargePartitionTracker::observe(std::string_view keyspace, std::string_view table,
                                           std::string_view partition_key_display,
                                           uint64_t size_bytes, uint64_t rows, uint64_t tombstones,
                                           TimeMs now) {
    const LargePartitionThresholds& t = thresholds_;
    Observation obs;
    // A rejected mutation is never applied, so the records stay as they were.
    if (reached(size_bytes, t.partition_size_fail_threshold)) {
        obs.fail = Status::invalid(
            fmt::format("Partition {} is {} bytes, over the partition_size_fail_threshold of {}",
                        partition_name(keyspace, table, partition_key_display), size_bytes,
                        format_size(t.partition_size_fail_threshold)));
        return obs;
    }
    if (reached(rows, t.partition_rows_fail_threshold)) {
        obs.fail = Status::invalid(
            fmt::format("Partition {} has {} rows, over the partition_rows_fail_threshold of {}",
                        partition_name(keyspace, table, partition_key_display), rows,
                        t.partition_rows_fail_threshold));
        return obs;
    }

    unsigned over = (reached(size_bytes, t.partition_size_warn_threshold) ? kOverSize : 0) |
                    (reached(rows, t.partition_rows_warn_threshold) ? kOverRows : 0);
    if (over == 0) return obs;

    Stripe& stripe = stripe_for(keyspace, table, partition_key_display);
    unsigned newly = 0;
    {
        std::lock_guard lock(stripe.mu);
        auto it = stripe.tracked.find(std::make_tuple(keyspace, table, partition_key_display));
        if (it == stripe.tracked.end()) {
            Tracked fresh;
            fresh.record.keyspace = std::string(keyspace);
            fresh.record.table = std::string(table);
            fresh.record.partition_key = std::string(partition_key_display);
            fresh.record.first_seen = now;
            it = stripe.tracked
                     .emplace(
                         Key(fresh.record.keyspace, fresh.record.table, fresh.record.partition_key),
                         std::move(fresh))
                     .first;
            total_records_.fetch_add(1, std::memory_order_relaxed);
        }
        Tracked& tr = it->second;
        newly = over & ~tr.over;
        tr.over = over;
        tr.record.partition_size = size_bytes;
        tr.record.rows = rows;
        tr.record.tombstones = tombstones;
        tr.record.last_seen = now;
    }
    if (newly != 0) {
        std::string limits;
        if (newly & kOverSize) {
            limits = fmt::format("the partition_size_warn_threshold of {}",
                                 format_size(t.partition_size_warn_threshold));
        }
        if (newly & kOverRows) {
            if (!limits.empty()) limits += " and ";
            limits += fmt::format("the partition_rows_warn_threshold of {} rows",
                                  t.partition_rows_warn_threshold);
        }
        obs.warn_crossed = true;
        obs.warning =
            fmt::format("Writing large partition {} ({} bytes, {} rows, {} tombstones): over {}",
                        partition_name(keyspace, table, partition_key_display), size_bytes, rows,
                        tombstones, limits);
    }
    if (total_records_.load(std::memory_order_relaxed) > thresholds_.max_records) {
        enforce_capacity();
    }
    return obs;
}

void LargePartitionTracker::enforce_capacity() {
    while (total_records_.load(std::memory_order_relaxed) > thresholds_.max_records) {
        // Find the smallest record, one stripe lock at a time (rare: only
        // when more partitions are large than the table keeps).
        Stripe* victim_stripe = nullptr;
        Key victim;
        uint64_t smallest = std::numeric_limits<uint64_t>::max();
        for (Stripe& s : stripes_) {
            std::lock_guard lock(s.mu);
            for (const auto& [key, tr] : s.tracked) {
                if (tr.record.partition_size < smallest) {
                    smallest = tr.record.partition_size;
                    victim = key;
                    victim_stripe = &s;
                }
            }
        }
        if (victim_stripe == nullptr) return;
        std::lock_guard lock(victim_stripe->mu);
        if (victim_stripe->tracked.erase(victim) == 1) {
            total_records_.fetch_sub(1, std::memory_order_relaxed);
        }
    }
}

Observation LargePartitionTracker::observe_row(std::string_view keyspace, std::string_view table,
                                               std::string_view partition_key_display,
                                               uint64_t row_bytes, uint64_t largest_cell_bytes,
                                               TimeMs now) {
    const LargePartitionThresholds& t = thresholds_;
    Observation obs;
    if (reached(row_bytes, t.row_size_fail_threshold)) {
        obs.fail = Status::invalid(
            fmt::format("Row of partition {} is {} bytes, over the row_size_fail_threshold of {}",
                        partition_name(keyspace, table, partition_key_display), row_bytes,
                        format_size(t.row_size_fail_threshold)));
        return obs;
    }
    if (reached(largest_cell_bytes, t.cell_size_fail_threshold)) {
        obs.fail = Status::invalid(
            fmt::format("Cell of partition {} is {} bytes, over the cell_size_fail_threshold of {}",
                        partition_name(keyspace, table, partition_key_display), largest_cell_bytes,
                        format_size(t.cell_size_fail_threshold)));
        return obs;
    }
    std::string what;
    if (reached(row_bytes, t.row_size_warn_threshold)) {
        what = fmt::format(
            "Writing large row to partition {} ({} bytes): over the "
            "row_size_warn_threshold of {}",
            partition_name(keyspace, table, partition_key_display), row_bytes,
            format_size(t.row_size_warn_threshold));
    } else if (reached(largest_cell_bytes, t.cell_size_warn_threshold)) {
        what = fmt::format(
            "Writing large cell to partition {} ({} bytes): over the "
            "cell_size_warn_threshold of {}",
            partition_name(keyspace, table, partition_key_display), largest_cell_bytes,
            format_size(t.cell_size_warn_threshold));
    } else {
        return obs;
    }
    std::lock_guard lock(row_warn_mu_);
    auto [it, inserted] =
        row_warns_.try_emplace(std::make_pair(std::string(keyspace), std::string(table)));
    RowWarnState& st = it->second;
    if (!inserted && now - st.last < kRowWarnIntervalMs) {
        ++st.suppressed;
        return obs;
    }
    if (st.suppressed > 0) {
        what += fmt::format(" ({} similar warnings for {}.{} suppressed before this one)",
                            st.suppressed, keyspace, table);
    }
    st.last = now;
    st.suppressed = 0;
    obs.warn_crossed = true;
    obs.warning = std::move(what);
    return obs;
}

std::vector<LargePartitionRecord> LargePartitionTracker::records() const {
    std::map<Key, LargePartitionRecord> sorted;
    for (const Stripe& s : stripes_) {
        std::lock_guard lock(s.mu);
        for (const auto& [key, tr] : s.tracked)
            sorted.emplace(key, tr.record);
    }
    std::vector<LargePartitionRecord> out;
    out.reserve(sorted.size());
    for (auto& [key, rec] : sorted)
        out.push_back(std::move(rec));
    return out;
}

size_t LargePartitionTracker::record_count() const {
    return total_records_.load(std::memory_order_relaxed);
}

void LargePartitionTracker::forget_partition(std::string_view keyspace, std::string_view table,
                                             std::string_view partition_key_display) {
    Stripe& stripe = stripe_for(keyspace, table, partition_key_display);
    std::lock_guard lock(stripe.mu);
    auto it = stripe.tracked.find(std::make_tuple(keyspace, table, partition_key_display));
    if (it == stripe.tracked.end()) return;
    stripe.tracked.erase(it);
    total_records_.fetch_sub(1, std::memory_order_relaxed);
}

void LargePartitionTracker::forget_table(std::string_view keyspace, std::string_view table) {
    for (Stripe& s : stripes_) {
        std::lock_guard lock(s.mu);
        for (auto it = s.tracked.begin(); it != s.tracked.end();) {
            if (std::get<0>(it->first) == keyspace && std::get<1>(it->first) == table) {
                it = s.tracked.erase(it);
                total_records_.fetch_sub(1, std::memory_order_relaxed);
            } else {
                ++it;
            }
        }
    }
    std::lock_guard lock(row_warn_mu_);
    row_warns_.erase(std::make_pair(std::string(keyspace), std::string(table)));
}

}  // namespace tessel::diagnostics
