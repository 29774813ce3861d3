#include "types/duration.h"

#include <cctype>
#include <optional>

#include <fmt/format.h>

namespace tessel::duration {
namespace {

constexpr int64_t kNanosPerMicro = 1000;
constexpr int64_t kNanosPerMilli = 1000 * kNanosPerMicro;
constexpr int64_t kNanosPerSecond = 1000 * kNanosPerMilli;
constexpr int64_t kNanosPerMinute = 60 * kNanosPerSecond;
constexpr int64_t kNanosPerHour = 60 * kNanosPerMinute;

uint64_t zigzag(int64_t v) {
    return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
int64_t unzigzag(uint64_t v) {
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

// Accumulates the parts of a duration with Cassandra's overflow checks.
struct Builder {
    bool negative = false;
    int64_t months = 0, days = 0, nanos = 0;
    int last_unit = -1;
    std::string error;

    bool add(int64_t* field, uint64_t n, int64_t per, int64_t max, const char* what) {
        if (per != 0 && n > static_cast<uint64_t>(max) / static_cast<uint64_t>(per)) {
            return fail(what, max);
        }
        int64_t add = static_cast<int64_t>(n) * per;
        if (add > max - *field) return fail(what, max);
        *field += add;
        return true;
    }
    bool fail(const char* what, int64_t max) {
        error = fmt::format("Invalid duration. The total number of {} must be less or equal to {}",
                            what, max);
        return false;
    }
    // Unit index: 0 y, 1 mo, 2 w, 3 d, 4 h, 5 m, 6 s, 7 ms, 8 us, 9 ns.
    bool unit(int idx, uint64_t n) {
        static constexpr const char* kNames[] = {
            "years",   "months",  "weeks",        "days",         "hours",
            "minutes", "seconds", "milliseconds", "microseconds", "nanoseconds"};
        if (idx <= last_unit) {
            error = idx == last_unit
                        ? fmt::format("Invalid duration. The {} are specified multiple times",
                                      kNames[idx])
                        : fmt::format("Invalid duration. The {} are specified after the {}",
                                      kNames[idx], kNames[last_unit]);
            return false;
        }
        last_unit = idx;
        constexpr int64_t kIntMax = INT32_MAX;
        switch (idx) {
            case 0:
                return add(&months, n, 12, kIntMax, "months");
            case 1:
                return add(&months, n, 1, kIntMax, "months");
            case 2:
                return add(&days, n, 7, kIntMax, "days");
            case 3:
                return add(&days, n, 1, kIntMax, "days");
            case 4:
                return add(&nanos, n, kNanosPerHour, INT64_MAX, "nanoseconds");
            case 5:
                return add(&nanos, n, kNanosPerMinute, INT64_MAX, "nanoseconds");
            case 6:
                return add(&nanos, n, kNanosPerSecond, INT64_MAX, "nanoseconds");
            case 7:
                return add(&nanos, n, kNanosPerMilli, INT64_MAX, "nanoseconds");
            case 8:
                return add(&nanos, n, kNanosPerMicro, INT64_MAX, "nanoseconds");
            default:
                return add(&nanos, n, 1, INT64_MAX, "nanoseconds");
        }
    }
    Duration build() const {
        int sign = negative ? -1 : 1;
        return Duration{static_cast<int32_t>(months * sign), static_cast<int32_t>(days * sign),
                        nanos * sign};
    }
};

std::optional<uint64_t> read_number(std::string_view s, size_t* pos) {
    size_t start = *pos;
    uint64_t v = 0;
    while (*pos < s.size() && std::isdigit(static_cast<unsigned char>(s[*pos]))) {
        if (v > (UINT64_MAX - 9) / 10) return std::nullopt;
        v = v * 10 + static_cast<uint64_t>(s[*pos] - '0');
        ++*pos;
    }
    if (*pos == start) return std::nullopt;
    return v;
}

int unit_index(std::string_view s, size_t* pos) {
    auto lower = [&](size_t i) {
        return i < s.size() ? static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])))
                            : '\0';
    };
    char a = lower(*pos), b = lower(*pos + 1);
    if (s.substr(*pos, 3) == "\xC2\xB5s" || s.substr(*pos, 3) == "\xC2\xB5S") {
        *pos += 3;
        return 8;
    }
    auto two = [&](int idx) {
        *pos += 2;
        return idx;
    };
    auto one = [&](int idx) {
        *pos += 1;
        return idx;
    };
    if (a == 'm' && b == 'o') return two(1);
    if (a == 'm' && b == 's') return two(7);
    if (a == 'u' && b == 's') return two(8);
    if (a == 'n' && b == 's') return two(9);
    switch (a) {
        case 'y':
            return one(0);
        case 'w':
            return one(2);
        case 'd':
            return one(3);
        case 'h':
            return one(4);
        case 'm':
            return one(5);
        case 's':
            return one(6);
        default:
            return -1;
    }
}

