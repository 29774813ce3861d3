// Binding AST terms to the type of what receives them (a column, a
// collection element, a function argument), with Cassandra's error messages.
#pragma once

#include <string>
#include <vector>

#include "common/status.h"
#include "cql/ast.h"
#include "cql/plan_term.h"
#include "tessel/database.h"

namespace tessel::cql {

// Collects the specification of every bind marker of a statement as the
// terms holding them are bound.
struct BindContext {
    std::string keyspace;
    std::string table;
    std::vector<ColumnSpec> specs;  // one per marker, by marker index
    std::vector<bool> seen;

    explicit BindContext(size_t marker_count) : specs(marker_count), seen(marker_count, false) {}
    void record(int index, const std::string& name, TypePtr type);
};

// Binds `term` to a receiver of type `receiver` named `name` (a column name,
// or Cassandra's names for parts: "value(m)", "key(m)", "[ttl]").
Result<TermPlan> prepare_term(const Term& term, const TypePtr& receiver, const std::string& name,
                              BindContext* ctx);

// Whether a value of type `from` may be stored where `to` is expected
// (identical types, or text/varchar spellings of the same type).
bool type_assignable(const CqlType& to, const CqlType& from);

}  // namespace tessel::cql
