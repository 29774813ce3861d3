// Evaluating bound terms (cql/plan_term.h) against a request's values.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "cql/plan_term.h"
#include "tessel/database.h"

namespace tessel::query {

struct TermValue {
    enum class Kind { kValue, kNull, kUnset };
    Kind kind = Kind::kNull;
    std::string bytes;

    bool is_value() const { return kind == Kind::kValue; }
    bool is_null() const { return kind == Kind::kNull; }
    bool is_unset() const { return kind == Kind::kUnset; }
    static TermValue value(std::string b) { return {Kind::kValue, std::move(b)}; }
};

// Evaluates `term`. Bound values are validated against the marker's type
// (Invalid naming the problem); a missing value is an error.
Result<TermValue> evaluate(const cql::TermPlan& term, const std::vector<BoundValue>& values);

// Native-protocol collection encoding helpers (v3+ int lengths).
std::string encode_collection(const std::vector<std::string>& elements);  // list/set
std::string encode_map(const std::vector<std::pair<std::string, std::string>>& entries);
// Splits a list/set/map value into its elements (a map gives key, value
// alternating). Empty input is an empty collection.
Result<std::vector<std::string>> split_collection(const CqlType& type, std::string_view bytes);

}  // namespace tessel::query
