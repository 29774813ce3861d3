#include "schema/system_rows.h"

#include <gtest/gtest.h>

#include "schema/catalog.h"
#include "schema_test_util.h"

namespace tessel {
namespace {

using testing::table_spec;
using testing::ts;

TEST(SystemRows, DescribeTheSchemaLikeSystemSchema) {
    Catalog catalog;
    ASSERT_TRUE(catalog.create_keyspace("ks", testing::simple_rf()).is_ok());
    ASSERT_TRUE(
        catalog.create_type("ks", "pt", {{"x", ts("int")}, {"y", ts("list<int>")}}).is_ok());
    TableSpec spec = table_spec(
        "ks", "t",
        {{"k", "int"}, {"c", "int"}, {"s", "text static"}, {"b", "frozen<pt>"}, {"a", "text"}},
        {"k"}, {"c"});
    spec.clustering_order = {{"c", ClusteringOrder::kDesc}};
    ASSERT_TRUE(catalog.create_table(spec).is_ok());
    ASSERT_TRUE(catalog.alter_table_drop("ks", "t", {"a"}, 99).is_ok());
    auto snap = catalog.snapshot();

    auto ks = keyspace_rows(*snap);
    ASSERT_EQ(ks.size(), 1u);
    EXPECT_EQ(ks[0].replication.at("class"), "org.apache.cassandra.locator.SimpleStrategy");

    auto tables = table_rows(*snap);
    ASSERT_EQ(tables.size(), 1u);
    EXPECT_EQ(tables[0].table_name, "t");
    EXPECT_EQ(tables[0].flags, std::vector<std::string>{"compound"});
    EXPECT_EQ(tables[0].gc_grace_seconds, 864000);
    EXPECT_EQ(tables[0].id, snap->table("ks", "t")->id);

    auto cols = column_rows(*snap);
    ASSERT_EQ(cols.size(), 4u);
    // Sorted by column name: b, c, k, s.
    EXPECT_EQ(cols[0].column_name, "b");
    EXPECT_EQ(cols[0].type, "frozen<pt>");
    EXPECT_EQ(cols[0].kind, "regular");
    EXPECT_EQ(cols[0].position, -1);
    EXPECT_EQ(cols[1].column_name, "c");
    EXPECT_EQ(cols[1].kind, "clustering");
    EXPECT_EQ(cols[1].clustering_order, "desc");
    EXPECT_EQ(cols[1].position, 0);
    EXPECT_EQ(cols[2].kind, "partition_key");
    EXPECT_EQ(cols[2].clustering_order, "none");
    EXPECT_EQ(cols[3].kind, "static");

    auto dropped = dropped_column_rows(*snap);
    ASSERT_EQ(dropped.size(), 1u);
    EXPECT_EQ(dropped[0].column_name, "a");
    EXPECT_EQ(dropped[0].dropped_time_micros, 99);
    EXPECT_EQ(dropped[0].type, "text");

    auto types = type_rows(*snap);
    ASSERT_EQ(types.size(), 1u);
    EXPECT_EQ(types[0].field_names, (std::vector<std::string>{"x", "y"}));
    EXPECT_EQ(types[0].field_types, (std::vector<std::string>{"int", "list<int>"}));
}

}  // namespace
}  // namespace tessel
