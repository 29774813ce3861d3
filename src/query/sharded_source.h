// ShardedSource: the read side of write sharding and time bucketing.
//
// A table with hidden partition-key components (write_sharding, time_bucket;
// see key_codec.h) stores one logical partition as several physical
// partitions. This TableSource wraps the physical source so the read path
// (read_executor) still sees one partition per logical key:
//
// - read(representative key, slice) opens every shard of every bucket the
//   slice covers and merges them into one stream in clustering order
//   (reversed when the slice is). Rows with the same clustering in several
//   shards (a random suffix may write one row twice) are reconciled cell by
//   cell, last write wins; counter cells add up. When the bucketed column is
//   the first clustering column, buckets are disjoint clustering ranges and
//   are streamed one after the other; otherwise all of them are merged.
// - Because the merged stream is in clustering order and equal clusterings
//   are merged, the clustering of the last row returned is the position of
//   *every* shard: a paging state's single (key, clustering) resumes all of
//   them, and LIMIT / PER PARTITION LIMIT / aggregates / DISTINCT apply to
//   the merged stream unchanged.
// - The buckets of a read are those the slice's bounds on the bucketed
//   column cover (at most kMaxBucketsPerRead). A slice without both bounds
//   (only reachable with ALLOW FILTERING) finds the partition's buckets by a
//   scan of the table's physical partitions, keeping those of the logical key:
//   correct for hash and ordered tables, and costs a table scan.
// - The static row of a bucketed table lives in bucket 0 (its home bucket).
// - scan() (no partition key restriction) yields each logical partition once.
//   Write-sharded tables: at the physical shard that comes first in key order
//   among the shards holding data. Bucketed tables: at the representative key,
//   in the order of those keys, read across every bucket found in storage
//   (batches of logical partitions collected by scans of the physical ones).
#pragma once

#include <memory>

#include "cql/plan_table.h"
#include "query/key_codec.h"
#include "query/table_source.h"

namespace tessel::query {

// Wraps `physical` (the replica source of `table`). `table` must outlive the
// returned source. Requires table.has_hidden_key().
std::unique_ptr<TableSource> make_sharded_source(std::unique_ptr<TableSource> physical,
                                                 const cql::TableInfo& table);

// The physical keys holding rows of a bucketed logical partition (found by a
// table scan), as sorted, distinct buckets. Invalid past kMaxBucketsPerRead.
Task<Result<std::vector<int64_t>>> discover_buckets(TableSource& physical, const KeyLayout& layout,
                                                    const std::vector<std::string>& components);

// The bucketed column's value bounded by an encoded clustering bound (a
// SliceSpec or range tombstone prefix), or nullopt when the bound does not
// reach that column. Conservative: the buckets between two such values cover
// every row the bounds admit.
std::optional<int64_t> bucket_column_bound(const KeyLayout& layout, std::string_view prefix);

// Reconciles two versions of the same row (same clustering) read from two
// shards: per cell the later write wins (counters add up).
storage::Row reconcile_rows(const storage::Row& a, const storage::Row& b, bool counters);

}  // namespace tessel::query
