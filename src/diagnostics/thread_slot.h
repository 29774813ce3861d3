// A small per-thread number for striping shared counters and sketches: each
// thread gets the next slot on first use, so with at least as many stripes as
// event loops every loop writes to its own stripe.
#pragma once

#include <atomic>
#include <cstddef>

namespace tessel::diagnostics {

inline size_t thread_stripe_slot() {
    static std::atomic<size_t> next{0};
    thread_local const size_t slot = next.fetch_add(1, std::memory_order_relaxed);
    return slot;
}

}  // namespace tessel::diagnostics
