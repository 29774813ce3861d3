#include "cluster/rate_limiter.h"

#include <algorithm>
#include <cmath>

namespace tessel::cluster {

RateLimiter::RateLimiter(uint64_t bytes_per_second, uint64_t burst_bytes, Now now)
    : rate_(bytes_per_second),
      burst_(static_cast<double>(burst_bytes)),
      now_(std::move(now)),
      tokens_(static_cast<double>(burst_bytes)),
      last_(now_()) {}

std::chrono::nanoseconds RateLimiter::acquire(uint64_t bytes) {
    if (rate_ == 0) return std::chrono::nanoseconds(0);
    std::lock_guard lock(mu_);
    const auto now = now_();
    if (now > last_) {
        const double elapsed = std::chrono::duration<double>(now - last_).count();
        tokens_ = std::min(burst_, tokens_ + elapsed * static_cast<double>(rate_));
        last_ = now;
    }
    tokens_ -= static_cast<double>(bytes);
    if (tokens_ >= 0) return std::chrono::nanoseconds(0);
    const double seconds = -tokens_ / static_cast<double>(rate_);
    return std::chrono::nanoseconds(std::llround(seconds * 1e9));
}

}  // namespace tessel::cluster
