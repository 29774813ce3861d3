// Which types can take over from another, as Cassandra decides when a
// dropped column is added again (and, later, when a column's type changes):
// compatible = values of `previous` compare the same under `type` (keys,
// set elements, map keys); value-compatible = values of `previous` read as
// valid values of `type` (cells).
#pragma once

#include "types/cql_type.h"

namespace tessel {

bool is_compatible_with(const CqlType& type, const CqlType& previous);
bool is_value_compatible_with(const CqlType& type, const CqlType& previous);

}  // namespace tessel
