// CQL duration: months, days and nanoseconds, encoded as three zig-zag
// variable-length integers in Cassandra's unsigned vint format.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace tessel::duration {

struct Duration {
    int32_t months = 0;
    int32_t days = 0;
    int64_t nanos = 0;
};

// Cassandra's unsigned vint: the count of leading 1 bits of the first byte
// is the number of extra bytes.
void append_unsigned_vint(std::string* out, uint64_t v);
// Reads one vint from the front of *in; false when truncated.
bool read_unsigned_vint(std::string_view* in, uint64_t* v);

std::string encode(const Duration& d);
// Wire bytes -> Duration; Invalid when malformed, trailing bytes, out-of-range
// months/days, or mixed signs.
Result<Duration> decode(std::string_view bytes);

// Duration text as Cassandra's Duration.from accepts: "1y2mo3w4d5h6m7s8ms9us10ns"
// (units case-insensitive, µs too, each at most once, in that order),
// ISO 8601 "P1Y2M3DT4H5M6S", "P2W", "P0001-02-03T04:05:06"; optional leading '-'.
Result<Duration> parse(std::string_view text);
// Cassandra's Duration.toString ("1y2mo3d4h5m6s7ms8us9ns", leading '-' when negative,
// "" for zero).
std::string to_string(const Duration& d);

}  // namespace tessel::duration
