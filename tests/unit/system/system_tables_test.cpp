#include "system/system_tables.h"

#include <gtest/gtest.h>

#include <map>

#include "schema/catalog.h"
#include "system/builtin_tables.h"
#include "system/cell_encoding.h"
#include "system/node_token.h"
#include "types/bytes_util.h"

namespace tessel::system {
namespace {

// Decodes a collection of text elements ([int] n, then n x [bytes]).
std::vector<std::string> text_elements(const std::string& v) {
    std::vector<std::string> out;
    size_t pos = 4;
    uint32_t n = bytes::read_u32(v);
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t len = bytes::read_u32(std::string_view(v).substr(pos));
        out.push_back(v.substr(pos + 4, len));
        pos += 4 + len;
    }
    EXPECT_EQ(pos, v.size());
    return out;
}

// Decodes a map<text, text> ([int] n, then n x ([bytes] key, [bytes] value)).
std::map<std::string, std::string> text_map(const std::string& v) {
    std::map<std::string, std::string> m;
    std::string_view rest(v);
    uint32_t n = bytes::read_u32(rest);
    rest.remove_prefix(4);
    auto next = [&] {
        uint32_t len = bytes::read_u32(rest);
        std::string s(rest.substr(4, len));
        rest.remove_prefix(4 + len);
        return s;
    };
    for (uint32_t i = 0; i < n; ++i) {
        std::string k = next();
        m[k] = next();
    }
    EXPECT_TRUE(rest.empty());
    return m;
}

class SystemTablesTest : public ::testing::Test {
  protected:
    SystemTablesTest() {
        node.cluster_name = "Test Cluster";
        node.host_id =
            std::string("\x01\x02\x03\x04\x05\x06\x47\x08\x89\x0a\x0b\x0c\x0d\x0e\x0f\x10", 16);
        tables = make_system_tables(node, catalog);
    }

    const query::VirtualTable* table(const std::string& ks, const std::string& name) {
        for (const auto& t : tables) {
            if (t->keyspace() == ks && t->name() == name) return t.get();
        }
        return nullptr;
    }

    // Rows of a table as maps column -> value (null cells left out).
    std::vector<std::map<std::string, std::string>> rows(const std::string& ks,
                                                         const std::string& name) {
        const auto* t = table(ks, name);
        EXPECT_NE(t, nullptr);
        const BuiltinTable& def = builtin_table(ks, name);
        auto r = t->rows();
        EXPECT_TRUE(r.is_ok());
        std::vector<std::map<std::string, std::string>> out;
        for (const auto& row : *r) {
            EXPECT_EQ(row.size(), def.columns.size());
            std::map<std::string, std::string> m;
            for (size_t i = 0; i < row.size(); ++i) {
                if (row[i]) m[def.columns[i].name] = *row[i];
            }
            out.push_back(std::move(m));
        }
        return out;
    }

    void create_schema() {
        KeyspaceOptions ko;
        ko.replication = StringMap{{"class", "SimpleStrategy"}, {"replication_factor", "1"}};
        ASSERT_TRUE(catalog.create_keyspace("ks", ko).is_ok());
        ASSERT_TRUE(catalog
                        .create_type("ks", "address",
                                     {{"street", TypeSpec::simple("text")},
                                      {"zip", TypeSpec::simple("int")}})
                        .is_ok());
        TableSpec spec;
        spec.keyspace = "ks";
        spec.name = "events";
        TypeSpec addr = TypeSpec::simple("address");
        addr.frozen = true;
        TypeSpec tags{"set", {}, {TypeSpec::simple("text")}, false};
        spec.columns = {{"a", TypeSpec::simple("int"), false},
                        {"b", TypeSpec::simple("text"), false},
                        {"c", TypeSpec::simple("timestamp"), false},
                        {"v", TypeSpec::simple("text"), false},
                        {"addr", addr, false},
                        {"tags", tags, false}};
        spec.partition_key = {"a", "b"};
        spec.clustering_key = {"c"};
        spec.clustering_order = {{"c", ClusteringOrder::kDesc}};
        auto r = catalog.create_table(spec);
        ASSERT_TRUE(r.is_ok()) << r.status().message();
    }

