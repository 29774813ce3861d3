// CAST(value AS type) between native types, as Cassandra's cast functions
// (CastFcts) convert: numbers between themselves with Java's narrowing and
// widening, time types as toDate()/toTimestamp(), and to text or ascii the
// value's Java text form (TypeSerializer.toCQLLiteral), e.g. a timestamp as
// "2024-01-02T03:04:05.000Z", a double as "1.0E10", an IPv6 address as
// "0:0:0:0:0:0:0:1". Which casts exist is cql::castable().
#pragma once

#include <optional>
#include <string>

#include "common/status.h"
#include "types/cql_type.h"

namespace tessel::query {

// `value` is a non-null encoded value of `from`; the result is null for an
// empty value. Invalid when the value has no image in `to` (NaN to decimal).
Result<std::optional<std::string>> cast_value(const CqlType& from, const CqlType& to,
                                              const std::string& value);

}  // namespace tessel::query
