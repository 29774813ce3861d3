// When tablets split and merge.
//
// A tablet splits when it is too large (size_bytes above split_size_bytes) or
// too hot (writes or written bytes per second above their split thresholds);
// two neighbours merge when both are old enough and *together* are below the
// merge thresholds. The merge thresholds are kept well below the split ones
// (sane() clamps them to at most a quarter), so a merged tablet is far from
// splitting again, and the minimum age keeps a fresh split from being undone
// by the next evaluation: the map does not flap.
//
// plan_tablet_changes() is pure: the caller measures each tablet (sizes from
// storage statistics, rates from its diagnostics::TabletLoad) and applies the
// plan to a copy of the map.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "partition/tablet_map.h"

namespace tessel {

struct TabletThresholds {
    uint64_t split_size_bytes = 256ull << 20;
    double split_writes_per_sec = 20000;
    double split_bytes_per_sec = 32.0 * (1 << 20);
    uint64_t merge_size_bytes = 32ull << 20;  // two neighbours together
    double merge_writes_per_sec = 2000;
    double merge_bytes_per_sec = 4.0 * (1 << 20);
    int64_t min_age_ms = 60000;  // a tablet younger than this never merges
    size_t max_tablets = 1024;   // per table; no split past it

    // The thresholds with every merge threshold at most a quarter of its
    // split threshold, and nothing negative.
    TabletThresholds sane() const;
};

// What was measured of one tablet.
struct TabletObservation {
    uint64_t size_bytes = 0;
    uint64_t rows = 0;
    double writes_per_sec = 0;
    double bytes_per_sec = 0;
    // Ordered tables: a partition key found in storage near the middle of
    // the tablet's data (by size), the only place it can split.
    std::optional<std::string> median_key;
};

struct TabletChange {
    enum class Kind { kSplit, kMerge };
    Kind kind = Kind::kSplit;
    size_t index = 0;       // split: the tablet; merge: the left one of the pair
    std::string split_key;  // kSplit only
    std::string reason;     // "size", "writes", "bytes" or "idle"
    bool operator==(const TabletChange&) const = default;
};

// The changes to make, in ascending index order; no tablet appears in two.
// `observations` has one entry per tablet of `map`; `min_tablets` is the
// count the table never merges below.
std::vector<TabletChange> plan_tablet_changes(const TabletMap& map,
                                              const std::vector<TabletObservation>& observations,
                                              const TabletThresholds& thresholds,
                                              size_t min_tablets, int64_t now_ms);

// Applies a plan from plan_tablet_changes to `map` (from the highest index
// down, so earlier indexes stay valid).
Status apply_tablet_changes(TabletMap* map, const std::vector<TabletChange>& changes, int shards,
                            int64_t now_ms);

}  // namespace tessel
