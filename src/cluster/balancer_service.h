// BalancerService: the cluster's tablet balancer at work. One node at a
// time leads (a key under its own etcd lease: balancer/leader); the leader,
// every `interval_ms` and whenever a migration ends:
//   1. reads every tablet map from etcd (the truth, not its own copies);
//   2. resumes each transition nobody drives (its previous leader died, or
//      this node restarted mid-move), through MigrationDriver::advance;
//   3. asks every live node what it measured of each tablet (bytes held,
//      requests coordinated: `gather_load`), and plans a round with the
//      planner (balancer.h: placement, bytes, heat, few moves);
//   4. starts the round's moves, drops and splits; each move runs on a
//      thread of its own, stage after stage, until it completes or rolls back.
// Nodes' states come from Membership: up normal and joining nodes take
// replicas, a leaving one (decommission) sheds them, a down one keeps
// them, and a replica on a node that is no longer a member (removenode)
// is rebuilt from the others.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cluster/balancer.h"
#include "cluster/etcd_client.h"
#include "cluster/etcd_lease_keeper.h"
#include "cluster/membership.h"
#include "cluster/migration.h"
#include "cluster/migration_messages.h"
#include "cluster/topology.h"
#include "partition/tablet_policy.h"

namespace tessel::cluster {

struct BalancerServiceOptions {
    bool enabled = true;
    int interval_ms = 5000;
    int lease_ttl_seconds = 10;
    balancer::Config planner;  // per-node migration limits, dead band, ...
    // Splits by size and load and merges of idle neighbours on the same
    // replicas (partition/tablet_policy.h), as one node does on its own; a
    // table keeps at least `min_tablets_per_node` tablets per node.
    TabletThresholds thresholds;
    int min_tablets_per_node = 2;
};

struct BalancerServiceHooks {
    // The replication of the keyspace of a table; nullopt for a table the
    // catalog does not know (yet): its tablets are left alone.
    std::function<std::optional<Replication>(const std::string& table_id)> replication;
    // What every live node measured of its tablets (balancer/migration_messages.h).
    std::function<std::vector<TabletLoadReport>()> gather_load;
};

// What the balancer did so far (this node as leader).
struct BalancerStats {
    bool leader = false;
    uint64_t rounds = 0;
    uint64_t moves_started = 0;
    uint64_t moves_completed = 0;
    uint64_t moves_rolled_back = 0;
    uint64_t splits = 0;
    uint64_t merges = 0;
    uint64_t drops = 0;
    size_t running = 0;  // migrations under way
};

class BalancerService {
  public:
    // `membership` and `driver` must outlive the service.
    BalancerService(EtcdClient etcd, std::string cluster_prefix, std::string self,
                    Membership* membership, MigrationDriver* driver, BalancerServiceHooks hooks,
                    BalancerServiceOptions options);
    ~BalancerService();

    void start();
    // Ends leadership and waits for the migrations under way to reach a
    // stage boundary (each stops after its current step; the next leader
    // resumes them).
    void stop();
    // Plans a round now (the leader only).
    void poke();

    BalancerStats stats() const;

  private:
    struct TabletKey {
        std::string table_id;
        std::string start;
        auto operator<=>(const TabletKey&) const = default;
    };

    void loop();
    bool lead();
    void round();
    // Splits and merges by the thresholds: map changes only. True when the
    // map changed (its moves then wait for the next round).
    bool resize(const std::string& table_id, const TabletMap& map,
                const std::vector<TabletObservation>& observed, size_t nodes);
    // Runs `work` on a thread of its own, `key` marked as busy meanwhile.
    void spawn(const TabletKey& key, std::function<void()> work);
    void reap();

    EtcdClient etcd_;
    std::string prefix_;
    std::string self_;
    Membership* membership_;
    MigrationDriver* driver_;
    BalancerServiceHooks hooks_;
    BalancerServiceOptions options_;

    std::unique_ptr<LeaseKeeper> lease_;
    std::atomic<bool> leader_{false};
    std::atomic<bool> stopping_{false};
    std::vector<balancer::PreviousMove> previous_moves_;

    mutable std::mutex mu_;
    std::condition_variable cv_;
    bool poked_ = false;
    std::set<TabletKey> busy_;
    struct Worker {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };
    std::vector<Worker> workers_;
    BalancerStats stats_;
    std::thread thread_;
};

}  // namespace tessel::cluster
