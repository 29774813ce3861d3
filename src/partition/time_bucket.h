// Time bucketing: the hidden bucket a timestamp clustering value belongs to,
// and the buckets a time range covers.
//
// bucket = floor(ts / width) with ts in milliseconds since the epoch (may be
// negative: floor, not truncation, so -1 ms is in bucket -1).
#pragma once

#include <cstdint>
#include <vector>

#include "common/status.h"

namespace tessel {

// Requires width_ms > 0.
int64_t bucket_of(int64_t ts_ms, int64_t width_ms);

// The most buckets one read or delete may expand to.
constexpr int64_t kMaxBucketsPerRead = 10000;

// Buckets covering [lo_ms, hi_ms] (both inclusive), ascending. Empty when
// lo_ms > hi_ms. Invalid when more than `cap` buckets would be read.
Result<std::vector<int64_t>> buckets_between(int64_t lo_ms, int64_t hi_ms, int64_t width_ms,
                                             int64_t cap = kMaxBucketsPerRead);

}  // namespace tessel
