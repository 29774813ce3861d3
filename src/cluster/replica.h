// Replica: the seam between the coordinator (query/) and the data it reads
// and writes.
//
// The coordinator only ever talks to a Replica with serialisable arguments
// (a table id, an encoded partition key, a clustering slice, a mutation) and
// the request's consistency level and deadline. Behind the seam sits either
// the local store (make_local_replica, complete at once) or, on a cluster, a
// tablet's replica set reached over internode messaging. Calls return Tasks
// (common/task.h): a local call is finished when it returns, a remote one
// suspends the request's coroutine without blocking its event loop.
//
// Rows of a partition read, and partitions of a scan, may arrive in chunks:
// when next() returns false and needs_fetch() is true, the caller co_awaits
// fetch() and calls next() again; a failed fetch also fails status(). Local
// streams never need fetching.
//
// Callers await each returned Task before the arguments they passed by
// reference go away; implementations that may suspend copy what they keep
// of those arguments before their first suspension.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cluster/consistency.h"
#include "cluster/paxos.h"
#include "common/status.h"
#include "common/task.h"
#include "storage/mutation.h"
#include "storage/partition_reader.h"
#include "storage/partition_scanner.h"
#include "storage/partition_stats.h"

namespace tessel::storage {
class Store;
}

namespace tessel::cluster {

using storage::KeyRange;
using storage::SliceSpec;

// What one request asks of the replicas it reaches. A single node serves
// every consistency level by itself and ignores them.
struct RequestOptions {
    Consistency consistency = Consistency::kOne;
    // Lightweight transactions: SERIAL or LOCAL_SERIAL.
    Consistency serial = Consistency::kSerial;
    // Past it a remote replica that has not answered counts as not answering
    // (Write_timeout / Read_timeout).
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    // Write_timeout's write type: SIMPLE, BATCH, UNLOGGED_BATCH, COUNTER, CAS.
    const char* write_type = "SIMPLE";
    // How many rows a read wants from a remote replica at a time (the page
    // and LIMIT it serves); 0: the default chunk.
    uint32_t fetch_rows = 0;
};

// The live rows of one partition slice, in clustering order (or reversed).
class PartitionStream {
  public:
    virtual ~PartitionStream() = default;
    virtual const std::string& partition_key() const = 0;
    // The live static row, when the slice asked for it and it has live cells.
    virtual const std::optional<storage::Row>& static_row() const = 0;
    // Next live row; false at the end, on error (see status()) or when the
    // rows received so far are used up (see needs_fetch()).
    virtual bool next(storage::Row* out) = 0;
    virtual Status status() const = 0;
    // Tombstones met so far (partition, range, row and cell tombstones and
    // expired data): the input of tombstone warnings.
    virtual uint64_t tombstones_scanned() const { return 0; }
    // True when next() returned false only because more rows must be fetched.
    virtual bool needs_fetch() const { return false; }
    virtual Task<Status> fetch() { co_return Status::ok(); }
};

// The partitions with live data in a key range, in key byte order.
class PartitionCursor {
  public:
    virtual ~PartitionCursor() = default;
    // Moves to the next partition; false at the end, on error, or when more
    // partitions must be fetched first (needs_fetch()).
    virtual bool next() = 0;
    virtual const std::string& partition_key() const = 0;
    virtual Task<Result<std::unique_ptr<PartitionStream>>> read(const SliceSpec& slice) = 0;
    virtual Status status() const = 0;
    virtual bool needs_fetch() const { return false; }
    virtual Task<Status> fetch() { co_return Status::ok(); }
};

class Replica {
  public:
    virtual ~Replica() = default;

    virtual Task<Status> apply(const std::string& table_id, const storage::PartitionMutation& m,
                               const RequestOptions& options) = 0;
    virtual Task<Result<std::unique_ptr<PartitionStream>>> read(const std::string& table_id,
                                                                const std::string& partition_key,
                                                                const SliceSpec& slice,
                                                                int64_t now_seconds,
                                                                const RequestOptions& options) = 0;
    virtual Task<Result<std::unique_ptr<PartitionCursor>>> scan(const std::string& table_id,
                                                                const KeyRange& range,
                                                                int64_t now_seconds,
                                                                const RequestOptions& options) = 0;
    // A lightweight transaction on one partition: `decide` reads what the
    // conditions need and returns the update to write at the timestamp it
    // is given (nullopt: the conditions do not hold). True when the update
    // was written. A single node serialises the partition's transactions; a
    // cluster runs a Paxos round over its replicas (paxos.h).
    virtual Task<Result<bool>> cas(const std::string& table_id, const std::string& partition_key,
                                   const RequestOptions& options, CasDecider decide) = 0;

    // This node's storage of a table (every node holds a family per table).
    virtual Status create_table(const std::string& table_id, int32_t gc_grace_seconds) = 0;
    virtual Status drop_table(const std::string& table_id) = 0;
    virtual Status truncate_table(const std::string& table_id) = 0;
    virtual Status set_gc_grace(const std::string& table_id, int32_t gc_grace_seconds) = 0;
    virtual bool has_table(const std::string& table_id) const = 0;
    virtual Status flush() = 0;

    // The replica's clock, seconds since the epoch (TTL expiry is judged by it).
    virtual int64_t now_seconds() const = 0;

    // Requests sent through this replica set and not finished (a read or a
    // scan until its stream or cursor is released): what a tablet map
    // barrier waits for before a migration takes its next step.
    virtual uint64_t requests_in_flight() const { return 0; }

    // The write statistics of every partition of a table held here, in key
    // order (what tablet sizes are measured from). A replica without
    // statistics calls `fn` for nothing.
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

// A stream over a local partition reader, a cursor over a local scanner.
std::unique_ptr<PartitionStream> make_local_stream(std::unique_ptr<storage::PartitionReader> r);
std::unique_ptr<PartitionCursor> make_local_cursor(std::unique_ptr<storage::PartitionScanner> s);

}  // namespace tessel::cluster
