#include "storage/partition_stats.h"

#include <gtest/gtest.h>

#include "storage_test_util.h"

namespace tessel::storage {
namespace {

using namespace testing;

TEST_F(StoreTest, PartitionStatsCountWritesAndTombstones) {
    apply(write_row("pk01", "c1", row({live(1, std::string(100, 'x'), 5)}, 5)));
    PartitionMutation m = write_row("pk01", "c2", row({tomb(1, 6, now32())}));
    m.static_row = row({live(9, "s", 6)});
    m.range_tombstones.push_back({{"a", true}, {"b", true}, {6, now32()}});
    apply(m);
    clock_ += 5;
    apply(delete_row("pk01", "c3", 7, now32()));
    apply(write_row("pk02", "c1", row({}, 5)));

    auto s = store_->get_partition_stats("t", "pk01");
    ASSERT_TRUE(s.is_ok());
    EXPECT_EQ(s->row_writes, 4u);          // c1, c2, static, c3
    EXPECT_EQ(s->tombstones_written, 3u);  // cell, range, row
    EXPECT_GT(s->bytes_written, 100u);
    EXPECT_LT(s->bytes_written, 400u);
    EXPECT_EQ(s->last_write_time, clock_);
    EXPECT_EQ(store_->get_partition_stats("t", "nothing")->row_writes, 0u);
    EXPECT_EQ(store_->get_partition_stats("missing", "pk01").status().code(), ErrorCode::kInvalid);

    // Persisted through flush and restart, then added to.
    const PartitionStats before = *s;
    reopen();
    EXPECT_EQ(*store_->get_partition_stats("t", "pk01"), before);
    apply(write_row("pk01", "c1", row({}, 9)));
    EXPECT_EQ(store_->get_partition_stats("t", "pk01")->row_writes, 5u);

    ASSERT_TRUE(store_->create_table("t2").is_ok());
    ASSERT_TRUE(store_->apply("t2", write_row("pk00", "c", row({}, 1))).is_ok());
    std::vector<std::pair<std::string, uint64_t>> seen;
    ASSERT_TRUE(store_
                    ->for_each_partition_stats("t",
                                               [&](std::string_view pk, const PartitionStats& st) {
                                                   seen.emplace_back(pk, st.row_writes);
                                               })
                    .is_ok());
    EXPECT_EQ(seen, (std::vector<std::pair<std::string, uint64_t>>{{"pk01", 5}, {"pk02", 1}}));
}

// The persisted half of the statistics, read from the store's directory
// by a read-only RocksDB instance (which replays the WAL).
uint64_t persisted_row_writes(const std::string& path, const std::string& stats_key) {
    rocksdb::Options o;
    rocksdb::ColumnFamilyOptions stats;
    stats.merge_operator = make_stats_merge_operator();
    std::vector<rocksdb::ColumnFamilyDescriptor> cfs = {{rocksdb::kDefaultColumnFamilyName, o},
                                                        {"partition_stats", stats}};
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* db = nullptr;
    auto s = rocksdb::DB::OpenForReadOnly(rocksdb::DBOptions(o), path, cfs, &handles, &db);
    EXPECT_TRUE(s.ok()) << s.ToString();
    if (!s.ok()) return 0;
    std::string v;
    s = db->Get(rocksdb::ReadOptions(), handles[1], stats_key, &v);
    for (auto* h : handles)
        db->DestroyColumnFamilyHandle(h);
    delete db;
    if (!s.ok()) return 0;
    // Value: varint bytes_written, varint row_writes, ...
    size_t i = 0;
    while (i < v.size() && (static_cast<uint8_t>(v[i]) & 0x80))
        ++i;
    ++i;
    return i < v.size() ? static_cast<uint8_t>(v[i]) & 0x7f : 0;
}

TEST_F(StoreTest, PartitionStatsFlushInTheBackground) {
    // Without the periodic flush, apply() alone persists nothing.
    apply(write_row("pk01", "c1", row({}, 5)));
    EXPECT_EQ(persisted_row_writes(dir_.path(), std::string("\x01t") + "pk01"), 0u);

    StoreOptions o = options();
    o.stats_flush_period_ms = 20;
    reopen(o);
    apply(write_row("pk02", "c1", row({}, 5)));
    bool persisted = false;
    for (int i = 0; i < 300 && !persisted; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        persisted = persisted_row_writes(dir_.path(), std::string("\x01t") + "pk02") == 1;
    }
    EXPECT_TRUE(persisted);
}

TEST(PartitionStats, AddSumsCountsAndKeepsLatestWrite) {
    PartitionStats a{10, 1, 0, 100}, b{5, 2, 1, 90};
    a.add(b);
    EXPECT_EQ(a, (PartitionStats{15, 3, 1, 100}));
}

}  // namespace
}  // namespace tessel::storage
