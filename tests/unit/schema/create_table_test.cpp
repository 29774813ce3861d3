#include <gtest/gtest.h>

#include "schema/catalog.h"
#include "schema_test_util.h"

namespace tessel {
namespace {

using testing::expect_error;
using testing::table_spec;
using testing::ts;

class CreateTable : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(catalog.create_keyspace("ks", testing::simple_rf()).is_ok());
    }
    Catalog catalog;
};

TEST_F(CreateTable, BuildsColumnsKeysAndIds) {
    TableSpec spec = table_spec("ks", "events",
                                {{"b", "text"},
                                 {"a", "int"},
                                 {"z", "int"},
                                 {"c", "timestamp"},
                                 {"s", "text static"},
                                 {"m", "map<text, int>"},
                                 {"d", "uuid"}},
                                {"a", "b"}, {"c", "d"});
    spec.clustering_order = {{"c", ClusteringOrder::kDesc}};
    auto r = catalog.create_table(spec);
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(r->target, CatalogChange::Target::kTable);
    EXPECT_EQ(r->name, "events");

    auto t = catalog.snapshot()->table("ks", "events");
    ASSERT_TRUE(t);
    ASSERT_EQ(t->partition_key().size(), 2u);
    EXPECT_EQ(t->partition_key()[0].name, "a");
    EXPECT_EQ(t->partition_key()[1].name, "b");
    EXPECT_EQ(t->partition_key()[1].position, 1);
    ASSERT_EQ(t->clustering_key().size(), 2u);
    EXPECT_EQ(t->clustering_key()[0].name, "c");
    EXPECT_TRUE(t->clustering_key()[0].is_reversed());
    EXPECT_EQ(t->clustering_key()[0].clustering_order_name(), "desc");
    EXPECT_EQ(t->clustering_key()[1].clustering_order_name(), "asc");
    // Static first, then regular columns by name.
    ASSERT_EQ(t->non_key_columns().size(), 3u);
    EXPECT_EQ(t->non_key_columns()[0].name, "s");
    EXPECT_EQ(t->non_key_columns()[1].name, "m");
    EXPECT_EQ(t->non_key_columns()[2].name, "z");
    EXPECT_TRUE(t->has_static_columns());
    EXPECT_FALSE(t->is_counter());

    const ColumnDef* s = t->column("s");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->kind_name(), "static");
    EXPECT_EQ(s->position, -1);
    EXPECT_EQ(s->clustering_order_name(), "none");
    EXPECT_EQ(t->column("m")->type->cql_name(), "map<text, int>");
    EXPECT_EQ(t->column("a")->kind_name(), "partition_key");
    EXPECT_EQ(t->column("A"), nullptr) << "lookups are case-sensitive";
    // Ids: key columns first, unique, below next_column_id.
    EXPECT_EQ(t->column("a")->id, 0u);
    EXPECT_EQ(t->column("b")->id, 1u);
    EXPECT_EQ(t->next_column_id, 7u);
    EXPECT_EQ(t->column_by_id(t->column("z")->id), t->column("z"));
    EXPECT_EQ(t->storage_name(), t->id.hex());
    EXPECT_EQ(t->storage_name().size(), 32u);
    EXPECT_EQ(t->flags(), std::vector<std::string>{"compound"});
}

TEST_F(CreateTable, AlreadyExistsCarriesKeyspaceAndTable) {
    ASSERT_TRUE(catalog.create_table(table_spec("ks", "t", {{"k", "int"}}, {"k"})).is_ok());
    auto r = catalog.create_table(table_spec("ks", "t", {{"k", "int"}}, {"k"}));
    expect_error(r, ErrorCode::kAlreadyExists,
                 "Cannot add already existing table \"t\" to keyspace \"ks\"");
    EXPECT_EQ(r.status().detail1, "ks");
    EXPECT_EQ(r.status().detail2, "t");
    auto quiet = catalog.create_table(table_spec("ks", "t", {{"k", "int"}}, {"k"}), true);
    ASSERT_TRUE(quiet.is_ok());
    EXPECT_FALSE(quiet->applied);
}

TEST_F(CreateTable, UnknownKeyspace) {
    expect_error(catalog.create_table(table_spec("nope", "t", {{"k", "int"}}, {"k"})),
                 ErrorCode::kInvalid, "Keyspace nope does not exist");
}

