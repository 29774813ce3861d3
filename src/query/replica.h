// Replica: the seam between the coordinator and the data it reads and writes.
//
// The coordinator only ever talks to a Replica with serialisable arguments
// (a table id, an encoded partition key, a clustering slice, a mutation), so
// a cluster can later put messaging behind this interface without touching
// query logic. LocalReplica is the single-node implementation over the
// storage::Store; nothing else in query/ touches storage directly.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "common/status.h"
#include "storage/mutation.h"
#include "storage/partition_reader.h"
#include "storage/partition_scanner.h"
#include "storage/partition_stats.h"

namespace tessel::storage {
class Store;
}

namespace tessel::query {

using storage::KeyRange;
using storage::SliceSpec;

// The live rows of one partition slice, in clustering order (or reversed).
class PartitionStream {
  public:
    virtual ~PartitionStream() = default;
    virtual const std::string& partition_key() const = 0;
    // The live static row, when the slice asked for it and it has live cells.
    virtual const std::optional<storage::Row>& static_row() const = 0;
    // Next live row; false at the end or on error (see status()).
    virtual bool next(storage::Row* out) = 0;
    virtual Status status() const = 0;
    // Tombstones met so far (partition, range, row and cell tombstones and
    // expired data): the input of tombstone warnings.
    virtual uint64_t tombstones_scanned() const { return 0; }
};

// The partitions with live data in a key range, in key byte order.
class PartitionCursor {
  public:
    virtual ~PartitionCursor() = default;
    virtual bool next() = 0;
    virtual const std::string& partition_key() const = 0;
    virtual Result<std::unique_ptr<PartitionStream>> read(const SliceSpec& slice) = 0;
    virtual Status status() const = 0;
};

class Replica {
  public:
    virtual ~Replica() = default;

    virtual Status apply(const std::string& table_id, const storage::PartitionMutation& m) = 0;
    virtual Result<std::unique_ptr<PartitionStream>> read(const std::string& table_id,
                                                          const std::string& partition_key,
                                                          const SliceSpec& slice,
                                                          int64_t now_seconds) = 0;
    virtual Result<std::unique_ptr<PartitionCursor>> scan(const std::string& table_id,
                                                          const KeyRange& range,
                                                          int64_t now_seconds) = 0;

    virtual Status create_table(const std::string& table_id, int32_t gc_grace_seconds) = 0;
    virtual Status drop_table(const std::string& table_id) = 0;
    virtual Status truncate_table(const std::string& table_id) = 0;
    virtual Status set_gc_grace(const std::string& table_id, int32_t gc_grace_seconds) = 0;
    virtual bool has_table(const std::string& table_id) const = 0;
    virtual Status flush() = 0;

    // The replica's clock, seconds since the epoch (TTL expiry is judged by it).
    virtual int64_t now_seconds() const = 0;

    // The write statistics of every partition of a table, in key order (what
    // tablet sizes are measured from). A replica without statistics calls
    // `fn` for nothing.
    using PartitionStatsFn =
        std::function<void(std::string_view partition_key, const storage::PartitionStats&)>;
    virtual Status for_each_partition_stats(const std::string& table_id,
                                            const PartitionStatsFn& fn) {
        (void)table_id;
        (void)fn;
        return Status::ok();
    }
};

// The replica over a local store. `store` must outlive it.
std::unique_ptr<Replica> make_local_replica(storage::Store* store);

}  // namespace tessel::query
