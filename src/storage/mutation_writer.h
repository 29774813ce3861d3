// Turning a PartitionMutation into one RocksDB WriteBatch of merge operands:
// a header operand when the mutation deletes the partition or a clustering
// range, one row operand per row and for the static row. Also validates the
// mutation (nothing from the layers above is trusted) and measures it for
// partition statistics.
#pragma once

#include <rocksdb/db.h>
#include <rocksdb/write_batch.h>

#include "common/status.h"
#include "storage/mutation.h"
#include "storage/partition_stats.h"

namespace tessel::storage {

// Cassandra's limit on a partition key's serialized size.
constexpr size_t kMaxPartitionKeyBytes = 65535;

// Appends the mutation's operands for family `cf` to `batch` and adds its
// size, row writes and tombstones to `delta`. Invalid (and `batch`
// untouched) when the mutation is malformed.
Status build_write_batch(rocksdb::ColumnFamilyHandle* cf, const PartitionMutation& m,
                         rocksdb::WriteBatch* batch, PartitionStats* delta);

}  // namespace tessel::storage
