// Prepare on its own: a schema built from CREATE TABLE text, no storage.
#include "cql/prepare.h"

#include <gtest/gtest.h>

#include "cql/parser.h"
#include "fake_schema.h"

namespace tessel::cql {
namespace {

using testing::FakeSchema;

class PrepareTest : public ::testing::Test {
  protected:
    void SetUp() override {
        schema.add(
            "CREATE TABLE t (a int, b text, c int, d int, v int, s set<int>, cnt int, "
            "PRIMARY KEY ((a, b), c, d))");
        schema.add("CREATE TABLE counts (k int PRIMARY KEY, n counter)");
    }
    Result<std::shared_ptr<const Plan>> prep(const std::string& cql) {
        auto st = parse_statement(cql);
        if (!st.is_ok()) return st.status();
        return prepare(*st, "ks", schema);
    }
    std::string error(const std::string& cql) {
        auto p = prep(cql);
        EXPECT_FALSE(p.is_ok()) << cql;
        return p.is_ok() ? "" : p.status().message();
    }
    FakeSchema schema;
};

TEST_F(PrepareTest, InsertBindSpecsAndRoutingIndexes) {
    auto p = prep("INSERT INTO t (b, c, a, d, v) VALUES (?, ?, ?, ?, ?)");
    ASSERT_TRUE(p.is_ok()) << p.status().to_string();
    ASSERT_EQ((*p)->bind_specs.size(), 5u);
    EXPECT_EQ((*p)->bind_specs[0].name, "b");
    EXPECT_EQ((*p)->bind_specs[0].type->cql_name(), "text");
    EXPECT_EQ((*p)->partition_key_indexes, (std::vector<uint16_t>{2, 0}));
    ASSERT_TRUE(std::holds_alternative<ModifyPlan>((*p)->node));
    const auto& m = std::get<ModifyPlan>((*p)->node);
    EXPECT_EQ(m.where.clustering_prefix_columns, 2);
    EXPECT_EQ(m.operations.size(), 1u);
}

TEST_F(PrepareTest, UpdateMarkerNamesForCollectionsAndConditions) {
    auto p = prep(
        "UPDATE t SET s = s + ?, v = :val WHERE a = ? AND b = ? AND c = ? AND d IN ? IF v = ?");
    ASSERT_FALSE(p.is_ok());  // IN on clustering is refused with conditions
    EXPECT_EQ(p.status().message(),
              "IN on the clustering key columns is not supported with conditional updates");
    p = prep(
        "UPDATE t USING TTL ? SET s = s + ?, v = :val WHERE a = ? AND b = ? AND c = ? AND d = ? IF "
        "v = ?");
    ASSERT_TRUE(p.is_ok()) << p.status().to_string();
    const auto& specs = (*p)->bind_specs;
    ASSERT_EQ(specs.size(), 8u);
    EXPECT_EQ(specs[0].name, "[ttl]");
    EXPECT_EQ(specs[1].name, "s");
    EXPECT_EQ(specs[1].type->cql_name(), "set<int>");
    EXPECT_EQ(specs[2].name, "val");
    EXPECT_EQ(specs[7].name, "v");
    EXPECT_EQ((*p)->partition_key_indexes, (std::vector<uint16_t>{3, 4}));
}

TEST_F(PrepareTest, ClusteringSlicesAndFilters) {
    auto p = prep("SELECT * FROM t WHERE a = 1 AND b = 'x' AND c = 1 AND d > ? AND d <= ?");
    ASSERT_TRUE(p.is_ok()) << p.status().to_string();
    const auto& sel = std::get<SelectPlan>((*p)->node);
    EXPECT_EQ(sel.where.clustering_prefix_columns, 1);
    EXPECT_EQ(sel.where.slice_first_column, 1);
    ASSERT_TRUE(sel.where.slice_start);
    EXPECT_FALSE(sel.where.slice_start->inclusive);
    ASSERT_TRUE(sel.where.slice_end);
    EXPECT_TRUE(sel.where.slice_end->inclusive);
    EXPECT_TRUE(sel.where.filters.empty());
    p = prep("SELECT * FROM t WHERE a = 1 AND b = 'x' AND v > 3 ALLOW FILTERING");
    ASSERT_TRUE(p.is_ok());
    EXPECT_EQ(std::get<SelectPlan>((*p)->node).where.filters.size(), 1u);
    EXPECT_EQ(error("SELECT * FROM t WHERE a = 1 AND b = 'x' AND s CONTAINS 1 AND v CONTAINS 2 "
                    "ALLOW FILTERING"),
              "Cannot use CONTAINS on non-collection column v");
}

TEST_F(PrepareTest, ErrorsNameTheColumn) {
    EXPECT_EQ(error("SELECT * FROM t WHERE a = 1 AND b = 'x' AND d = 1"),
              "PRIMARY KEY column \"d\" cannot be restricted as preceding column \"c\" is not "
              "restricted");
    EXPECT_EQ(error("DELETE s FROM t WHERE a = 1 AND b = 'x' AND c > 1"),
              "Range deletions are not supported for specific columns");
    EXPECT_EQ(error("UPDATE counts SET n = n + 1 WHERE k = 1 IF n = 1"),
              "Conditional updates are not supported on counter tables");
    EXPECT_EQ(error("SELECT writetime(a) FROM t WHERE a = 1 AND b = 'x'"),
              "Cannot use selection function writeTime on PRIMARY KEY part a");
    EXPECT_EQ(error("SELECT DISTINCT a FROM t"),
              "SELECT DISTINCT queries must request all the partition key columns (missing b)");
    EXPECT_EQ(error("SELECT DISTINCT a, b, v FROM t"),
              "SELECT DISTINCT queries must only request partition key columns and/or static "
              "columns (not v)");
    EXPECT_EQ(error("INSERT INTO t (a, b, c, d, v) VALUES (1, 'x', 1, 1, 1.5)"),
              "Invalid FLOAT constant (1.5) for \"v\" of type int");
    EXPECT_EQ(error("SELECT * FROM t WHERE a = 1 AND b = 'x' AND c = 1 AND c = 2"),
              "c cannot be restricted by more than one relation if it includes an Equal");
    EXPECT_EQ(error("BEGIN BATCH UPDATE counts SET n = n + 1 WHERE k = 1; INSERT INTO t (a, b, c, "
                    "d) VALUES (1, 'x', 1, 1); APPLY BATCH"),
              "Cannot include a counter statement in a logged batch");
    EXPECT_EQ(error("SELECT * FROM other.t"), "Keyspace other does not exist");
}

}  // namespace
}  // namespace tessel::cql
