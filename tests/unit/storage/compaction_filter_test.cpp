// The compaction filter, driven through Store::compact with a clock the test
// moves: what is purged after gc grace, and what must never be.
#include <gtest/gtest.h>

#include "storage_test_util.h"

namespace tessel::storage {
namespace {

using namespace testing;

class CompactionFilterTest : public StoreTest {
  protected:
    static constexpr int32_t kGrace = 100;
    void SetUp() override {
        StoreTest::SetUp();
        ASSERT_TRUE(store_->set_table_options("t", {kGrace}).is_ok());
    }
    void compact() {
        ASSERT_TRUE(store_->flush().is_ok());
        ASSERT_TRUE(store_->compact("t").is_ok());
    }
    struct Scan {
        uint64_t rows = 0;
        uint64_t tombstones = 0;
        size_t live = 0;
    };
    Scan scan(const std::string& pk) {
        auto r = store_->read_partition("t", pk, {}, clock_);
        EXPECT_TRUE(r.is_ok());
        Scan s;
        Row row1;
        while ((*r)->next(&row1))
            ++s.live;
        s.rows = (*r)->rows_scanned();
        s.tombstones = (*r)->tombstones_scanned();
        return s;
    }
};

TEST_F(CompactionFilterTest, RowDeletionIsPurgedOnlyAfterGcGrace) {
    apply(write_row("pk01", "c1", row({live(1, "v", 5)}, 5)));
    apply(delete_row("pk01", "c1", 10, now32()));
    compact();
    EXPECT_EQ(scan("pk01").rows, 1u);
    EXPECT_EQ(scan("pk01").tombstones, 1u);

    clock_ += kGrace;  // local deletion time + grace == now: not yet
    compact();
    EXPECT_EQ(scan("pk01").rows, 1u);

    clock_ += 1;
    compact();
    EXPECT_EQ(scan("pk01").rows, 0u);
    EXPECT_EQ(scan("pk01").tombstones, 0u);
    // After the purge a late write with an old timestamp is no longer
    // shadowed: exactly why gc grace must exceed the repair period.
    apply(write_row("pk01", "c1", row({live(1, "late", 7)})));
    EXPECT_EQ(scan("pk01").live, 1u);
}

TEST_F(CompactionFilterTest, ExpiredCellsBecomeTombstonesThenDisappear) {
    const auto expiry = static_cast<int32_t>(clock_ + 10);
    apply(write_row("pk01", "c1", row({live(1, "ttl", 5, "", 10, expiry), live(2, "keep", 5)})));
    apply(write_row("pk01", "c2", row({live(1, "ttl", 5, "", 10, expiry)})));
    clock_ += 10;
    compact();
    // Both rows still stored; c2 only as a tombstone now.
    auto s = scan("pk01");
    EXPECT_EQ(s.rows, 2u);
    EXPECT_EQ(s.live, 1u);
    EXPECT_EQ(s.tombstones, 2u);
    clock_ += kGrace + 1;
    compact();
    s = scan("pk01");
    EXPECT_EQ(s.rows, 1u);  // c2 removed entirely
    EXPECT_EQ(s.tombstones, 0u);
    EXPECT_EQ(s.live, 1u);
    EXPECT_EQ(value_of(rows("pk01").at(0), 2), "keep");
}

TEST_F(CompactionFilterTest, CellAndComplexTombstonesArePurgedAfterGcGrace) {
    RowFragment r = row({tomb(1, 10, now32()), live(2, "keep", 10)}, 10);
    r.complex_deletions.push_back({3, {9, now32()}});
    apply(write_row("pk01", "c1", r));
    compact();
    EXPECT_EQ(scan("pk01").tombstones, 2u);
    clock_ += kGrace + 1;
    compact();
    auto s = scan("pk01");
    EXPECT_EQ(s.tombstones, 0u);
    EXPECT_EQ(s.live, 1u);
}

TEST_F(CompactionFilterTest, PartitionTombstonesAreKeptAndPurgeWhatTheyShadow) {
    apply(write_row("pk01", "c1", row({live(1, "old", 5)}, 5)));
    apply(write_row("pk01", "c2", row({live(1, "new", 20)}, 20)));
    apply(write_row("pk02", "c1", row({live(1, "old", 5)}, 5)));
    apply(delete_partition("pk01", 10, now32()));
    apply(delete_range("pk02", {"c", true}, {"c", true}, 10, now32()));
    EXPECT_EQ(scan("pk01").rows, 2u);
    clock_ += kGrace + 1;
    compact();
    // The shadowed rows are gone from storage, the newer one stays...
    EXPECT_EQ(scan("pk01").rows, 1u);
    EXPECT_EQ(scan("pk01").live, 1u);
    EXPECT_EQ(scan("pk02").rows, 0u);
    // ...and the partition-level tombstones still shadow late old writes.
    apply(write_row("pk01", "c3", row({live(1, "late", 7)}, 7)));
    apply(write_row("pk02", "c3", row({live(1, "late", 7)}, 7)));
    EXPECT_EQ(clusterings(rows("pk01")), std::vector<std::string>{"c2"});
    EXPECT_TRUE(rows("pk02").empty());
}

TEST_F(CompactionFilterTest, LiveDataIsUntouched) {
    apply(write_row("pk01", "c1", row({live(1, "a", 5), counter(2, 3, 5)}, 5)));
    apply(write_row("pk01", "c1", row({counter(2, 4, 6)})));
    clock_ += 10 * kGrace;
    compact();
    auto rs = rows("pk01");
    ASSERT_EQ(rs.size(), 1u);
    EXPECT_EQ(value_of(rs[0], 1), "a");
    EXPECT_EQ(decode_counter(*value_of(rs[0], 2)), 7);
    EXPECT_EQ(rs[0].marker.timestamp, 5);
}

}  // namespace
}  // namespace tessel::storage
