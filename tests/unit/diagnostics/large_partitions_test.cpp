#include "diagnostics/large_partitions.h"

#include <gtest/gtest.h>

#include "diagnostics/tombstone_thresholds.h"

namespace tessel::diagnostics {
namespace {

TEST(FormatSize, BinaryUnits) {
    EXPECT_EQ(format_size(104857600), "100 MB");
    EXPECT_EQ(format_size(1048576), "1 MB");
    EXPECT_EQ(format_size(524288), "512 KB");
    EXPECT_EQ(format_size(1073741824), "1 GB");
    EXPECT_EQ(format_size(1000), "1000 bytes");
    EXPECT_EQ(format_size(0), "0 bytes");
}

TEST(LargePartitionTracker, SmallPartitionsLeaveNoTrace) {
    LargePartitionTracker t;
    Observation o = t.observe("ks", "t", "k", 1000, 10, 0, 1);
    EXPECT_FALSE(o.warn_crossed);
    EXPECT_TRUE(o.fail.is_ok());
    EXPECT_EQ(t.record_count(), 0u);
}

TEST(LargePartitionTracker, WarnsOncePerCrossingAndRecords) {
    LargePartitionTracker t;
    EXPECT_FALSE(t.observe("ks", "t", "2024-05-01", 100 * kMiB - 1, 10, 0, 1000).warn_crossed);
    Observation o = t.observe("ks", "t", "2024-05-01", 100 * kMiB, 20, 3, 2000);
    EXPECT_TRUE(o.warn_crossed);
    EXPECT_EQ(o.warning,
              "Writing large partition ks.t '2024-05-01' (104857600 bytes, 20 rows, 3 "
              "tombstones): over the partition_size_warn_threshold of 100 MB");
    EXPECT_TRUE(o.fail.is_ok());
    // Still over: no second log line, the record follows the partition.
    EXPECT_FALSE(t.observe("ks", "t", "2024-05-01", 110 * kMiB, 30, 4, 3000).warn_crossed);
    auto records = t.records();
    ASSERT_EQ(records.size(), 1u);
    const LargePartitionRecord& r = records[0];
    EXPECT_EQ(r.keyspace, "ks");
    EXPECT_EQ(r.table, "t");
    EXPECT_EQ(r.partition_key, "2024-05-01");
    EXPECT_EQ(r.partition_size, 110 * kMiB);
    EXPECT_EQ(r.rows, 30u);
    EXPECT_EQ(r.tombstones, 4u);
    EXPECT_EQ(r.first_seen, 2000);
    EXPECT_EQ(r.last_seen, 3000);
    // Crossing another threshold later logs that one.
    Observation rows = t.observe("ks", "t", "2024-05-01", 110 * kMiB, 100000, 4, 4000);
    EXPECT_TRUE(rows.warn_crossed);
    EXPECT_NE(rows.warning.find("over the partition_rows_warn_threshold of 100000 rows"),
              std::string::npos);
    EXPECT_EQ(rows.warning.find("partition_size_warn_threshold"), std::string::npos);
}

TEST(LargePartitionTracker, ForgottenPartitionWarnsAgainWhenItCrossesAgain) {
    LargePartitionTracker t;
    EXPECT_TRUE(t.observe("ks", "t", "k", 200 * kMiB, 1, 0, 1).warn_crossed);
    t.forget_partition("ks", "t", "other");
    EXPECT_EQ(t.record_count(), 1u);
    t.forget_partition("ks", "t", "k");  // DELETE FROM ks.t WHERE pk = 'k'
    EXPECT_EQ(t.record_count(), 0u);
    EXPECT_FALSE(t.observe("ks", "t", "k", 1 * kMiB, 1, 0, 2).warn_crossed);
    Observation again = t.observe("ks", "t", "k", 200 * kMiB, 1, 0, 3);
    EXPECT_TRUE(again.warn_crossed);
    EXPECT_EQ(t.records().at(0).first_seen, 3);
}

TEST(LargePartitionTracker, FailThresholdRejectsNamingTheLimit) {
    LargePartitionThresholds th;
    th.partition_size_fail_threshold = 100 * kMiB;
    th.partition_size_warn_threshold = 50 * kMiB;
    th.partition_rows_fail_threshold = 200000;
    LargePartitionTracker t(th);
    Observation ok = t.observe("ks", "t", "key", 100 * kMiB - 1, 1, 0, 1);
    EXPECT_TRUE(ok.fail.is_ok());
    EXPECT_TRUE(ok.warn_crossed);
    Observation o = t.observe("ks", "t", "key", 104857600, 1, 0, 2);
    ASSERT_FALSE(o.fail.is_ok());
    EXPECT_EQ(o.fail.code(), ErrorCode::kInvalid);
    EXPECT_EQ(o.fail.message(),
              "Partition ks.t 'key' is 104857600 bytes, over the partition_size_fail_threshold "
              "of 100 MB");
    // The rejected write did not change the record.
    EXPECT_EQ(t.records().at(0).partition_size, 100 * kMiB - 1);
    Observation rows = t.observe("ks", "t", "key", 1, 250000, 0, 3);
    ASSERT_FALSE(rows.fail.is_ok());
    EXPECT_EQ(rows.fail.message(),
              "Partition ks.t 'key' has 250000 rows, over the partition_rows_fail_threshold of "
              "200000");
}

TEST(LargePartitionTracker, FailTiersAreOffByDefault) {
    LargePartitionTracker t;
    EXPECT_TRUE(t.observe("ks", "t", "k", 100ull * 1024 * kMiB, 10000000, 0, 1).fail.is_ok());
    EXPECT_TRUE(t.observe_row("ks", "t", "k", 1024 * kMiB, 1024 * kMiB, 1).fail.is_ok());
}

TEST(LargePartitionTracker, RowAndCellThresholds) {
    LargePartitionThresholds th;
    th.cell_size_fail_threshold = 8 * kMiB;
    LargePartitionTracker t(th);
    Observation row = t.observe_row("ks", "t", "k", 11 * kMiB, 100, 1000);
    EXPECT_TRUE(row.warn_crossed);
    EXPECT_EQ(row.warning,
              "Writing large row to partition ks.t 'k' (11534336 bytes): over the "
              "row_size_warn_threshold of 10 MB");
    // Within 10 s, the next warning of the table is suppressed and counted.
    EXPECT_FALSE(t.observe_row("ks", "t", "k2", 2 * kMiB, 2 * kMiB, 5000).warn_crossed);
    Observation later = t.observe_row("ks", "t", "k3", 2 * kMiB, 2 * kMiB, 12000);
    EXPECT_TRUE(later.warn_crossed);
    EXPECT_EQ(later.warning,
              "Writing large cell to partition ks.t 'k3' (2097152 bytes): over the "
              "cell_size_warn_threshold of 1 MB (1 similar warnings for ks.t suppressed before "
              "this one)");
    Observation fail = t.observe_row("ks", "t", "k", 9 * kMiB, 9 * kMiB, 13000);
    ASSERT_FALSE(fail.fail.is_ok());
    EXPECT_EQ(fail.fail.message(),
              "Cell of partition ks.t 'k' is 9437184 bytes, over the cell_size_fail_threshold "
              "of 8 MB");
}

TEST(LargePartitionTracker, ForgetTableAndCapacity) {
    LargePartitionThresholds th;
    th.max_records = 3;
    LargePartitionTracker t(th);
    for (int i = 0; i < 5; ++i) {
        t.observe("ks", "t", "k" + std::to_string(i), (101 + i) * kMiB, 1, 0, i);
    }
    auto recs = t.records();
    ASSERT_EQ(recs.size(), 3u);  // the smallest went first
    EXPECT_EQ(recs[0].partition_key, "k2");
    EXPECT_EQ(recs[2].partition_key, "k4");
    t.observe("ks", "u", "x", 200 * kMiB, 1, 0, 9);
    t.forget_table("ks", "t");
    recs = t.records();
    ASSERT_EQ(recs.size(), 1u);
    EXPECT_EQ(recs[0].table, "u");
}

TEST(TombstoneThresholds, WarningTextIsCassandras) {
    TombstoneThresholds th;
    EXPECT_FALSE(tombstone_warning(th, 10, 1000, "SELECT * FROM ks.t").has_value());
    auto w = tombstone_warning(th, 1500, 1200, "SELECT * FROM ks.t WHERE k = 1 LIMIT 5000");
    ASSERT_TRUE(w.has_value());
    EXPECT_EQ(*w,
              "Read 1500 live rows and 1200 tombstone cells for query SELECT * FROM ks.t WHERE "
              "k = 1 LIMIT 5000 (see tombstone_warn_threshold)");
    std::string long_query(600, 'x');
    auto cut = tombstone_warning(th, 0, 2000, long_query);
    ASSERT_TRUE(cut.has_value());
    EXPECT_NE(cut->find(std::string(512, 'x') + " (see"), std::string::npos);
    EXPECT_EQ(cut->find(std::string(513, 'x')), std::string::npos);
}

TEST(TombstoneThresholds, FailureAbortsWithReadFailure) {
    TombstoneThresholds th;
    EXPECT_FALSE(tombstones_overwhelming(th, 100000));
    EXPECT_TRUE(tombstones_overwhelming(th, 100001));
    Status s = tombstone_failure(100001, "SELECT * FROM ks.t WHERE k = 1", "1");
    ASSERT_FALSE(s.is_ok());
    EXPECT_EQ(s.code(), ErrorCode::kReadFailure);
    EXPECT_EQ(s.message(),
              "Scanned over 100001 tombstones during query 'SELECT * FROM ks.t WHERE k = 1' "
              "(last scanned row partion key was (1)); query aborted");
}

}  // namespace
}  // namespace tessel::diagnostics
