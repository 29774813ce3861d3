// Cassandra's restriction rules: each error's code and wording.
#include "test_db.h"

namespace tessel::testing {
namespace {

// Cassandra's text, then which restriction needs the filtering.
const std::string kFiltering =
    "Cannot execute this query as it might involve data filtering and thus may have "
    "unpredictable performance. If you want to execute this query despite the performance "
    "unpredictability, use ALLOW FILTERING";

class RulesTest : public ::testing::Test {
  protected:
    void SetUp() override {
        t.create_keyspace("ks");
        t.ok("USE ks");
        t.ok(
            "CREATE TABLE t (a int, b int, c1 int, c2 int, c3 int, v int, m map<text, int>, "
            "PRIMARY KEY ((a, b), c1, c2, c3))");
    }
    void expect_invalid(const std::string& cql, const std::string& message) {
        Status s = t.err(cql);
        EXPECT_EQ(s.code(), ErrorCode::kInvalid) << cql;
        EXPECT_EQ(s.message(), message) << cql;
    }
    TestDb t;
};

TEST_F(RulesTest, PartitionKeyRules) {
    expect_invalid("SELECT * FROM t WHERE a = 1",
                   "Partition key parts: b must be restricted as other parts are");
    expect_invalid("SELECT * FROM t WHERE a > 1 AND b = 1",
                   "Only EQ and IN relation are supported on the partition key (unless you use the "
                   "token() function)");
    expect_invalid("SELECT * FROM t WHERE v = 1",
                   kFiltering +
                       " (column v would be filtered row by row; partition key columns a, b not "
                       "restricted by = or IN)");
    expect_invalid("SELECT * FROM t WHERE c1 = 1",
                   kFiltering + " (partition key columns a, b not restricted by = or IN)");
    t.ok("SELECT * FROM t WHERE a = 1 ALLOW FILTERING");
    t.ok("SELECT * FROM t WHERE a = 1 AND b IN (1, 2)");
    t.ok("SELECT * FROM t WHERE token(a, b) > 0");
}

TEST_F(RulesTest, ClusteringPrefixRules) {
    expect_invalid("SELECT * FROM t WHERE a = 1 AND b = 1 AND c2 = 1",
                   "PRIMARY KEY column \"c2\" cannot be restricted as preceding column \"c1\" is "
                   "not restricted");
    expect_invalid("SELECT * FROM t WHERE a = 1 AND b = 1 AND c1 > 1 AND c2 = 1",
                   "Clustering column \"c2\" cannot be restricted (preceding column \"c1\" is "
                   "restricted by a non-EQ relation)");
    t.ok("SELECT * FROM t WHERE a = 1 AND b = 1 AND c1 = 1 AND c2 > 1");
    t.ok("SELECT * FROM t WHERE a = 1 AND b = 1 AND c1 IN (1, 2) AND c2 = 1");
    t.ok("SELECT * FROM t WHERE a = 1 AND b = 1 AND c2 = 1 ALLOW FILTERING");
    expect_invalid("SELECT * FROM t WHERE a = 1 AND b = 1 AND v = 1",
                   kFiltering + " (column v would be filtered row by row)");
}

TEST_F(RulesTest, OrderByRules) {
    expect_invalid(
        "SELECT * FROM t WHERE a = 1 AND b = 1 ORDER BY v DESC",
        "Order by is currently only supported on the clustered columns of the PRIMARY KEY, got v");
    expect_invalid("SELECT * FROM t WHERE a = 1 AND b = 1 ORDER BY c2 DESC, c1 DESC",
                   "Order by currently only supports the ordering of columns following their "
                   "declared order in the PRIMARY KEY (c2 is not the clustering column c1 that "
                   "comes next; the clustering order is (c1 ASC, c2 ASC, c3 ASC))");
    expect_invalid("SELECT * FROM t WHERE a = 1 AND b = 1 ORDER BY c1 DESC, c2 ASC",
                   "Unsupported order by relation (c2 ASC neither follows nor reverses the "
                   "clustering order (c1 ASC, c2 ASC, c3 ASC) as the columns before it do)");
    expect_invalid(
        "SELECT * FROM t ORDER BY c1 DESC",
        "ORDER BY is only supported when the partition key is restricted by an EQ or an IN.");
    t.ok("SELECT * FROM t WHERE a = 1 AND b = 1 ORDER BY c1 DESC");
}

TEST_F(RulesTest, NamesAndLiterals) {
    expect_invalid("SELECT x FROM t WHERE a = 1 AND b = 1", "Undefined column name x");
    expect_invalid("SELECT * FROM t WHERE a = 1 AND b = 1 AND x = 1", "Undefined column name x");
    expect_invalid("SELECT * FROM nope", "unconfigured table nope");
    expect_invalid("INSERT INTO t (a, b, c1, c2, c3, v) VALUES ('foo', 1, 1, 1, 1, 1)",
                   "Invalid STRING constant (foo) for \"a\" of type int");
    expect_invalid("INSERT INTO t (a, b, c1, c2, c3, x) VALUES (1, 1, 1, 1, 1, 1)",
                   "Undefined column name x");
    expect_invalid("INSERT INTO t (a, c1, c2, c3, v) VALUES (1, 1, 1, 1, 1)",
                   "Some partition key parts are missing: b");
    expect_invalid("INSERT INTO t (a, b, c1, v) VALUES (1, 1, 1, 1)",
                   "Some clustering keys are missing: c2, c3");
}

TEST_F(RulesTest, ModificationRules) {
    expect_invalid("UPDATE t SET a = 1 WHERE a = 1 AND b = 1 AND c1 = 1 AND c2 = 1 AND c3 = 1",
                   "PRIMARY KEY part a found in SET part");
    expect_invalid("UPDATE t SET v = 1 WHERE a = 1 AND c1 = 1 AND c2 = 1 AND c3 = 1",
                   "Some partition key parts are missing: b");
    expect_invalid("UPDATE t SET v = 1 WHERE a = 1 AND b = 1 AND c1 = 1",
                   "Some clustering keys are missing: c2, c3");
    expect_invalid("DELETE FROM t WHERE a = 1 AND b = 1 AND v = 1",
                   "Non PRIMARY KEY columns found in where clause: v");
    expect_invalid("UPDATE t SET v = v + 1 WHERE a = 1 AND b = 1 AND c1 = 1 AND c2 = 1 AND c3 = 1",
                   "Invalid operation (v = v + 1) for non counter column v");
    Status s = t.err("UPDATE system.local SET cluster_name = 'x' WHERE key = 'local'");
    EXPECT_EQ(s.code(), ErrorCode::kInvalid);
}

}  // namespace
}  // namespace tessel::testing
