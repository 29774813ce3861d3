// RateLimiter: a token bucket over bytes, how a node throttles what it
// streams to others (stream_throughput_outbound_megabits_per_sec, shared by
// every stream the node sends, as Cassandra's).
//
// Tokens (bytes) accrue at `bytes_per_second` up to `burst_bytes`. acquire(n)
// takes n tokens at once, even more than the bucket holds, and says how long
// the caller must wait before sending them: zero while tokens were there,
// else the time the debt takes to refill. A later caller waits for the debt
// too, so senders sharing a limiter never pass the rate together, and a
// message larger than the burst still goes (it only waits longer).
//
// Thread safe. The clock is injected for tests.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>

namespace tessel::cluster {

class RateLimiter {
  public:
    using Clock = std::chrono::steady_clock;
    using Now = std::function<Clock::time_point()>;

    // bytes_per_second 0: unlimited (acquire never waits). The bucket
    // starts full.
    RateLimiter(uint64_t bytes_per_second, uint64_t burst_bytes, Now now = Clock::now);

    // Cassandra's megabits per second (1,000,000 bits, 125,000 bytes) as bytes.
    static uint64_t megabits_to_bytes(uint64_t megabits_per_second) {
        return megabits_per_second * 125'000;
    }

    // Takes `bytes` tokens; how long to wait before sending them.
    std::chrono::nanoseconds acquire(uint64_t bytes);

    bool unlimited() const { return rate_ == 0; }
    uint64_t bytes_per_second() const { return rate_; }

  private:
    const uint64_t rate_;
    const double burst_;
    const Now now_;
    std::mutex mu_;
    double tokens_;  // may be negative: a debt later callers wait for
    Clock::time_point last_;
};

}  // namespace tessel::cluster
