#include "histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace tessel::bench {
namespace {

// 2^kSubBucketBits sub-buckets per power of two: index = (bucket + 1) * half
// + (sub - half), as in HdrHistogram with a unit of 1 ns.
constexpr int kSubBucketBits = 8;
constexpr int64_t kSubBucketCount = int64_t{1} << kSubBucketBits;  // 256
constexpr int kHalfBits = kSubBucketBits - 1;
constexpr int64_t kHalfCount = kSubBucketCount / 2;  // 128
constexpr uint64_t kSubBucketMask = kSubBucketCount - 1;

int bucket_of(uint64_t v) {
    return 63 - std::countl_zero(v | kSubBucketMask) - kHalfBits;
}

size_t counts_length() {
    // Buckets needed so that the largest bucket covers kMaxTrackableNs.
    int buckets = bucket_of(static_cast<uint64_t>(LatencyHistogram::kMaxTrackableNs)) + 1;
    return static_cast<size_t>(buckets + 1) * kHalfCount;
}

}  // namespace

LatencyHistogram::LatencyHistogram() : counts_(counts_length(), 0) {}

size_t LatencyHistogram::index_of(int64_t value) {
    uint64_t v = static_cast<uint64_t>(value);
    int bucket = bucket_of(v);
    int64_t sub = static_cast<int64_t>(v >> bucket);
    return static_cast<size_t>(((bucket + 1) << kHalfBits) + (sub - kHalfCount));
}

int64_t LatencyHistogram::value_of(size_t index) {
    int64_t i = static_cast<int64_t>(index);
    int bucket = static_cast<int>(i >> kHalfBits) - 1;
    int64_t sub = (i & (kHalfCount - 1)) + kHalfCount;
    if (bucket < 0) {
        sub -= kHalfCount;
        bucket = 0;
    }
    return sub << bucket;
}

int64_t LatencyHistogram::lowest_equivalent(int64_t value) {
    if (value <= 0) return 0;
    return value_of(index_of(value));
}

int64_t LatencyHistogram::highest_equivalent(int64_t value) {
    if (value <= 0) return 0;
    int bucket = bucket_of(static_cast<uint64_t>(value));
    return lowest_equivalent(value) + (int64_t{1} << bucket) - 1;
}

void LatencyHistogram::record(int64_t value_ns) {
    record_n(value_ns, 1);
}

void LatencyHistogram::record_n(int64_t value_ns, uint64_t count) {
    if (count == 0) return;
    if (value_ns < 0) value_ns = 0;
    if (value_ns > kMaxTrackableNs) {
        value_ns = kMaxTrackableNs;
        saturated_ += count;
    }
    counts_[index_of(value_ns)] += count;
    if (total_ == 0 || value_ns < min_) min_ = value_ns;
    if (value_ns > max_) max_ = value_ns;
    total_ += count;
    sum_ += static_cast<long double>(value_ns) * count;
}

void LatencyHistogram::add(const LatencyHistogram& other) {
    if (other.total_ == 0) return;
    for (size_t i = 0; i < counts_.size(); ++i)
        counts_[i] += other.counts_[i];
    if (total_ == 0 || other.min_ < min_) min_ = other.min_;
    max_ = std::max(max_, other.max_);
    total_ += other.total_;
    saturated_ += other.saturated_;
    sum_ += other.sum_;
}

void LatencyHistogram::reset() {
    std::fill(counts_.begin(), counts_.end(), 0);
    total_ = saturated_ = 0;
    min_ = max_ = 0;
    sum_ = 0;
}

double LatencyHistogram::mean() const {
    return total_ ? static_cast<double>(sum_ / total_) : 0.0;
}

int64_t LatencyHistogram::value_at_percentile(double percentile) const {
    if (total_ == 0) return 0;
    if (percentile >= 100.0) return max_;
    percentile = std::max(percentile, 0.0);
    // The rank of the wanted value, at least 1 so that p0 is the minimum.
    auto rank = static_cast<uint64_t>(std::ceil(percentile / 100.0 * static_cast<double>(total_)));
    rank = std::max<uint64_t>(rank, 1);
    uint64_t seen = 0;
    for (size_t i = 0; i < counts_.size(); ++i) {
        seen += counts_[i];
        if (seen >= rank) {
            int64_t v = highest_equivalent(value_of(i));
            return std::clamp(v, min_, max_);
        }
    }
    return max_;
}

}  // namespace tessel::bench
