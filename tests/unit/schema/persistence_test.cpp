#include <gtest/gtest.h>

#include <map>
#include <string>

#include "memory_catalog_store.h"
#include "schema/catalog.h"
#include "schema/codec.h"
#include "schema_test_util.h"

namespace tessel {
namespace {

using testing::expect_error;
using testing::MemoryCatalogStore;
using testing::table_spec;
using testing::ts;

TEST(Codec, TypesRoundTrip) {
    Catalog catalog;
    ASSERT_TRUE(catalog.create_keyspace("ks", testing::simple_rf()).is_ok());
    ASSERT_TRUE(
        catalog.create_type("ks", "addr", {{"street", ts("text")}, {"tags", ts("set<text>")}})
            .is_ok());
    for (const char* text : {"int", "text", "counter", "duration", "list<int>", "frozen<set<uuid>>",
                             "map<text, frozen<list<timestamp>>>", "tuple<int, text, blob>", "addr",
                             "frozen<addr>", "map<int, frozen<addr>>"}) {
        SCOPED_TRACE(text);
        auto type = catalog.resolve_type("ks", ts(text));
        ASSERT_TRUE(type.is_ok()) << type.status().to_string();
        auto back = decode_type(encode_type(**type));
        ASSERT_TRUE(back.is_ok()) << back.status().to_string();
        EXPECT_TRUE((*back)->equals(**type));
        EXPECT_EQ((*back)->cql_name(), (*type)->cql_name());
    }
}

TEST(Codec, TableRoundTripKeepsEverything) {
    Catalog catalog;
    ASSERT_TRUE(catalog.create_keyspace("ks", testing::simple_rf()).is_ok());
    TableSpec spec = table_spec("ks", "t",
                                {{"a", "int"},
                                 {"b", "text"},
                                 {"c", "timestamp"},
                                 {"s", "int static"},
                                 {"v", "map<text, int>"},
                                 {"w", "int"}},
                                {"a", "b"}, {"c"});
    spec.clustering_order = {{"c", ClusteringOrder::kDesc}};
    spec.options.comment = "round trip";
    spec.options.bloom_filter_fp_chance = 0.001;
    spec.options.distribution = Distribution::kOrdered;
    spec.options.write_sharding = WriteSharding{16, ShardSuffix::kCalculated, {"w"}};
    spec.options.time_bucket = TimeBucket{"c", 86'400'000};
    ASSERT_TRUE(catalog.create_table(spec).is_ok());
    ASSERT_TRUE(catalog.alter_table_drop("ks", "t", {"v"}, 42).is_ok());
    const TableDef& t = *catalog.snapshot()->table("ks", "t");

    auto back = decode_table(encode_table(t));
    ASSERT_TRUE(back.is_ok()) << back.status().to_string();
    EXPECT_EQ(back->keyspace, "ks");
    EXPECT_EQ(back->name, "t");
    EXPECT_EQ(back->id, t.id);
    EXPECT_EQ(back->next_column_id, t.next_column_id);
    EXPECT_EQ(back->options, t.options);
    ASSERT_EQ(back->columns.size(), t.columns.size());
    for (size_t i = 0; i < t.columns.size(); ++i) {
        EXPECT_EQ(back->columns[i].id, t.columns[i].id);
        EXPECT_EQ(back->columns[i].name, t.columns[i].name);
        EXPECT_EQ(back->columns[i].kind, t.columns[i].kind);
        EXPECT_EQ(back->columns[i].position, t.columns[i].position);
        EXPECT_EQ(back->columns[i].order, t.columns[i].order);
        EXPECT_TRUE(back->columns[i].type->equals(*t.columns[i].type));
    }
    ASSERT_TRUE(back->dropped_columns.count("v"));
    EXPECT_EQ(back->dropped_columns.at("v").dropped_time_micros, 42);
    EXPECT_EQ(back->dropped_columns.at("v").type->cql_name(), "map<text, int>");
    EXPECT_EQ(back->column("c")->clustering_order_name(), "desc");
}

TEST(Codec, CorruptInputIsAnErrorNotACrash) {
    Catalog catalog;
    ASSERT_TRUE(catalog.create_keyspace("ks", testing::simple_rf()).is_ok());
    ASSERT_TRUE(
        catalog.create_table(table_spec("ks", "t", {{"k", "int"}, {"v", "list<text>"}}, {"k"}))
            .is_ok());
    std::string good = encode_table(*catalog.snapshot()->table("ks", "t"));
    // Every truncation and every single-byte corruption either decodes to a
    // valid table or fails cleanly.
    for (size_t n = 0; n < good.size(); ++n) {
        EXPECT_FALSE(decode_table(good.substr(0, n)).is_ok()) << "truncated at " << n;
    }
    for (size_t i = 0; i < good.size(); ++i) {
        std::string bad = good;
        bad[i] = static_cast<char>(bad[i] ^ 0xFF);
        auto r = decode_table(bad);
        if (!r.is_ok()) {
            EXPECT_EQ(r.status().code(), ErrorCode::kServerError);
        }
    }
    expect_error(decode_table(good + "x"), ErrorCode::kServerError,
                 "corrupt table entry: truncated or malformed data");
    std::string future = good;
    future[1] = 9;
    expect_error(decode_table(future), ErrorCode::kServerError,
                 "corrupt table entry: unsupported format version 9");
    expect_error(decode_keyspace(good), ErrorCode::kServerError,
                 "corrupt keyspace entry: wrong entry tag");
}

class Persistence : public ::testing::Test {
  protected:
    // Builds a schema in a catalog backed by `store`.
    void build() {
        Catalog catalog(&store);
        KeyspaceOptions nts;
        nts.replication = StringMap{{"class", "NetworkTopologyStrategy"}, {"dc1", "3"}};
        nts.durable_writes = false;
        catalog.set_datacenters([] { return std::map<std::string, int>{{"dc1", 3}}; });
        ASSERT_TRUE(catalog.create_keyspace("ks", testing::simple_rf()).is_ok());
        ASSERT_TRUE(catalog.create_keyspace("geo", nts).is_ok());
        ASSERT_TRUE(catalog.create_type("ks", "addr", {{"street", ts("text")}}).is_ok());
        ASSERT_TRUE(catalog.create_type("ks", "person", {{"home", ts("frozen<addr>")}}).is_ok());
        TableSpec spec = table_spec(
            "ks", "t", {{"k", "int"}, {"c", "int"}, {"p", "frozen<person>"}}, {"k"}, {"c"});
        spec.clustering_order = {{"c", ClusteringOrder::kDesc}};
        ASSERT_TRUE(catalog.create_table(spec).is_ok());
        ASSERT_TRUE(catalog.create_table(table_spec("geo", "g", {{"k", "int"}}, {"k"})).is_ok());
        ASSERT_TRUE(catalog.create_table(table_spec("geo", "gone", {{"k", "int"}}, {"k"})).is_ok());
        ASSERT_TRUE(catalog.drop_table("geo", "gone").is_ok());
        ASSERT_TRUE(catalog.alter_type_add("ks", "addr", "city", ts("text")).is_ok());
        built_version = catalog.version();
        built_table_id = catalog.snapshot()->table("ks", "t")->id;
    }