TEST_F(CreateTable, ValidationMessages) {
    struct Case {
        TableSpec spec;
        std::string message;
    };
    std::vector<Case> cases{
        {table_spec("ks", "t", {{"k", "int"}}, {}),
         "No PRIMARY KEY specifed (exactly one required)"},
        {table_spec("ks", "t", {{"k", "int"}, {"k", "text"}}, {"k"}),
         "Multiple definition of identifier k"},
        {table_spec("ks", "t", {{"k", "int"}}, {"x"}),
         "Unknown definition x referenced in PRIMARY KEY"},
        {table_spec("ks", "t", {{"k", "list<int>"}}, {"k"}),
         "Invalid non-frozen collection type for PRIMARY KEY component k"},
        {table_spec("ks", "t", {{"k", "int"}, {"c", "set<int>"}}, {"k"}, {"c"}),
         "Invalid non-frozen collection type for PRIMARY KEY component c"},
        {table_spec("ks", "t", {{"k", "counter"}}, {"k"}),
         "counter type is not supported for PRIMARY KEY part k"},
        {table_spec("ks", "t", {{"k", "duration"}}, {"k"}),
         "duration type is not supported for PRIMARY KEY part k"},
        {table_spec("ks", "t", {{"k", "int"}, {"s", "int static"}}, {"k"}),
         "Static columns are only useful (and thus allowed) if the table has at least one "
         "clustering column"},
        {table_spec("ks", "t", {{"k", "int"}, {"c", "int static"}}, {"k"}, {"c"}),
         "Static column c cannot be part of the PRIMARY KEY"},
        {table_spec("ks", "t", {{"k", "int"}, {"n", "counter"}, {"v", "text"}}, {"k"}),
         "Cannot mix counter and non counter columns in the same table"},
        {table_spec("ks", "t", {{"k", "int"}, {"v", "list<list<int>>"}}, {"k"}),
         "Non-frozen collections are not allowed inside collections: list<list<int>>"},
        {table_spec("ks", "t", {{"k", "int"}, {"v", "frozen<int>"}}, {"k"}),
         "frozen<> is only allowed on collections, tuples, and user-defined types"},
        {table_spec("ks", "t", {{"k", "int"}, {"v", "set<counter>"}}, {"k"}),
         "Counters are not allowed inside collections: set<counter>"},
        {table_spec("ks", "t", {{"k", "int"}, {"v", "set<duration>"}}, {"k"}),
         "Durations are not allowed inside sets: set<duration>"},
        {table_spec("ks", "t", {{"k", "int"}, {"v", "nosuchtype"}}, {"k"}),
         "Unknown type ks.nosuchtype"},
        {table_spec("ks", "bad-name", {{"k", "int"}}, {"k"}),
         "\"bad-name\" is not a valid table name (must be alphanumeric character or underscore "
         "only: [a-zA-Z_0-9]+)"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.message);
        expect_error(catalog.create_table(c.spec), ErrorCode::kInvalid, c.message);
    }
    EXPECT_TRUE(catalog.snapshot()->keyspace("ks")->tables.empty());
}

TEST_F(CreateTable, CounterTableWithTtlIsRefused) {
    TableSpec spec = table_spec("ks", "t", {{"k", "int"}, {"n", "counter"}}, {"k"});
    spec.options.default_time_to_live = 10;
    expect_error(catalog.create_table(spec), ErrorCode::kInvalid,
                 "Cannot set default_time_to_live on a table with counters");
    spec.options.default_time_to_live = 0;
    ASSERT_TRUE(catalog.create_table(spec).is_ok());
    auto t = catalog.snapshot()->table("ks", "t");
    EXPECT_TRUE(t->is_counter());
    EXPECT_EQ(t->flags(), (std::vector<std::string>{"compound", "counter"}));
}

TEST_F(CreateTable, ClusteringOrderMustFollowTheClusteringKey) {
    TableSpec spec = table_spec(
        "ks", "t", {{"k", "int"}, {"c1", "int"}, {"c2", "int"}, {"v", "int"}}, {"k"}, {"c1", "c2"});
    spec.clustering_order = {{"c2", ClusteringOrder::kDesc}, {"c1", ClusteringOrder::kAsc}};
    expect_error(catalog.create_table(spec), ErrorCode::kInvalid,
                 "The order of columns in the CLUSTERING ORDER directive must be the one of the "
                 "clustering key (c1 must appear before c2)");
    spec.clustering_order = {{"v", ClusteringOrder::kDesc}};
    expect_error(catalog.create_table(spec), ErrorCode::kInvalid,
                 "Missing CLUSTERING ORDER for column c1");
    spec.clustering_order = {{"c1", ClusteringOrder::kDesc},
                             {"c2", ClusteringOrder::kDesc},
                             {"v", ClusteringOrder::kDesc}};
    expect_error(catalog.create_table(spec), ErrorCode::kInvalid,
                 "Only clustering key columns can be defined in CLUSTERING ORDER directive");
    // A prefix is enough; the rest default to ASC.
    spec.clustering_order = {{"c1", ClusteringOrder::kDesc}};
    ASSERT_TRUE(catalog.create_table(spec).is_ok());
    auto t = catalog.snapshot()->table("ks", "t");
    EXPECT_TRUE(t->column("c1")->is_reversed());
    EXPECT_FALSE(t->column("c2")->is_reversed());
}

