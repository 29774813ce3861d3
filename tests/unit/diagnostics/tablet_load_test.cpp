#include "diagnostics/tablet_load.h"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>
#include <vector>

namespace tessel::diagnostics {
namespace {

TEST(TabletLoad, RatesSinceCreationWhileYoungerThanTheWindow) {
    TabletLoad load(0);
    for (int i = 0; i < 100; ++i)
        load.record_write(50);
    for (int i = 0; i < 30; ++i)
        load.record_read();
    TabletRates r = load.rates(10000);
    EXPECT_EQ(r.span_ms, 10000);
    EXPECT_DOUBLE_EQ(r.writes_per_sec, 10.0);
    EXPECT_DOUBLE_EQ(r.bytes_per_sec, 500.0);
    EXPECT_DOUBLE_EQ(r.reads_per_sec, 3.0);
}

TEST(TabletLoad, NoSpanNoRate) {
    TabletLoad load(5000);
    load.record_write(1);
    TabletRates r = load.rates(5000);
    EXPECT_EQ(r.span_ms, 0);
    EXPECT_EQ(r.writes_per_sec, 0);
}

TEST(TabletLoad, WindowSlidesPastOldLoad) {
    TabletLoadOptions o;
    o.window_ms = 60000;
    o.sample_interval_ms = 1000;
    TabletLoad load(0, o);
    // 100 writes/s for a minute, sampled every second, then silence.
    for (int s = 1; s <= 60; ++s) {
        load.record_write(10, 100);
        load.sample(s * 1000);
    }
    EXPECT_NEAR(load.rates(60000).writes_per_sec, 100.0, 1e-9);
    for (int s = 61; s <= 90; ++s)
        load.sample(s * 1000);
    // Half of the last minute was busy.
    EXPECT_NEAR(load.rates(90000).writes_per_sec, 50.0, 1e-9);
    for (int s = 91; s <= 125; ++s)
        load.sample(s * 1000);
    EXPECT_EQ(load.rates(125000).writes_per_sec, 0.0);
    EXPECT_EQ(load.totals().writes, 6000u);
    EXPECT_EQ(load.totals().bytes_written, 600u);
}

TEST(TabletLoad, SamplesNoMoreThanOncePerInterval) {
    TabletLoad load(0);
    load.record_write(1, 10);
    load.sample(500);  // too soon: ignored
    load.record_write(1, 10);
    TabletRates r = load.rates(2000);
    EXPECT_DOUBLE_EQ(r.writes_per_sec, 10.0);  // 20 writes over 2 s from creation
}

TEST(TabletLoad, ConcurrentRecordingIsExact) {
    TabletLoad load(0);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 50000; ++i) {
                load.record_write(3);
                load.record_read();
            }
        });
    }
    for (auto& th : threads)
        th.join();
    TabletCounters c = load.totals();
    EXPECT_EQ(c.writes, 200000u);
    EXPECT_EQ(c.reads, 200000u);
    EXPECT_EQ(c.bytes_written, 600000u);
}

TEST(Skew, EvenLoad) {
    SkewStats s = skew({10, 10, 10, 10});
    EXPECT_EQ(s.count, 4u);
    EXPECT_DOUBLE_EQ(s.max_over_mean, 1.0);
    EXPECT_DOUBLE_EQ(s.cv, 0.0);
}

TEST(Skew, OneHotTablet) {
    SkewStats s = skew({40, 0, 0, 0});
    EXPECT_DOUBLE_EQ(s.mean, 10.0);
    EXPECT_DOUBLE_EQ(s.max, 40.0);
    EXPECT_DOUBLE_EQ(s.max_over_mean, 4.0);
    EXPECT_NEAR(s.cv, std::sqrt(3.0), 1e-12);
}

TEST(Skew, EmptyAndIdle) {
    EXPECT_EQ(skew({}).count, 0u);
    SkewStats idle = skew({0, 0});
    EXPECT_EQ(idle.max_over_mean, 0.0);
    EXPECT_EQ(idle.cv, 0.0);
}

}  // namespace
}  // namespace tessel::diagnostics
