#include "system/builtin_tables.h"

#include <cstdint>

namespace tessel::system {
namespace {

ColumnModel pk(std::string name, std::string type, int position = 0) {
    return {std::move(name), "partition_key", position, "none", std::move(type)};
}
ColumnModel ck(std::string name, std::string type, int position) {
    return {std::move(name), "clustering", position, "asc", std::move(type)};
}
ColumnModel col(std::string name, std::string type) {
    return {std::move(name), "regular", -1, "none", std::move(type)};
}

const char* kTextMap = "frozen<map<text, text>>";
const char* kTextList = "frozen<list<text>>";

// The table options columns shared by system_schema.tables and views.
void add_option_columns(std::vector<ColumnModel>* cols) {
    cols->push_back(col("bloom_filter_fp_chance", "double"));
    cols->push_back(col("caching", kTextMap));
    cols->push_back(col("cdc", "boolean"));
    cols->push_back(col("comment", "text"));
    cols->push_back(col("compaction", kTextMap));
    cols->push_back(col("compression", kTextMap));
    cols->push_back(col("crc_check_chance", "double"));
    cols->push_back(col("dclocal_read_repair_chance", "double"));
    cols->push_back(col("default_time_to_live", "int"));
    cols->push_back(col("extensions", "frozen<map<text, blob>>"));
}
void add_option_columns_tail(std::vector<ColumnModel>* cols) {
    cols->push_back(col("gc_grace_seconds", "int"));
    cols->push_back(col("id", "uuid"));
    cols->push_back(col("max_index_interval", "int"));
    cols->push_back(col("memtable_flush_period_in_ms", "int"));
    cols->push_back(col("min_index_interval", "int"));
    cols->push_back(col("read_repair_chance", "double"));
    cols->push_back(col("speculative_retry", "text"));
}

// system_schema.columns and system_virtual_schema.columns describe columns
// the same way.
std::vector<ColumnModel> column_definition_columns() {
    return {pk("keyspace_name", "text"),      ck("table_name", "text", 0),
            ck("column_name", "text", 1),     col("clustering_order", "text"),
            col("column_name_bytes", "blob"), col("kind", "text"),
            col("position", "int"),           col("type", "text")};
}

std::vector<BuiltinTable> make_tables() {
    std::vector<BuiltinTable> t;
    t.push_back({"system",
                 "local",
                 "information about the local node",
                 {pk("key", "text"),
                  col("bootstrapped", "text"),
                  col("broadcast_address", "inet"),
                  col("broadcast_port", "int"),
                  col("cluster_name", "text"),
                  col("cql_version", "text"),
                  col("data_center", "text"),
                  col("gossip_generation", "int"),
                  col("host_id", "uuid"),
                  col("listen_address", "inet"),
                  col("listen_port", "int"),
                  col("native_protocol_version", "text"),
                  col("partitioner", "text"),
                  col("rack", "text"),
                  col("release_version", "text"),
                  col("rpc_address", "inet"),
                  col("rpc_port", "int"),
                  col("schema_version", "uuid"),
                  col("tokens", "set<text>"),
                  col("truncated_at", "map<uuid, blob>")}});
    t.push_back(
        {"system",
         "peers",
         "information about known peers in the cluster",
         {pk("peer", "inet"), col("data_center", "text"), col("host_id", "uuid"),
          col("preferred_ip", "inet"), col("rack", "text"), col("release_version", "text"),
          col("rpc_address", "inet"), col("schema_version", "uuid"), col("tokens", "set<text>")}});
    t.push_back({"system",
                 "peers_v2",
                 "information about known peers in the cluster",
                 {pk("peer", "inet"), ck("peer_port", "int", 0), col("data_center", "text"),
                  col("host_id", "uuid"), col("native_address", "inet"), col("native_port", "int"),
                  col("preferred_ip", "inet"), col("preferred_port", "int"), col("rack", "text"),
                  col("release_version", "text"), col("schema_version", "uuid"),
                  col("tokens", "set<text>")}});
    t.push_back({"system_schema",
                 "keyspaces",
                 "keyspace definitions",
                 {pk("keyspace_name", "text"), col("durable_writes", "boolean"),
                  col("replication", kTextMap)}});
    {
        BuiltinTable tables{"system_schema",
                            "tables",
                            "table definitions",
                            {pk("keyspace_name", "text"), ck("table_name", "text", 0)}};
        add_option_columns(&tables.columns);
        tables.columns.push_back(col("flags", "frozen<set<text>>"));
        add_option_columns_tail(&tables.columns);
        t.push_back(std::move(tables));
    }
    t.push_back({"system_schema", "columns", "column definitions", column_definition_columns()});
    t.push_back({"system_schema",
                 "types",
                 "user defined type definitions",
                 {pk("keyspace_name", "text"), ck("type_name", "text", 0),
                  col("field_names", kTextList), col("field_types", kTextList)}});
    t.push_back({"system_schema",
                 "functions",
                 "user defined function definitions",
                 {pk("keyspace_name", "text"), ck("function_name", "text", 0),
                  ck("argument_types", kTextList, 1), col("argument_names", kTextList),
                  col("body", "text"), col("called_on_null_input", "boolean"),
                  col("language", "text"), col("return_type", "text")}});
    t.push_back(
        {"system_schema",
         "aggregates",
         "user defined aggregate definitions",
         {pk("keyspace_name", "text"), ck("aggregate_name", "text", 0),
          ck("argument_types", kTextList, 1), col("final_func", "text"), col("initcond", "text"),
          col("return_type", "text"), col("state_func", "text"), col("state_type", "text")}});
    t.push_back({"system_schema",
                 "triggers",
                 "trigger definitions",
                 {pk("keyspace_name", "text"), ck("table_name", "text", 0),
                  ck("trigger_name", "text", 1), col("options", kTextMap)}});
    t.push_back({"system_schema",
                 "indexes",
                 "secondary index definitions",
                 {pk("keyspace_name", "text"), ck("table_name", "text", 0),
                  ck("index_name", "text", 1), col("kind", "text"), col("options", kTextMap)}});
    {
        BuiltinTable views{"system_schema",
                           "views",
                           "view definitions",
                           {pk("keyspace_name", "text"), ck("view_name", "text", 0),
                            col("base_table_id", "uuid"), col("base_table_name", "text")}};
        add_option_columns(&views.columns);
        add_option_columns_tail(&views.columns);
        views.columns.push_back(col("include_all_columns", "boolean"));
        views.columns.push_back(col("where_clause", "text"));
        t.push_back(std::move(views));
    }
    // Cassandra 4.0's description of its virtual tables (listed only here,
    // never in system_schema).
    t.push_back({"system_virtual_schema",
                 "keyspaces",
                 "virtual keyspace definitions",
                 {pk("keyspace_name", "text")}});
    t.push_back(
        {"system_virtual_schema",
         "tables",
         "virtual table definitions",
         {pk("keyspace_name", "text"), ck("table_name", "text", 0), col("comment", "text")}});
    t.push_back({"system_virtual_schema", "columns", "virtual column definitions",
                 column_definition_columns()});
    return t;
}

uint64_t fnv1a(const std::string& s, uint64_t seed) {
    uint64_t h = 0xcbf29ce484222325ull ^ seed;
    for (unsigned char c : s) {
        h ^= c;
        h *= 0x100000001b3ull;
    }
    return h;
}

}  // namespace

std::string BuiltinTable::schema_cql() const {
    std::string cql = "CREATE TABLE " + keyspace + "." + name + " (";
    std::vector<std::string> partition, clustering;
    for (const auto& c : columns) {
        // Rows hold each collection as one encoded value, so the virtual table
        // declares it frozen (the same on the wire); system_schema.columns
        // still shows Cassandra's own type text.
        bool collection =
            c.type.starts_with("set<") || c.type.starts_with("list<") || c.type.starts_with("map<");
        cql += c.name + " " + (collection ? "frozen<" + c.type + ">" : c.type) + ", ";
        if (c.kind == "partition_key") partition.push_back(c.name);
        if (c.kind == "clustering") clustering.push_back(c.name);
    }
    cql += "PRIMARY KEY ((";
    for (size_t i = 0; i < partition.size(); ++i)
        cql += (i ? ", " : "") + partition[i];
    cql += ")";
    for (const auto& c : clustering)
        cql += ", " + c;
    cql += "))";
    return cql;
}

int BuiltinTable::column_index(const std::string& column) const {
    for (size_t i = 0; i < columns.size(); ++i) {
        if (columns[i].name == column) return static_cast<int>(i);
    }
    return -1;
}

const std::vector<BuiltinTable>& builtin_tables() {
    static const std::vector<BuiltinTable> tables = make_tables();
    return tables;
}

const BuiltinTable& builtin_table(const std::string& keyspace, const std::string& name) {
    for (const auto& t : builtin_tables()) {
        if (t.keyspace == keyspace && t.name == name) return t;
    }
    return builtin_tables().front();  // unreachable for the names this module uses
}

std::string builtin_table_id(const std::string& keyspace, const std::string& table) {
    std::string key = keyspace + "." + table;
    uint64_t hi = fnv1a(key, 0), lo = fnv1a(key, 0x9e3779b97f4a7c15ull);
    std::string id(16, '\0');
    for (int i = 0; i < 8; ++i) {
        id[i] = static_cast<char>(hi >> (56 - 8 * i));
        id[8 + i] = static_cast<char>(lo >> (56 - 8 * i));
    }
    id[6] = static_cast<char>((id[6] & 0x0F) | 0x30);  // version 3 (name-based)
    id[8] = static_cast<char>((id[8] & 0x3F) | 0x80);  // IETF variant
    return id;
}

bool is_builtin_keyspace(const std::string& name) {
    return name == "system" || name == "system_schema" || name == "system_auth" ||
           name == "system_distributed" || name == "system_traces";
}

std::vector<KeyspaceModel> builtin_keyspaces() {
    const std::string local = "org.apache.cassandra.locator.LocalStrategy";
    const std::string simple = "org.apache.cassandra.locator.SimpleStrategy";
    std::vector<KeyspaceModel> out;
    out.push_back({"system", true, {{"class", local}}, {}, {}});
    out.push_back({"system_auth", true, {{"class", simple}, {"replication_factor", "1"}}, {}, {}});
    out.push_back(
        {"system_distributed", true, {{"class", simple}, {"replication_factor", "3"}}, {}, {}});
    out.push_back({"system_schema", true, {{"class", local}}, {}, {}});
    out.push_back(
        {"system_traces", true, {{"class", simple}, {"replication_factor", "2"}}, {}, {}});
    for (const auto& t : builtin_tables()) {
        for (auto& ks : out) {
            if (ks.name != t.keyspace) continue;
            TableModel table;
            table.name = t.name;
            table.id = builtin_table_id(t.keyspace, t.name);
            table.options.comment = t.comment;
            table.options.gc_grace_seconds = 0;
            table.options.dclocal_read_repair_chance = 0.0;
            table.columns = t.columns;
            ks.tables.push_back(std::move(table));
        }
    }
    return out;
}

}  // namespace tessel::system
