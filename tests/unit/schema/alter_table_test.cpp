#include <gtest/gtest.h>

#include "schema/catalog.h"
#include "schema_test_util.h"

namespace tessel {
namespace {

using testing::expect_error;
using testing::table_spec;
using testing::ts;

class AlterTable : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(catalog.create_keyspace("ks", testing::simple_rf()).is_ok());
        TableSpec spec =
            table_spec("ks", "t", {{"k", "int"}, {"c", "timestamp"}, {"v", "text"}, {"w", "int"}},
                       {"k"}, {"c"});
        spec.options.write_sharding = WriteSharding{4, ShardSuffix::kCalculated, {"w"}};
        ASSERT_TRUE(catalog.create_table(spec).is_ok());
    }
    std::shared_ptr<const TableDef> table() { return catalog.snapshot()->table("ks", "t"); }
    Catalog catalog;
};

TEST_F(AlterTable, AddColumnsGetFreshIds) {
    uint32_t next = table()->next_column_id;
    auto r = catalog.alter_table_add(
        "ks", "t",
        {NewColumn{"a", ts("list<int>")}, NewColumn{"s", ts("text"), ColumnKind::kStatic}});
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(r->type, CatalogChange::Type::kUpdated);
    auto t = table();
    EXPECT_EQ(t->column("a")->id, next);
    EXPECT_EQ(t->column("s")->id, next + 1);
    EXPECT_TRUE(t->column("s")->is_static());
    EXPECT_EQ(t->next_column_id, next + 2);
}

TEST_F(AlterTable, AddRefusals) {
    expect_error(catalog.alter_table_add("ks", "t", {NewColumn{"k", ts("int")}}),
                 ErrorCode::kInvalid, "Column with name 'k' already exists");
    expect_error(catalog.alter_table_add("ks", "t", {NewColumn{"v", ts("int")}}),
                 ErrorCode::kInvalid, "Column with name 'v' already exists");
    expect_error(catalog.alter_table_add("ks", "t", {NewColumn{"n", ts("counter")}}),
                 ErrorCode::kInvalid,
                 "Cannot add a counter column (n) in a non counter column family");
    expect_error(
        catalog.alter_table_add("ks", "t", {NewColumn{"p", ts("int"), ColumnKind::kClustering}}),
        ErrorCode::kInvalid,
        "Cannot add PRIMARY KEY column p: primary keys are immutable; create a new table "
        "and copy the data");
    expect_error(catalog.alter_table_add("ks", "nope", {NewColumn{"x", ts("int")}}),
                 ErrorCode::kInvalid, "unconfigured table nope");
    expect_error(catalog.alter_table_add("nope", "t", {NewColumn{"x", ts("int")}}),
                 ErrorCode::kInvalid, "Keyspace nope does not exist");
    // All-or-nothing: the first column is not added when the second fails.
    expect_error(catalog.alter_table_add("ks", "t",
                                         {NewColumn{"fine", ts("int")}, NewColumn{"v", ts("int")}}),
                 ErrorCode::kInvalid, "Column with name 'v' already exists");
    EXPECT_EQ(table()->column("fine"), nullptr);

    ASSERT_TRUE(catalog.create_table(table_spec("ks", "nock", {{"k", "int"}}, {"k"})).is_ok());
    expect_error(
        catalog.alter_table_add("ks", "nock", {NewColumn{"s", ts("int"), ColumnKind::kStatic}}),
        ErrorCode::kInvalid,
        "Static columns are only useful (and thus allowed) if the table has at least one "
        "clustering column");
}

TEST_F(AlterTable, CounterTables) {
    ASSERT_TRUE(
        catalog.create_table(table_spec("ks", "cnt", {{"k", "int"}, {"n", "counter"}}, {"k"}))
            .is_ok());
    expect_error(catalog.alter_table_add("ks", "cnt", {NewColumn{"v", ts("int")}}),
                 ErrorCode::kInvalid,
                 "Cannot add a non counter column (v) in a counter column family");
    ASSERT_TRUE(catalog.alter_table_add("ks", "cnt", {NewColumn{"m", ts("counter")}}).is_ok());
    ASSERT_TRUE(catalog.alter_table_drop("ks", "cnt", {"m"}, 1000).is_ok());
    expect_error(catalog.alter_table_add("ks", "cnt", {NewColumn{"m", ts("counter")}}),
                 ErrorCode::kInvalid, "Cannot re-add previously dropped counter column m");
    std::vector<std::pair<std::string, OptionValue>> ttl{
        {"default_time_to_live", OptionValue::number("5")}};
    expect_error(catalog.alter_table_options("ks", "cnt", ttl), ErrorCode::kInvalid,
                 "Cannot set default_time_to_live on a table with counters");
}

