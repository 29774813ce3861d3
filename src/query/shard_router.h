// ShardRouter: the write side of write sharding and time bucketing.
//
// build_mutations (write_builder.h) addresses a logical partition by its
// representative key (key_codec.h). route_mutations turns those mutations
// into the physical ones:
// - a row goes to its time bucket (floor(ts / width)) and to its shard:
//   'random' draws one shard per statement, 'calculated' hashes the named
//   columns' values (calculated_shard, partition/sharding.h);
// - anything that deletes (row deletions, cell tombstones, collection
//   deletions) of a random-suffix table goes to every shard, because an older
//   value may live in any of them; a calculated-suffix table sends it to the
//   row's shard when the row's shard columns are known, else to every shard;
// - partition deletions and range tombstones go to every shard of every
//   bucket they cover (the buckets a range names, or all the partition's
//   buckets found by a table scan when it does not bound the time column);
// - the static row of a bucketed table lives in bucket 0 (its home bucket).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/status.h"
#include "cql/plan_table.h"
#include "storage/mutation.h"

namespace tessel::query {

// The buckets holding data of a bucketed logical partition (its partition
// key components), sorted: what a deletion that does not bound the time
// column must reach. A table scan finds them (see discover_buckets).
using BucketFinder =
    std::function<Result<std::vector<int64_t>>(const std::vector<std::string>& components)>;

// Requires table.has_hidden_key(). Invalid when a calculated-suffix write
// does not give a value to every shard column.
Result<std::vector<storage::PartitionMutation>> route_mutations(
    const cql::TableInfo& table, std::vector<storage::PartitionMutation> logical,
    const BucketFinder& buckets);

}  // namespace tessel::query
