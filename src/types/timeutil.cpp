#include "types/timeutil.h"

#include <cctype>
#include <cstdio>

#include <fmt/format.h>

namespace tessel::timeutil {
namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.remove_suffix(1);
    return s;
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// Parses a decimal integer with an optional leading '-' covering the whole text.
std::optional<int64_t> parse_int64(std::string_view s) {
    bool neg = false;
    if (!s.empty() && s[0] == '-') {
        neg = true;
        s.remove_prefix(1);
    }
    if (s.empty() || s.size() > 19) return std::nullopt;
    uint64_t v = 0;
    for (char c : s) {
        if (!is_digit(c)) return std::nullopt;
        v = v * 10 + static_cast<uint64_t>(c - '0');
    }
    uint64_t limit = neg ? (uint64_t{1} << 63) : (uint64_t{1} << 63) - 1;
    if (v > limit) return std::nullopt;
    return neg ? static_cast<int64_t>(0 - v) : static_cast<int64_t>(v);
}

// Reads between min_digits and max_digits digits at *pos.
std::optional<int64_t> read_digits(std::string_view s, size_t* pos, size_t min_digits,
                                   size_t max_digits) {
    size_t start = *pos;
    int64_t v = 0;
    while (*pos < s.size() && is_digit(s[*pos]) && *pos - start < max_digits) {
        v = v * 10 + (s[*pos] - '0');
        ++*pos;
    }
    if (*pos - start < min_digits) return std::nullopt;
    return v;
}

bool expect(std::string_view s, size_t* pos, char c) {
    if (*pos < s.size() && s[*pos] == c) {
        ++*pos;
        return true;
    }
    return false;
}

int days_in_month(int64_t year, int month) {
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return month == 2 && leap ? 29 : kDays[month - 1];
}

// "[-+]yyyy-mm-dd" at the start of s; returns days since epoch.
std::optional<int64_t> read_date(std::string_view s, size_t* pos) {
    bool neg = false;
    if (*pos < s.size() && (s[*pos] == '-' || s[*pos] == '+')) neg = s[(*pos)++] == '-';
    auto year = read_digits(s, pos, 1, 9);
    if (!year || !expect(s, pos, '-')) return std::nullopt;
    auto month = read_digits(s, pos, 1, 2);
    if (!month || !expect(s, pos, '-')) return std::nullopt;
    auto day = read_digits(s, pos, 1, 2);
    if (!day) return std::nullopt;
    int64_t y = neg ? -*year : *year;
    if (*month < 1 || *month > 12 || *day < 1 ||
        *day > days_in_month(y, static_cast<int>(*month))) {
        return std::nullopt;
    }
    return days_from_civil(y, static_cast<int>(*month), static_cast<int>(*day));
}

// Fraction digits after '.', scaled to nanoseconds.
std::optional<int64_t> read_fraction_nanos(std::string_view s, size_t* pos) {
    size_t start = *pos;
    auto f = read_digits(s, pos, 1, 9);
    if (!f) return std::nullopt;
    int64_t v = *f;
    for (size_t n = *pos - start; n < 9; ++n)
        v *= 10;
    return v;
}

}  // namespace

int64_t days_from_civil(int64_t y, int m, int d) {
    y -= m <= 2;
    const int64_t era = floor_div(y, 400);
    const int64_t yoe = y - era * 400;
    const int64_t mp = (m + 9) % 12;
    const int64_t doy = (153 * mp + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

Civil civil_from_days(int64_t z) {
    z += 719468;
    const int64_t era = floor_div(z, 146097);
    const int64_t doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    const int d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    const int m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    return Civil{yoe + era * 400 + (m <= 2), m, d};
}

Result<int64_t> parse_timestamp(std::string_view raw) {
    std::string_view s = trim(raw);
    if (auto ms = parse_int64(s)) return *ms;
    Status bad =
        Status::invalid(fmt::format("Unable to coerce '{}' to a formatted date (long)", raw));
    size_t pos = 0;
    auto days = read_date(s, &pos);
    if (!days) return bad;
    int64_t hour = 0, minute = 0, second = 0, nanos = 0;
    if (pos < s.size() && (s[pos] == ' ' || s[pos] == 'T') && pos + 1 < s.size() &&
        is_digit(s[pos + 1])) {
        ++pos;
        auto h = read_digits(s, &pos, 1, 2);
        if (!h || !expect(s, &pos, ':')) return bad;
        auto mi = read_digits(s, &pos, 1, 2);
        if (!mi) return bad;
        hour = *h;
        minute = *mi;
        if (expect(s, &pos, ':')) {
            auto se = read_digits(s, &pos, 1, 2);
            if (!se) return bad;
            second = *se;
            if (expect(s, &pos, '.')) {
                auto f = read_fraction_nanos(s, &pos);
                if (!f) return bad;
                nanos = *f;
            }
        }
        if (hour > 23 || minute > 59 || second > 59) return bad;
    }
    int64_t offset_minutes = 0;
    if (pos < s.size() && s[pos] == ' ') ++pos;
    if (pos < s.size()) {
        // General time zone names for UTC, optionally with an offset ("GMT+01:00").
        for (std::string_view name : {"UTC", "GMT", "utc", "gmt"}) {
            if (s.substr(pos, 3) == name) {
                pos += 3;
                break;
            }
        }
        if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
            ++pos;
        } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
            bool neg = s[pos++] == '-';
            auto oh = read_digits(s, &pos, 2, 2);
            if (!oh) return bad;
            int64_t om = 0;
            if (pos < s.size()) {
                expect(s, &pos, ':');
                auto m = read_digits(s, &pos, 2, 2);
                if (!m) return bad;
                om = *m;
            }
            if (*oh > 18 || om > 59) return bad;
            offset_minutes = (*oh * 60 + om) * (neg ? -1 : 1);
        }
    }
    if (pos != s.size()) return bad;
    // Years are at most 9 digits, so this stays far inside int64.
    int64_t secs = *days * 86400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
    if (secs > INT64_MAX / 1000 - 1 || secs < INT64_MIN / 1000 + 1) return bad;
    return secs * 1000 + nanos / 1000000;
}