TEST_F(AlterTable, DropRecordsTheDroppedColumnAndNeverReusesIds) {
    uint32_t old_id = table()->column("v")->id;
    ASSERT_TRUE(catalog.alter_table_drop("ks", "t", {"v"}, 1234567).is_ok());
    auto t = table();
    EXPECT_EQ(t->column("v"), nullptr);
    ASSERT_TRUE(t->dropped_columns.count("v"));
    EXPECT_EQ(t->dropped_columns.at("v").dropped_time_micros, 1234567);
    EXPECT_EQ(t->dropped_columns.at("v").type->cql_name(), "text");

    // Cassandra 4.0: only a type that reads the old values, of the same kind.
    expect_error(catalog.alter_table_add("ks", "t", {NewColumn{"v", ts("int")}}),
                 ErrorCode::kInvalid,
                 "Cannot re-add previously dropped column 'v' of type int, incompatible with "
                 "previous type text");
    expect_error(
        catalog.alter_table_add("ks", "t", {NewColumn{"v", ts("text"), ColumnKind::kStatic}}),
        ErrorCode::kInvalid,
        "Cannot re-add previously dropped column 'v' of kind STATIC, incompatible with "
        "previous kind REGULAR");
    ASSERT_TRUE(catalog.alter_table_add("ks", "t", {NewColumn{"v", ts("blob")}}).is_ok());
    EXPECT_NE(table()->column("v")->id, old_id);
    EXPECT_EQ(table()->column("v")->type->cql_name(), "blob");
}

TEST_F(AlterTable, DropRefusals) {
    expect_error(catalog.alter_table_drop("ks", "t", {"k"}, 1), ErrorCode::kInvalid,
                 "Cannot drop PRIMARY KEY column k: primary keys are immutable; create a new "
                 "table and copy the data");
    expect_error(catalog.alter_table_drop("ks", "t", {"c"}, 1), ErrorCode::kInvalid,
                 "Cannot drop PRIMARY KEY column c: primary keys are immutable; create a new "
                 "table and copy the data");
    expect_error(catalog.alter_table_drop("ks", "t", {"zz"}, 1), ErrorCode::kInvalid,
                 "Column zz was not found in table t");
    expect_error(catalog.alter_table_drop("ks", "t", {"w"}, 1), ErrorCode::kInvalid,
                 "Cannot drop column w: the table's write_sharding or time_bucket option uses it");
}

TEST_F(AlterTable, RenameOnlyPrimaryKeyColumns) {
    uint32_t id = table()->column("c")->id;
    ASSERT_TRUE(catalog.alter_table_rename("ks", "t", {{"c", "ts"}, {"k", "key"}}).is_ok());
    auto t = table();
    EXPECT_EQ(t->column("c"), nullptr);
    EXPECT_EQ(t->column("ts")->id, id);
    EXPECT_EQ(t->partition_key()[0].name, "key");

    expect_error(catalog.alter_table_rename("ks", "t", {{"v", "v2"}}), ErrorCode::kInvalid,
                 "Cannot rename non PRIMARY KEY part v");
    expect_error(catalog.alter_table_rename("ks", "t", {{"nope", "x"}}), ErrorCode::kInvalid,
                 "Cannot rename unknown column nope in keyspace t");
    expect_error(catalog.alter_table_rename("ks", "t", {{"ts", "v"}}), ErrorCode::kInvalid,
                 "Cannot rename column ts to v in keyspace t; another column of that name "
                 "already exist");
}

