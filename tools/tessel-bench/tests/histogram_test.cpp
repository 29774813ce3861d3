#include "histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace tessel::bench {
namespace {

TEST(LatencyHistogram, EmptyReportsZero) {
    LatencyHistogram h;
    EXPECT_EQ(h.count(), 0u);
    EXPECT_EQ(h.value_at_percentile(50), 0);
    EXPECT_EQ(h.max(), 0);
    EXPECT_EQ(h.min(), 0);
}

TEST(LatencyHistogram, SmallValuesAreExact) {
    LatencyHistogram h;
    for (int v = 0; v < 256; ++v)
        h.record(v);
    EXPECT_EQ(h.value_at_percentile(50), 127);
    EXPECT_EQ(h.value_at_percentile(0), 0);
    EXPECT_EQ(h.max(), 255);
}

TEST(LatencyHistogram, EquivalentRangesKeepTwoSignificantDigits) {
    for (int64_t v : {1'000LL, 1'234LL, 99'999LL, 1'000'000LL, 123'456'789LL, 59'999'999'999LL}) {
        int64_t lo = LatencyHistogram::lowest_equivalent(v);
        int64_t hi = LatencyHistogram::highest_equivalent(v);
        EXPECT_LE(lo, v);
        EXPECT_GE(hi, v);
        // The bucket is narrower than 1% of its values.
        EXPECT_LT(static_cast<double>(hi - lo) / static_cast<double>(lo), 0.01) << v;
    }
}

TEST(LatencyHistogram, PercentilesOfUniformMicroseconds) {
    // 1..10000 µs, each once: p50 = 5000 µs, p99 = 9900 µs, p99.9 = 9990 µs.
    LatencyHistogram h;
    for (int64_t us = 1; us <= 10000; ++us)
        h.record(us * 1000);
    auto near = [](int64_t got, double want) {
        return std::fabs(static_cast<double>(got) - want) / want < 0.01;
    };
    EXPECT_TRUE(near(h.value_at_percentile(50), 5'000'000)) << h.value_at_percentile(50);
    EXPECT_TRUE(near(h.value_at_percentile(90), 9'000'000)) << h.value_at_percentile(90);
    EXPECT_TRUE(near(h.value_at_percentile(99), 9'900'000)) << h.value_at_percentile(99);
    EXPECT_TRUE(near(h.value_at_percentile(99.9), 9'990'000)) << h.value_at_percentile(99.9);
    EXPECT_EQ(h.max(), 10'000'000);
    EXPECT_EQ(h.min(), 1'000);
    EXPECT_NEAR(h.mean(), 5'000'500.0, 1.0);
}

TEST(LatencyHistogram, MatchesSortedSampleWithinPrecision) {
    std::mt19937_64 rng(42);
    std::lognormal_distribution<double> dist(12.0, 1.5);  // around 160 µs, long tail
    LatencyHistogram h;
    std::vector<int64_t> sample;
    for (int i = 0; i < 100000; ++i) {
        auto v = static_cast<int64_t>(dist(rng));
        sample.push_back(v);
        h.record(v);
    }
    std::sort(sample.begin(), sample.end());
    for (double p : {50.0, 90.0, 99.0, 99.9}) {
        auto rank = static_cast<size_t>(std::ceil(p / 100 * sample.size())) - 1;
        double exact = static_cast<double>(sample[rank]);
        double got = static_cast<double>(h.value_at_percentile(p));
        EXPECT_LE(std::fabs(got - exact) / exact, 0.01) << "p" << p;
        EXPECT_GE(got, exact) << "percentiles report the bucket's highest equivalent value";
    }
    EXPECT_EQ(h.max(), sample.back());
}

TEST(LatencyHistogram, MergeEqualsRecordingEverythingInOne) {
    LatencyHistogram a, b, all;
    for (int64_t v = 1; v <= 5000; ++v) {
        (v % 3 ? a : b).record(v * 997);
        all.record(v * 997);
    }
    LatencyHistogram merged;
    merged.add(a);
    merged.add(b);
    EXPECT_EQ(merged.count(), all.count());
    EXPECT_EQ(merged.min(), all.min());
    EXPECT_EQ(merged.max(), all.max());
    for (double p : {1.0, 50.0, 90.0, 99.0, 99.9, 100.0})
        EXPECT_EQ(merged.value_at_percentile(p), all.value_at_percentile(p)) << p;
}

TEST(LatencyHistogram, ClampsAboveSixtySecondsAndCountsSaturation) {
    LatencyHistogram h;
    h.record(120'000'000'000LL);
    h.record(-5);
    EXPECT_EQ(h.count(), 2u);
    EXPECT_EQ(h.saturated(), 1u);
    EXPECT_EQ(h.max(), LatencyHistogram::kMaxTrackableNs);
    EXPECT_EQ(h.min(), 0);
}

TEST(LatencyHistogram, RecordNWeighsValues) {
    LatencyHistogram h;
    h.record_n(1'000, 99);
    h.record_n(1'000'000, 1);
    EXPECT_EQ(h.value_at_percentile(99), LatencyHistogram::highest_equivalent(1'000));
    EXPECT_EQ(h.value_at_percentile(99.5), 1'000'000);
    h.reset();
    EXPECT_EQ(h.count(), 0u);
}

}  // namespace
}  // namespace tessel::bench
