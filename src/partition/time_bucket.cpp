#include "partition/time_bucket.h"

#include <string>

namespace tessel {

int64_t bucket_of(int64_t ts_ms, int64_t width_ms) {
    int64_t q = ts_ms / width_ms;
    if (ts_ms % width_ms != 0 && ts_ms < 0) --q;
    return q;
}

Result<std::vector<int64_t>> buckets_between(int64_t lo_ms, int64_t hi_ms, int64_t width_ms,
                                             int64_t cap) {
    std::vector<int64_t> out;
    if (lo_ms > hi_ms) return out;
    const int64_t first = bucket_of(lo_ms, width_ms);
    const int64_t last = bucket_of(hi_ms, width_ms);
    // In unsigned arithmetic so a range spanning the whole int64 domain with a
    // 1 ms width cannot overflow.
    const uint64_t count = static_cast<uint64_t>(last) - static_cast<uint64_t>(first) + 1;
    if (count > static_cast<uint64_t>(cap) || count == 0) {
        return Status::invalid("The time range covers more than " + std::to_string(cap) +
                               " time buckets; narrow the range on the time-bucket column");
    }
    out.reserve(count);
    for (int64_t b = first; b <= last; ++b)
        out.push_back(b);
    return out;
}

}  // namespace tessel
