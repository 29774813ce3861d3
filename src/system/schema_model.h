// The schema as the system_schema tables describe it: plain values copied
// from one catalog snapshot (catalog_adapter.cpp) or from the built-in
// definitions of the system keyspaces (builtin_tables.cpp).
//
// Keeping the rows' source separate from the catalog's own types means the
// row builders (schema_tables.cpp) only know Cassandra's column layout.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace tessel::system {

struct ColumnModel {
    std::string name;
    std::string kind;              // partition_key | clustering | regular | static
    int position = -1;             // component index for key columns, -1 otherwise
    std::string clustering_order;  // asc | desc | none
    std::string type;              // CQL text: "int", "frozen<map<text, int>>", ...
};

// Cassandra 3.11's table options, with its defaults.
struct TableOptionsModel {
    double bloom_filter_fp_chance = 0.01;
    std::map<std::string, std::string> caching = {{"keys", "ALL"}, {"rows_per_partition", "NONE"}};
    bool cdc = false;
    std::string comment;
    std::map<std::string, std::string> compaction = {
        {"class", "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy"},
        {"max_threshold", "32"},
        {"min_threshold", "4"}};
    std::map<std::string, std::string> compression = {
        {"chunk_length_in_kb", "64"}, {"class", "org.apache.cassandra.io.compress.LZ4Compressor"}};
    double crc_check_chance = 1.0;
    double dclocal_read_repair_chance = 0.1;
    int default_time_to_live = 0;
    std::map<std::string, std::string> extensions;  // map<text, blob>
    int gc_grace_seconds = 864000;
    int max_index_interval = 2048;
    int memtable_flush_period_in_ms = 0;
    int min_index_interval = 128;
    double read_repair_chance = 0.0;
    std::string speculative_retry = "99PERCENTILE";
};

struct TableModel {
    std::string name;
    std::string id;  // 16 raw bytes
    TableOptionsModel options;
    std::vector<std::string> flags = {"compound"};  // plus "counter" for counter tables
    std::vector<ColumnModel> columns;               // in declaration order
};

struct TypeModel {
    std::string name;
    std::vector<std::string> field_names;
    std::vector<std::string> field_types;  // CQL text
};

struct KeyspaceModel {
    std::string name;
    bool durable_writes = true;
    std::map<std::string, std::string> replication;
    std::vector<TableModel> tables;
    std::vector<TypeModel> types;
};

struct SchemaModel {
    std::vector<KeyspaceModel> keyspaces;
    std::string version;  // 16 raw bytes; empty when the source has none
};

}  // namespace tessel::system
