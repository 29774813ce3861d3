// DESCRIBE: CQL text that recreates a keyspace, table or user type, formatted
// exactly as cqlsh 3.11 prints it (through the Python driver's as_cql_query).
#pragma once

#include <string>
#include <string_view>

#include "schema/keyspace.h"
#include "schema/table.h"

namespace tessel {

// An identifier as cqlsh prints it: unchanged when it matches [a-z][a-z0-9_]*
// and is not a reserved keyword, otherwise double-quoted with '"' doubled.
std::string protect_name(std::string_view name);

// "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy',
// 'replication_factor': '1'}  AND durable_writes = true;"
std::string describe_keyspace(const KeyspaceDef& ks);

// "CREATE TABLE ks.t (\n    a int,\n ...\n) WITH CLUSTERING ORDER BY (c DESC)\n
//     AND bloom_filter_fp_chance = 0.01\n ... AND speculative_retry = '99PERCENTILE';"
// Tessel's layout options appear among the others (alphabetically) when they
// are not the defaults.
std::string describe_table(const TableDef& table);

// "CREATE TYPE ks.address (\n    street text,\n    city text\n);"
std::string describe_type(const UserTypeDef& type);

// DESCRIBE KEYSPACE: the keyspace, its types (each after the types it uses)
// and its tables, separated by blank lines.
std::string describe_keyspace_full(const KeyspaceDef& ks);

}  // namespace tessel
