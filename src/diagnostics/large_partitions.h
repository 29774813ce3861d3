// LargePartitionTracker: thresholds on partition size, row count, row size and
// cell size, checked on the write path, and the records behind
// system.large_partitions.
//
// Storage keeps each partition's statistics (bytes, rows, tombstones) as writes
// happen; the write path hands them to observe() with the totals the partition
// would have after the mutation. observe() answers two things:
//  - a warn threshold was just crossed: log Observation::warning once (the
//    tracker remembers which thresholds a partition is over, so the next write
//    to the same partition does not warn again until it is forgotten and
//    crosses anew) and the partition now has a row in system.large_partitions;
//  - a fail threshold is reached: reject the mutation with Observation::fail
//    (Invalid, naming the limit), and do not apply it.
// A threshold is reached when the value is at or over it; 0 disables it.
//
// Storage's statistics only grow with writes, so a partition under every warn
// threshold cannot have a record to update: that case (nearly every write)
// returns after a few comparisons, without a lock. Only writes to partitions
// over a threshold take one of 16 striped mutexes. A partition that shrinks
// (deleted, truncated) is forgotten explicitly: forget_partition/forget_table.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "common/status.h"
#include "diagnostics/clock.h"

namespace tessel::diagnostics {

inline constexpr uint64_t kMiB = 1024 * 1024;

// Field names are the configuration keys (tesseld's YAML), in bytes or rows.
struct LargePartitionThresholds {
    uint64_t partition_size_warn_threshold = 100 * kMiB;
    uint64_t partition_size_fail_threshold = 0;
    uint64_t partition_rows_warn_threshold = 100000;
    uint64_t partition_rows_fail_threshold = 0;
    uint64_t row_size_warn_threshold = 10 * kMiB;
    uint64_t row_size_fail_threshold = 0;
    uint64_t cell_size_warn_threshold = 1 * kMiB;
    uint64_t cell_size_fail_threshold = 0;
    // Records kept for system.large_partitions; past it the smallest goes.
    size_t max_records = 10000;
};

// "100 MB" for 104857600, "512 KB", "1000 bytes": exact, binary units as
// Cassandra's configuration uses them.
std::string format_size(uint64_t bytes);

struct Observation {
    bool warn_crossed = false;  // log `warning` (once per partition per crossing)
    std::string warning;
    Status fail;  // not ok: a fail threshold is reached; return it to the client
};

// One row of system.large_partitions.
struct LargePartitionRecord {
    std::string keyspace;
    std::string table;
    std::string partition_key;  // display form
    uint64_t partition_size = 0;
    uint64_t rows = 0;
    uint64_t tombstones = 0;
    TimeMs first_seen = 0;  // when it first crossed a warn threshold
    TimeMs last_seen = 0;   // last write observed while over it
};

class LargePartitionTracker {
  public:
    explicit LargePartitionTracker(LargePartitionThresholds thresholds = {});

    // The partition's totals after the mutation being applied. The display
    // form of the key (as cqlsh prints it; components joined by ':') is
    // what messages and records show. Thread-safe.
    Observation observe(std::string_view keyspace, std::string_view table,
                        std::string_view partition_key_display, uint64_t size_bytes, uint64_t rows,
                        uint64_t tombstones, TimeMs now);

    // One row of a mutation: its encoded size and its largest cell. Warnings
    // for rows and cells are not per-partition state, so each table logs at
    // most one every 10 seconds (the warning counts the ones suppressed).
    Observation observe_row(std::string_view keyspace, std::string_view table,
                            std::string_view partition_key_display, uint64_t row_bytes,
                            uint64_t largest_cell_bytes, TimeMs now);

    // Current records, by keyspace, table and partition key.
    std::vector<LargePartitionRecord> records() const;
    size_t record_count() const;

    // The partition was deleted as a whole: its record goes, and a later
    // crossing warns again.
    void forget_partition(std::string_view keyspace, std::string_view table,
                          std::string_view partition_key_display);
    // The table was dropped or truncated.
    void forget_table(std::string_view keyspace, std::string_view table);

    const LargePartitionThresholds& thresholds() const { return thresholds_; }

  private:
    using Key = std::tuple<std::string, std::string, std::string>;
    // Orders owned keys and string_view lookups alike, by their views (a
    // tuple<string> < tuple<string_view> comparison does not compile with
    // clang 14 and libstdc++ 12).
    struct KeyLess {
        using is_transparent = void;
        template <class T>
        static std::tuple<std::string_view, std::string_view, std::string_view> view(const T& k) {
            return {std::get<0>(k), std::get<1>(k), std::get<2>(k)};
        }
        template <class A, class B>
        bool operator()(const A& a, const B& b) const {
            return view(a) < view(b);
        }
    };
    struct Tracked {
        LargePartitionRecord record;
        unsigned over = 0;  // bit 0: size, bit 1: rows
    };
    struct Stripe {
        mutable std::mutex mu;
        std::map<Key, Tracked, KeyLess> tracked;
    };
    Stripe& stripe_for(std::string_view keyspace, std::string_view table, std::string_view key);
    void enforce_capacity();

    LargePartitionThresholds thresholds_;
    std::array<Stripe, 16> stripes_;
    std::atomic<size_t> total_records_{0};

    std::mutex row_warn_mu_;
    struct RowWarnState {
        TimeMs last = 0;
        uint64_t suppressed = 0;
    };
    std::map<std::pair<std::string, std::string>, RowWarnState, std::less<>> row_warns_;
};

}  // namespace tessel::diagnostics
