#include "query/cast.h"

#include <cmath>
#include <limits>

#include "query/numbers.h"
#include "types/bytes_util.h"
#include "types/inet.h"
#include "types/number_format.h"
#include "types/time_functions.h"
#include "types/timeutil.h"
#include "types/uuid.h"
#include "types/value.h"
#include "types/varint.h"

namespace tessel::query {
namespace {

using Opt = std::optional<std::string>;

using numbers::read_floating;
using numbers::write_floating;

bool fixed_integer(TypeKind k) {
    return numbers::is_fixed_integer(k);
}

bool floating(TypeKind k) {
    return k == TypeKind::kFloat || k == TypeKind::kDouble;
}

int64_t read_fixed(std::string_view b) {
    return numbers::read_integer(b);
}

// The low 64 bits of a two's-complement integer of any length, as Java's
// BigInteger.longValue() (and intValue(), shortValue(), byteValue() after it).
int64_t low_bits(std::string_view twos) {
    if (twos.size() > 8) twos.remove_prefix(twos.size() - 8);
    if (twos.empty()) return 0;
    uint64_t v = static_cast<int8_t>(twos[0]) < 0 ? ~uint64_t{0} : 0;
    for (char c : twos)
        v = (v << 8) | static_cast<uint8_t>(c);
    return static_cast<int64_t>(v);
}

// Java's (long) of a double: NaN is 0, out-of-range values saturate.
int64_t saturating_long(double d) {
    if (std::isnan(d)) return 0;
    if (d >= 9223372036854775807.0) return std::numeric_limits<int64_t>::max();
    if (d <= -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(d);
}

// Java's (int) of a double, which byteValue()/shortValue() then wrap.
int32_t saturating_int(double d) {
    if (std::isnan(d)) return 0;
    if (d >= 2147483647.0) return std::numeric_limits<int32_t>::max();
    if (d <= -2147483648.0) return std::numeric_limits<int32_t>::min();
    return static_cast<int32_t>(d);
}

// A decimal's integer part (truncated toward zero) as two's complement.
std::string decimal_integer_part(std::string_view dec) {
    const int32_t scale = decimal::scale_of(dec);
    std::string_view unscaled = dec.substr(4);
    const bool negative = varint::sign(unscaled) < 0;
    std::string digits = varint::magnitude_to_digits(varint::magnitude(unscaled));
    if (scale > 0) {
        digits = static_cast<int64_t>(digits.size()) > scale
                     ? digits.substr(0, digits.size() - static_cast<size_t>(scale))
                     : "0";
    } else if (scale < 0) {
        // Large negative scales would only append zeros past the low 64 bits.
        digits.append(static_cast<size_t>(std::min<int64_t>(-int64_t{scale}, 80)), '0');
    }
    return varint::from_magnitude(negative, varint::digits_to_magnitude(digits));
}

// BigDecimal.toPlainString: no exponent.
std::string decimal_plain(std::string_view dec) {
    const int32_t scale = decimal::scale_of(dec);
    std::string_view unscaled = dec.substr(4);
    const bool negative = varint::sign(unscaled) < 0;
    std::string digits = varint::magnitude_to_digits(varint::magnitude(unscaled));
    if (scale < 0) {
        if (digits != "0") digits.append(static_cast<size_t>(-int64_t{scale}), '0');
    } else if (scale > 0) {
        const auto s = static_cast<size_t>(scale);
        if (digits.size() <= s) digits.insert(0, s - digits.size() + 1, '0');
        digits.insert(digits.size() - s, ".");
    }
    return (negative ? "-" : "") + digits;
}

// The numeric value of any number type as a double (Number.doubleValue()).
double as_double(TypeKind k, std::string_view b) {
    if (fixed_integer(k)) return static_cast<double>(read_fixed(b));
    if (floating(k)) return read_floating(k, b);
    const std::string text =
        k == TypeKind::kVarint ? varint::to_decimal_string(b) : decimal_plain(b);
    return std::strtod(text.c_str(), nullptr);
}

// Number.longValue() of any number type.
int64_t as_long(TypeKind k, std::string_view b) {
    if (fixed_integer(k)) return read_fixed(b);
    if (floating(k)) return saturating_long(read_floating(k, b));
    if (k == TypeKind::kVarint) return low_bits(b);
    return low_bits(decimal_integer_part(b));
}

// Number.intValue(): floating values saturate at int range first.
int64_t as_int(TypeKind k, std::string_view b) {
    if (floating(k)) return saturating_int(read_floating(k, b));
    return static_cast<int32_t>(as_long(k, b));
}

Result<Opt> to_number(TypeKind from, TypeKind to, std::string_view b) {
    switch (to) {
        case TypeKind::kTinyint:
            return Opt(bytes::be_bytes(static_cast<uint8_t>(as_int(from, b)), 1));
        case TypeKind::kSmallint:
            return Opt(bytes::be_bytes(static_cast<uint16_t>(as_int(from, b)), 2));
        case TypeKind::kInt:
            return Opt(bytes::i32_bytes(static_cast<int32_t>(as_int(from, b))));
        case TypeKind::kBigint:
            return Opt(bytes::i64_bytes(as_long(from, b)));
        case TypeKind::kFloat:
        case TypeKind::kDouble:
            return Opt(write_floating(to, as_double(from, b)));
        case TypeKind::kVarint:
            return Opt(varint::from_int64(as_long(from, b)));
        case TypeKind::kDecimal: {
            if (from == TypeKind::kVarint) return Opt(std::string(4, '\0') + std::string(b));
            if (floating(from)) {
                // new BigDecimal(Float.toString(f)) / BigDecimal.valueOf(d).
                const double d = read_floating(from, b);
                if (!std::isfinite(d)) {
                    return Status::invalid("Cannot cast " + numfmt::java_to_string(d, false) +
                                           " to decimal");
                }
                auto r = decimal::from_string(numfmt::java_to_string(d, from == TypeKind::kFloat));
                if (!r) return Status::invalid("Cannot cast to decimal");
                return Opt(std::move(*r));
            }
            return Opt(std::string(4, '\0') + varint::from_int64(as_long(from, b)));
        }
        default:
            return Status::invalid("Cannot cast to " + native_type(to)->cql_name());
    }
}

// TypeSerializer.toCQLLiteral of the value: what Cassandra's cast to text returns.
std::string java_text(const CqlType& type, std::string_view b) {
    switch (type.kind) {
        case TypeKind::kFloat:
        case TypeKind::kDouble:
            return numfmt::java_to_string(read_floating(type.kind, b),
                                          type.kind == TypeKind::kFloat);
        case TypeKind::kVarint:
            return varint::to_decimal_string(b);
        case TypeKind::kDecimal:
            return decimal_plain(b);
        case TypeKind::kInet:
            return inet::format_java(b);
        case TypeKind::kTimestamp: {
            const int64_t ms = bytes::read_i64(b);
            if (auto iso = timeutil::format_timestamp_iso(ms)) return *iso;
            std::string s = timeutil::format_timestamp_json(ms);
            if (auto sp = s.find(' '); sp != std::string::npos) s[sp] = 'T';
            return s;
        }
        case TypeKind::kBoolean:
            return !b.empty() && b[0] != 0 ? "true" : "false";
        case TypeKind::kAscii:
        case TypeKind::kVarchar:
            return std::string(b);
        default:
            if (fixed_integer(type.kind)) return std::to_string(read_fixed(b));
            return format_value(type, b);  // uuid, timeuuid, date, time
    }
}

}  // namespace

Result<std::optional<std::string>> cast_value(const CqlType& from, const CqlType& to,
                                              const std::string& value) {
    if (value.empty()) return Opt();
    if (from.equals(to)) return Opt(value);
    if (to.kind == TypeKind::kVarchar || to.kind == TypeKind::kAscii) {
        return Opt(java_text(from, value));
    }
    const bool from_number = fixed_integer(from.kind) || floating(from.kind) ||
                             from.kind == TypeKind::kVarint || from.kind == TypeKind::kDecimal;
    if (from_number) return to_number(from.kind, to.kind, value);
    auto time_input = [](TypeKind k) -> std::optional<timefn::TimeInput> {
        if (k == TypeKind::kTimestamp) return timefn::TimeInput::kTimestamp;
        if (k == TypeKind::kDate) return timefn::TimeInput::kDate;
        if (k == TypeKind::kTimeuuid) return timefn::TimeInput::kTimeuuid;
        return std::nullopt;
    };
    if (auto in = time_input(from.kind);
        in && (to.kind == TypeKind::kDate || to.kind == TypeKind::kTimestamp)) {
        auto r = to.kind == TypeKind::kDate ? timefn::to_date(*in, value)
                                            : timefn::to_timestamp(*in, value);
        if (!r.is_ok()) return std::move(r).status();
        return Opt(std::move(r).value());
    }
    return Status::invalid("Cannot cast value of type " + from.cql_name() + " to type " +
                           to.cql_name());
}

}  // namespace tessel::query
