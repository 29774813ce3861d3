// Collections, counters, lightweight transactions and batches.
#include "test_db.h"

namespace tessel::testing {
namespace {

using Rows = std::vector<std::string>;

class WritesTest : public ::testing::Test {
  protected:
    void SetUp() override {
        t.create_keyspace("ks");
        t.ok("USE ks");
    }
    TestDb t;
};

TEST_F(WritesTest, ListSetMapOperations) {
    t.ok(
        "CREATE TABLE c (k int PRIMARY KEY, l list<int>, s set<text>, m map<text, int>, f "
        "frozen<list<int>>)");
    t.ok("INSERT INTO c (k, l, s, m, f) VALUES (1, [1, 2], {'b', 'a'}, {'x': 1}, [9])");
    EXPECT_EQ(t.rows("SELECT l, s, m, f FROM c WHERE k = 1"),
              (Rows{"[1, 2]|{'a', 'b'}|{'x': 1}|[9]"}));
    t.ok("UPDATE c SET l = l + [3], s = s + {'c'}, m = m + {'y': 2} WHERE k = 1");
    t.ok("UPDATE c SET l = [0] + l WHERE k = 1");
    EXPECT_EQ(t.rows("SELECT l, s, m FROM c WHERE k = 1"),
              (Rows{"[0, 1, 2, 3]|{'a', 'b', 'c'}|{'x': 1, 'y': 2}"}));
    t.ok("UPDATE c SET l[1] = 10, m['x'] = 5 WHERE k = 1");
    t.ok("UPDATE c SET l = l - [2], s = s - {'a'}, m = m - {'y'} WHERE k = 1");
    EXPECT_EQ(t.rows("SELECT l, s, m FROM c WHERE k = 1"),
              (Rows{"[0, 10, 3]|{'b', 'c'}|{'x': 5}"}));
    t.ok("DELETE l[0], m['x'] FROM c WHERE k = 1");
    EXPECT_EQ(t.rows("SELECT l, m FROM c WHERE k = 1"), (Rows{"[10, 3]|null"}));
    // Overwriting a collection replaces it entirely.
    t.ok("UPDATE c SET s = {'z'} WHERE k = 1");
    EXPECT_EQ(t.rows("SELECT s FROM c WHERE k = 1"), (Rows{"{'z'}"}));
    Status st = t.err("UPDATE c SET l[7] = 1 WHERE k = 1");
    EXPECT_EQ(st.message(), "List index 7 out of bound, list has size 2");
    EXPECT_EQ(t.rows("SELECT k FROM c WHERE s CONTAINS 'z' ALLOW FILTERING"), (Rows{"1"}));
    EXPECT_TRUE(t.rows("SELECT k FROM c WHERE m CONTAINS KEY 'x' ALLOW FILTERING").empty());
}

TEST_F(WritesTest, NonFrozenUserTypes) {
    t.ok("CREATE TYPE addr (street text, zip int)");
    t.ok("CREATE TABLE p (k int PRIMARY KEY, a addr)");
    t.ok("INSERT INTO p (k, a) VALUES (1, {street: 'main', zip: 1})");
    t.ok("UPDATE p SET a.zip = 2 WHERE k = 1");
    EXPECT_EQ(t.rows("SELECT a.street, a.zip FROM p WHERE k = 1"), (Rows{"main|2"}));
    t.ok("DELETE a.street FROM p WHERE k = 1");
    EXPECT_EQ(t.rows("SELECT a.street, a.zip FROM p WHERE k = 1"), (Rows{"null|2"}));
}

TEST_F(WritesTest, Counters) {
    t.ok("CREATE TABLE cnt (k int PRIMARY KEY, hits counter)");
    t.ok("UPDATE cnt SET hits = hits + 5 WHERE k = 1");
    t.ok("UPDATE cnt SET hits = hits - 2 WHERE k = 1");
    t.ok("UPDATE cnt SET hits = hits + 1 WHERE k = 1");
    EXPECT_EQ(t.rows("SELECT hits FROM cnt WHERE k = 1"), (Rows{"4"}));
    Status s = t.err("INSERT INTO cnt (k, hits) VALUES (2, 1)");
    EXPECT_EQ(s.message(),
              "INSERT statements are not allowed on counter tables, use UPDATE instead");
    s = t.err("UPDATE cnt SET hits = 3 WHERE k = 1");
    EXPECT_EQ(s.code(), ErrorCode::kInvalid);
    s = t.err("UPDATE cnt USING TIMESTAMP 5 SET hits = hits + 1 WHERE k = 1");
    EXPECT_EQ(s.message(), "Cannot provide custom timestamp for counter updates");
}

TEST_F(WritesTest, LightweightTransactions) {
    t.ok("CREATE TABLE u (k int PRIMARY KEY, v int, w text)");
    auto rs = t.ok("INSERT INTO u (k, v, w) VALUES (1, 1, 'a') IF NOT EXISTS");
    ASSERT_EQ(rs.columns.size(), 1u);
    EXPECT_EQ(rs.columns[0].name, "[applied]");
    EXPECT_EQ(TestDb::format(rs), (Rows{"True"}));
    rs = t.ok("INSERT INTO u (k, v, w) VALUES (1, 2, 'b') IF NOT EXISTS");
    EXPECT_EQ(TestDb::format(rs), (Rows{"False|1|1|a"}));
    EXPECT_EQ(rs.columns[1].name, "k");
    rs = t.ok("UPDATE u SET v = 3 WHERE k = 1 IF v = 5");
    EXPECT_EQ(TestDb::format(rs), (Rows{"False|1"}));
    EXPECT_EQ(rs.columns[1].name, "v");
    rs = t.ok("UPDATE u SET v = 3 WHERE k = 1 IF v = 1 AND w = 'a'");
    EXPECT_EQ(TestDb::format(rs), (Rows{"True"}));
    EXPECT_EQ(t.rows("SELECT v FROM u WHERE k = 1"), (Rows{"3"}));
    rs = t.ok("UPDATE u SET v = 4 WHERE k = 2 IF EXISTS");
    EXPECT_EQ(TestDb::format(rs), (Rows{"False"}));
    rs = t.ok("DELETE FROM u WHERE k = 1 IF EXISTS");
    EXPECT_EQ(TestDb::format(rs), (Rows{"True"}));
    EXPECT_TRUE(t.rows("SELECT * FROM u WHERE k = 1").empty());
    rs = t.ok("UPDATE u SET v = 1 WHERE k = 3 IF v IN (null, 5)");
    EXPECT_EQ(TestDb::format(rs), (Rows{"True"}));
}

TEST_F(WritesTest, Batches) {
    t.ok("CREATE TABLE b (k int, c int, v int, PRIMARY KEY (k, c))");
    t.ok("CREATE TABLE cnt (k int PRIMARY KEY, n counter)");
    t.ok(
        "BEGIN BATCH INSERT INTO b (k, c, v) VALUES (1, 1, 1); INSERT INTO b (k, c, v) VALUES (2, "
        "1, 1); "
        "UPDATE b SET v = 2 WHERE k = 1 AND c = 1; APPLY BATCH");
    EXPECT_EQ(t.rows("SELECT k, c, v FROM b"), (Rows{"1|1|2", "2|1|1"}));
    t.ok(
        "BEGIN COUNTER BATCH UPDATE cnt SET n = n + 1 WHERE k = 1; UPDATE cnt SET n = n + 2 WHERE "
        "k = 1; APPLY BATCH");
    EXPECT_EQ(t.rows("SELECT n FROM cnt WHERE k = 1"), (Rows{"3"}));
    Status s = t.err("BEGIN BATCH UPDATE cnt SET n = n + 1 WHERE k = 1; APPLY BATCH");
    EXPECT_EQ(s.message(), "Cannot include a counter statement in a logged batch");
    s = t.err(
        "BEGIN UNLOGGED BATCH UPDATE cnt SET n = n + 1 WHERE k = 1; INSERT INTO b (k, c, v) VALUES "
        "(1, 1, 1); APPLY BATCH");
    EXPECT_EQ(s.message(), "Counter and non-counter mutations cannot exist in the same batch");
    // A conditional batch on one partition applies all or nothing.
    auto rs = t.ok(
        "BEGIN BATCH INSERT INTO b (k, c, v) VALUES (1, 2, 1) IF NOT EXISTS; "
        "UPDATE b SET v = 9 WHERE k = 1 AND c = 1; APPLY BATCH");
    EXPECT_EQ(TestDb::format(rs), (Rows{"True"}));
    rs = t.ok(
        "BEGIN BATCH INSERT INTO b (k, c, v) VALUES (1, 2, 5) IF NOT EXISTS; "
        "UPDATE b SET v = 7 WHERE k = 1 AND c = 1; APPLY BATCH");
    ASSERT_FALSE(rs.rows.empty());
    EXPECT_EQ(TestDb::format(rs)[0].substr(0, 5), "False");
    EXPECT_EQ(t.rows("SELECT c, v FROM b WHERE k = 1"), (Rows{"1|9", "2|1"}));
    s = t.err(
        "BEGIN BATCH INSERT INTO b (k, c, v) VALUES (1, 3, 1) IF NOT EXISTS; "
        "INSERT INTO b (k, c, v) VALUES (2, 3, 1); APPLY BATCH");
    EXPECT_EQ(s.message(), "Batch with conditions cannot span multiple partitions");
    // The API batch with prepared and text entries.
    auto ps = t.session().prepare("INSERT INTO b (k, c, v) VALUES (?, ?, ?)");
    ASSERT_TRUE(ps.is_ok());
    std::vector<BatchEntry> entries;
    entries.push_back({"",
                       ps->id,
                       {BoundValue::value(int_bytes(5)), BoundValue::value(int_bytes(1)),
                        BoundValue::value(int_bytes(50))}});
    entries.push_back({"INSERT INTO b (k, c, v) VALUES (5, 2, 51)", "", {}});
    auto r = t.session().execute_batch(BatchType::kUnlogged, entries, {});
    ASSERT_TRUE(r.is_ok()) << r.status().to_string();
    EXPECT_EQ(t.rows("SELECT v FROM b WHERE k = 5"), (Rows{"50", "51"}));
}

}  // namespace
}  // namespace tessel::testing
