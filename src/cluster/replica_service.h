// ReplicaService: this node as a replica. Serves the data-path verbs other
// coordinators send (messages.h) from the local store, and the same
// operations in-process when this node is itself one of a request's
// replicas, so local and remote replicas answer alike.
//
// Reads return at most `row_limit` live rows per partition (and
// `partition_limit` partitions per scan) and say whether more follow; the
// digest of a read is computed over exactly what it would return. Storage
// calls block (RocksDB); handlers run on the messaging threads.
#pragma once

#include <mutex>

#include "cluster/messages.h"
#include "cluster/messaging_service.h"
#include "cluster/paxos.h"
#include "common/status.h"

namespace tessel::storage {
class Store;
}

namespace tessel::cluster {

class ReplicaService {
  public:
    // `store` must outlive the service.
    explicit ReplicaService(storage::Store* store) : store_(store), paxos_(store) {}

    // Registers the handlers of every data-path verb (before messaging starts).
    Status register_handlers(MessagingService& messaging);

    Status apply(const MutationMessage& m);
    Result<ReadResponse> read(const ReadCommand& c);
    Result<ScanResponse> scan(const ScanCommand& c);
    Result<storage::PartitionMutation> read_raw(const RawReadCommand& c);
    Result<RawScanResponse> scan_raw(const RawScanCommand& c);
    Result<RangeDigestResponse> digest_ranges(const RangeDigestCommand& c);
    Status truncate(const TruncateMessage& m);
    // Leads a counter write (counter_shards.h): adds each delta to this
    // node's (`self`'s) shard of its cell, applies the shards here and
    // returns them, for the other replicas. Serialised per partition.
    Result<storage::PartitionMutation> lead_counter(const std::string& table_id,
                                                    const storage::PartitionMutation& deltas,
                                                    const std::string& self);

    storage::Store& store() { return *store_; }
    PaxosState& paxos() { return paxos_; }

  private:
    storage::Store* store_;
    PaxosState paxos_;
    static constexpr size_t kCounterStripes = 64;
    std::mutex counter_stripes_[kCounterStripes];
};

}  // namespace tessel::cluster
