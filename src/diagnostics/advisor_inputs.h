// Building the Advisor's TableStatistics from what the server measures.
//
// Rates come from HotPartitions: the previous (complete) window, or the
// current one over the time elapsed in it (at least a second) when its
// hottest partition's write rate is the higher. A Space-Saving
// count is an upper bound, so the rates may overstate a partition by at most
// its error: the advice errs towards more shards, never fewer.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "diagnostics/advisor.h"
#include "diagnostics/hot_partitions.h"

namespace tessel::diagnostics {

// The current size of a partition by its key bytes (storage's partition
// statistics); nullopt when unknown.
using PartitionSizeLookup = std::function<std::optional<uint64_t>(std::string_view key)>;

// Fills stats.hot_writes and stats.growth with the top `k` partitions by
// writes and by bytes written. The other fields are the caller's (schema
// options, tablet count, distinct partitions, thresholds).
void fill_partition_rates(TableStatistics& stats, const HotPartitions& hot, TimeMs now,
                          size_t k = 10, const PartitionSizeLookup& size_of = nullptr);

}  // namespace tessel::diagnostics
