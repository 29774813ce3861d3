// TableSpec and build_table: CREATE TABLE as the CQL layer hands it over, and
// its validation into a TableDef with Cassandra's rules and messages.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "schema/keyspace.h"
#include "schema/table.h"
#include "schema/table_options.h"
#include "schema/type_spec.h"

namespace tessel {

struct ColumnDeclaration {
    std::string name;
    TypeSpec type;
    bool is_static = false;
};

struct TableSpec {
    std::string keyspace;
    std::string name;
    std::vector<ColumnDeclaration> columns;   // in declaration order
    std::vector<std::string> partition_key;   // PRIMARY KEY ((a, b), ...)
    std::vector<std::string> clustering_key;  // PRIMARY KEY (..., c, d)
    // WITH CLUSTERING ORDER BY (c DESC, d ASC), as written.
    std::vector<std::pair<std::string, ClusteringOrder>> clustering_order;
    TableOptions options;    // already parsed with apply_table_option
    std::optional<Uuid> id;  // WITH id = ...; a fresh one otherwise
};

// Validates `spec` against `schema` (its user types) and builds the table.
// Errors are Invalid (or Config_error for options) with Cassandra 3.11's
// messages: "Multiple definition of identifier a", "No PRIMARY KEY specifed
// (exactly one required)", "Unknown definition x referenced in PRIMARY KEY",
// "Invalid non-frozen collection type for PRIMARY KEY component k",
// "counter type is not supported for PRIMARY KEY part k", "Static columns are
// only useful (and thus allowed) if the table has at least one clustering
// column", "Cannot mix counter and non counter columns in the same table",
// "Missing CLUSTERING ORDER for column c", ... Does not check whether the
// keyspace exists or the table already does (the catalog does).
Result<TableDef> build_table(const Schema& schema, const TableSpec& spec);

// Cassandra's keyspace/table name rule: [a-zA-Z_0-9]+ and at most 48 characters.
bool is_valid_schema_name(std::string_view name);
// Just the character rule: [a-zA-Z_0-9]+.
bool is_word(std::string_view name);

// Checks that write_sharding / time_bucket name suitable columns of `table`
// (Invalid otherwise). Used at creation and after column changes.
Status validate_layout_columns(const TableDef& table);

// Checks a type given to a non-primary-key column (Cassandra's rule that a
// non-frozen user type may not hold non-frozen collections).
Status validate_non_key_column_type(const CqlType& type);

}  // namespace tessel