bool parse_standard(std::string_view s, Builder* b) {
    size_t pos = 0;
    if (s.empty()) return false;
    while (pos < s.size()) {
        auto n = read_number(s, &pos);
        if (!n) return false;
        int idx = unit_index(s, &pos);
        if (idx < 0) return false;
        if (!b->unit(idx, *n)) return false;
    }
    return true;
}

// P[nY][nM][nD][T[nH][nM][nS]]
bool parse_iso(std::string_view s, Builder* b) {
    size_t pos = 1;
    bool in_time = false, any = false;
    const std::string_view date_units = "YMD", time_units = "HMS";
    int last_date = -1, last_time = -1;
    while (pos < s.size()) {
        if (s[pos] == 'T' && !in_time) {
            in_time = true;
            ++pos;
            if (pos >= s.size()) return false;
            continue;
        }
        auto n = read_number(s, &pos);
        if (!n || pos >= s.size()) return false;
        char u = s[pos++];
        std::string_view units = in_time ? time_units : date_units;
        size_t k = units.find(u);
        int& last = in_time ? last_time : last_date;
        if (k == std::string_view::npos || static_cast<int>(k) <= last) return false;
        last = static_cast<int>(k);
        static constexpr int kDateIdx[] = {0, 1, 3}, kTimeIdx[] = {4, 5, 6};
        if (!b->unit(in_time ? kTimeIdx[k] : kDateIdx[k], *n)) return false;
        any = true;
    }
    return any;
}

// P[n]W
bool parse_iso_week(std::string_view s, Builder* b) {
    size_t pos = 1;
    auto n = read_number(s, &pos);
    return n && pos + 1 == s.size() && b->unit(2, *n);
}

// PYYYY-MM-DDThh:mm:ss
bool parse_iso_alternative(std::string_view s, Builder* b) {
    if (s.size() != 20 || s[5] != '-' || s[8] != '-' || s[11] != 'T' || s[14] != ':' ||
        s[17] != ':') {
        return false;
    }
    const size_t starts[] = {1, 6, 9, 12, 15, 18};
    const size_t lens[] = {4, 2, 2, 2, 2, 2};
    const int units[] = {0, 1, 3, 4, 5, 6};
    for (int i = 0; i < 6; ++i) {
        size_t pos = starts[i];
        auto n = read_number(s, &pos);
        if (!n || pos != starts[i] + lens[i]) return false;
        if (!b->unit(units[i], *n)) return false;
    }
    return true;
}

}  // namespace

void append_unsigned_vint(std::string* out, uint64_t v) {
    int magnitude = __builtin_clzll(v | 1);
    int size = (639 - magnitude * 9) >> 6;
    if (size == 1) {
        out->push_back(static_cast<char>(v));
        return;
    }
    int extra = size - 1;
    char buf[9];
    for (int i = extra; i >= 0; --i) {
        buf[i] = static_cast<char>(v & 0xFF);
        v >>= 8;
    }
    buf[0] =
        static_cast<char>(static_cast<uint8_t>(buf[0]) | static_cast<uint8_t>(~(0xFF >> extra)));
    out->append(buf, static_cast<size_t>(size));
}

