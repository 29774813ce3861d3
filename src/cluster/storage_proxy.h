// StorageProxy: the coordinator's side of replication (Cassandra's
// StorageProxy). Given a tablet's replicas and the keyspace's replication,
// it sends a write to every replica and waits for as many acknowledgements
// as the consistency level asks; it reads from one replica and compares
// digests from as many others as the level needs, repairing the replicas
// that differ before answering (blocking read repair).
//
// - Unavailable (with consistency, required, alive) when too few replicas
//   are up for the level; nothing is sent.
// - Write_timeout (received, block_for, write type) / Read_timeout
//   (received, block_for, data_present) when replicas do not answer by the
//   request's deadline.
// - A write to a replica that is down, or that did not answer in time, is
//   kept as a hint (hints.h) and replayed when the replica is back. ANY is
//   satisfied by a hint.
// - This node, when it is a replica, is called in-process (ReplicaService);
//   a read at ONE (or LOCAL_ONE) that this node can serve never leaves it.
// - Reads come in chunks (read_chunk_rows rows, scan_chunk_partitions
//   partitions), each checked at the level: a page asks only for what it
//   needs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cluster/hints.h"
#include "cluster/membership.h"
#include "cluster/messages.h"
#include "cluster/messaging_service.h"
#include "cluster/paxos.h"
#include "cluster/replica.h"
#include "cluster/replica_service.h"
#include "cluster/topology.h"

namespace tessel::cluster {

// Where a partition lives: its tablet's replicas and the keyspace's replication.
// While a replica moves (partition/tablet_map.h, TabletTransition), writes
// also go to `pending`: the node receiving the tablet before it serves reads,
// or the one leaving it while coordinators may still read it. Each pending
// replica adds one to the consistency level's count (ReplicaCount::
// add_pending); reads never ask it.
struct Placement {
    std::vector<std::string> replicas;  // host ids, primary first: reads and writes
    std::vector<std::string> pending;   // host ids taking writes only
    Replication replication;
};

struct ProxyOptions {
    std::string self;  // this node's host id
    std::string local_dc = "datacenter1";
    uint32_t read_chunk_rows = 1000;
    uint32_t scan_chunk_partitions = 100;
    uint32_t scan_chunk_rows = 100;  // rows of each scanned partition fetched with it
};

class StorageProxy {
  public:
    // Every pointer must outlive the proxy.
    StorageProxy(ProxyOptions options, Membership* membership, MessagingService* messaging,
                 ReplicaService* local, HintStore* hints);

    // A write; counter deltas go through a counter leader (proxy_counter.cpp).
    Task<Status> mutate(const std::string& table_id, const storage::PartitionMutation& m,
                        const Placement& placement, const RequestOptions& options);
    Task<Result<std::unique_ptr<PartitionStream>>> read(const std::string& table_id,
                                                        const std::string& partition_key,
                                                        const SliceSpec& slice, int64_t now_seconds,
                                                        const Placement& placement,
                                                        const RequestOptions& options);
    Task<Result<std::unique_ptr<PartitionCursor>>> scan(const std::string& table_id,
                                                        const KeyRange& range, int64_t now_seconds,
                                                        const Placement& placement,
                                                        const RequestOptions& options);
    // A lightweight transaction on one partition (paxos.h): true when
    // `decide`'s update was committed, false when its conditions did not
    // hold. The Paxos quorum is options.serial's; the commit waits for
    // options.consistency.
    Task<Result<bool>> cas(const std::string& table_id, const std::string& partition_key,
                           const Placement& placement, const RequestOptions& options,
                           CasDecider decide);
    // Registers the handlers of the verbs the proxy serves (the counter
    // leader's), before messaging starts.
    Status register_handlers(MessagingService& messaging);
    // TRUNCATE: every node's copy of the table, all of them up (Cassandra
    // refuses a truncate while a node is down).
    Task<Status> truncate(const std::string& table_id,
                          std::chrono::steady_clock::time_point deadline);

    // --- used by the streams, cursors and repair ---

    const ProxyOptions& options() const { return options_; }
    // The replicas to read from at `c`: the data replica first, then the
    // digest ones (block_for in all), or Unavailable/Invalid.
    Result<std::vector<std::string>> read_targets(const Placement& placement, Consistency c,
                                                  int* block_for) const;
    // One request to a replica (in-process for this node).
    Task<MessagingResult> send(const std::string& host, ReplicaVerb verb, std::string payload,
                               std::chrono::steady_clock::time_point deadline);
    // Makes every one of `hosts` hold what any of them holds in the clustering
    // range [start, end] of the partition (static row too when asked), and
    // waits for them to acknowledge.
    Task<Status> repair_partition(const std::string& table_id, const std::string& partition_key,
                                  const storage::ClusteringBound& start,
                                  const storage::ClusteringBound& end, bool include_static,
                                  const std::vector<std::string>& hosts,
                                  std::chrono::steady_clock::time_point deadline);
    // The same for the partitions of a key range.
    Task<Status> repair_range(const std::string& table_id, const storage::KeyRange& range,
                              const std::vector<std::string>& hosts,
                              std::chrono::steady_clock::time_point deadline);

    Membership& membership() { return *membership_; }
    ReplicaService& local() { return *local_; }
    HintStore& hints() { return *hints_; }
    MessagingService& messaging() { return *messaging_; }

  private:
    // Sends `m` to every replica and waits for the consistency level;
    // `applied_here`: this node (a replica) has applied it already.
    Task<Status> replicate(const std::string& table_id, const storage::PartitionMutation& m,
                           const Placement& placement, const RequestOptions& options,
                           bool applied_here);
    Task<Status> mutate_counter(const std::string& table_id, const storage::PartitionMutation& m,
                                const Placement& placement, const RequestOptions& options);
    // This node leads a counter write: makes its shards, replicates them.
    Task<Status> lead_counter(const std::string& table_id, const storage::PartitionMutation& m,
                              const Placement& placement, const RequestOptions& options);
    Task<Result<std::string>> ask_paxos(const std::string& host, ReplicaVerb verb,
                                        std::string payload,
                                        std::chrono::steady_clock::time_point deadline);
    // kCommitted, or how a higher ballot that came first left the proposal.
    enum class ProposalOutcome { kCommitted, kPartial, kRefused };
    // The commit also reaches `pending` (Placement::pending), uncounted.
    Task<Result<ProposalOutcome>> propose_and_commit(const PaxosProposal& proposal,
                                                     const std::vector<std::string>& targets,
                                                     const std::vector<std::string>& pending,
                                                     int block_for, const RequestOptions& ro);
    // Sends each host the mutations the others hold that it may lack.
    Task<Status> exchange(const std::string& table_id,
                          const std::vector<std::vector<storage::PartitionMutation>>& held,
                          const std::vector<std::string>& hosts,
                          std::chrono::steady_clock::time_point deadline);

    ProxyOptions options_;
    Membership* membership_;
    MessagingService* messaging_;
    ReplicaService* local_;
    HintStore* hints_;
};

// The replica set of one tablet as a Replica: what TabletRouter routes the
// tablet's requests to on a cluster. Table lifecycle calls go to `local`.
std::shared_ptr<Replica> make_tablet_replicas(StorageProxy* proxy, Placement placement,
                                              Replica* local);

}  // namespace tessel::cluster
