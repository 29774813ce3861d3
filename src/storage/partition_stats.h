// Per-partition write statistics, kept on the write path without reading.
//
// apply() adds to an in-memory map sharded 32 ways (a mutex per shard, so
// writers to different partitions rarely contend and no lock is global). A
// periodic flush turns each shard's pending deltas into merge operands of the
// "partition_stats" column family (an add operator), so persisting never
// reads either. Reads combine the persisted total with the pending delta.
//
// `row_writes` counts row fragments written (clustering and static rows), an
// upper bound on the partition's row count: whether an INSERT creates a row
// or overwrites one is not knowable without a read. `bytes_written` is the
// approximate encoded size of everything written, not the size on disk after
// compaction. `tombstones_written` counts partition, range, row, complex and
// cell deletions.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include <rocksdb/db.h>
#include <rocksdb/merge_operator.h>

#include "common/status.h"

namespace tessel::storage {

struct PartitionStats {
    uint64_t bytes_written = 0;
    uint64_t row_writes = 0;
    uint64_t tombstones_written = 0;
    int64_t last_write_time = 0;  // seconds since the epoch (store clock)

    void add(const PartitionStats& o);
    bool operator==(const PartitionStats&) const = default;
};

// The "add" merge operator of the partition_stats column family.
std::shared_ptr<rocksdb::MergeOperator> make_stats_merge_operator();

class PartitionStatsTracker {
  public:
    // `db` and `cf` must outlive the tracker.
    PartitionStatsTracker(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf);

    void record(std::string_view table_id, std::string_view partition_key,
                const PartitionStats& delta);

    // Persisted total plus pending delta; zeros for an unknown partition.
    Result<PartitionStats> get(std::string_view table_id, std::string_view partition_key);

    // Flushes, then calls `fn` for every partition of the table in key order.
    Status for_each(
        std::string_view table_id,
        const std::function<void(std::string_view partition_key, const PartitionStats&)>& fn);

    // The family key of a partition's statistics, and the first key past
    // every partition of `table_id` (empty: none).
    static std::string key_of(std::string_view table_id, std::string_view partition_key);
    static std::string table_end(std::string_view table_id);

    // Writes pending deltas as merge operands (WAL on, no fsync).
    Status flush();

    // Forgets every partition of the table, pending and persisted.
    Status drop_table(std::string_view table_id);
    // Forgets the table's partitions whose key is in [start, end) (an empty
    // end: through the table's last partition), pending and persisted.
    Status drop_range(std::string_view table_id, std::string_view start, std::string_view end);

  private:
    static constexpr size_t kShards = 32;
    struct Shard {
        std::mutex mu;
        std::unordered_map<std::string, PartitionStats> pending;  // stats key -> delta
    };
    Shard& shard_for(std::string_view key);
    Status flush_shard(Shard& shard);  // requires shard.mu held

    rocksdb::DB* db_;
    rocksdb::ColumnFamilyHandle* cf_;
    std::array<Shard, kShards> shards_;
};

}  // namespace tessel::storage
