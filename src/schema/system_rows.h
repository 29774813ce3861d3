// The schema as the rows of Cassandra 3.11's system_schema tables.
//
// Plain values (text, numbers, maps, lists of text), in the order Cassandra
// returns the rows, so the virtual-table code only has to encode them. Column
// types follow the reference: replication/caching/compaction/compression are
// map<text, text>, extensions map<text, blob>, flags set<text>, field_names and
// field_types list<text>, id a uuid.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "schema/keyspace.h"
#include "schema/table.h"

namespace tessel {

struct KeyspaceRow {  // system_schema.keyspaces
    std::string keyspace_name;
    bool durable_writes = true;
    StringMap replication;
};

struct TableRow {  // system_schema.tables
    std::string keyspace_name;
    std::string table_name;
    double bloom_filter_fp_chance = 0;
    StringMap caching;
    std::string comment;
    StringMap compaction;
    StringMap compression;
    double crc_check_chance = 0;
    double dclocal_read_repair_chance = 0;
    int32_t default_time_to_live = 0;
    StringMap extensions;
    std::vector<std::string> flags;
    int32_t gc_grace_seconds = 0;
    Uuid id;
    int32_t max_index_interval = 0;
    int32_t memtable_flush_period_in_ms = 0;
    int32_t min_index_interval = 0;
    double read_repair_chance = 0;
    std::string speculative_retry;
};

struct ColumnRow {  // system_schema.columns
    std::string keyspace_name;
    std::string table_name;
    std::string column_name;
    std::string clustering_order;  // 'asc' | 'desc' | 'none'
    std::string kind;              // 'partition_key' | 'clustering' | 'static' | 'regular'
    int32_t position = -1;
    std::string type;  // cql_name(), e.g. "frozen<list<int>>"
};

struct DroppedColumnRow {  // system_schema.dropped_columns
    std::string keyspace_name;
    std::string table_name;
    std::string column_name;
    int64_t dropped_time_micros = 0;
    std::string kind;
    std::string type;
};

struct TypeRow {  // system_schema.types
    std::string keyspace_name;
    std::string type_name;
    std::vector<std::string> field_names;
    std::vector<std::string> field_types;
};

// Rows in clustering order: keyspaces by name, tables by (keyspace, name),
// columns by (keyspace, table, column name).
std::vector<KeyspaceRow> keyspace_rows(const Schema& schema);
std::vector<TableRow> table_rows(const Schema& schema);
TableRow table_row(const TableDef& table);
std::vector<ColumnRow> column_rows(const Schema& schema);
std::vector<ColumnRow> column_rows(const TableDef& table);
std::vector<DroppedColumnRow> dropped_column_rows(const Schema& schema);
std::vector<TypeRow> type_rows(const Schema& schema);

}  // namespace tessel