TEST_F(AlterTable, RenameUpdatesLayoutOptions) {
    ASSERT_TRUE(catalog
                    .create_table([] {
                        TableSpec s = table_spec("ks", "tb", {{"k", "int"}, {"ts", "timestamp"}},
                                                 {"k"}, {"ts"});
                        s.options.time_bucket = TimeBucket{"ts", 60'000};
                        return s;
                    }())
                    .is_ok());
    ASSERT_TRUE(catalog.alter_table_rename("ks", "tb", {{"ts", "at"}}).is_ok());
    EXPECT_EQ(catalog.snapshot()->table("ks", "tb")->options.time_bucket->column, "at");
}

TEST_F(AlterTable, TypesCannotBeAltered) {
    expect_error(catalog.alter_table_type("ks", "t", "k", ts("bigint")), ErrorCode::kInvalid,
                 "Cannot alter PRIMARY KEY column k: primary keys are immutable; create a new "
                 "table and copy the data");
    expect_error(catalog.alter_table_type("ks", "t", "v", ts("blob")), ErrorCode::kInvalid,
                 "Altering of types is not allowed");
    expect_error(catalog.alter_table_type("ks", "t", "zz", ts("blob")), ErrorCode::kInvalid,
                 "Column zz was not found in table t");
}

TEST_F(AlterTable, Options) {
    std::vector<std::pair<std::string, OptionValue>> opts{
        {"gc_grace_seconds", OptionValue::number("10")}, {"comment", OptionValue::string("hello")}};
    ASSERT_TRUE(catalog.alter_table_options("ks", "t", opts).is_ok());
    EXPECT_EQ(table()->options.gc_grace_seconds, 10);
    EXPECT_EQ(table()->options.comment, "hello");
    EXPECT_EQ(table()->options.write_sharding->shards, 4) << "other options are kept";

    std::vector<std::pair<std::string, OptionValue>> bad{
        {"comment", OptionValue::string("changed")}, {"nope", OptionValue::number("1")}};
    expect_error(catalog.alter_table_options("ks", "t", bad), ErrorCode::kSyntaxError,
                 "Unknown property 'nope'");
    EXPECT_EQ(table()->options.comment, "hello") << "a failed ALTER changes nothing";

    // The shard count may be raised, never lowered; the other layout options are fixed.
    std::vector<std::pair<std::string, OptionValue>> raise{
        {"write_sharding", OptionValue::of_map({{"shards", "8"}})}};
    ASSERT_TRUE(catalog.alter_table_options("ks", "t", raise).is_ok());
    EXPECT_EQ(table()->options.write_sharding->shards, 8);
    EXPECT_EQ(table()->options.write_sharding->columns, std::vector<std::string>{"w"})
        << "suffix and columns are kept";
    std::vector<std::pair<std::string, OptionValue>> lower{
        {"write_sharding", OptionValue::of_map({{"shards", "2"}})}};
    expect_error(catalog.alter_table_options("ks", "t", lower), ErrorCode::kInvalid,
                 "write_sharding shards cannot be lowered (from 8 to 2): existing rows live in "
                 "shards 2..7");
    std::vector<std::pair<std::string, OptionValue>> layout{
        {"distribution", OptionValue::string("ordered")}};
    expect_error(catalog.alter_table_options("ks", "t", layout), ErrorCode::kInvalid,
                 "Cannot alter option 'distribution' of table ks.t: it decides where rows are "
                 "stored; create a new table and copy the data");
    std::vector<std::pair<std::string, OptionValue>> interval{
        {"max_index_interval", OptionValue::number("1")}};
    expect_error(catalog.alter_table_options("ks", "t", interval), ErrorCode::kConfigError,
                 "max_index_interval must be greater than or equal to min_index_interval (128) "
                 "(got 1)");
}

TEST_F(AlterTable, DropTable) {
    expect_error(catalog.drop_table("ks", "nope"), ErrorCode::kInvalid, "unconfigured table nope");
    expect_error(catalog.drop_table("nope", "t"), ErrorCode::kInvalid,
                 "Keyspace nope does not exist");
    auto quiet = catalog.drop_table("ks", "nope", true);
    ASSERT_TRUE(quiet.is_ok());
    EXPECT_FALSE(quiet->applied);
    auto r = catalog.drop_table("ks", "t");
    ASSERT_TRUE(r.is_ok());
    EXPECT_EQ(r->type, CatalogChange::Type::kDropped);
    EXPECT_EQ(table(), nullptr);
}

}  // namespace
}  // namespace tessel
