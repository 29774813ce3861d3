// Helpers for WHERE classification (prepare_where.cpp): operator kinds and
// binding the values of key relations.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cql/prepare.h"

namespace tessel::cql {

bool is_slice(Operator op);
bool is_start(Operator op);
bool is_inclusive(Operator op);
const char* op_text(Operator op);

// The values of `col = t`, `col IN (...)` or `col IN ?`.
Result<KeyValues> single_values(const Relation& r, const ColumnInfo& col, BindContext* ctx);

// The components of a tuple term for columns `cols`; a bind marker for the
// whole tuple is returned in *marker instead (and the result is empty).
Result<std::vector<TermPlan>> tuple_terms(const Term& t, const std::vector<const ColumnInfo*>& cols,
                                          std::optional<TermPlan>* marker, BindContext* ctx);

}  // namespace tessel::cql
