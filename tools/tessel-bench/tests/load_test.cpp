#include "load.h"

#include <gtest/gtest.h>

#include <thread>

namespace tessel::bench {
namespace {

TEST(OpClock, OpCountStopsAtTheLimit) {
    LoadOptions o;
    o.ops = 5;
    o.warmup_s = 0;
    OpClock clock(o, Clock::now());
    int n = 0;
    while (clock.claim())
        ++n;
    EXPECT_EQ(n, 5);
}

TEST(OpClock, FixedRateSchedulesIntendedTimesOpenLoop) {
    LoadOptions o;
    o.rate = 1000;  // one per ms
    o.duration_s = 1;
    o.warmup_s = 0.5;
    auto start = Clock::now();
    OpClock clock(o, start);
    auto t0 = clock.claim();
    auto t1 = clock.claim();
    ASSERT_TRUE(t0 && t1);
    EXPECT_EQ(t0->intended, start);
    EXPECT_EQ(t1->intended - t0->intended, std::chrono::milliseconds(1));
    EXPECT_FALSE(t0->measured);  // inside the warm-up
    // Claiming does not wait: op 600 is intended 600 ms after the start, in
    // the measured window, even though it is claimed right away.
    std::optional<Ticket> t;
    for (int i = 2; i <= 600; ++i)
        t = clock.claim();
    ASSERT_TRUE(t);
    EXPECT_EQ(t->seq, 600u);
    EXPECT_TRUE(t->measured);
    // 1.5 s at 1000/s: the schedule ends after 1500 operations.
    int more = 0;
    while (clock.claim())
        ++more;
    EXPECT_EQ(601 + more, 1500);
}

TEST(PhaseStats, LatencyIsMeasuredFromTheIntendedTime) {
    // An operation intended 10 ms ago that completes now is charged 10 ms,
    // however late it was actually sent (coordinated omission correction).
    PhaseStats s;
    Ticket t;
    t.measured = true;
    auto now = Clock::now();
    t.intended = now - std::chrono::milliseconds(10);
    s.complete(t, true, now);
    EXPECT_EQ(s.ok, 1u);
    EXPECT_GE(s.latency.value_at_percentile(50), 9'900'000);
    EXPECT_LE(s.latency.value_at_percentile(50), 10'100'000);
}

TEST(PhaseStats, WarmupAndErrorsStayOutOfTheHistogram) {
    PhaseStats s;
    Ticket warm;
    warm.measured = false;
    s.complete(warm, true, Clock::now());
    Ticket bad;
    bad.measured = true;
    s.complete(bad, false, Clock::now());
    s.fail("first");
    s.fail("second");
    EXPECT_EQ(s.latency.count(), 0u);
    EXPECT_EQ(s.unmeasured, 1u);
    EXPECT_EQ(s.errors, 1u);
    EXPECT_EQ(s.first_error, "first");
}

TEST(Summarize, ThroughputOverTheMeasuredWindow) {
    LoadOptions o;
    o.warmup_s = 0;
    o.ops = 100;
    auto start = Clock::now() - std::chrono::seconds(2);
    OpClock clock(o, start);
    PhaseStats s;
    for (int i = 0; i < 100; ++i) {
        Ticket t;
        t.measured = true;
        t.intended = start + std::chrono::milliseconds(10 * i);
        s.complete(t, true, t.intended + std::chrono::microseconds(500));
    }
    s.rows = 300;
    s.bytes = 2 * 1024 * 1024;
    PhaseResult r = summarize(s, clock, o);
    // Last completion at 990.5 ms: 100 ops in ~0.99 s.
    EXPECT_NEAR(r.seconds, 0.9905, 1e-3);
    EXPECT_NEAR(r.ops_per_s, 100 / 0.9905, 0.5);
    EXPECT_NEAR(r.rows_per_s, 300 / 0.9905, 1);
    EXPECT_NEAR(r.mb_per_s, 2 / 0.9905, 0.01);
    EXPECT_NEAR(r.p50_us, 500, 5);
    EXPECT_NEAR(r.max_us, 500, 5);
}

}  // namespace
}  // namespace tessel::bench