    MemoryCatalogStore store;
    Uuid built_version;
    Uuid built_table_id;
};

TEST_F(Persistence, EveryDdlIsWrittenUnderItsKey) {
    build();
    EXPECT_TRUE(store.data.count("ks/ks"));
    EXPECT_TRUE(store.data.count("ks/geo"));
    EXPECT_TRUE(store.data.count("type/ks/addr"));
    EXPECT_TRUE(store.data.count("table/ks/t"));
    EXPECT_TRUE(store.data.count("table/geo/g"));
    EXPECT_FALSE(store.data.count("table/geo/gone"));
    EXPECT_EQ(store.data.at("schema_version"), built_version.raw());
}

TEST_F(Persistence, LoadRebuildsTheSchemaAfterRestart) {
    build();
    Catalog restarted;
    ASSERT_TRUE(restarted.load(store).is_ok());
    auto snap = restarted.snapshot();
    EXPECT_EQ(snap->version, built_version);
    ASSERT_TRUE(snap->keyspace("geo"));
    EXPECT_FALSE(snap->keyspace("geo")->durable_writes);
    EXPECT_EQ(snap->keyspace("geo")->replication.at("class"),
              "org.apache.cassandra.locator.NetworkTopologyStrategy");
    auto t = snap->table("ks", "t");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->id, built_table_id);
    EXPECT_TRUE(t->column("c")->is_reversed());
    // The UDT change reached the table that embeds it, and survived the restart.
    EXPECT_EQ(t->column("p")->type->params[0]->field_names.size(), 2u);
    EXPECT_EQ(snap->type("ks", "person")->field_types[0]->field_names.size(), 2u);
    EXPECT_FALSE(snap->table("geo", "gone"));