    Catalog catalog;
    NodeInfo node;
    std::vector<std::unique_ptr<query::VirtualTable>> tables;
};

TEST_F(SystemTablesTest, ServesLocalPeersTheNineSchemaTablesAndTheVirtualSchema) {
    std::vector<std::string> names;
    for (const auto& t : tables)
        names.push_back(t->keyspace() + "." + t->name());
    EXPECT_EQ(names,
              (std::vector<std::string>{
                  "system.local", "system.peers", "system.peers_v2", "system_schema.keyspaces",
                  "system_schema.tables", "system_schema.columns", "system_schema.types",
                  "system_schema.functions", "system_schema.aggregates", "system_schema.triggers",
                  "system_schema.indexes", "system_schema.views", "system_virtual_schema.keyspaces",
                  "system_virtual_schema.tables", "system_virtual_schema.columns"}));
}

TEST_F(SystemTablesTest, PeersV2HasCassandra40sColumnsAndRows) {
    EXPECT_EQ(table("system", "peers_v2")->schema_cql(),
              "CREATE TABLE system.peers_v2 (peer inet, peer_port int, data_center text, "
              "host_id uuid, native_address inet, native_port int, preferred_ip inet, "
              "preferred_port int, rack text, release_version text, schema_version uuid, "
              "tokens frozen<set<text>>, PRIMARY KEY ((peer), peer_port))");
    EXPECT_TRUE(rows("system", "peers_v2").empty());
    PeerInfo p;
    p.host_id = std::string(16, '\x07');
    p.listen_address = "127.0.0.2";
    p.storage_port = 7001;
    p.rpc_address = "127.0.0.3";
    p.native_port = 9043;
    p.data_center = "dc2";
    p.rack = "r2";
    p.release_version = kReleaseVersion;
    p.tokens = {"5"};
    tables = make_system_tables(node, catalog, [p] { return std::vector<PeerInfo>{p}; });
    auto r = rows("system", "peers_v2");
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0]["peer"], std::string("\x7f\x00\x00\x02", 4));
    EXPECT_EQ(r[0]["peer_port"], std::string("\x00\x00\x1b\x59", 4));
    EXPECT_EQ(r[0]["native_address"], std::string("\x7f\x00\x00\x03", 4));
    EXPECT_EQ(r[0]["native_port"], std::string("\x00\x00\x23\x53", 4));
    EXPECT_EQ(r[0]["data_center"], "dc2");
    EXPECT_EQ(r[0]["release_version"], "4.0.11");
    EXPECT_EQ(r[0]["host_id"], p.host_id);
}

TEST_F(SystemTablesTest, VirtualSchemaDescribesItself) {
    auto ks = rows("system_virtual_schema", "keyspaces");
    ASSERT_EQ(ks.size(), 1u);
    EXPECT_EQ(ks[0]["keyspace_name"], "system_virtual_schema");
    std::vector<std::string> names;
    for (auto& r : rows("system_virtual_schema", "tables"))
        names.push_back(r["table_name"]);
    EXPECT_EQ(names, (std::vector<std::string>{"keyspaces", "tables", "columns"}));
    size_t columns = 0;
    for (auto& r : rows("system_virtual_schema", "columns")) {
        EXPECT_EQ(r["keyspace_name"], "system_virtual_schema");
        ++columns;
    }
    EXPECT_EQ(columns, 1u + 3u + 8u);
}

