// Moving a key range between replicas as SST files: what the target holds
// afterwards is what the source held in the range (tombstones, TTLs and
// partition statistics included), nothing outside it, and writes the target
// took meanwhile survive the ingestion.
#include <gtest/gtest.h>

#include <filesystem>

#include "storage_test_util.h"

namespace tessel::storage {
namespace {

using namespace testing;

class RangeFilesTest : public TwoStoreTest {
  protected:
    RangeFiles move(const RecordRange& range, uint64_t max_file_bytes = 64ull << 20) {
        auto files = store_->export_range("t", range, files_dir_.path() + "/out", max_file_bytes);
        EXPECT_TRUE(files.is_ok()) << files.status().to_string();
        if (!files.is_ok()) return {};
        auto st = other_->ingest_range("t", *files);
        EXPECT_TRUE(st.is_ok()) << st.to_string();
        return *files;
    }
    std::string digest(Store& s, const KeyRange& r) {
        auto d = s.digest_ranges("t", r, {});
        EXPECT_TRUE(d.is_ok());
        return d.is_ok() ? d->digests.at(0) : "";
    }

    TempDir files_dir_;
};

TEST_F(RangeFilesTest, MovesTheRangeWithItsTombstonesAndNothingElse) {
    for (const char* pk : {"a1", "b1", "b2", "c1"}) {
        apply(write_row(pk, "x",
                        row({live(1, pk, 5), live(2, "ttl", 5, "", 100, now32() + 100)}, 5)));
        apply(write_row(pk, "y", row({live(1, "y", 5)}, 5)));
    }
    apply(delete_row("b1", "y", 7, now32()));
    apply(delete_range("b2", {"x", true}, {"x", true}, 8, now32()));
    apply(delete_partition("b3", 9, now32()));  // only a tombstone in the range

    const RangeFiles files = move({"b", "c"});
    EXPECT_EQ(files.table_files.size(), 1u);
    EXPECT_EQ(files.stats_files.size(), 1u);
    EXPECT_GT(files.records, 0u);
    EXPECT_GT(files.bytes, 0u);

    EXPECT_EQ(digest(*other_, keys("b", "c")), digest(*store_, keys("b", "c")));
    EXPECT_EQ(clusterings(read_rows(*other_, "t", "b1", clock_)), (std::vector<std::string>{"x"}));
    EXPECT_EQ(clusterings(read_rows(*other_, "t", "b2", clock_)), (std::vector<std::string>{"y"}));
    const auto b1 = read_rows(*other_, "t", "b1", clock_);
    ASSERT_EQ(b1.size(), 1u);
    EXPECT_EQ(value_of(b1[0], 2), "ttl");
    EXPECT_TRUE(read_rows(*other_, "t", "a1", clock_).empty());
    EXPECT_TRUE(read_rows(*other_, "t", "c1", clock_).empty());
    // The moved tombstones still hide older data written to the target.
    ASSERT_TRUE(other_->apply("t", write_row("b3", "z", row({live(1, "old", 4)}, 4))).is_ok());
    EXPECT_TRUE(read_rows(*other_, "t", "b3", clock_).empty());
    // Past the TTL the moved cell expires on the target too.
    clock_ += 200;
    const auto later = read_rows(*other_, "t", "b1", clock_);
    ASSERT_EQ(later.size(), 1u);
    EXPECT_FALSE(value_of(later[0], 2));

    // The partitions' statistics came along, and only the range's.
    for (const char* pk : {"b1", "b2"}) {
        auto want = store_->get_partition_stats("t", pk);
        auto got = other_->get_partition_stats("t", pk);
        ASSERT_TRUE(want.is_ok() && got.is_ok());
        EXPECT_GT(got->bytes_written, 0u);
        EXPECT_EQ(*got, *want) << pk;
    }
    auto outside = other_->get_partition_stats("t", "a1");
    ASSERT_TRUE(outside.is_ok());
    EXPECT_EQ(outside->bytes_written, 0u);
}

TEST_F(RangeFilesTest, WritesTheTargetTookMeanwhileSurvive) {
    apply(write_row("k", "x", row({live(1, "snapshot", 5), live(2, "kept", 5)}, 5)));
    auto files = store_->export_range("t", {}, files_dir_.path() + "/out");
    ASSERT_TRUE(files.is_ok());
    // Sent to both replicas while the files travel: newer than the snapshot.
    ASSERT_TRUE(other_->apply("t", write_row("k", "x", row({live(1, "newer", 6)}))).is_ok());
    ASSERT_TRUE(other_->apply("t", write_row("k", "y", row({live(1, "new row", 6)}, 6))).is_ok());
    ASSERT_TRUE(other_->ingest_range("t", *files).is_ok());
    const auto got = read_rows(*other_, "t", "k", clock_);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(value_of(got[0], 1), "newer");  // the older snapshot does not overwrite it
    EXPECT_EQ(value_of(got[0], 2), "kept");
    EXPECT_EQ(value_of(got[1], 1), "new row");
}

TEST_F(RangeFilesTest, LargeRangesSpanSeveralFilesAndSurviveARestart) {
    uint32_t seed = 12345;
    for (int i = 0; i < 200; ++i) {
        std::string value(4000, '\0');
        for (char& c : value) {  // incompressible, so the files pass their size
            seed = seed * 1664525u + 1013904223u;
            c = static_cast<char>(seed >> 24);
        }
        apply(write_row("p" + std::to_string(1000 + i), "x", row({live(1, value, 5)}, 5)));
    }
    const RangeFiles files = move({}, /*max_file_bytes=*/64 << 10);
    EXPECT_GT(files.table_files.size(), 3u);
    // Moved, not copied: the files now belong to the target.
    for (const auto& f : files.table_files)
        EXPECT_FALSE(std::filesystem::exists(f)) << f;
    other_.reset();
    auto s = Store::open(other_dir_.path(), options());
    ASSERT_TRUE(s.is_ok());
    other_ = std::move(*s);
    EXPECT_EQ(digest(*other_, {}), digest(*store_, {}));
    EXPECT_EQ(read_rows(*other_, "t", "p1123", clock_).size(), 1u);
}

TEST_F(RangeFilesTest, AnEmptyRangeMakesNoFilesAndUnknownTablesAreRefused) {
    apply(write_row("a", "x", row({live(1, "v", 5)}, 5)));
    const RangeFiles files = move({"m", "n"});
    EXPECT_TRUE(files.table_files.empty());
    EXPECT_TRUE(files.stats_files.empty());
    EXPECT_EQ(files.records, 0u);
    auto unknown = store_->export_range("nope", {}, files_dir_.path() + "/x");
    ASSERT_FALSE(unknown.is_ok());
    EXPECT_EQ(unknown.status().code(), ErrorCode::kInvalid);
    EXPECT_FALSE(other_->ingest_range("nope", RangeFiles{}).is_ok());
}

}  // namespace
}  // namespace tessel::storage
