// Raw reads: what a replica stores, tombstones included, comes back as
// mutations that reproduce it on another replica (what repair relies on),
// and range digests agree exactly when two replicas hold the same data.
#include <gtest/gtest.h>

#include "storage_test_util.h"

namespace tessel::storage {
namespace {

using namespace testing;

class RawRead : public TwoStoreTest {
  protected:
    void copy_partition(const std::string& pk) {
        auto raw = store_->read_raw("t", pk, {}, {}, true);
        ASSERT_TRUE(raw.is_ok()) << raw.status().to_string();
        ASSERT_TRUE(other_->apply("t", *raw).is_ok());
    }
    std::string digest(Store& s, const KeyRange& r = {}) {
        auto d = s.digest_ranges("t", r, {});
        EXPECT_TRUE(d.is_ok());
        return d.is_ok() ? d->digests.at(0) : "";
    }
};

TEST_F(RawRead, CopiesRowsCellsAndEveryKindOfTombstone) {
    apply(write_row("p1", "a", row({live(1, "x", 5), live(2, "y", 5, "", 100, now32() + 100)}, 5)));
    apply(write_row("p1", "b", row({live(1, "z", 6)}, 6)));
    apply(write_row("p1", "c", row({live(1, "w", 6)}, 6)));
    apply(delete_row("p1", "b", 7, now32()));
    apply(write_row("p1", "a", row({tomb(2, 8, now32())})));
    apply(delete_range("p1", {"c", true}, {"c", true}, 9, now32()));
    RowFragment st = row({live(3, "s", 4)});
    PartitionMutation stm;
    stm.partition_key = "p1";
    stm.static_row = st;
    apply(stm);
    copy_partition("p1");
    const auto want = rows("p1");
    const auto got = read_rows(*other_, "t", "p1", clock_);
    EXPECT_EQ(clusterings(got), clusterings(want));
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(value_of(got[0], 1), "x");
    EXPECT_FALSE(value_of(got[0], 2));  // the cell tombstone came along
    EXPECT_EQ(digest(*other_), digest(*store_));

    // A row the copy missed would be resurrected without the range tombstone:
    // an older write of "c" to the copy stays deleted.
    ASSERT_TRUE(other_->apply("t", write_row("p1", "c", row({live(1, "old", 5)}, 5))).is_ok());
    EXPECT_EQ(clusterings(read_rows(*other_, "t", "p1", clock_)), (std::vector<std::string>{"a"}));
}

TEST_F(RawRead, ClusteringBoundsKeepTheHeaderAndStaticRow) {
    apply(delete_range("p", {"x", true}, {"y", true}, 3, now32()));
    for (const char* ck : {"a", "b", "c", "d"})
        apply(write_row("p", ck, row({live(1, ck, 5)}, 5)));
    auto raw = store_->read_raw("t", "p", {"b", true}, {"c", true}, false);
    ASSERT_TRUE(raw.is_ok());
    ASSERT_EQ(raw->rows.size(), 2u);
    EXPECT_EQ(raw->rows[0].first, "b");
    EXPECT_EQ(raw->rows[1].first, "c");
    EXPECT_EQ(raw->range_tombstones.size(), 1u);
    EXPECT_FALSE(raw->static_row);
    auto none = store_->read_raw("t", "missing", {}, {}, true);
    ASSERT_TRUE(none.is_ok());
    EXPECT_TRUE(none->rows.empty());
    EXPECT_TRUE(none->partition_deletion.is_live());
}

TEST_F(RawRead, ScansInChunksOfWholePartitions) {
    for (const char* pk : {"k1", "k2", "k3", "k4"}) {
        for (int i = 0; i < 5; ++i)
            apply(write_row(pk, std::string(1, static_cast<char>('a' + i)),
                            row({live(1, pk, 5)}, 5)));
    }
    apply(delete_partition("k2", 9, now32()));  // a partition holding only tombstones still comes
    KeyRange r;
    std::vector<std::string> seen;
    while (true) {
        auto chunk = store_->scan_raw("t", r, 1);  // at least one partition per chunk
        ASSERT_TRUE(chunk.is_ok());
        for (const auto& p : chunk->partitions) {
            seen.push_back(p.partition_key);
            EXPECT_EQ(p.rows.size(), 5u);
            ASSERT_TRUE(other_->apply("t", p).is_ok());
        }
        if (chunk->exhausted) break;
        r.start_key = seen.back();
        r.start_inclusive = false;
    }
    EXPECT_EQ(seen, (std::vector<std::string>{"k1", "k2", "k3", "k4"}));
    EXPECT_EQ(digest(*other_), digest(*store_));
    EXPECT_TRUE(read_rows(*other_, "t", "k2", clock_).empty());
}

TEST_F(RawRead, RangeDigestsFindTheSubRangeThatDiffers) {
    for (const char* pk : {"a1", "b1", "c1"}) {
        apply(write_row(pk, "x", row({live(1, pk, 5)}, 5)));
        ASSERT_TRUE(other_->apply("t", write_row(pk, "x", row({live(1, pk, 5)}, 5))).is_ok());
    }
    // Same data written in another order, and merged differently, digests equal.
    apply(write_row("b1", "y", row({live(1, "1", 6)})));
    apply(write_row("b1", "y", row({live(1, "2", 7)})));
    ASSERT_TRUE(other_->apply("t", write_row("b1", "y", row({live(1, "2", 7)}))).is_ok());
    ASSERT_TRUE(other_->apply("t", write_row("b1", "y", row({live(1, "1", 6)}))).is_ok());
    const std::vector<std::string> cuts{"b", "c"};
    auto a = store_->digest_ranges("t", {}, cuts);
    auto b = other_->digest_ranges("t", {}, cuts);
    ASSERT_TRUE(a.is_ok() && b.is_ok());
    EXPECT_EQ(a->digests, b->digests);
    EXPECT_EQ(a->partitions, (std::vector<uint64_t>{1, 1, 1}));
    apply(write_row("c1", "z", row({live(1, "new", 8)}, 8)));
    a = store_->digest_ranges("t", {}, cuts);
    ASSERT_TRUE(a.is_ok());
    EXPECT_EQ(a->digests[0], b->digests[0]);
    EXPECT_EQ(a->digests[1], b->digests[1]);
    EXPECT_NE(a->digests[2], b->digests[2]);
}

}  // namespace
}  // namespace tessel::storage
