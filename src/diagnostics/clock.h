// Time as the diagnostics components see it: milliseconds since the Unix
// epoch, passed in by the caller.
//
// Every time-dependent function takes `now` as an argument instead of reading
// a clock itself, so tests drive time explicitly and the write path reads the
// clock once per request however many components it feeds.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>

#include "common/wall_clock.h"

namespace tessel::diagnostics {

using TimeMs = int64_t;  // milliseconds since the Unix epoch

// The wall clock (system_clock), for callers outside tests.
inline TimeMs now_ms() {
    return wall_clock_ms();
}

// A clock to call later (virtual tables, collectors); tests pass their own.
using Clock = std::function<TimeMs()>;

}  // namespace tessel::diagnostics
