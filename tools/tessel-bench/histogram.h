// LatencyHistogram: an HDR-style log-linear histogram of latencies.
//
// Values are nanoseconds. Each power-of-two range is split into 128 linear
// sub-buckets, so every recorded value is kept within 1/128 (< 0.8%) of its
// true value: better than two significant digits, the precision HdrHistogram
// users usually ask for. Values from 0 to kMaxTrackableNs (60 s) are tracked;
// larger ones are clamped to it and counted in saturated(). The counts array
// is fixed (about 4,000 counters, 32 KB), so recording is one index
// computation and one increment, with no allocation.
//
// Not thread-safe: each thread records into its own histogram and the
// histograms are merged with add() once the threads are done.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessel::bench {

class LatencyHistogram {
  public:
    static constexpr int64_t kMaxTrackableNs = 60'000'000'000;  // 60 s

    LatencyHistogram();

    // Records one value (negative values count as 0).
    void record(int64_t value_ns);
    // Records `count` occurrences of one value.
    void record_n(int64_t value_ns, uint64_t count);
    // Adds every count of `other` (merging per-thread histograms).
    void add(const LatencyHistogram& other);
    void reset();

    uint64_t count() const { return total_; }
    uint64_t saturated() const { return saturated_; }
    // Exact minimum and maximum recorded values (0 when empty).
    int64_t min() const { return total_ ? min_ : 0; }
    int64_t max() const { return max_; }
    double mean() const;

    // The value at `percentile` (0..100): the highest value equivalent (within
    // the histogram's precision) to the smallest recorded value v such that at
    // least percentile% of the recorded values are <= v, capped at max().
    // 0 when empty. percentile >= 100 gives max().
    int64_t value_at_percentile(double percentile) const;

    // The lowest and highest values that share `value`'s counter.
    static int64_t lowest_equivalent(int64_t value);
    static int64_t highest_equivalent(int64_t value);

  private:
    static size_t index_of(int64_t value);
    static int64_t value_of(size_t index);

    std::vector<uint64_t> counts_;
    uint64_t total_ = 0;
    uint64_t saturated_ = 0;
    int64_t min_ = 0;
    int64_t max_ = 0;
    long double sum_ = 0;
};

}  // namespace tessel::bench