bool read_unsigned_vint(std::string_view* in, uint64_t* v) {
    if (in->empty()) return false;
    uint8_t first = static_cast<uint8_t>((*in)[0]);
    int extra = 0;
    while (extra < 8 && (first & (0x80 >> extra)) != 0)
        ++extra;
    if (in->size() < static_cast<size_t>(1 + extra)) return false;
    uint64_t r = extra >= 8 ? 0 : (first & (0xFFu >> extra));
    for (int i = 1; i <= extra; ++i)
        r = (r << 8) | static_cast<uint8_t>((*in)[i]);
    in->remove_prefix(static_cast<size_t>(1 + extra));
    *v = r;
    return true;
}

std::string encode(const Duration& d) {
    std::string out;
    append_unsigned_vint(&out, zigzag(d.months));
    append_unsigned_vint(&out, zigzag(d.days));
    append_unsigned_vint(&out, zigzag(d.nanos));
    return out;
}

Result<Duration> decode(std::string_view bytes) {
    if (bytes.size() < 3) {
        return Status::invalid(
            fmt::format("Expected at least 3 bytes for a duration ({})", bytes.size()));
    }
    uint64_t m = 0, d = 0, n = 0;
    std::string_view in = bytes;
    if (!read_unsigned_vint(&in, &m) || !read_unsigned_vint(&in, &d) ||
        !read_unsigned_vint(&in, &n)) {
        return Status::invalid("Invalid duration: truncated value");
    }
    if (!in.empty()) return Status::invalid("Invalid duration: unexpected trailing bytes");
    int64_t months = unzigzag(m), days = unzigzag(d), nanos = unzigzag(n);
    if (months < INT32_MIN || months > INT32_MAX) {
        return Status::invalid("Invalid duration: months out of range");
    }
    if (days < INT32_MIN || days > INT32_MAX) {
        return Status::invalid("Invalid duration: days out of range");
    }
    bool any_neg = months < 0 || days < 0 || nanos < 0;
    bool any_pos = months > 0 || days > 0 || nanos > 0;
    if (any_neg && any_pos) {
        return Status::invalid(
            fmt::format("The duration months, days and nanoseconds must be all of the same sign "
                        "({}, {}, {})",
                        months, days, nanos));
    }
    return Duration{static_cast<int32_t>(months), static_cast<int32_t>(days), nanos};
}

Result<Duration> parse(std::string_view text) {
    Builder b;
    std::string_view s = text;
    if (!s.empty() && s[0] == '-') {
        b.negative = true;
        s.remove_prefix(1);
    }
    bool ok = false;
    if (!s.empty() && s[0] == 'P') {
        if (s.back() == 'W') {
            ok = parse_iso_week(s, &b);
        } else if (s.find('-') != std::string_view::npos) {
            ok = parse_iso_alternative(s, &b);
        } else {
            ok = parse_iso(s, &b);
        }
    } else {
        ok = parse_standard(s, &b);
    }
    if (!b.error.empty()) return Status::invalid(b.error);
    if (!ok) return Status::invalid(fmt::format("Unable to convert '{}' to a duration", text));
    return b.build();
}

std::string to_string(const Duration& d) {
    std::string out;
    if (d.months < 0 || d.days < 0 || d.nanos < 0) out.push_back('-');
    auto append = [&out](uint64_t dividend, uint64_t divisor, const char* unit) -> uint64_t {
        if (dividend == 0 || dividend < divisor) return dividend;
        out += std::to_string(dividend / divisor);
        out += unit;
        return dividend % divisor;
    };
    auto abs64 = [](int64_t v) {
        return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    };
    uint64_t rem = append(abs64(d.months), 12, "y");
    append(rem, 1, "mo");
    append(abs64(d.days), 1, "d");
    if (d.nanos != 0) {
        rem = append(abs64(d.nanos), kNanosPerHour, "h");
        rem = append(rem, kNanosPerMinute, "m");
        rem = append(rem, kNanosPerSecond, "s");
        rem = append(rem, kNanosPerMilli, "ms");
        rem = append(rem, kNanosPerMicro, "us");
        append(rem, 1, "ns");
    }
    return out;
}

}  // namespace tessel::duration
