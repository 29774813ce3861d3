// Partition health wired into the embedded Database: large partitions with
// warn and fail tiers, tombstone thresholds, hot partitions, the advisor's
// table and the CALL statements.
#include "embedded/partition_health.h"

#include <string>

#include "test_db.h"

namespace tessel::testing {
namespace {

DatabaseOptions lowered() {
    DatabaseOptions o;
    o.large_partitions.partition_size_warn_threshold = 20 * 1024;
    o.large_partitions.partition_rows_warn_threshold = 1000;
    o.large_partitions.partition_size_fail_threshold = 100 * 1024;
    o.large_partitions.cell_size_warn_threshold = 4096;
    o.large_partitions.cell_size_fail_threshold = 64 * 1024;
    o.tombstones.tombstone_warn_threshold = 10;
    o.tombstones.tombstone_failure_threshold = 50;
    return o;
}

void setup(TestDb& t) {
    t.create_keyspace("ks");
    t.ok("CREATE TABLE ks.t (k int, c int, v text, PRIMARY KEY (k, c))");
}

void fill(TestDb& t, int key, int from, int to, size_t value_bytes = 100) {
    const std::string v(value_bytes, 'x');
    for (int c = from; c < to; ++c) {
        t.ok("INSERT INTO ks.t (k, c, v) VALUES (" + std::to_string(key) + ", " +
             std::to_string(c) + ", '" + v + "')");
    }
}

TEST(PartitionHealth, PartitionOverTheWarnThresholdIsListed) {
    TestDb t(lowered());
    setup(t);
    fill(t, 1, 0, 10);
    EXPECT_TRUE(t.rows("SELECT partition_key FROM system.large_partitions").empty());
    fill(t, 1, 10, 200);  // about 26 KB: over 20 KB
    fill(t, 2, 0, 5);
    auto rows = t.rows(
        "SELECT keyspace_name, table_name, partition_key, rows, tombstones FROM "
        "system.large_partitions");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0], "ks|t|1|200|0");
    auto size = t.ok("SELECT partition_size FROM system.large_partitions");
    int64_t bytes = 0;
    for (char ch : *size.rows[0][0])
        bytes = (bytes << 8) | static_cast<uint8_t>(ch);
    EXPECT_GE(bytes, 20 * 1024);
    EXPECT_LT(bytes, 40 * 1024);
}

TEST(PartitionHealth, FailThresholdRefusesWritesButNotDeletions) {
    TestDb t(lowered());
    setup(t);
    fill(t, 1, 0, 700);  // about 90 KB
    Status st = Status::ok();
    for (int c = 700; c < 1000 && st.is_ok(); ++c) {
        auto r = t.session().execute("INSERT INTO ks.t (k, c, v) VALUES (1, " + std::to_string(c) +
                                         ", '" + std::string(100, 'x') + "')",
                                     {});
        if (!r.is_ok()) st = r.status();
    }
    ASSERT_FALSE(st.is_ok());
    EXPECT_EQ(st.code(), ErrorCode::kInvalid);
    EXPECT_NE(st.message().find("Partition ks.t '1' is "), std::string::npos) << st.message();
    EXPECT_NE(st.message().find("partition_size_fail_threshold of 100 KB"), std::string::npos);
    // Other partitions and deletions of this one still go through.
    fill(t, 2, 0, 3);
    t.ok("DELETE FROM ks.t WHERE k = 1 AND c = 5");
}

TEST(PartitionHealth, LargeCellsWarnAndFail) {
    TestDb t(lowered());
    setup(t);
    fill(t, 1, 0, 1, 8000);  // over the 4 KB cell warn threshold: logged only
    Status st =
        t.err("INSERT INTO ks.t (k, c, v) VALUES (1, 2, '" + std::string(70000, 'y') + "')");
    EXPECT_EQ(st.code(), ErrorCode::kInvalid);
    EXPECT_NE(st.message().find("cell_size_fail_threshold of 64 KB"), std::string::npos);
}

TEST(PartitionHealth, TombstoneWarningThenFailure) {
    TestDb t(lowered());
    setup(t);
    fill(t, 1, 0, 60);
    for (int c = 0; c < 20; ++c)
        t.ok("DELETE FROM ks.t WHERE k = 1 AND c = " + std::to_string(c));
    auto rs = t.ok("SELECT * FROM ks.t WHERE k = 1");
    EXPECT_EQ(rs.rows.size(), 40u);
    ASSERT_EQ(rs.warnings.size(), 1u);
    EXPECT_EQ(rs.warnings[0],
              "Read 40 live rows and 20 tombstone cells for query SELECT * FROM ks.t WHERE k = 1 "
              "(see tombstone_warn_threshold)");
    for (int c = 20; c < 60; ++c)
        t.ok("DELETE FROM ks.t WHERE k = 1 AND c = " + std::to_string(c));
    Status st = t.err("SELECT * FROM ks.t WHERE k = 1");
    EXPECT_EQ(st.code(), ErrorCode::kReadFailure);
    EXPECT_NE(st.message().find("Scanned over 60 tombstones during query 'SELECT * FROM ks.t "
                                "WHERE k = 1' (last scanned row partion key was (1))"),
              std::string::npos)
        << st.message();
}

TEST(PartitionHealth, HotPartitionsRankTheSkewedKeyFirst) {
    TestDb t;
    setup(t);
    for (int i = 0; i < 50; ++i)
        fill(t, 7, i, i + 1);
    for (int k = 0; k < 10; ++k)
        fill(t, k, 0, 1);
    for (int i = 0; i < 5; ++i)
        t.ok("SELECT * FROM ks.t WHERE k = 3");
    auto rows = t.rows(
        "SELECT kind, partition_key, count FROM system.hot_partitions WHERE keyspace_name = 'ks' "
        "AND table_name = 't' AND kind = 'writes' AND window = 'current' AND rank = 1");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0], "writes|7|51");
    rows = t.rows(
        "SELECT partition_key, count FROM system.hot_partitions WHERE keyspace_name = 'ks' AND "
        "table_name = 't' AND kind = 'reads' AND window = 'current' AND rank = 1");
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0], "3|5");
    // DROP forgets the table.
    t.ok("DROP TABLE ks.t");
    EXPECT_TRUE(t.rows("SELECT partition_key FROM system.hot_partitions").empty());
}

TEST(PartitionHealth, AdviceForAnUnshardedTableIsANewTable) {
    TestDb t;
    setup(t);
    fill(t, 1, 0, 20);
    auto rows = t.ok(
        "SELECT kind, message, statement FROM system.partition_advice WHERE keyspace_name = "
        "'ks' AND table_name = 't'");
    ASSERT_FALSE(rows.rows.empty());
    // 20 writes in the current window: under the budget, but 1 distinct key.
    bool cardinality = false;
    for (const auto& r : rows.rows)
        cardinality = cardinality || *r[0] == "partition_key";
    EXPECT_TRUE(cardinality);
}

TEST(PartitionHealth, FlushAndCompactCalls) {
    TestDb t;
    setup(t);
    fill(t, 1, 0, 5);
    t.ok("CALL system.flush()");
    t.ok("CALL system.flush('ks', 't')");
    t.ok("CALL system.compact('ks')");
    EXPECT_EQ(t.err("CALL system.compact('nope')").code(), ErrorCode::kInvalid);
    EXPECT_EQ(t.err("CALL system.flush('ks', 'nope')").code(), ErrorCode::kInvalid);
    EXPECT_EQ(t.rows("SELECT count(*) FROM ks.t WHERE k = 1")[0], "5");
}

}  // namespace
}  // namespace tessel::testing
