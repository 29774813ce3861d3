// Cassandra's limits on the size of what one write sends: the maximum
// mutation size (half a commit log segment, 16 MiB) and the batch size
// thresholds (batch_size_warn_threshold_in_kb, batch_size_fail_threshold_in_kb).
// Both are checked before the first mutation is applied.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "cql/plan_table.h"
#include "storage/mutation.h"

namespace tessel::query {

struct MutationLimits {
    size_t max_mutation_bytes = 16u << 20;
    size_t batch_warn_bytes = 5u << 10;
    size_t batch_fail_bytes = 50u << 10;
};

using TableMutation = std::pair<const cql::TableInfo*, storage::PartitionMutation>;

// Cassandra's PartitionUpdate.dataSize(): clustering and cell values plus the
// fixed sizes of timestamps, TTLs and deletion times.
size_t data_size(const storage::PartitionMutation& m);

// Invalid ("Rejected an oversized mutation (size/max) for keyspace: ks. Top
// keys are: t.key") when what one partition key of one keyspace receives is
// over the maximum mutation size. With `is_batch`, a batch that spans more
// than one partition also gets Invalid "Batch too large" over the fail
// threshold, or Cassandra's client warning in `warnings` over the warn one.
Status check_write_size(const std::vector<TableMutation>& logical, const MutationLimits& limits,
                        bool is_batch, std::vector<std::string>* warnings);

}  // namespace tessel::query
