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

}  // namespace tessel::query::numbers
