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

// A sanity bound on the encoded partition key prefix (token, then the
// memcomparable components, which escape some bytes). The user-facing limit,
// Cassandra's 65535 bytes per component, is checked where keys are built
// (partition/token.h), so every key it accepts fits here.
constexpr size_t kMaxPartitionKeyBytes = 1u << 20;

// Appends the mutation's operands for family `cf` to `batch` and adds its
// size, row writes and tombstones to `delta`. Invalid (and `batch`
// untouched) when the mutation is malformed.
Status build_write_batch(rocksdb::ColumnFamilyHandle* cf, const PartitionMutation& m,
                         rocksdb::WriteBatch* batch, PartitionStats* delta);

}  // namespace tessel::storage