TEST_F(SystemTablesTest, SchemaCqlHasCassandrasColumnsAndKeys) {
    EXPECT_EQ(table("system", "peers")->schema_cql(),
              "CREATE TABLE system.peers (peer inet, data_center text, host_id uuid, "
              "preferred_ip inet, rack text, release_version text, rpc_address inet, "
              "schema_version uuid, tokens frozen<set<text>>, PRIMARY KEY ((peer)))");
    EXPECT_EQ(table("system_schema", "columns")->schema_cql(),
              "CREATE TABLE system_schema.columns (keyspace_name text, table_name text, "
              "column_name text, clustering_order text, column_name_bytes blob, kind text, "
              "position int, type text, PRIMARY KEY ((keyspace_name), table_name, column_name))");
    std::string local = table("system", "local")->schema_cql();
    for (const char* col : {"key text",
                            "bootstrapped text",
                            "broadcast_address inet",
                            "broadcast_port int",
                            "cluster_name text",
                            "cql_version text",
                            "data_center text",
                            "gossip_generation int",
                            "host_id uuid",
                            "listen_address inet",
                            "listen_port int",
                            "native_protocol_version text",
                            "partitioner text",
                            "rack text",
                            "release_version text",
                            "rpc_address inet",
                            "rpc_port int",
                            "schema_version uuid",
                            "tokens frozen<set<text>>",
                            "truncated_at frozen<map<uuid, blob>>"}) {
        EXPECT_NE(local.find(col), std::string::npos) << col;
    }
    EXPECT_EQ(local.find("dse_version"), std::string::npos);
    EXPECT_EQ(local.find("thrift_version"), std::string::npos);  // gone in 4.0
    std::string tables_cql = table("system_schema", "tables")->schema_cql();
    for (const char* col :
         {"bloom_filter_fp_chance double", "caching frozen<map<text, text>>", "comment text",
          "compaction frozen<map<text, text>>", "compression frozen<map<text, text>>",
          "crc_check_chance double", "dclocal_read_repair_chance double",
          "default_time_to_live int", "extensions frozen<map<text, blob>>",
          "flags frozen<set<text>>", "gc_grace_seconds int", "id uuid", "max_index_interval int",
          "memtable_flush_period_in_ms int", "min_index_interval int", "read_repair_chance double",
          "speculative_retry text", "PRIMARY KEY ((keyspace_name), table_name)"}) {
        EXPECT_NE(tables_cql.find(col), std::string::npos) << col;
    }
    EXPECT_NE(table("system_schema", "functions")
                  ->schema_cql()
                  .find("PRIMARY KEY ((keyspace_name), function_name, argument_types)"),
              std::string::npos);
}

TEST_F(SystemTablesTest, LocalHasExactlyOneCompleteRow) {
    auto r = rows("system", "local");
    ASSERT_EQ(r.size(), 1u);
    auto& row = r[0];
    EXPECT_EQ(row["key"], "local");
    EXPECT_EQ(row["bootstrapped"], "COMPLETED");
    EXPECT_EQ(row["cluster_name"], "Test Cluster");
    EXPECT_EQ(row["cql_version"], "3.4.4");
    EXPECT_EQ(row["release_version"], "4.0.11");
    EXPECT_EQ(row["rpc_port"], std::string("\x00\x00\x23\x52", 4));     // 9042
    EXPECT_EQ(row["listen_port"], std::string("\x00\x00\x1b\x58", 4));  // 7000
    EXPECT_EQ(row["native_protocol_version"], "4");
    EXPECT_EQ(row["partitioner"], "org.apache.cassandra.dht.Murmur3Partitioner");
    EXPECT_EQ(row["data_center"], "datacenter1");
    EXPECT_EQ(row["rack"], "rack1");
    EXPECT_EQ(row["host_id"], node.host_id);
    EXPECT_EQ(row["rpc_address"], std::string("\x7f\x00\x00\x01", 4));
    EXPECT_EQ(row["schema_version"], catalog.version().raw());
    EXPECT_EQ(row.count("truncated_at"), 0u);
    auto tokens = text_elements(row["tokens"]);
    ASSERT_EQ(tokens.size(), 1u);
    EXPECT_EQ(tokens[0], default_token_for_host(node.host_id));
    // A decimal signed 64-bit integer.
    size_t used = 0;
    (void)std::stoll(tokens[0], &used);
    EXPECT_EQ(used, tokens[0].size());
    EXPECT_TRUE(rows("system", "peers").empty());
}

TEST_F(SystemTablesTest, ConfiguredTokensAndSchemaVersionFollowTheCatalog) {
    node.tokens = {"-100", "200"};
    tables = make_system_tables(node, catalog);
    std::string before = rows("system", "local")[0]["schema_version"];
    EXPECT_EQ(text_elements(rows("system", "local")[0]["tokens"]),
              (std::vector<std::string>{"-100", "200"}));
    create_schema();
    std::string after = rows("system", "local")[0]["schema_version"];
    EXPECT_NE(before, after);
    EXPECT_EQ(after, catalog.version().raw());
}

TEST_F(SystemTablesTest, KeyspacesListSystemKeyspacesAndUserOnes) {
    create_schema();
    std::map<std::string, std::map<std::string, std::string>> by_name;
    for (auto& r : rows("system_schema", "keyspaces"))
        by_name[r["keyspace_name"]] = r;
    for (const char* ks :
         {"system", "system_schema", "system_auth", "system_distributed", "system_traces", "ks"}) {
        ASSERT_EQ(by_name.count(ks), 1u) << ks;
        EXPECT_EQ(by_name[ks]["durable_writes"], std::string(1, '\x01'));
    }
    EXPECT_EQ(text_map(by_name["ks"]["replication"]),
              (std::map<std::string, std::string>{
                  {"class", "org.apache.cassandra.locator.SimpleStrategy"},
                  {"replication_factor", "1"}}));
    EXPECT_EQ(text_map(by_name["system"]["replication"]).at("class"),
              "org.apache.cassandra.locator.LocalStrategy");
}