TEST_F(CreateTable, FrozenCollectionsInKeysAndNestedFreezing) {
    auto r = catalog.create_table(table_spec("ks", "t",
                                             {{"k", "frozen<list<int>>"},
                                              {"c", "frozen<map<text, list<int>>>"},
                                              {"v", "map<text, frozen<set<int>>>"},
                                              {"tup", "tuple<int, list<int>>"}},
                                             {"k"}, {"c"}));
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    auto t = catalog.snapshot()->table("ks", "t");
    EXPECT_EQ(t->column("c")->type->cql_name(), "frozen<map<text, frozen<list<int>>>>");
    EXPECT_EQ(t->column("v")->type->cql_name(), "map<text, frozen<set<int>>>");
    EXPECT_EQ(t->column("tup")->type->cql_name(), "frozen<tuple<int, frozen<list<int>>>>");
}

TEST_F(CreateTable, LayoutOptionsMustNameSuitableColumns) {
    TableSpec spec =
        table_spec("ks", "t", {{"k", "int"}, {"ts", "timestamp"}, {"dev", "text"}, {"v", "int"}},
                   {"k"}, {"ts"});
    spec.options.write_sharding = WriteSharding{4, ShardSuffix::kCalculated, {"k"}};
    expect_error(catalog.create_table(spec), ErrorCode::kInvalid,
                 "write_sharding column k must be a clustering or regular column (it is a "
                 "partition key column)");
    spec.options.write_sharding = WriteSharding{4, ShardSuffix::kCalculated, {"nope"}};
    expect_error(catalog.create_table(spec), ErrorCode::kInvalid,
                 "write_sharding column nope does not exist in table t");
    spec.options.write_sharding = WriteSharding{4, ShardSuffix::kCalculated, {"dev"}};
    spec.options.time_bucket = TimeBucket{"v", 3'600'000};
    expect_error(catalog.create_table(spec), ErrorCode::kInvalid,
                 "time_bucket column v must be a clustering column of type timestamp");
    spec.options.time_bucket = TimeBucket{"ts", 3'600'000};
    ASSERT_TRUE(catalog.create_table(spec).is_ok());
    auto t = catalog.snapshot()->table("ks", "t");
    EXPECT_EQ(t->options.write_sharding->columns, std::vector<std::string>{"dev"});
}

TEST_F(CreateTable, TableIdsAreUniqueAndCanBeGiven) {
    ASSERT_TRUE(catalog.create_table(table_spec("ks", "a", {{"k", "int"}}, {"k"})).is_ok());
    ASSERT_TRUE(catalog.create_table(table_spec("ks", "b", {{"k", "int"}}, {"k"})).is_ok());
    auto snap = catalog.snapshot();
    EXPECT_NE(snap->table("ks", "a")->id, snap->table("ks", "b")->id);
    EXPECT_EQ(snap->table_by_id(snap->table("ks", "b")->id), snap->table("ks", "b"));

    TableSpec spec = table_spec("ks", "c", {{"k", "int"}}, {"k"});
    spec.id = Uuid::parse("5a1c395e-b41f-11e5-9f22-ba0be0483c18");
    ASSERT_TRUE(catalog.create_table(spec).is_ok());
    EXPECT_EQ(catalog.snapshot()->table("ks", "c")->id.to_string(),
              "5a1c395e-b41f-11e5-9f22-ba0be0483c18");
    spec.name = "d";
    expect_error(catalog.create_table(spec), ErrorCode::kInvalid,
                 "Table id 5a1c395e-b41f-11e5-9f22-ba0be0483c18 is already in use");
}

}  // namespace
}  // namespace tessel

namespace tessel {
namespace {

TEST(CreateTableOrder, DefinitionErrorsComeBeforeAlreadyExists) {
    Catalog catalog;
    ASSERT_TRUE(catalog.create_keyspace("ks", testing::simple_rf()).is_ok());
    ASSERT_TRUE(
        catalog.create_table(testing::table_spec("ks", "t", {{"k", "int"}}, {"k"})).is_ok());
    testing::expect_error(
        catalog.create_table(testing::table_spec("ks", "t", {{"k", "int"}}, {"x"}), true),
        ErrorCode::kInvalid, "Unknown definition x referenced in PRIMARY KEY");
    std::string long_name(49, 't');
    testing::expect_error(
        catalog.create_table(testing::table_spec("ks", long_name, {{"k", "int"}}, {"k"})),
        ErrorCode::kInvalid,
        "Table names shouldn't be more than 48 characters long (got \"" + long_name + "\")");
}

}  // namespace
}  // namespace tessel
