// ControlPlane: this node's part in the cluster state held in etcd.
//
// Keys, under /tessel/<cluster name>/:
//   nodes/<host id>     the node's record (addresses, dc, rack, tokens,
//                       state): written when it joins, removed when it leaves
//   alive/<host id>     under the node's lease: present while it is up
//   removed/<host id>   a node that left (decommission) or was removed
//                       (removenode): it may not join again with that id
//   schema/...          the catalog (the records the local catalog family
//                       holds, under the same keys)
//   tablets/<table id>  the tablet maps, with their replicas
//   secret              the cluster's paging-state key (one for every node,
//                       so any node continues any page)
//   topology            rewritten by every join: joins are serialised on it
//
// start() joins (or rejoins, keeping its tokens) and keeps the node's lease;
// one watch on the whole prefix then feeds Membership and the listener in
// etcd's revision order, on the watch's thread. Every etcd call blocks: they
// run on control-plane threads, never on an event loop.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cluster/etcd_client.h"
#include "cluster/etcd_lease_keeper.h"
#include "cluster/etcd_watch.h"
#include "cluster/membership.h"
#include "cluster/node_record.h"

namespace tessel::cluster {

struct ControlPlaneOptions {
    EtcdOptions etcd;
    std::string cluster_name = "Tessel Cluster";
    int num_tokens = 16;
    int lease_ttl_seconds = 10;
};

class ControlPlane {
  public:
    // Schema and tablet-map changes, as the watch delivers them. `revision`
    // is the etcd revision of the change.
    struct Listener {
        // Some schema/ key changed.
        std::function<void(int64_t revision)> on_schema;
        // A tablet map was written (value) or removed (nullopt).
        std::function<void(const std::string& table_id, const std::optional<std::string>& map,
                           int64_t revision)>
            on_tablets;
    };

    // Joins the cluster as `self` (tokens allocated on the first join, kept
    // afterwards) and reads the current membership into `membership`.
    // Fails when etcd cannot be reached or the node's address is already
    // taken by another host id.
    static Result<std::unique_ptr<ControlPlane>> start(ControlPlaneOptions options, NodeInfo self,
                                                       Membership* membership);
    ~ControlPlane();

    // Starts the watch from the revision start() read (call once listeners
    // are ready; a schema or tablet change made meanwhile is delivered).
    void watch(Listener listener);

    const EtcdClient& etcd() const { return etcd_; }
    const std::string& prefix() const { return prefix_; }
    const NodeInfo& self() const { return self_; }
    // The etcd revision start() read the cluster state at.
    int64_t start_revision() const { return start_revision_; }

    // The cluster's paging-state secret (created by the first node).
    Result<std::string> cluster_secret();
    // Rewrites this node's liveness record (its schema version changed).
    Status report(const AliveInfo& alive);

    // --- Joining and leaving (docs/architecture.md, "Nodes joining and
    // leaving"). A new node joins as JOINING (the first node of a cluster
    // as NORMAL) and is NORMAL once it serves; a node that restarts keeps
    // its state.
    NodeState state() const { return state_.load(); }
    // Rewrites this node's record with `state` (JOINING -> NORMAL, NORMAL
    // -> LEAVING).
    Status set_state(NodeState state);
    // This node leaves the cluster: its record goes and a removed/ marker
    // stays, in one transaction; then its lease is revoked.
    Status leave();
    // removenode: `host_id` (not this node) leaves the cluster. Refused while
    // it is alive (it should decommission) and for a host that is no member.
    Status remove_node(const std::string& host_id);

    // Key helpers.
    std::string node_key(const std::string& host_id) const;
    std::string removed_key(const std::string& host_id) const;
    std::string alive_key(const std::string& host_id) const;
    std::string tablets_key(const std::string& table_id) const;
    std::string schema_prefix() const { return prefix_ + "schema/"; }
    std::string tablets_prefix() const { return prefix_ + "tablets/"; }

  private:
    ControlPlane(ControlPlaneOptions options, NodeInfo self, Membership* membership,
                 EtcdClient etcd);
    Status join();
    Status keep_alive();
    Status read_membership();
    void on_lease_lost(const Status& why);
    void on_watch(const WatchBatch& batch);

    ControlPlaneOptions options_;
    NodeInfo self_;
    Membership* membership_;
    EtcdClient etcd_;
    std::string prefix_;
    int64_t start_revision_ = 0;
    std::mutex mu_;  // the lease and the last alive record
    std::unique_ptr<LeaseKeeper> lease_;
    AliveInfo alive_;
    Listener listener_;
    std::unique_ptr<EtcdWatch> watch_;
    std::atomic<bool> stopping_{false};
    std::atomic<NodeState> state_{NodeState::kNormal};
    std::thread relister_;  // re-registers after a lost lease
};

}  // namespace tessel::cluster
