// The definitions of the system tables this node serves (system.local,
// system.peers and the nine system_schema tables, with Cassandra 3.11's
// exact columns and types) and of the system keyspaces Cassandra lists.
//
// One definition yields both the virtual table's schema_cql() and its rows
// in system_schema.tables / columns, so the two can never disagree.
#pragma once

#include <string>
#include <vector>

#include "system/schema_model.h"

namespace tessel::system {

struct BuiltinTable {
    std::string keyspace;
    std::string name;
    std::string comment;
    std::vector<ColumnModel> columns;  // the order of values in every row

    // "CREATE TABLE ks.name (col type, ..., PRIMARY KEY ((pk...), ck...))".
    std::string schema_cql() const;
    // The index of a column in `columns`; -1 when absent.
    int column_index(const std::string& column) const;
};

// system.local, system.peers, then system_schema.{keyspaces, tables, columns,
// types, functions, aggregates, triggers, indexes, views}.
const std::vector<BuiltinTable>& builtin_tables();
// The one with this keyspace and name; precondition: it exists.
const BuiltinTable& builtin_table(const std::string& keyspace, const std::string& name);

// system, system_schema, system_auth, system_distributed and system_traces,
// replicated as Cassandra 3.11 reports them, with the tables above attached.
std::vector<KeyspaceModel> builtin_keyspaces();
bool is_builtin_keyspace(const std::string& name);

// A stable 16-byte id (name-based, version 3 layout) for a built-in table.
std::string builtin_table_id(const std::string& keyspace, const std::string& table);

}  // namespace tessel::system
