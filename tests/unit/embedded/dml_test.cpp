// UPDATE / DELETE, tombstones, TTL, timestamps, static columns, IN.
#include <thread>

#include "test_db.h"

namespace tessel::testing {
namespace {

using Rows = std::vector<std::string>;

class DmlTest : public ::testing::Test {
  protected:
    void SetUp() override {
        t.create_keyspace("ks");
        t.ok("USE ks");
        t.ok("CREATE TABLE t (k int, c int, s int STATIC, v text, w int, PRIMARY KEY (k, c))");
    }
    TestDb t;
};

TEST_F(DmlTest, UpdateUpsertsAndNullDeletes) {
    t.ok("UPDATE t SET v = 'a', w = 1 WHERE k = 1 AND c = 1");
    EXPECT_EQ(t.rows("SELECT k, c, v, w FROM t WHERE k = 1"), (Rows{"1|1|a|1"}));
    t.ok("UPDATE t SET v = null WHERE k = 1 AND c = 1");
    EXPECT_EQ(t.rows("SELECT k, c, v, w FROM t WHERE k = 1"), (Rows{"1|1|null|1"}));
    // A row written by UPDATE only (no row marker) disappears with its last cell.
    t.ok("UPDATE t SET w = null WHERE k = 1 AND c = 1");
    EXPECT_TRUE(t.rows("SELECT * FROM t WHERE k = 1").empty());
    // A row written by INSERT stays, with null columns.
    t.ok("INSERT INTO t (k, c, v) VALUES (1, 2, 'b')");
    t.ok("DELETE v FROM t WHERE k = 1 AND c = 2");
    EXPECT_EQ(t.rows("SELECT k, c, v FROM t WHERE k = 1"), (Rows{"1|2|null"}));
}

TEST_F(DmlTest, RowRangeAndPartitionDeletes) {
    for (int c = 0; c < 10; ++c) {
        t.ok("INSERT INTO t (k, c, v) VALUES (1, " + std::to_string(c) + ", 'x')");
        t.ok("INSERT INTO t (k, c, v) VALUES (2, " + std::to_string(c) + ", 'y')");
    }
    t.ok("DELETE FROM t WHERE k = 1 AND c = 0");
    t.ok("DELETE FROM t WHERE k = 1 AND c >= 3 AND c < 6");
    t.ok("DELETE FROM t WHERE k = 1 AND c > 7");
    EXPECT_EQ(t.rows("SELECT c FROM t WHERE k = 1"), (Rows{"1", "2", "6", "7"}));
    t.ok("DELETE FROM t WHERE k = 2");
    EXPECT_TRUE(t.rows("SELECT * FROM t WHERE k = 2").empty());
    EXPECT_EQ(t.rows("SELECT count(*) FROM t"), (Rows{"4"}));
}

TEST_F(DmlTest, TimestampsShadowOlderWrites) {
    t.ok("INSERT INTO t (k, c, v) VALUES (1, 1, 'new') USING TIMESTAMP 2000");
    t.ok("INSERT INTO t (k, c, v) VALUES (1, 1, 'old') USING TIMESTAMP 1000");
    EXPECT_EQ(t.rows("SELECT v, writetime(v) FROM t WHERE k = 1 AND c = 1"), (Rows{"new|2000"}));
    t.ok("DELETE FROM t USING TIMESTAMP 1500 WHERE k = 1");
    EXPECT_EQ(t.rows("SELECT v FROM t WHERE k = 1"), (Rows{"new"}));
    t.ok("DELETE FROM t USING TIMESTAMP 2500 WHERE k = 1");
    EXPECT_TRUE(t.rows("SELECT v FROM t WHERE k = 1").empty());
    // A write older than the partition deletion stays shadowed.
    t.ok("INSERT INTO t (k, c, v) VALUES (1, 1, 'older') USING TIMESTAMP 2400");
    EXPECT_TRUE(t.rows("SELECT v FROM t WHERE k = 1").empty());
    QueryOptions o;
    o.default_timestamp = 3000;
    t.ok("INSERT INTO t (k, c, v) VALUES (1, 1, 'client')", o);
    EXPECT_EQ(t.rows("SELECT v, writetime(v) FROM t WHERE k = 1"), (Rows{"client|3000"}));
}

TEST_F(DmlTest, TtlExpiresCells) {
    t.ok("INSERT INTO t (k, c, v, w) VALUES (1, 1, 'a', 1) USING TTL 1");
    t.ok("UPDATE t USING TTL 1000 SET w = 5 WHERE k = 1 AND c = 1");
    auto r = t.rows("SELECT ttl(v), ttl(w) FROM t WHERE k = 1");
    ASSERT_EQ(r.size(), 1u);
    std::this_thread::sleep_for(std::chrono::milliseconds(2100));
    // The row marker and v expired; w lives on.
    EXPECT_EQ(t.rows("SELECT c, v, w FROM t WHERE k = 1"), (Rows{"1|null|5"}));
    Status s = t.err("INSERT INTO t (k, c, v) VALUES (1, 1, 'a') USING TTL -1");
    EXPECT_EQ(s.message(), "A TTL must be greater or equal to 0, but was -1");
}

TEST_F(DmlTest, StaticColumns) {
    t.ok("INSERT INTO t (k, c, s, v) VALUES (1, 1, 10, 'a')");
    t.ok("INSERT INTO t (k, c, v) VALUES (1, 2, 'b')");
    EXPECT_EQ(t.rows("SELECT c, s, v FROM t WHERE k = 1"), (Rows{"1|10|a", "2|10|b"}));
    t.ok("UPDATE t SET s = 20 WHERE k = 1");
    EXPECT_EQ(t.rows("SELECT DISTINCT k, s FROM t"), (Rows{"1|20"}));
    // A partition with only static data shows one row with null clustering.
    t.ok("UPDATE t SET s = 5 WHERE k = 2");
    EXPECT_EQ(t.rows("SELECT k, c, s FROM t WHERE k = 2"), (Rows{"2|null|5"}));
}

TEST_F(DmlTest, InOnPartitionAndClustering) {
    t.ok("UPDATE t SET v = 'x' WHERE k IN (1, 2, 3) AND c IN (1, 2)");
    EXPECT_EQ(t.rows("SELECT count(*) FROM t"), (Rows{"6"}));
    EXPECT_EQ(t.rows("SELECT k, c FROM t WHERE k = 2 AND c IN (2, 1, 5)"), (Rows{"2|1", "2|2"}));
    EXPECT_EQ(t.rows("SELECT c FROM t WHERE k IN (1, 3) AND c = 2").size(), 2u);
    // IN results come in partition key order, paged or not.
    EXPECT_EQ(t.rows("SELECT k, c FROM t WHERE k IN (3, 1, 2) AND c = 1"),
              (Rows{"1|1", "2|1", "3|1"}));
    QueryOptions o;
    o.page_size = 1;
    auto first = t.ok("SELECT k FROM t WHERE k IN (3, 1, 2) AND c = 1", o);
    EXPECT_EQ(TestDb::format(first), (Rows{"1"}));
    o.paging_state = first.paging_state;
    EXPECT_EQ(t.rows("SELECT k FROM t WHERE k IN (3, 1, 2) AND c = 1", o), (Rows{"2"}));
    t.ok("DELETE FROM t WHERE k IN (1, 2)");
    EXPECT_EQ(t.rows("SELECT count(*) FROM t"), (Rows{"2"}));
}

TEST_F(DmlTest, SlicesOrderingAndLimits) {
    t.ok(
        "CREATE TABLE e (id int, ts int, x int, PRIMARY KEY (id, ts)) WITH CLUSTERING ORDER BY (ts "
        "DESC)");
    for (int i = 0; i < 20; ++i) {
        t.ok("INSERT INTO e (id, ts, x) VALUES (1, " + std::to_string(i) + ", " +
             std::to_string(i * 10) + ")");
        t.ok("INSERT INTO e (id, ts, x) VALUES (2, " + std::to_string(i) + ", 0)");
    }
    // Latest N events: the declared DESC order.
    EXPECT_EQ(t.rows("SELECT ts FROM e WHERE id = 1 LIMIT 3"), (Rows{"19", "18", "17"}));
    EXPECT_EQ(t.rows("SELECT ts FROM e WHERE id = 1 AND ts > 5 AND ts <= 8"),
              (Rows{"8", "7", "6"}));
    EXPECT_EQ(t.rows("SELECT ts FROM e WHERE id = 1 AND ts < 3 ORDER BY ts ASC"),
              (Rows{"0", "1", "2"}));
    EXPECT_EQ(t.rows("SELECT id, ts FROM e PER PARTITION LIMIT 2").size(), 4u);
    EXPECT_EQ(t.rows("SELECT ts FROM e WHERE id = 1 AND (ts) >= (18)"), (Rows{"19", "18"}));
    EXPECT_EQ(t.rows("SELECT ts FROM e WHERE id = 1 AND x > 150 ALLOW FILTERING"),
              (Rows{"19", "18", "17", "16"}));
}

TEST_F(DmlTest, MultiColumnSlices) {
    t.ok("CREATE TABLE m (k int, a int, b int, PRIMARY KEY (k, a, b))");
    for (int a = 0; a < 3; ++a) {
        for (int b = 0; b < 3; ++b) {
            t.ok("INSERT INTO m (k, a, b) VALUES (0, " + std::to_string(a) + ", " +
                 std::to_string(b) + ")");
        }
    }
    EXPECT_EQ(t.rows("SELECT a, b FROM m WHERE k = 0 AND (a, b) > (1, 1) AND (a, b) < (2, 2)"),
              (Rows{"1|2", "2|0", "2|1"}));
    EXPECT_EQ(t.rows("SELECT a, b FROM m WHERE k = 0 AND (a, b) IN ((0, 1), (2, 2))"),
              (Rows{"0|1", "2|2"}));
    EXPECT_EQ(t.rows("SELECT a, b FROM m WHERE k = 0 AND a = 1 AND b >= 1"), (Rows{"1|1", "1|2"}));
}

}  // namespace
}  // namespace tessel::testing
