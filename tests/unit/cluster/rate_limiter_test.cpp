// The token bucket that throttles outbound streaming, on an injected clock.
#include "cluster/rate_limiter.h"

#include <gtest/gtest.h>

namespace tessel::cluster {
namespace {

using namespace std::chrono_literals;

class RateLimiterTest : public ::testing::Test {
  protected:
    RateLimiter::Now clock() {
        return [this] { return now_; };
    }
    RateLimiter::Clock::time_point now_{};
};

TEST_F(RateLimiterTest, TheBurstGoesAtOnceThenTheRateHolds) {
    RateLimiter limiter(1000, 500, clock());  // 1000 bytes/s, bucket of 500
    EXPECT_EQ(limiter.acquire(300), 0ns);
    EXPECT_EQ(limiter.acquire(200), 0ns);
    // Empty: 100 bytes more take 100 ms to accrue.
    EXPECT_EQ(limiter.acquire(100), 100ms);
    // The next caller waits for the debt too.
    EXPECT_EQ(limiter.acquire(100), 200ms);
    now_ += 200ms;  // the debt is paid
    EXPECT_EQ(limiter.acquire(1000), 1s);
}

TEST_F(RateLimiterTest, IdleTimeRefillsNoMoreThanTheBurst) {
    RateLimiter limiter(1000, 500, clock());
    EXPECT_EQ(limiter.acquire(500), 0ns);
    now_ += 1h;
    EXPECT_EQ(limiter.acquire(500), 0ns);
    EXPECT_EQ(limiter.acquire(1), 1ms);
}

TEST_F(RateLimiterTest, AMessageLargerThanTheBurstWaitsForItsSize) {
    RateLimiter limiter(1'000'000, 1000, clock());
    EXPECT_EQ(limiter.acquire(1'001'000), 1s);
}

TEST_F(RateLimiterTest, SendingAtTheRateAveragesTheRate) {
    // A sender that waits as told and sends 10 KB chunks: 1 MB at
    // 100 KB/s takes 10 s less the burst.
    RateLimiter limiter(100'000, 10'000, clock());
    const auto start = now_;
    for (int i = 0; i < 100; ++i)
        now_ += limiter.acquire(10'000);
    EXPECT_EQ(now_ - start, 9900ms);
}

TEST_F(RateLimiterTest, ZeroIsUnlimited) {
    RateLimiter limiter(0, 0, clock());
    EXPECT_TRUE(limiter.unlimited());
    for (int i = 0; i < 10; ++i)
        EXPECT_EQ(limiter.acquire(1ull << 30), 0ns);
    EXPECT_EQ(RateLimiter::megabits_to_bytes(200), 25'000'000u);
}

}  // namespace
}  // namespace tessel::cluster