Result<uint32_t> parse_date(std::string_view raw) {
    std::string_view s = trim(raw);
    if (!s.empty() && (is_digit(s[0]) || s[0] == '-') && s.find('-', 1) == std::string_view::npos) {
        auto v = parse_int64(s);
        if (!v || *v < 0 || *v > 0xFFFFFFFFLL) {
            return Status::invalid(
                fmt::format("Unable to make unsigned int (for date) from: '{}'", raw));
        }
        return static_cast<uint32_t>(*v);
    }
    size_t pos = 0;
    auto days = read_date(s, &pos);
    if (!days || pos != s.size()) {
        return Status::invalid(
            fmt::format("Unable to coerce '{}' to a formatted date (long)", raw));
    }
    int64_t encoded = *days + kEpochDay;
    if (encoded < 0 || encoded > 0xFFFFFFFFLL) {
        return Status::invalid(
            fmt::format("Input date {} is out of the supported date range", raw));
    }
    return static_cast<uint32_t>(encoded);
}

Result<int64_t> parse_time(std::string_view raw) {
    std::string_view s = trim(raw);
    if (auto v = parse_int64(s)) {
        if (*v < 0 || *v >= kNanosPerDay) {
            return Status::invalid(fmt::format("Input long out of bounds: {}", raw));
        }
        return *v;
    }
    Status bad = Status::invalid(
        fmt::format("Unable to coerce '{}' to a formatted time (long): Timestamp format must be "
                    "hh:mm:ss[.fffffffff]",
                    raw));
    size_t pos = 0;
    auto h = read_digits(s, &pos, 1, 2);
    if (!h || !expect(s, &pos, ':')) return bad;
    auto m = read_digits(s, &pos, 1, 2);
    if (!m || !expect(s, &pos, ':')) return bad;
    auto sec = read_digits(s, &pos, 1, 2);
    if (!sec) return bad;
    int64_t nanos = 0;
    if (expect(s, &pos, '.')) {
        auto f = read_fraction_nanos(s, &pos);
        if (!f) return bad;
        nanos = *f;
    }
    if (pos != s.size()) return bad;
    if (*h > 23) return Status::invalid("Hour out of bounds.");
    if (*m > 59) return Status::invalid("Minute out of bounds.");
    if (*sec > 59) return Status::invalid("Second out of bounds.");
    return ((*h * 60 + *m) * 60 + *sec) * 1000000000LL + nanos;
}

namespace {
struct Split {
    Civil date;
    int64_t hour, minute, second, millis;
};
Split split_ms(int64_t ms) {
    // floor_div/floor_mod rather than ms - days * kMillisPerDay: no overflow at INT64_MIN.
    int64_t days = floor_div(ms, kMillisPerDay);
    int64_t rem = floor_mod(ms, kMillisPerDay);
    return Split{civil_from_days(days), rem / 3600000, rem / 60000 % 60, rem / 1000 % 60,
                 rem % 1000};
}
}  // namespace

std::string format_timestamp_cqlsh(int64_t ms) {
    Split p = split_ms(ms);
    if (p.date.year < 1 || p.date.year > 9999) return std::to_string(ms);
    return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:06}+0000", p.date.year, p.date.month,
                       p.date.day, p.hour, p.minute, p.second, p.millis * 1000);
}

std::optional<std::string> format_timestamp_iso(int64_t ms) {
    Split p = split_ms(ms);
    if (p.date.year < 0 || p.date.year > 9999) return std::nullopt;
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", p.date.year, p.date.month,
                       p.date.day, p.hour, p.minute, p.second, p.millis);
}

std::string format_timestamp_json(int64_t ms) {
    Split p = split_ms(ms);
    return fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}.{:03}Z", p.date.year, p.date.month,
                       p.date.day, p.hour, p.minute, p.second, p.millis);
}

std::optional<std::string> format_date(uint32_t encoded) {
    Civil c = civil_from_days(date_days(encoded));
    if (c.year < 1 || c.year > 9999) return std::nullopt;
    return fmt::format("{:04}-{:02}-{:02}", c.year, c.month, c.day);
}

std::string format_time(int64_t nanos) {
    int64_t secs = nanos / 1000000000LL;
    return fmt::format("{:02}:{:02}:{:02}.{:09}", secs / 3600, secs / 60 % 60, secs % 60,
                       nanos % 1000000000LL);
}

}  // namespace tessel::timeutil
