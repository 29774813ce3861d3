#include "diagnostics/tablet_load.h"

#include <algorithm>
#include <cmath>

namespace tessel::diagnostics {

TabletLoad::TabletLoad(TimeMs now, TabletLoadOptions options) : options_(options) {
    if (options_.window_ms < 1) options_.window_ms = 1;
    if (options_.sample_interval_ms < 0) options_.sample_interval_ms = 0;
    samples_.push_back(Sample{now, TabletCounters{}});
}

TabletCounters TabletLoad::totals() const {
    TabletCounters c;
    c.reads = reads_.load(std::memory_order_relaxed);
    c.writes = writes_.load(std::memory_order_relaxed);
    c.bytes_written = bytes_.load(std::memory_order_relaxed);
    return c;
}

void TabletLoad::sample(TimeMs now) {
    TabletCounters c = totals();
    std::lock_guard lock(mu_);
    sample_locked(now, c);
}

void TabletLoad::sample_locked(TimeMs now, const TabletCounters& c) {
    if (!samples_.empty() && now - samples_.back().at < options_.sample_interval_ms) return;
    if (!samples_.empty() && now <= samples_.back().at) return;  // clocks may step back
    samples_.push_back(Sample{now, c});
    // Keep one sample at or before the window's start as the baseline.
    const TimeMs start = now - options_.window_ms;
    while (samples_.size() > 2 && samples_[1].at <= start)
        samples_.pop_front();
}

TabletRates TabletLoad::rates(TimeMs now) {
    TabletCounters c = totals();
    std::lock_guard lock(mu_);
    sample_locked(now, c);
    const TimeMs start = now - options_.window_ms;
    const Sample* base = &samples_.front();
    for (const Sample& s : samples_) {
        if (s.at <= start) base = &s;
    }
    TabletRates r;
    r.span_ms = now - base->at;
    if (r.span_ms <= 0) {
        r.span_ms = 0;
        return r;
    }
    const double secs = static_cast<double>(r.span_ms) / 1000.0;
    r.reads_per_sec = static_cast<double>(c.reads - base->counters.reads) / secs;
    r.writes_per_sec = static_cast<double>(c.writes - base->counters.writes) / secs;
    r.bytes_per_sec = static_cast<double>(c.bytes_written - base->counters.bytes_written) / secs;
    return r;
}

SkewStats skew(const std::vector<double>& loads) {
    SkewStats s;
    s.count = loads.size();
    if (loads.empty()) return s;
    double sum = 0;
    for (double v : loads)
        sum += v;
    s.max = *std::max_element(loads.begin(), loads.end());
    s.mean = sum / static_cast<double>(loads.size());
    double var = 0;
    for (double v : loads)
        var += (v - s.mean) * (v - s.mean);
    s.stddev = std::sqrt(var / static_cast<double>(loads.size()));
    if (s.mean > 0) {
        s.max_over_mean = s.max / s.mean;
        s.cv = s.stddev / s.mean;
    }
    return s;
}

}  // namespace tessel::diagnostics