    // The loaded catalog keeps persisting.
    ASSERT_TRUE(restarted.drop_keyspace("geo").is_ok());
    EXPECT_FALSE(store.data.count("ks/geo"));
    EXPECT_FALSE(store.data.count("table/geo/g"));
    Catalog again;
    ASSERT_TRUE(again.load(store).is_ok());
    EXPECT_FALSE(again.snapshot()->keyspace("geo"));
    EXPECT_EQ(again.version(), restarted.version());
}

TEST_F(Persistence, EmptyStoreLoadsAnEmptySchema) {
    Catalog catalog;
    ASSERT_TRUE(catalog.load(store).is_ok());
    EXPECT_TRUE(catalog.snapshot()->keyspaces.empty());
}

TEST_F(Persistence, CorruptEntryFailsTheLoad) {
    build();
    store.data["table/ks/t"][5] ^= 0x5A;
    store.data["table/ks/t"].resize(store.data["table/ks/t"].size() - 3);
    Catalog catalog;
    Status s = catalog.load(store);
    ASSERT_FALSE(s.is_ok());
    EXPECT_EQ(s.code(), ErrorCode::kServerError);
    EXPECT_NE(s.message().find("Cannot load the schema catalog"), std::string::npos) << s.message();
    EXPECT_NE(s.message().find("table/ks/t"), std::string::npos) << s.message();
    EXPECT_TRUE(catalog.snapshot()->keyspaces.empty()) << "a failed load changes nothing";
}

TEST_F(Persistence, OrphanAndMisplacedEntriesFailTheLoad) {
    build();
    MemoryCatalogStore orphan = store;
    orphan.data.erase("ks/geo");
    Catalog a;
    expect_error(
        a.load(orphan), ErrorCode::kServerError,
        "Cannot load the schema catalog: table of an unknown keyspace (key 'table/geo/g')");

    MemoryCatalogStore moved = store;
    moved.data["table/ks/renamed"] = moved.data["table/ks/t"];
    Catalog b;
    expect_error(b.load(moved), ErrorCode::kServerError,
                 "Cannot load the schema catalog: entry does not match its key (key "
                 "'table/ks/renamed')");

    MemoryCatalogStore bad_version = store;
    bad_version.data["schema_version"] = "short";
    Catalog c;
    expect_error(c.load(bad_version), ErrorCode::kServerError,
                 "Cannot load the schema catalog: schema version is not 16 bytes (key "
                 "'schema_version')");
}

TEST_F(Persistence, FailedWriteLeavesTheSchemaUnchanged) {
    Catalog catalog(&store);
    ASSERT_TRUE(catalog.create_keyspace("ks", testing::simple_rf()).is_ok());
    Uuid before = catalog.version();
    store.fail_writes = true;
    auto r = catalog.create_table(table_spec("ks", "t", {{"k", "int"}}, {"k"}));
    expect_error(r, ErrorCode::kServerError, "Failed to persist schema change: disk full");
    EXPECT_FALSE(catalog.snapshot()->table("ks", "t"));
    EXPECT_EQ(catalog.version(), before);
}

}  // namespace
}  // namespace tessel
