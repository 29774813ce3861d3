// TabletLoad: a tablet's request counters and their rates, and the skew of a
// table's load across its tablets.
//
// Recording is a relaxed atomic add on counters the tablet owns (no lock; the
// counters sit on their own cache line). Rates come from samples of the
// counters kept in a short ring: rates(now) compares the counters now with the
// sample closest to `now - window`, so a rate covers about the last window and
// reacts within a sample interval. Only samplers and readers take the ring's
// mutex (system.tablets reads, the split/merge policy, a periodic timer).
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

#include "diagnostics/clock.h"

namespace tessel::diagnostics {

struct TabletCounters {
    uint64_t reads = 0;
    uint64_t writes = 0;
    uint64_t bytes_written = 0;
};

struct TabletRates {
    double reads_per_sec = 0;
    double writes_per_sec = 0;
    double bytes_per_sec = 0;
    int64_t span_ms = 0;  // the interval the rates were measured over (0: none yet)
};

struct TabletLoadOptions {
    int64_t window_ms = 60000;          // rates cover about this long
    int64_t sample_interval_ms = 1000;  // at most one sample per interval
};

class TabletLoad {
  public:
    // `now`: when the tablet starts counting (its first sample).
    explicit TabletLoad(TimeMs now, TabletLoadOptions options = {});

    void record_read(uint64_t n = 1) { reads_.fetch_add(n, std::memory_order_relaxed); }
    void record_write(uint64_t bytes, uint64_t n = 1) {
        writes_.fetch_add(n, std::memory_order_relaxed);
        bytes_.fetch_add(bytes, std::memory_order_relaxed);
    }

    TabletCounters totals() const;

    // Stores a sample at `now` unless the last one is younger than the
    // sample interval. Readers call it through rates(); a timer may call it
    // too so that rates stay meaningful for tablets nobody reads.
    void sample(TimeMs now);

    // Rates over [baseline, now], the baseline being the newest sample at or
    // before now - window (the oldest sample while the tablet is younger).
    TabletRates rates(TimeMs now);

  private:
    struct Sample {
        TimeMs at;
        TabletCounters counters;
    };
    void sample_locked(TimeMs now, const TabletCounters& c);

    alignas(64) std::atomic<uint64_t> reads_{0};
    std::atomic<uint64_t> writes_{0};
    std::atomic<uint64_t> bytes_{0};

    alignas(64) TabletLoadOptions options_;
    std::mutex mu_;
    std::deque<Sample> samples_;  // ascending time
};

// How unevenly a load is spread: max/mean and the coefficient of variation
// (population standard deviation / mean). For a perfectly even table both are
// 1 and 0. When the mean is 0 (no load, or no tablets) both are reported as 0.
struct SkewStats {
    size_t count = 0;
    double max = 0;
    double mean = 0;
    double stddev = 0;
    double max_over_mean = 0;
    double cv = 0;
};

SkewStats skew(const std::vector<double>& loads);

}  // namespace tessel::diagnostics
