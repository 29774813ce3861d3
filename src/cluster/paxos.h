// Paxos for lightweight transactions over a partition's replicas
// (Cassandra's Paxos v1: prepare/promise, read, propose/accept, commit).
//
// Each replica keeps, per partition, the highest ballot it promised, the
// proposal it accepted last and the ballot of the last commit it applied
// (node-local family of the store, key "paxos/<table id>/<partition key>").
// A coordinator:
//   1. prepares a ballot above every ballot it saw; a quorum must promise;
//   2. finishes a proposal some replica accepted but that was never
//      committed (re-proposes and commits it, then starts again), and sends
//      the last commit to replicas that missed it;
//   3. asks `decide` (reads at QUORUM, evaluates the conditions) for the
//      update, written with the ballot's time as its timestamp;
//   4. proposes it; a quorum must accept; then commits it at the request's
//      consistency level.
// A round that loses to a concurrent one starts again with a higher ballot
// after a random pause, until the request's deadline (Write_timeout, CAS).
//
// A proposal some replicas accepted but a quorum did not may still be
// finished by another coordinator. Each proposal carries its origin (the
// ballot of the round that decided it; a re-proposal keeps it) and replicas
// remember the origins of their last commits, so a coordinator whose
// proposal was partly accepted learns at its next prepare whether it was
// committed (the transaction applied) or finishes it itself; it decides
// again only once the proposal can no longer be committed. So a CAS never
// answers "not applied" for an update that was applied, and an update is
// never applied twice; only a deadline passed in that state leaves the
// outcome unknown (Write_timeout, CAS), as in Cassandra.
// SERIAL counts every replica for the quorum, LOCAL_SERIAL the local data
// centre's.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cluster/messages.h"
#include "common/status.h"
#include "common/task.h"

namespace tessel::storage {
class Store;
}

namespace tessel::cluster {

// A Paxos ballot: the time it was made, then who made it.
struct Ballot {
    int64_t micros = 0;
    uint64_t node = 0;
    auto operator<=>(const Ballot&) const = default;
    bool is_null() const { return micros == 0 && node == 0; }
};

struct PaxosPrepare {
    std::string table_id;
    std::string partition_key;
    Ballot ballot;
    // Origins of this coordinator's earlier proposals for the request that
    // some replica may have accepted: the promise says if one was committed.
    std::vector<Ballot> origins;
};

struct PaxosPromise {
    bool promised = false;
    Ballot promised_ballot;  // what the replica promised (higher when refused)
    Ballot accepted_ballot;  // its last accepted proposal, null if none
    std::optional<storage::PartitionMutation> accepted;
    Ballot committed_ballot;  // its last commit
    // That commit's update and origin, so a coordinator can bring replicas
    // that missed it up to date before reading.
    std::optional<storage::PartitionMutation> committed;
    Ballot committed_origin;
    Ballot accepted_origin;         // the origin of the accepted proposal
    bool origin_committed = false;  // one of the prepare's origins was committed here
};

struct PaxosProposal {
    std::string table_id;
    std::string partition_key;
    Ballot ballot;
    storage::PartitionMutation update;
    Ballot origin;  // the round that decided `update`
};

struct PaxosAccept {
    bool accepted = false;
};

std::string encode(const PaxosPrepare& m);
std::string encode(const PaxosPromise& m);
std::string encode(const PaxosProposal& m);
std::string encode(const PaxosAccept& m);
Status decode(std::string_view in, PaxosPrepare* out);
Status decode(std::string_view in, PaxosPromise* out);
Status decode(std::string_view in, PaxosProposal* out);
Status decode(std::string_view in, PaxosAccept* out);

// A replica's Paxos state, in the store's node-local family.
class PaxosState {
  public:
    // `store` must outlive the state.
    explicit PaxosState(storage::Store* store) : store_(store) {}

    Result<PaxosPromise> prepare(const PaxosPrepare& p);
    Result<PaxosAccept> propose(const PaxosProposal& p);
    // Applies the committed update to the table and records the commit.
    Status commit(const PaxosProposal& p);

  private:
    struct Record {
        Ballot promised;
        Ballot accepted_ballot;
        std::optional<storage::PartitionMutation> accepted;
        Ballot committed;
        std::optional<storage::PartitionMutation> committed_update;
        Ballot committed_origin;
        Ballot accepted_origin;
        std::vector<Ballot> committed_origins;  // the last kRememberedOrigins, oldest first
    };
    static constexpr size_t kRememberedOrigins = 64;
    Result<Record> load(const std::string& key);
    Status save(const std::string& key, const Record& r);
    std::mutex& lock_for(const std::string& key);

    storage::Store* store_;
    static constexpr size_t kStripes = 64;
    std::mutex stripes_[kStripes];
};

// The update a transaction writes at `timestamp` (microseconds; 0: the
// statement's own, on a single node), or nullopt when its conditions do not
// hold; called inside the Paxos round.
using CasDecider =
    std::function<Task<Result<std::optional<storage::PartitionMutation>>>(int64_t timestamp)>;

}  // namespace tessel::cluster
