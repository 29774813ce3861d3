// Reconciliation of row fragments and partition headers: the rules the merge
// operator applies to operands and the read path relies on.
//
// Cells (Cassandra 4.0 Cells.reconcile / resolveRegular, after
// CASSANDRA-14592, so the result never depends on the clock): the higher
// timestamp wins. On equal timestamps a cell with a local deletion time (a
// tombstone or an expiring cell) beats a non-expiring live cell; a tombstone
// beats an expiring cell; between two tombstones or two expiring cells the
// later local deletion time (deletion time, expiry) wins; then the greater
// value, bytes compared unsigned, as Cassandra's ValueAccessor.compare.
//
// Counters: deltas of one cell add up into one delta carrying the highest
// timestamp; shards (counter_shards.h) merge per host by clock. A counter tombstone beats any delta
// whatever the timestamps, as in Cassandra (a deleted counter stays deleted until its tombstone is
// purged); this keeps merging associative and commutative. Deltas a row deletion shadows are
// dropped before summing, but a sum keeps only its newest timestamp, so "increment, delete,
// increment" racing within one merge may keep the first increment: the limitation Cassandra
// documents for counter removal.
//
// Rows: marker by LivenessInfo precedence, deletions by max; then data
// shadowed by the row deletion or a complex deletion (timestamp <= deletion
// timestamp) is dropped. Headers: partition deletion = max, range tombstones
// unioned, and those the partition deletion supersedes dropped.
#pragma once

#include <string_view>

#include "storage/mutation.h"
#include "storage/row_codec.h"

namespace tessel::storage {

// Orders cells by (column_id, path).
bool cell_less(const Cell& a, const Cell& b);

// The winner of two versions of one non-counter cell.
const Cell& reconcile_cells(const Cell& a, const Cell& b);

// The greater of two deletions (timestamp, then local deletion time).
const DeletionTime& max_deletion(const DeletionTime& a, const DeletionTime& b);

// Folds `other` into `into` (either order gives the same result).
void merge_row(RowFragment* into, RowFragment other);

// Sorts cells and reconciles duplicates of one (column, path), then drops
// shadowed data. Fragments from the write path go through this once.
void normalize_row(RowFragment* row);

// Drops markers, cells and complex deletions shadowed by the row deletion or
// by a complex deletion of their column.
void purge_shadowed(RowFragment* row);

void merge_header(HeaderValue* into, HeaderValue other);

}  // namespace tessel::storage
