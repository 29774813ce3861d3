// Prepared plans: what prepare (cql/prepare.h) produces from a statement and
// the coordinator (query/coordinator.h) executes. Plans hold no request
// values: terms refer to bind markers, so one plan serves every execution.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "cql/ast.h"
#include "cql/plan_table.h"
#include "cql/plan_term.h"
#include "tessel/database.h"

namespace tessel::cql {

// The values one restriction admits for one or more key columns:
//   EQ t            -> alternatives {{t}}
//   IN (a, b)       -> alternatives {{a}, {b}}
//   IN ?            -> list_marker (a list<T>, or list<tuple<...>> for tuples)
//   (c1, c2) = (x, y) -> alternatives {{x, y}}
//   (c1, c2) = ?    -> tuple_marker
struct KeyValues {
    int width = 1;  // number of consecutive key columns covered
    std::vector<std::vector<TermPlan>> alternatives;
    std::optional<TermPlan> list_marker;
    std::optional<TermPlan> tuple_marker;
    bool is_in = false;
};

// One end of a slice over clustering columns [first, first + width): a value
// per column (single-column slice: width 1) or a tuple marker.
struct SliceBound {
    std::vector<TermPlan> values;
    std::optional<TermPlan> tuple_marker;
    int width = 1;
    bool inclusive = true;
};

struct TokenBound {
    TermPlan value;  // bigint
    bool inclusive = true;
};

// A restriction checked row by row (ALLOW FILTERING, or virtual tables).
struct Filter {
    int column = -1;
    Operator op = Operator::kEq;
    std::optional<TermPlan> value;    // not for IN
    KeyValues in_values;              // IN
    std::optional<TermPlan> map_key;  // col[key] = value
};

// WHERE, classified.
struct WherePlan {
    // Partition selection. `partition_values` has one entry per partition-key
    // part; empty when the partition key is not restricted by EQ/IN.
    std::vector<KeyValues> partition_values;
    std::optional<TokenBound> token_start, token_end;
    // Ordered tables: a range on a single-column partition key.
    std::optional<SliceBound> key_start, key_end;
    // Clustering: EQ/IN prefix parts (each covers `width` columns), then at
    // most one slice on the following column(s).
    std::vector<KeyValues> clustering_prefix;
    int clustering_prefix_columns = 0;
    std::optional<SliceBound> slice_start, slice_end;
    int slice_first_column = -1;  // clustering index the slice starts at
    std::vector<Filter> filters;

    bool partition_restricted() const { return !partition_values.empty(); }
};

// One selected expression.
struct SelectorPlan {
    enum class Kind {
        kColumn,     // a column's value
        kWritetime,  // writetime(col)
        kTtl,        // ttl(col)
        kToken,      // token(pk...)
        kFunction,   // scalar function over selectors
        kCast,       // CAST(arg AS type)
        kTerm,       // a constant or bind marker
        kCount,      // count(*) / count(col)
        kMin,
        kMax,
        kSum,
        kAvg,
        kField,  // udt.field
    };
    Kind kind = Kind::kColumn;
    int column = -1;
    TypePtr type;  // result type
    std::string name;
    const ScalarFunction* function = nullptr;
    std::vector<SelectorPlan> args;
    std::optional<TermPlan> term;
    int field_index = -1;

    bool is_aggregate() const {
        return kind == Kind::kCount || kind == Kind::kMin || kind == Kind::kMax ||
               kind == Kind::kSum || kind == Kind::kAvg;
    }
};

struct SelectPlan {
    TablePtr table;
    WherePlan where;
    std::vector<SelectorPlan> selectors;
    bool distinct = false;
    bool json = false;
    bool reversed = false;     // ORDER BY opposite to the clustering order
    bool order_by = false;     // ORDER BY written (IN queries then sort across partitions)
    bool aggregate = false;    // some selector aggregates, or GROUP BY
    int group_by_columns = 0;  // primary-key prefix length of GROUP BY
    std::optional<TermPlan> limit;
    std::optional<TermPlan> per_partition_limit;
    // Columns whose cells must be read (filters and selectors).
    std::vector<int> needed_columns;
    bool static_only = false;  // only partition-key / static columns selected
};

struct OperationPlan {
    enum class Kind {
        kSet,            // col = v
        kSetElement,     // col[k] = v (map key or list index)
        kSetField,       // col.f = v
        kAdd,            // counter +, list append, set union, map merge
        kSubtract,       // counter -, list/set/map element removal
        kPrepend,        // list prepend
        kDelete,         // DELETE col
        kDeleteElement,  // DELETE col[k]
        kDeleteField,    // DELETE col.f
    };
    Kind kind = Kind::kSet;
    int column = -1;
    std::optional<TermPlan> value;
    std::optional<TermPlan> key;
    int field_index = -1;
};

struct ConditionPlan {
    int column = -1;
    std::optional<TermPlan> element;  // col[element]
    int field_index = -1;             // col.field
    Operator op = Operator::kEq;
    std::optional<TermPlan> value;
    KeyValues in_values;
};

struct ModifyPlan {
    enum class Kind { kInsert, kUpdate, kDelete };
    Kind kind = Kind::kInsert;
    TablePtr table;
    WherePlan where;  // INSERT fills partition_values/clustering_prefix with EQs
    std::vector<OperationPlan> operations;
    std::optional<TermPlan> ttl;
    std::optional<TermPlan> timestamp;
    bool if_not_exists = false;
    bool if_exists = false;
    std::vector<ConditionPlan> conditions;
    // INSERT JSON: the document and whether omitted columns are left unset.
    std::optional<TermPlan> json;
    bool json_default_unset = false;
    bool is_conditional() const { return if_not_exists || if_exists || !conditions.empty(); }
};

struct BatchPlan {
    BatchStatement::Kind kind = BatchStatement::Kind::kLogged;
    std::vector<ModifyPlan> statements;
    std::optional<TermPlan> timestamp;
};

// Statements executed against the catalog; prepare only resolves the
// keyspace of the target.
struct SchemaPlan {
    Statement statement;
    std::string keyspace;  // the keyspace the statement applies to
};

struct UsePlan {
    std::string keyspace;
};

// Role and permission statements, run by the session's access control
// (query/access.h); `keyspace` resolves a table resource without one.
struct AuthPlan {
    AuthStatement statement;
    std::string keyspace;
};

struct Plan {
    std::variant<SelectPlan, ModifyPlan, BatchPlan, SchemaPlan, UsePlan, AuthPlan> node;
    std::vector<ColumnSpec> bind_specs;
    std::vector<uint16_t> partition_key_indexes;
    std::vector<ColumnSpec> result_columns;
    std::string text;
    std::string keyspace;  // session keyspace at prepare time
};

}  // namespace tessel::cql
