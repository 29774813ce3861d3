// Reading and writing the encodings of CQL's fixed-size numbers, shared by
// aggregates (selection.cpp) and CAST (cast.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "types/cql_type.h"

namespace tessel::query::numbers {

// tinyint, smallint, int, bigint or counter.
bool is_fixed_integer(TypeKind k);
// Big-endian two's complement of any length up to 8 bytes, sign-extended.
int64_t read_integer(std::string_view b);
// `v` truncated to the width of `k` (tinyint, smallint, int; bigint otherwise).
std::string write_integer(TypeKind k, int64_t v);
// A float or double value; other kinds read as integers.
double read_floating(TypeKind k, std::string_view b);
// `v` as a float (rounded) or a double.
std::string write_floating(TypeKind k, double v);

// An exact decimal number: (-1 if negative) * digits * 10^-scale, for
// aggregates over decimal and varint values (Java's BigDecimal/BigInteger
// arithmetic, as Cassandra's sum and avg use).
struct BigDecimal {
    bool negative = false;
    std::string digits = "0";  // magnitude, decimal digits without leading zeros
    int32_t scale = 0;

    static BigDecimal from_decimal(std::string_view bytes);  // a decimal value (>= 4 bytes)
    static BigDecimal from_varint(std::string_view bytes);   // a varint value
    std::string to_decimal() const;
    std::string to_varint() const;  // the integer part (scale <= 0 expected)
};

// a + b, at the larger scale.
BigDecimal add(const BigDecimal& a, const BigDecimal& b);
BigDecimal negate(BigDecimal a);
// a / n at a's scale: rounded half-even (BigDecimal.divide(n, HALF_EVEN)), or
// truncated toward zero (BigInteger.divide). n > 0.
BigDecimal divide_half_even(const BigDecimal& a, int64_t n);
BigDecimal divide_truncated(const BigDecimal& a, int64_t n);

}  // namespace tessel::query::numbers
