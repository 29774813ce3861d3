// The CQL time and UUID functions on encoded values: now(), uuid(),
// minTimeuuid/maxTimeuuid, toDate/toTimestamp/toUnixTimestamp, currentX().
// Every input and output is a value in its native-protocol encoding (see
// types/value.h); functions that can fail on user input return Result.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "common/status.h"

namespace tessel::timefn {

// Wall clock, milliseconds since the Unix epoch.
int64_t current_millis();

// A new version-1 UUID for now(): strictly increasing within this process (a
// counter fills the sub-millisecond part), random node with the multicast bit
// set and random clock sequence chosen once per process. Thread-safe.
std::string now_timeuuid();
// A random (version 4) UUID for uuid(). Thread-safe.
std::string random_uuid();

// Version-1 UUID with the given time and clock-sequence/node bytes.
// ticks = 100ns intervals since 1582-10-15. lsb = the 8 low bytes as an integer.
std::string make_timeuuid(uint64_t ticks, uint64_t lsb);
// The smallest / largest timeuuid (in timeuuid order) of the given millisecond,
// as Cassandra's minTimeuuid / maxTimeuuid.
std::string min_timeuuid(int64_t unix_millis);
std::string max_timeuuid(int64_t unix_millis);
// Milliseconds since the Unix epoch of a version-1 UUID (16 bytes).
Result<int64_t> timeuuid_to_millis(std::string_view timeuuid);

// Encodings of single values.
std::string timestamp_value(int64_t unix_millis);
Result<int64_t> timestamp_millis(std::string_view timestamp_value);
// Date encoding (uint32, 2^31 = epoch) of the day containing the instant.
std::string date_from_millis(int64_t unix_millis);
// Midnight UTC of a date, in ms.
Result<int64_t> date_to_millis(std::string_view date_value);
std::string bigint_value(int64_t v);

// CQL functions, on encoded inputs and outputs:
//   toDate(timeuuid|timestamp|date) -> date; toTimestamp(timeuuid|date|timestamp) -> timestamp;
//   toUnixTimestamp(timeuuid|timestamp|date) -> bigint ms.
// `kind` names the argument's type; a value of the wrong size (or a non-version-1
// uuid for kTimeuuid) gives Invalid.
enum class TimeInput { kTimeuuid, kTimestamp, kDate };
Result<std::string> to_date(TimeInput kind, std::string_view value);
Result<std::string> to_timestamp(TimeInput kind, std::string_view value);
Result<std::string> to_unix_timestamp(TimeInput kind, std::string_view value);

// currentTimestamp(), currentDate(), currentTime() (time: ns since midnight UTC),
// currentTimeUUID() (same as now()).
std::string current_timestamp();
std::string current_date();
std::string current_time();

}  // namespace tessel::timefn
