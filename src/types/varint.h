// Arbitrary-precision integers (CQL varint) and decimals (CQL decimal) held
// in their wire encoding: varint = big-endian two's complement, decimal =
// int32 scale followed by the varint unscaled value (value = unscaled * 10^-scale).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessel::varint {

// Minimal two's-complement form of any two's-complement bytes ("" -> "").
std::string minimal(std::string_view twos);
// Sign of a two's-complement value: -1, 0, 1 (empty -> 0).
int sign(std::string_view twos);
// |value| as big-endian unsigned bytes without leading zero bytes ("" for 0).
std::string magnitude(std::string_view twos);
// Two's complement (minimal) from sign and big-endian magnitude.
std::string from_magnitude(bool negative, std::string_view magnitude);

// Decimal text ("-123", "+5", "0") -> minimal two's complement; nullopt if not an integer.
std::optional<std::string> from_decimal_string(std::string_view text);
// Two's complement -> decimal text ("-123").
std::string to_decimal_string(std::string_view twos);
// Unsigned big-endian magnitude <-> decimal digit strings (no sign, "0" for zero).
std::string magnitude_to_digits(std::string_view magnitude);
std::string digits_to_magnitude(std::string_view digits);

// Numeric comparison of two two's-complement values (any length, non-minimal allowed).
int compare(std::string_view a, std::string_view b);

// Fits in int64 -> value.
std::optional<int64_t> to_int64(std::string_view twos);
std::string from_int64(int64_t v);

}  // namespace tessel::varint

namespace tessel::decimal {

// A decimal split into sign, digits and exponent: value = sign * 0.DIGITS * 10^exponent,
// DIGITS without leading or trailing zeros (empty for zero).
struct Normalized {
    int sign = 0;
    int64_t exponent = 0;
    std::string digits;
};

// Precondition: bytes.size() >= 4.
int32_t scale_of(std::string_view bytes);
Normalized normalize(std::string_view bytes);
// Numeric order (BigDecimal.compareTo): 1.0 == 1.00.
int compare(std::string_view a, std::string_view b);

// Decimal literal text as java.math.BigDecimal(String) accepts it ("-1.50", "1E+3",
// "2.5e-3") -> wire bytes keeping the written scale; nullopt when malformed.
std::optional<std::string> from_string(std::string_view text);
// Java BigDecimal.toString, which is also what Python's Decimal str (cqlsh) prints:
// plain "123.45" / "0.00123", scientific "1E+3" / "1.2E-8" when the exponent is
// positive or the adjusted exponent is below -6. Precondition: bytes.size() >= 4.
std::string to_string(std::string_view bytes);
// Wire bytes from an unscaled decimal-digit string and scale.
std::string make(bool negative, std::string_view digits, int32_t scale);

}  // namespace tessel::decimal
