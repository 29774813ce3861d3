// Reads through PartitionReader: shadowing by every kind of tombstone, TTL
// expiry, slices with prefix bounds, reversed order and the static row.
#include <gtest/gtest.h>

#include "storage_test_util.h"

namespace tessel::storage {
namespace {

using namespace testing;
using Strings = std::vector<std::string>;

class StoreRead : public StoreTest {
  protected:
    // Rows a1, a2, b1, b2, c1 (two-component clusterings) written at ts 5.
    void write_grid() {
        for (const char* ck : {"a1", "a2", "b1", "b2", "c1"}) {
            apply(write_row("pk01", ck, row({live(1, ck, 5)}, 5)));
        }
    }
    Strings slice(ClusteringBound start, ClusteringBound end, bool reversed = false) {
        SliceSpec s;
        s.start = std::move(start);
        s.end = std::move(end);
        s.reversed = reversed;
        return clusterings(rows("pk01", s));
    }
};

TEST_F(StoreRead, UnknownPartitionReadsEmpty) {
    auto r = store_->read_partition("t", "none", {}, clock_);
    ASSERT_TRUE(r.is_ok());
    Row row;
    EXPECT_FALSE((*r)->static_row().has_value());
    EXPECT_FALSE((*r)->next(&row));
    EXPECT_TRUE((*r)->status().is_ok());
    EXPECT_EQ(store_->read_partition("missing", "x", {}, clock_).status().code(),
              ErrorCode::kInvalid);
}

TEST_F(StoreRead, RowDeletionShadowsOlderWritesOnly) {
    apply(write_row("pk01", "c1", row({live(1, "v", 5)}, 5)));
    apply(delete_row("pk01", "c1", 10, now32()));
    EXPECT_TRUE(rows("pk01").empty());
    apply(write_row("pk01", "c1", row({live(1, "late-but-old", 7)})));
    EXPECT_TRUE(rows("pk01").empty());
    apply(write_row("pk01", "c1", row({live(2, "new", 20)})));
    auto rs = rows("pk01");
    ASSERT_EQ(rs.size(), 1u);
    EXPECT_FALSE(value_of(rs[0], 1).has_value());
    EXPECT_EQ(value_of(rs[0], 2), "new");
    EXPECT_TRUE(rs[0].marker.is_empty());
}

TEST_F(StoreRead, PartitionDeletionShadowsOlderWritesNotNewerOnes) {
    write_grid();
    PartitionMutation st;
    st.partition_key = "pk01";
    st.static_row = row({live(9, "static", 5)});
    apply(st);
    apply(delete_partition("pk01", 10, now32()));
    auto r = store_->read_partition("t", "pk01", {}, clock_);
    ASSERT_TRUE(r.is_ok());
    EXPECT_FALSE((*r)->static_row().has_value());
    EXPECT_EQ((*r)->partition_deletion().timestamp, 10);
    EXPECT_TRUE(rows("pk01").empty());

    apply(write_row("pk01", "b1", row({live(1, "ts5", 5)}, 5)));
    apply(write_row("pk01", "b2", row({live(1, "ts20", 20)}, 20)));
    EXPECT_EQ(clusterings(rows("pk01")), Strings{"b2"});
}

TEST_F(StoreRead, RangeTombstoneWithExclusiveStartInclusiveEndPrefixes) {
    write_grid();
    // DELETE WHERE ck1 > 'a' AND ck1 <= 'b': removes every b*, keeps a* and c*.
    apply(delete_range("pk01", {"a", false}, {"b", true}, 10, now32()));
    EXPECT_EQ(clusterings(rows("pk01")), (Strings{"a1", "a2", "c1"}));
}

TEST_F(StoreRead, RangeTombstoneWithInclusiveStartExclusiveEnd) {
    write_grid();
    apply(delete_range("pk01", {"a2", true}, {"c", false}, 10, now32()));
    EXPECT_EQ(clusterings(rows("pk01")), (Strings{"a1", "c1"}));
    // Writes newer than the range tombstone show through it.
    apply(write_row("pk01", "b1", row({live(1, "new", 11)}, 11)));
    EXPECT_EQ(clusterings(rows("pk01")), (Strings{"a1", "b1", "c1"}));
    // A second, newer range tombstone overlapping the first.
    apply(delete_range("pk01", {"b", true}, {"", true}, 12, now32()));
    EXPECT_EQ(clusterings(rows("pk01")), (Strings{"a1"}));
}

TEST_F(StoreRead, SlicesFollowPrefixBoundSemantics) {
    write_grid();
    EXPECT_EQ(slice({"a", true}, {"b", true}), (Strings{"a1", "a2", "b1", "b2"}));
    EXPECT_EQ(slice({"a", false}, {"b", true}), (Strings{"b1", "b2"}));
    EXPECT_EQ(slice({"a", true}, {"b", false}), (Strings{"a1", "a2"}));
    EXPECT_EQ(slice({"a2", false}, {"c1", false}), (Strings{"b1", "b2"}));
    EXPECT_EQ(slice({"b", true}, {}), (Strings{"b1", "b2", "c1"}));
    EXPECT_EQ(slice({}, {"a1", true}), (Strings{"a1"}));
    EXPECT_EQ(slice({"b", false}, {"b", true}), Strings{});
    EXPECT_EQ(slice({"c", true}, {"a", true}), Strings{});
}

TEST_F(StoreRead, ReversedSlicesFollowTheSameBounds) {
    write_grid();
    EXPECT_EQ(slice({}, {}, true), (Strings{"c1", "b2", "b1", "a2", "a1"}));
    EXPECT_EQ(slice({"a", true}, {"b", true}, true), (Strings{"b2", "b1", "a2", "a1"}));
    EXPECT_EQ(slice({"a", false}, {"b", true}, true), (Strings{"b2", "b1"}));
    EXPECT_EQ(slice({"a", true}, {"b", false}, true), (Strings{"a2", "a1"}));
    EXPECT_EQ(slice({"a2", false}, {"c1", false}, true), (Strings{"b2", "b1"}));
    EXPECT_EQ(slice({"b", true}, {}, true), (Strings{"c1", "b2", "b1"}));
    EXPECT_EQ(slice({}, {"b1", true}, true), (Strings{"b1", "a2", "a1"}));
    // Range tombstones apply in reverse too.
    apply(delete_range("pk01", {"b1", true}, {"b1", true}, 10, now32()));
    EXPECT_EQ(slice({}, {}, true), (Strings{"c1", "b2", "a2", "a1"}));
}

TEST_F(StoreRead, TtlExpiresCellsAndRows) {
    const auto exp = static_cast<int32_t>(clock_ + 100);
    RowFragment r = row({live(1, "short", 5, "", 100, exp), live(2, "forever", 5)});
    apply(write_row("pk01", "c1", r));
    RowFragment marked = row({live(1, "x", 5, "", 100, exp)});
    marked.marker = {5, 100, exp};
    apply(write_row("pk01", "c2", marked));

    auto before = read_rows(*store_, "t", "pk01", clock_ + 99);
    ASSERT_EQ(before.size(), 2u);
    EXPECT_EQ(value_of(before[0], 1), "short");
    EXPECT_EQ(cell_of(before[0], 1)->ttl, 100);      // what ttl() reads
    EXPECT_EQ(cell_of(before[0], 1)->timestamp, 5);  // what writetime() reads
    EXPECT_EQ(before[1].marker.expiry, exp);

    auto after = read_rows(*store_, "t", "pk01", clock_ + 100);
    ASSERT_EQ(after.size(), 1u);  // c2 had only expiring data
    EXPECT_EQ(after[0].clustering, "c1");
    EXPECT_FALSE(value_of(after[0], 1).has_value());
    EXPECT_EQ(value_of(after[0], 2), "forever");
}

TEST_F(StoreRead, StaticRowIsReturnedSeparately) {
    PartitionMutation m = write_row("pk01", "c1", row({live(1, "r", 5)}, 5));
    m.static_row = row({live(9, "s", 5)});
    apply(m);
    PartitionMutation only_static;
    only_static.partition_key = "pk02";
    only_static.static_row = row({live(9, "s2", 5)});
    apply(only_static);

    auto r = store_->read_partition("t", "pk01", {}, clock_);
    ASSERT_TRUE(r.is_ok());
    ASSERT_TRUE((*r)->static_row().has_value());
    EXPECT_EQ(value_of(*(*r)->static_row(), 9), "s");
    EXPECT_EQ((*r)->static_row()->clustering, "");
    Row row1;
    ASSERT_TRUE((*r)->next(&row1));
    EXPECT_EQ(row1.clustering, "c1");

    SliceSpec no_static;
    no_static.include_static = false;
    auto r2 = store_->read_partition("t", "pk01", no_static, clock_);
    ASSERT_TRUE(r2.is_ok());
    EXPECT_FALSE((*r2)->static_row().has_value());

    auto r3 = store_->read_partition("t", "pk02", {}, clock_);
    ASSERT_TRUE(r3.is_ok());
    ASSERT_TRUE((*r3)->static_row().has_value());
    Row none;
    EXPECT_FALSE((*r3)->next(&none));
}

TEST_F(StoreRead, CountsRowsAndTombstonesScanned) {
    write_grid();
    apply(delete_row("pk01", "a1", 10, now32()));
    apply(write_row("pk01", "a2", row({tomb(1, 10, now32())})));
    apply(delete_range("pk01", {"c", true}, {"c", true}, 10, now32()));
    auto r = store_->read_partition("t", "pk01", {}, clock_);
    ASSERT_TRUE(r.is_ok());
    Row row1;
    std::vector<std::string> seen;
    while ((*r)->next(&row1))
        seen.push_back(row1.clustering);
    // a2 lost its only cell but keeps its live row marker, as after
    // INSERT then DELETE of one column.
    EXPECT_EQ(seen, (Strings{"a2", "b1", "b2"}));
    EXPECT_EQ((*r)->rows_scanned(), 5u);
    // One range tombstone, one row deletion, one cell tombstone.
    EXPECT_EQ((*r)->tombstones_scanned(), 3u);
}

// A single-row slice (looked up by key) returns what the iterated slice
// [ck, ck] returns, with the same shadowing, static row and counts.
TEST_F(StoreRead, SingleRowSlicesMatchIteratedSlices) {
    write_grid();
    PartitionMutation st;
    st.partition_key = "pk01";
    st.static_row = row({live(9, "static", 5)});
    apply(st);
    // Half in a file, half in the memtable: the lookups merge across both.
    ASSERT_TRUE(store_->flush().is_ok());
    apply(delete_row("pk01", "a1", 10, now32()));
    apply(write_row("pk01", "a2", row({tomb(1, 10, now32()), live(2, "x", 11)})));
    apply(delete_range("pk01", {"c", true}, {"c", true}, 10, now32()));
    apply(write_row("pk01", "b2", row({live(3, "ttl", 6, "", 10, now32() - 1)})));
    apply(write_row("pk02", "", row({live(1, "no clustering", 5)}, 5)));
    const std::vector<std::pair<std::string, std::string>> keys = {
        {"pk01", "a1"}, {"pk01", "a2"}, {"pk01", "b1"}, {"pk01", "b2"},
        {"pk01", "c1"}, {"pk01", "zz"}, {"pk02", ""},   {"none", "a1"}};
    for (const auto& [pk, ck] : keys) {
        for (bool with_static : {true, false}) {
            SliceSpec iterated;
            iterated.start = {ck, true};
            iterated.end = {ck, true};
            iterated.include_static = with_static;
            SliceSpec point = iterated;
            point.single_row = true;
            auto a = store_->read_partition("t", pk, iterated, clock_);
            auto b = store_->read_partition("t", pk, point, clock_);
            ASSERT_TRUE(a.is_ok() && b.is_ok());
            SCOPED_TRACE(pk + "/" + ck + (with_static ? " with static" : ""));
            EXPECT_EQ((*a)->static_row().has_value(), (*b)->static_row().has_value());
            if ((*a)->static_row() && (*b)->static_row()) {
                EXPECT_EQ(value_of(*(*a)->static_row(), 9), value_of(*(*b)->static_row(), 9));
            }
            Row ra, rb;
            const bool ha = (*a)->next(&ra);
            const bool hb = (*b)->next(&rb);
            ASSERT_EQ(ha, hb);
            if (ha) {
                EXPECT_EQ(ra.clustering, rb.clustering);
                EXPECT_EQ(ra.marker.timestamp, rb.marker.timestamp);
                ASSERT_EQ(ra.cells.size(), rb.cells.size());
                for (size_t i = 0; i < ra.cells.size(); ++i)
                    EXPECT_EQ(ra.cells[i].value, rb.cells[i].value);
            }
            EXPECT_FALSE((*a)->next(&ra));
            EXPECT_FALSE((*b)->next(&rb));
            EXPECT_TRUE((*b)->status().is_ok());
            EXPECT_EQ((*a)->rows_scanned(), (*b)->rows_scanned());
            EXPECT_EQ((*a)->tombstones_scanned(), (*b)->tombstones_scanned());
        }
    }
}

// Continuation pages of a paged read (fill_cache = false) leave the block
// cache as it was; ordinary reads fill it.
TEST_F(StoreRead, ReadsWithoutFillCacheLeaveTheBlockCacheAlone) {
    for (int i = 0; i < 2000; ++i) {
        char ck[16];
        std::snprintf(ck, sizeof ck, "c%06d", i);
        apply(write_row("pk01", ck, row({live(1, std::string(200, 'x'), 5)}, 5)));
    }
    ASSERT_TRUE(store_->flush().is_ok());
    auto usage = [&] { return std::stoull(store_->property("rocksdb.block-cache-usage").value()); };
    const auto before = usage();
    SliceSpec bulk;
    bulk.fill_cache = false;
    EXPECT_EQ(rows("pk01", bulk).size(), 2000u);
    EXPECT_EQ(usage(), before);
    EXPECT_EQ(rows("pk01").size(), 2000u);
    EXPECT_GT(usage(), before);
}

}  // namespace
}  // namespace tessel::storage
