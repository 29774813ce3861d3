// Calendar arithmetic and the text forms of CQL timestamp, date and time.
//
// Timestamps are int64 milliseconds since 1970-01-01T00:00:00Z (proleptic
// Gregorian, UTC); dates are uint32 days with 2^31 = 1970-01-01; times are
// int64 nanoseconds since midnight in [0, 86400 * 10^9).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace tessel::timeutil {

inline constexpr int64_t kNanosPerDay = 86400LL * 1000000000LL;
inline constexpr int64_t kMillisPerDay = 86400LL * 1000LL;
inline constexpr uint32_t kEpochDay = 1u << 31;  // the date encoding of 1970-01-01

struct Civil {
    int64_t year;
    int month;  // 1..12
    int day;    // 1..31
};

// Days since 1970-01-01 <-> calendar date.
int64_t days_from_civil(int64_t year, int month, int day);
Civil civil_from_days(int64_t days);

// Floor division and modulo helpers for negative times.
inline int64_t floor_div(int64_t a, int64_t b) {
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}
inline int64_t floor_mod(int64_t a, int64_t b) {
    int64_t r = a % b;
    return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}

// Text accepted for a timestamp, as Cassandra's TimestampSerializer does:
// integer milliseconds, or "yyyy-mm-dd[( |T)hh:mm[:ss[.fff]]][zone]" where zone is
// Z, +hh, +hhmm or +hh:mm (optionally after a space); no zone means UTC.
Result<int64_t> parse_timestamp(std::string_view text);
// "yyyy-mm-dd" (year may be signed) or the raw unsigned day number -> date encoding.
Result<uint32_t> parse_date(std::string_view text);
// "hh:mm:ss[.fffffffff]" or the raw nanosecond count -> nanoseconds since midnight.
Result<int64_t> parse_time(std::string_view text);

// cqlsh: "2024-01-02 03:04:05.000000+0000"; years outside 1..9999 print the raw ms.
std::string format_timestamp_cqlsh(int64_t ms);
// ISO form used in CQL literals: "2024-01-02T03:04:05.000Z" (nullopt outside years 0..9999).
std::optional<std::string> format_timestamp_iso(int64_t ms);
// toJson form: "2024-01-02 03:04:05.000Z".
std::string format_timestamp_json(int64_t ms);
// "2024-01-02"; nullopt when the year is outside 1..9999 (cqlsh then prints the day count).
std::optional<std::string> format_date(uint32_t encoded);
// Days since epoch of a date encoding (signed).
inline int64_t date_days(uint32_t encoded) {
    return static_cast<int64_t>(encoded) - kEpochDay;
}
// "03:04:05.000000000"
std::string format_time(int64_t nanos);

}  // namespace tessel::timeutil
