// Writes through Store::apply: merge resolution as reads observe it, both
// from the memtable and after the operands are flushed and compacted.
#include <gtest/gtest.h>

#include "storage_test_util.h"

namespace tessel::storage {
namespace {

using namespace testing;

class StoreWrite : public StoreTest, public ::testing::WithParamInterface<bool> {
  protected:
    // Parameter: flush (and compact) between writes, so merges happen
    // against SST base values and inside compactions, not only in memory.
    void between() {
        if (GetParam()) {
            ASSERT_TRUE(store_->flush().is_ok());
            ASSERT_TRUE(store_->compact("t").is_ok());
        }
    }
};

TEST_P(StoreWrite, LastWriteWinsPerCell) {
    apply(write_row("pk01", "c1", row({live(1, "a@20", 20), live(2, "b@20", 20)}, 20)));
    between();
    apply(write_row("pk01", "c1", row({live(1, "a@10", 10), live(2, "b@30", 30)})));
    auto rs = rows("pk01");
    ASSERT_EQ(rs.size(), 1u);
    EXPECT_EQ(value_of(rs[0], 1), "a@20");
    EXPECT_EQ(value_of(rs[0], 2), "b@30");
    EXPECT_EQ(cell_of(rs[0], 2)->timestamp, 30);
    EXPECT_EQ(rs[0].marker.timestamp, 20);
}

TEST_P(StoreWrite, EqualTimestampsTieBreakDeterministically) {
    apply(write_row("pk01", "c1", row({live(1, "abd", 10), live(2, "x", 10)}, 10)));
    between();
    apply(write_row("pk01", "c1", row({live(1, "abc", 10), tomb(2, 10, now32())})));
    auto rs = rows("pk01");
    ASSERT_EQ(rs.size(), 1u);
    EXPECT_EQ(value_of(rs[0], 1), "abd");          // greater value wins
    EXPECT_FALSE(value_of(rs[0], 2).has_value());  // tombstone beats live at equal ts
}

TEST_P(StoreWrite, CounterDeltasAdd) {
    apply(write_row("pk01", "c1", row({counter(3, 5, 10)})));
    between();
    apply(write_row("pk01", "c1", row({counter(3, 7, 11)})));
    between();
    apply(write_row("pk01", "c1", row({counter(3, -2, 12)})));
    auto rs = rows("pk01");
    ASSERT_EQ(rs.size(), 1u);
    auto c = cell_of(rs[0], 3);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->kind, Cell::Kind::kLive);
    EXPECT_EQ(decode_counter(c->value), 10);
}

TEST_P(StoreWrite, CounterTombstoneRemovesTheCounter) {
    apply(write_row("pk01", "c1", row({counter(3, 5, 10), live(4, "keep", 10)})));
    between();
    apply(write_row("pk01", "c1", row({tomb(3, 11, now32())})));
    between();
    apply(write_row("pk01", "c1", row({counter(3, 1, 12)})));
    auto rs = rows("pk01");
    ASSERT_EQ(rs.size(), 1u);
    EXPECT_FALSE(cell_of(rs[0], 3).has_value());
    EXPECT_EQ(value_of(rs[0], 4), "keep");
}

TEST_P(StoreWrite, ComplexDeletionThenNewElements) {
    // l = {a, b}; then SET l = {c}: complex deletion at ts-1 plus the new element.
    apply(write_row("pk01", "c1", row({live(5, "", 10, "a"), live(5, "", 10, "b")}, 10)));
    between();
    RowFragment set = row({live(5, "", 20, "c")});
    set.complex_deletions.push_back({5, {19, now32()}});
    apply(write_row("pk01", "c1", set));
    between();
    // A late element write older than the collection deletion stays hidden.
    apply(write_row("pk01", "c1", row({live(5, "", 15, "d")})));
    auto rs = rows("pk01");
    ASSERT_EQ(rs.size(), 1u);
    ASSERT_EQ(rs[0].cells.size(), 1u);
    EXPECT_EQ(rs[0].cells[0].path, "c");
}

TEST_P(StoreWrite, UnsortedCellsAreAccepted) {
    apply(write_row("pk01", "c1", row({live(9, "nine", 10), live(1, "one", 10)}, 10)));
    auto rs = rows("pk01");
    ASSERT_EQ(rs.size(), 1u);
    ASSERT_EQ(rs[0].cells.size(), 2u);
    EXPECT_EQ(rs[0].cells[0].column_id, 1u);
    EXPECT_EQ(rs[0].cells[1].column_id, 9u);
}

INSTANTIATE_TEST_SUITE_P(MemtableAndSst, StoreWrite, ::testing::Bool());

TEST_F(StoreTest, RejectsMalformedMutations) {
    Cell bad = counter(1, 1, 10);
    bad.value = "abc";
    auto s = store_->apply("t", write_row("pk01", "c1", row({bad})));
    ASSERT_FALSE(s.is_ok());
    EXPECT_EQ(s.code(), ErrorCode::kInvalid);

    Cell weird = live(1, "x", 10);
    weird.kind = static_cast<Cell::Kind>(7);
    EXPECT_EQ(store_->apply("t", write_row("pk01", "c1", row({weird}))).code(),
              ErrorCode::kInvalid);

    PartitionMutation huge =
        write_row(std::string((1u << 20) + 1, 'k'), "c", row({live(1, "x", 1)}));
    EXPECT_EQ(store_->apply("t", huge).code(), ErrorCode::kInvalid);

    EXPECT_EQ(store_->apply("nope", write_row("pk01", "c", row({}, 1))).code(),
              ErrorCode::kInvalid);
    // Nothing of the rejected mutations was written.
    EXPECT_TRUE(rows("pk01").empty());
}

}  // namespace
}  // namespace tessel::storage
