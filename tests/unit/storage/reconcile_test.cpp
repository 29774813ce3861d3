#include "storage/reconcile.h"

#include <gtest/gtest.h>

#include "storage/clustering_range.h"
#include "storage_test_util.h"

namespace tessel::storage {
namespace {

using testing::counter;
using testing::live;
using testing::tomb;

TEST(Reconcile, HigherTimestampWins) {
    Cell a = live(1, "old", 10), b = live(1, "new", 11);
    EXPECT_EQ(reconcile_cells(a, b).value, "new");
    EXPECT_EQ(reconcile_cells(b, a).value, "new");
    // Even a tombstone loses to a newer live cell.
    EXPECT_EQ(reconcile_cells(tomb(1, 10, 5), b).value, "new");
}

// Equal timestamps follow Cassandra 4.0's Cells.resolveRegular; each rule is
// checked in both argument orders.
void expect_winner(const Cell& a, const Cell& b, const Cell& winner) {
    const Cell& ab = reconcile_cells(a, b);
    const Cell& ba = reconcile_cells(b, a);
    EXPECT_EQ(&ab, &winner == &a ? &a : &b);
    EXPECT_EQ(&ba, &winner == &a ? &a : &b);
}

TEST(Reconcile, TombstoneBeatsLiveCellAtEqualTimestamp) {
    Cell t = tomb(1, 10, 5), l = live(1, "zzz", 10);
    expect_winner(t, l, t);
    // Also an expiring one, however late it expires.
    Cell e = live(1, "zzz", 10, "", 60, 2000000000);
    expect_winner(t, e, t);
}

TEST(Reconcile, EqualTimestampExpiringCellBeatsNonExpiringCell) {
    // CASSANDRA-14592: an expiring cell is treated like the tombstone it will
    // become, whatever the values.
    Cell plain = live(1, "z", 10), expiring = live(1, "a", 10, "", 60, 1000);
    expect_winner(plain, expiring, expiring);
}

TEST(Reconcile, EqualTimestampLaterLocalDeletionTimeWins) {
    // Two expiring cells: the later expiry, whatever the values.
    Cell e1 = live(1, "z", 10, "", 60, 1000), e2 = live(1, "a", 10, "", 90, 1030);
    expect_winner(e1, e2, e2);
    // Two tombstones: the later deletion time.
    Cell t1 = tomb(1, 10, 7), t2 = tomb(1, 10, 5);
    expect_winner(t1, t2, t1);
}

TEST(Reconcile, EqualTimestampGreaterValueWins) {
    Cell x = live(1, "abc", 10), y = live(1, "abd", 10);
    expect_winner(x, y, y);
    // A prefix is smaller; the empty value is the smallest.
    Cell shorter = live(1, "ab", 10), empty = live(1, "", 10);
    expect_winner(shorter, x, x);
    expect_winner(empty, shorter, shorter);
    // Bytes compare unsigned: 0x80 is greater than 0x7f (an int 1 against -1:
    // the negative one, 0xff..., wins).
    Cell low = live(1, std::string("\x7f"), 10), high = live(1, std::string("\x80"), 10);
    expect_winner(low, high, high);
    Cell one = live(1, std::string("\x00\x00\x00\x01", 4), 10);
    Cell minus_one = live(1, std::string("\xff\xff\xff\xff", 4), 10);
    expect_winner(one, minus_one, minus_one);
    // Two expiring cells with the same expiry also fall back to the value.
    Cell e1 = live(1, "a", 10, "", 60, 1000), e2 = live(1, "b", 10, "", 30, 1000);
    expect_winner(e1, e2, e2);
}

TEST(Reconcile, RowMarkerFollowsLivenessInfoSupersedes) {
    auto with_marker = [](Timestamp ts, int32_t ttl, int32_t expiry) {
        RowFragment r;
        r.marker = {ts, ttl, expiry};
        return r;
    };
    auto merged = [](RowFragment a, const RowFragment& b) {
        merge_row(&a, b);
        return a.marker;
    };
    // The higher timestamp, even non-expiring against expiring.
    EXPECT_EQ(merged(with_marker(10, 0, 0), with_marker(11, 60, 1000)).timestamp, 11);
    EXPECT_EQ(merged(with_marker(11, 60, 1000), with_marker(10, 0, 0)).timestamp, 11);
    // Equal timestamps: the expiring marker wins over the non-expiring one ...
    EXPECT_EQ(merged(with_marker(10, 0, 0), with_marker(10, 60, 1000)).expiry, 1000);
    EXPECT_EQ(merged(with_marker(10, 60, 1000), with_marker(10, 0, 0)).expiry, 1000);
    // ... and between two expiring ones the later expiry.
    EXPECT_EQ(merged(with_marker(10, 60, 1000), with_marker(10, 90, 1030)).expiry, 1030);
    EXPECT_EQ(merged(with_marker(10, 90, 1030), with_marker(10, 60, 1000)).expiry, 1030);
}

TEST(Reconcile, CounterDeltasAddAndKeepTheHighestTimestamp) {
    RowFragment a = testing::row({counter(2, 5, 100)});
    merge_row(&a, testing::row({counter(2, -2, 90)}));
    merge_row(&a, testing::row({counter(2, 10, 120)}));
    ASSERT_EQ(a.cells.size(), 1u);
    EXPECT_EQ(a.cells[0].kind, Cell::Kind::kCounterDelta);
    EXPECT_EQ(decode_counter(a.cells[0].value), 13);
    EXPECT_EQ(a.cells[0].timestamp, 120);
}

TEST(Reconcile, CounterTombstoneWinsWhateverTheTimestamps) {
    RowFragment a = testing::row({counter(2, 5, 100)});
    merge_row(&a, testing::row({tomb(2, 50, 7)}));
    merge_row(&a, testing::row({counter(2, 1, 200)}));
    ASSERT_EQ(a.cells.size(), 1u);
    EXPECT_EQ(a.cells[0].kind, Cell::Kind::kTombstone);
}

TEST(Reconcile, MergeIsOrderIndependent) {
    RowFragment f1 = testing::row({live(1, "a", 10), counter(3, 1, 10)}, 10);
    RowFragment f2 = testing::row({tomb(1, 10, 9), live(2, "b", 12), counter(3, 2, 11)});
    RowFragment f3;
    f3.deletion = {11, 5};
    f3.cells = {counter(3, 4, 20)};
    RowFragment x = f1, y = f3;
    merge_row(&x, f2);
    merge_row(&x, f3);
    merge_row(&y, f2);
    merge_row(&y, f1);
    std::string ex, ey;
    encode_row(1, x, &ex);
    encode_row(1, y, &ey);
    EXPECT_EQ(ex, ey);
    // The deletion at 11 shadowed the marker (10), column 1 (10) and the
    // counter deltas up to 11; column 2 at 12 and the delta at 20 survive.
    EXPECT_TRUE(x.marker.is_empty());
    ASSERT_EQ(x.cells.size(), 2u);
    EXPECT_EQ(x.cells[0].column_id, 2u);
    EXPECT_EQ(decode_counter(x.cells[1].value), 4);
}

TEST(Reconcile, ComplexDeletionDropsOlderElementsOnly) {
    RowFragment r = testing::row({live(4, "", 5, "a"), live(4, "", 5, "b"), live(5, "x", 5)});
    RowFragment set;
    set.complex_deletions.push_back({4, {9, 1}});
    set.cells = {live(4, "", 10, "c")};
    merge_row(&r, set);
    ASSERT_EQ(r.cells.size(), 2u);
    EXPECT_EQ(r.cells[0].path, "c");
    EXPECT_EQ(r.cells[1].column_id, 5u);
}

TEST(Reconcile, NormalizeSortsAndReconcilesDuplicates) {
    RowFragment r = testing::row({live(3, "x", 1), live(1, "old", 1), live(1, "new", 2)});
    normalize_row(&r);
    ASSERT_EQ(r.cells.size(), 2u);
    EXPECT_EQ(r.cells[0].value, "new");
    EXPECT_EQ(r.cells[1].column_id, 3u);
}

TEST(Reconcile, HeaderKeepsMaxDeletionAndDropsSupersededRanges) {
    HeaderValue h;
    h.range_tombstones.push_back({{"a", true}, {"b", true}, {5, 1}});
    HeaderValue o;
    o.partition_deletion = {6, 2};
    o.range_tombstones.push_back({{"c", true}, {"d", true}, {8, 3}});
    merge_header(&h, o);
    EXPECT_EQ(h.partition_deletion.timestamp, 6);
    ASSERT_EQ(h.range_tombstones.size(), 1u);
    EXPECT_EQ(h.range_tombstones[0].start.prefix, "c");
    HeaderValue again;
    again.range_tombstones.push_back({{"c", true}, {"d", true}, {9, 4}});
    merge_header(&h, again);
    ASSERT_EQ(h.range_tombstones.size(), 1u);
    EXPECT_EQ(h.range_tombstones[0].deletion.timestamp, 9);
}

TEST(ClusteringRange, PrefixSuccessor) {
    EXPECT_EQ(prefix_successor("ab"), "ac");
    EXPECT_EQ(prefix_successor(std::string("a\xff", 2)), "b");
    EXPECT_FALSE(prefix_successor(std::string("\xff\xff", 2)));
    EXPECT_FALSE(prefix_successor(""));
}

TEST(ClusteringRange, BoundsFollowPrefixSemantics) {
    auto iv = to_interval({"b", true}, {"c", true});
    EXPECT_FALSE(iv.contains("a\xff"));
    EXPECT_TRUE(iv.contains("b"));
    EXPECT_TRUE(iv.contains("b\x01"));
    EXPECT_TRUE(iv.contains("c"));
    EXPECT_TRUE(iv.contains("c\xff\xff"));
    EXPECT_FALSE(iv.contains("d"));

    auto ex = to_interval({"b", false}, {"d", false});
    EXPECT_FALSE(ex.contains("b"));
    EXPECT_FALSE(ex.contains("b\xff"));
    EXPECT_TRUE(ex.contains("c"));
    EXPECT_FALSE(ex.contains("d"));
    EXPECT_FALSE(ex.contains("d\x01"));

    EXPECT_TRUE(to_interval({"c", true}, {"b", true}).empty);
    EXPECT_TRUE(to_interval({"b", false}, {"b", true}).empty);
    auto all = to_interval({}, {});
    EXPECT_TRUE(all.contains(""));
    EXPECT_TRUE(all.contains("\xff"));
}

TEST(ClusteringRange, TombstoneIndexReturnsGreatestCoveringDeletion) {
    std::vector<RangeTombstone> rts = {
        {{"b", true}, {"f", true}, {10, 1}},
        {{"c", true}, {"d", false}, {20, 1}},
        {{"e", false}, {"", true}, {5, 1}},
    };
    RangeTombstoneIndex idx(rts);
    EXPECT_TRUE(idx.covering("a").is_live());
    EXPECT_EQ(idx.covering("b").timestamp, 10);
    EXPECT_EQ(idx.covering("c").timestamp, 20);
    EXPECT_EQ(idx.covering("c\xff").timestamp, 20);
    EXPECT_EQ(idx.covering("d").timestamp, 10);
    EXPECT_EQ(idx.covering("e\x05").timestamp, 10);  // "e" excluded from the third
    EXPECT_EQ(idx.covering("f\x01").timestamp, 10);
    EXPECT_EQ(idx.covering("g").timestamp, 5);
    EXPECT_EQ(idx.covering("zzz").timestamp, 5);
}

}  // namespace
}  // namespace tessel::storage
