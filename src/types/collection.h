// Reading and writing the native-protocol encoding of collections, tuples and
// UDTs, plus the canonical form of a value (sets and map keys sorted and
// deduplicated in CQL order, recursively), which is what cells store.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "types/cql_type.h"

namespace tessel::collection {

// list/set: one view per element; map: key, value, key, value... The views point
// into `bytes`, which must outlive them. Fails (Invalid) on truncation, trailing bytes, negative
// counts or null elements.
Result<std::vector<std::string_view>> read_elements(std::string_view bytes, bool is_map);
// Tuple/UDT fields in order; nullopt = null field. Missing trailing fields are
// simply absent from the result.
Result<std::vector<std::optional<std::string_view>>> read_fields(std::string_view bytes);

// [int n][int len][bytes]... For a map pass keys and values interleaved (n = size/2).
std::string write_elements(const std::vector<std::string>& elements, bool is_map);
std::string write_fields(const std::vector<std::optional<std::string>>& fields);

// Appends one [bytes] item (-1 length for nullopt).
void append_item(std::string* out, const std::optional<std::string_view>& item);

// Canonical form of a valid value: set elements and map keys sorted in CQL
// order with duplicates removed (the last duplicate map entry wins), applied
// recursively to nested collections, tuples and UDTs. Other values are returned
// unchanged. Precondition: validate_value(type, bytes) is ok.
std::string canonicalize(const CqlType& type, std::string_view bytes);

}  // namespace tessel::collection