TEST_F(SystemTablesTest, TablesColumnsAndTypesDescribeTheUserSchema) {
    create_schema();
    auto snapshot = catalog.snapshot();
    auto def = snapshot->table("ks", "events");
    ASSERT_TRUE(def);

    std::map<std::string, std::string> t;
    for (auto& r : rows("system_schema", "tables")) {
        if (r["keyspace_name"] == "ks") t = r;
    }
    ASSERT_EQ(t["table_name"], "events");
    EXPECT_EQ(text_elements(t["flags"]), std::vector<std::string>{"compound"});
    EXPECT_EQ(t["id"], def->id.raw());
    EXPECT_EQ(t["gc_grace_seconds"], bytes::i32_bytes(864000));
    EXPECT_EQ(t["speculative_retry"], "99PERCENTILE");
    EXPECT_EQ(text_map(t["caching"]).at("keys"), "ALL");
    EXPECT_EQ(text_map(t["compaction"]).at("class"),
              "org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy");
    EXPECT_EQ(t["extensions"], std::string(4, '\0'));  // an empty map, not null

    std::map<std::string, std::map<std::string, std::string>> cols;
    for (auto& r : rows("system_schema", "columns")) {
        if (r["keyspace_name"] == "ks") cols[r["column_name"]] = r;
    }
    ASSERT_EQ(cols.size(), 6u);
    auto check = [&](const char* name, const char* kind, int position, const char* order,
                     const char* type) {
        auto& c = cols[name];
        EXPECT_EQ(c["table_name"], "events");
        EXPECT_EQ(c["kind"], kind) << name;
        EXPECT_EQ(c["position"], bytes::i32_bytes(position)) << name;
        EXPECT_EQ(c["clustering_order"], order) << name;
        EXPECT_EQ(c["type"], type) << name;
        EXPECT_EQ(c["column_name_bytes"], name);
    };
    check("a", "partition_key", 0, "none", "int");
    check("b", "partition_key", 1, "none", "text");
    check("c", "clustering", 0, "desc", "timestamp");
    check("v", "regular", -1, "none", "text");
    check("addr", "regular", -1, "none", "frozen<address>");
    check("tags", "regular", -1, "none", "set<text>");

    // System tables are described too, with their real column types.
    bool saw_local_tokens = false;
    for (auto& r : rows("system_schema", "columns")) {
        if (r["keyspace_name"] == "system" && r["table_name"] == "local" &&
            r["column_name"] == "tokens") {
            saw_local_tokens = r["type"] == "set<text>";
        }
    }
    EXPECT_TRUE(saw_local_tokens);

    auto types = rows("system_schema", "types");
    ASSERT_EQ(types.size(), 1u);
    EXPECT_EQ(types[0]["keyspace_name"], "ks");
    EXPECT_EQ(types[0]["type_name"], "address");
    EXPECT_EQ(text_elements(types[0]["field_names"]), (std::vector<std::string>{"street", "zip"}));
    EXPECT_EQ(text_elements(types[0]["field_types"]), (std::vector<std::string>{"text", "int"}));

    for (const char* empty : {"functions", "aggregates", "triggers", "indexes", "views"}) {
        EXPECT_TRUE(rows("system_schema", empty).empty()) << empty;
    }
}

TEST(CellEncodingTest, Encodings) {
    EXPECT_EQ(*inet_cell("10.1.2.3"), std::string("\x0a\x01\x02\x03", 4));
    EXPECT_EQ(inet_cell("::1")->size(), 16u);
    EXPECT_FALSE(inet_cell("nope").has_value());
    EXPECT_FALSE(uuid_cell("short").has_value());
    EXPECT_EQ(*double_cell(1.0), std::string("\x3f\xf0\x00\x00\x00\x00\x00\x00", 8));
    EXPECT_EQ(*text_set_cell({"b", "a", "b"}), *text_list_cell({"a", "b"}));
    EXPECT_EQ(uuid_to_string(std::string(16, '\x11')), "11111111-1111-1111-1111-111111111111");
}

}  // namespace
}  // namespace tessel::system
