// Partition scans: key ranges with prefix bounds, skipping partitions
// without live data, and readers over the scanned partitions.
#include <gtest/gtest.h>

#include "storage_test_util.h"

namespace tessel::storage {
namespace {

using namespace testing;
using Strings = std::vector<std::string>;

class StoreScan : public StoreTest {
  protected:
    void SetUp() override {
        StoreTest::SetUp();
        // Keys "k1a", "k1b", "k2a", "k3a": fixed width, so self-delimiting.
        for (const char* pk : {"k1a", "k1b", "k2a", "k3a"}) {
            apply(write_row(pk, "c1", row({live(1, pk, 5)}, 5)));
            apply(write_row(pk, "c2", row({live(1, pk, 5)}, 5)));
        }
    }
    Strings scan(KeyRange range) {
        auto sc = store_->scan_partitions("t", range, clock_);
        EXPECT_TRUE(sc.is_ok());
        Strings keys;
        if (!sc.is_ok()) return keys;
        while ((*sc)->next())
            keys.push_back((*sc)->partition_key());
        EXPECT_TRUE((*sc)->status().is_ok()) << (*sc)->status().to_string();
        return keys;
    }
};

TEST_F(StoreScan, UnboundedScanVisitsEveryPartitionInKeyOrder) {
    EXPECT_EQ(scan({}), (Strings{"k1a", "k1b", "k2a", "k3a"}));
}

TEST_F(StoreScan, RangesUsePrefixSemantics) {
    EXPECT_EQ(scan({"k1", true, "k2", true}), (Strings{"k1a", "k1b", "k2a"}));
    EXPECT_EQ(scan({"k1", false, "k3", true}), (Strings{"k2a", "k3a"}));
    EXPECT_EQ(scan({"k1b", true, "k3", false}), (Strings{"k1b", "k2a"}));
    EXPECT_EQ(scan({"k1b", false, "", true}), (Strings{"k2a", "k3a"}));
    EXPECT_EQ(scan({"", true, "k1a", true}), (Strings{"k1a"}));
    EXPECT_EQ(scan({"k3", true, "k1", true}), Strings{});
}

TEST_F(StoreScan, SkipsPartitionsWithoutLiveData) {
    apply(delete_partition("k1b", 10, now32()));
    apply(delete_range("k2a", {}, {}, 10, now32()));
    // k3a: only an expiring row left once its other rows are deleted.
    apply(delete_row("k3a", "c1", 10, now32()));
    apply(delete_row("k3a", "c2", 10, now32()));
    RowFragment ttl = row({live(1, "x", 11, "", 10, static_cast<int32_t>(clock_ + 10))});
    apply(write_row("k3a", "c3", ttl));
    // A partition holding only a tombstone never written to before.
    apply(delete_partition("k0a", 10, now32()));
    EXPECT_EQ(scan({}), (Strings{"k1a", "k3a"}));
    clock_ += 10;
    EXPECT_EQ(scan({}), (Strings{"k1a"}));
}

TEST_F(StoreScan, ReadersOverScannedPartitions) {
    PartitionMutation st;
    st.partition_key = "k2a";
    st.static_row = row({live(9, "s", 5)});
    apply(st);
    auto sc = store_->scan_partitions("t", {"k2", true, "k2", true}, clock_);
    ASSERT_TRUE(sc.is_ok());
    ASSERT_TRUE((*sc)->next());
    EXPECT_EQ((*sc)->partition_key(), "k2a");
    auto full = (*sc)->read(SliceSpec{});
    ASSERT_TRUE(full.is_ok());
    ASSERT_TRUE((*full)->static_row().has_value());
    Row r;
    Strings cks;
    while ((*full)->next(&r))
        cks.push_back(r.clustering);
    EXPECT_EQ(cks, (Strings{"c1", "c2"}));

    SliceSpec rev;
    rev.reversed = true;
    rev.start = {"c2", true};
    auto part = (*sc)->read(rev);
    ASSERT_TRUE(part.is_ok());
    ASSERT_TRUE((*part)->next(&r));
    EXPECT_EQ(r.clustering, "c2");
    EXPECT_FALSE((*part)->next(&r));
    EXPECT_FALSE((*sc)->next());
    EXPECT_EQ((*sc)->partitions_scanned(), 1u);
}

TEST_F(StoreScan, PartitionWithOnlyStaticRowIsLive) {
    PartitionMutation st;
    st.partition_key = "k9a";
    st.static_row = row({live(9, "s", 5)});
    apply(st);
    EXPECT_EQ(scan({"k9", true, "", true}), Strings{"k9a"});
}

}  // namespace
}  // namespace tessel::storage
