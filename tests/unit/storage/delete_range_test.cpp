// Dropping a key range of a table (the old replica's cleanup once a tablet
// moved away): the range's records and statistics are gone for good, its
// space is freed, and everything outside it (tombstones and TTLs included)
// is untouched.
#include <gtest/gtest.h>

#include <set>

#include "storage_test_util.h"

namespace tessel::storage {
namespace {

using namespace testing;

class DeleteRangeTest : public TwoStoreTest {
  protected:
    void drop(const RecordRange& range) {
        auto st = store_->delete_range("t", range);
        ASSERT_TRUE(st.is_ok()) << st.to_string();
    }
    // Partitions with any stored record (tombstones included) in the range.
    std::vector<std::string> stored(Store& s, const KeyRange& r) {
        auto scan = s.scan_raw("t", r, 1 << 30);
        EXPECT_TRUE(scan.is_ok()) << scan.status().to_string();
        std::vector<std::string> out;
        if (scan.is_ok()) {
            for (const auto& p : scan->partitions)
                out.push_back(p.partition_key);
        }
        return out;
    }
    std::set<std::string> with_stats(Store& s) {
        std::set<std::string> out;
        auto st = s.for_each_partition_stats(
            "t", [&](std::string_view pk, const PartitionStats&) { out.emplace(pk); });
        EXPECT_TRUE(st.is_ok()) << st.to_string();
        return out;
    }
    uint64_t sst_bytes() {
        return store_->table_int_property("t", "rocksdb.total-sst-files-size").value_or(0);
    }
    static std::string noise(size_t n, uint32_t seed) {
        std::string v(n, '\0');
        for (char& c : v) {  // incompressible
            seed = seed * 1664525u + 1013904223u;
            c = static_cast<char>(seed >> 24);
        }
        return v;
    }
};

TEST_F(DeleteRangeTest, DropsTheRangeAndItsStatisticsAndNothingElse) {
    // Outside the range: a TTL'd cell, a row tombstone, a partition tombstone.
    apply(write_row("a1", "x", row({live(1, "a1", 5)}, 5)));
    apply(write_row("a2", "x",
                    row({live(1, "a2", 5), live(2, "ttl", 5, "", 100, now32() + 100)}, 5)));
    apply(delete_row("a2", "y", 7, now32()));
    apply(write_row("c1", "x", row({live(1, "c1", 5)}, 5)));
    apply(delete_partition("c2", 9, now32()));
    // Inside [b, c): large rows, a tombstone-only partition.
    for (int i = 0; i < 20; ++i) {
        const std::string pk = "b" + std::to_string(10 + i);
        apply(write_row(pk, "x", row({live(1, noise(20000, i), 5)}, 5)));
    }
    apply(delete_partition("b5", 9, now32()));
    ASSERT_TRUE(store_->flush().is_ok());  // records in files, statistics persisted
    apply(write_row("b10", "y", row({live(1, "pending", 6)}, 6)));  // statistics pending
    const uint64_t before = sst_bytes();
    ASSERT_GT(before, 400'000u);

    drop({"b", "c"});

    EXPECT_TRUE(stored(*store_, keys("b", "c")).empty());
    EXPECT_TRUE(rows("b10").empty());
    EXPECT_TRUE(store_->read_raw("t", "b5", {}, {}, true)->partition_deletion.is_live());
    EXPECT_EQ(stored(*store_, {}), (std::vector<std::string>{"a1", "a2", "c1", "c2"}));
    EXPECT_LT(sst_bytes(), before / 10);  // compacted away, not just hidden

    // The statistics forget the range's partitions, pending deltas included.
    EXPECT_EQ(with_stats(*store_), (std::set<std::string>{"a1", "a2", "c1", "c2"}));
    EXPECT_EQ(*store_->get_partition_stats("t", "b10"), PartitionStats{});
    EXPECT_GT(store_->get_partition_stats("t", "a2")->bytes_written, 0u);

    // Outside the range, the TTL and the tombstones are as written.
    const auto a2 = store_->read_raw("t", "a2", {}, {}, true);
    ASSERT_TRUE(a2.is_ok());
    ASSERT_EQ(a2->rows.size(), 2u);
    ASSERT_EQ(a2->rows[0].second.cells.size(), 2u);
    EXPECT_EQ(a2->rows[0].second.cells[1].ttl, 100);
    EXPECT_EQ(a2->rows[0].second.cells[1].expiry, now32() + 100);
    EXPECT_EQ(a2->rows[1].second.deletion.timestamp, 7);
    EXPECT_EQ(store_->read_raw("t", "c2", {}, {}, true)->partition_deletion.timestamp, 9);
    apply(write_row("a2", "y", row({live(1, "older", 6)}, 6)));
    apply(write_row("c2", "z", row({live(1, "older", 8)}, 8)));
    EXPECT_EQ(clusterings(rows("a2")), (std::vector<std::string>{"x"}));
    EXPECT_TRUE(rows("c2").empty());
    EXPECT_EQ(value_of(rows("a1").at(0), 1), "a1");
    EXPECT_EQ(value_of(rows("c1").at(0), 1), "c1");
    clock_ += 200;
    EXPECT_FALSE(value_of(rows("a2").at(0), 2));  // the TTL still runs out

    // Gone for good: nothing comes back after a restart.
    reopen();
    EXPECT_TRUE(stored(*store_, keys("b", "c")).empty());
    EXPECT_EQ(with_stats(*store_), (std::set<std::string>{"a1", "a2", "c1", "c2"}));
    // The range takes new writes again (a range of a tablet that comes back).
    apply(write_row("b10", "z", row({live(1, "new", 3)}, 3)));
    EXPECT_EQ(clusterings(rows("b10")), (std::vector<std::string>{"z"}));
    EXPECT_EQ(store_->get_partition_stats("t", "b10")->row_writes, 1u);
}

TEST_F(DeleteRangeTest, AnUnboundedEndDropsThroughTheLastKey) {
    for (const char* pk : {"a1", "b1", "c1", "c2"})
        apply(write_row(pk, "x", row({live(1, pk, 5)}, 5)));
    // The table's last key, the one DeleteRange's exclusive end cannot cover.
    apply(write_row("c2", "\xff\xff", row({live(1, "last", 5)}, 5)));
    ASSERT_TRUE(store_->flush().is_ok());

    drop({"b", ""});
    EXPECT_EQ(stored(*store_, {}), (std::vector<std::string>{"a1"}));
    EXPECT_EQ(with_stats(*store_), (std::set<std::string>{"a1"}));

    // A start past the last key drops nothing; "" to "" drops the table.
    drop({"z", ""});
    EXPECT_EQ(stored(*store_, {}), (std::vector<std::string>{"a1"}));
    drop({});
    EXPECT_TRUE(stored(*store_, {}).empty());
    EXPECT_TRUE(with_stats(*store_).empty());
    drop({});  // an empty table
    apply(write_row("a1", "x", row({live(1, "again", 4)}, 4)));
    EXPECT_EQ(value_of(rows("a1").at(0), 1), "again");
}

TEST_F(DeleteRangeTest, OtherTablesAndBadRangesAreLeftAlone) {
    ASSERT_TRUE(store_->create_table("u").is_ok());
    apply(write_row("b1", "x", row({live(1, "t", 5)}, 5)));
    ASSERT_TRUE(store_->apply("u", write_row("b1", "x", row({live(1, "u", 5)}, 5))).is_ok());

    EXPECT_EQ(store_->delete_range("t", {"c", "b"}).code(), ErrorCode::kInvalid);
    EXPECT_EQ(store_->delete_range("nope", {}).code(), ErrorCode::kInvalid);
    drop({"b1", "b1"});  // empty
    EXPECT_EQ(rows("b1").size(), 1u);

    drop({});
    EXPECT_TRUE(rows("b1").empty());
    EXPECT_EQ(read_rows(*store_, "u", "b1", clock_).size(), 1u);
    EXPECT_GT(store_->get_partition_stats("u", "b1")->row_writes, 0u);
}

TEST_F(DeleteRangeTest, AMovedRangeLeavesTheSourceAndStaysOnTheTarget) {
    for (const char* pk : {"a1", "b1", "b2", "c1"})
        apply(write_row(pk, "x", row({live(1, pk, 5)}, 5)));
    TempDir files_dir;
    auto files = store_->export_range("t", {"b", "c"}, files_dir.path() + "/out");
    ASSERT_TRUE(files.is_ok()) << files.status().to_string();
    ASSERT_TRUE(other_->ingest_range("t", *files).is_ok());

    drop({"b", "c"});
    EXPECT_EQ(stored(*store_, {}), (std::vector<std::string>{"a1", "c1"}));
    EXPECT_EQ(stored(*other_, {}), (std::vector<std::string>{"b1", "b2"}));
    EXPECT_EQ(with_stats(*other_), (std::set<std::string>{"b1", "b2"}));
    EXPECT_EQ(value_of(read_rows(*other_, "t", "b2", clock_).at(0), 1), "b2");
}

}  // namespace
}  // namespace tessel::storage
