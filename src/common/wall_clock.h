// The wall clock in milliseconds since the Unix epoch (system_clock): lease
// and hint times, tablet map versions, diagnostics windows.
#pragma once

#include <chrono>
#include <cstdint>

namespace tessel {

inline int64_t wall_clock_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

}  // namespace tessel
