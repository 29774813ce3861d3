// Membership: who is in the cluster and who is up, as this node sees it.
//
// etcd is the source of truth: a node is in the cluster while its record
// (nodes/<host id>) exists, and up while its liveness record (alive/<host
// id>, under its lease) exists. The internode failure detector (heartbeats)
// may mark a node down sooner than its lease expires, on this node only.
// Readers take an immutable snapshot (one atomic load).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "cluster/node_record.h"
#include "cluster/topology.h"

namespace tessel::cluster {

struct ClusterView {
    std::map<std::string, NodeInfo> nodes;   // host id -> record
    std::map<std::string, AliveInfo> alive;  // host ids whose lease is live
    std::set<std::string> unreachable;       // the failure detector's verdict here
    Ring ring;

    const NodeInfo* node(const std::string& host_id) const {
        auto it = nodes.find(host_id);
        return it == nodes.end() ? nullptr : &it->second;
    }
    bool is_up(const std::string& host_id) const {
        return alive.count(host_id) > 0 && unreachable.count(host_id) == 0;
    }
};

// A change drivers hear about (protocol EVENT frames).
struct ClusterEvent {
    enum class Kind { kNewNode, kRemovedNode, kUp, kDown };
    Kind kind = Kind::kUp;
    NodeInfo node;
};

class Membership {
  public:
    using Listener = std::function<void(const ClusterEvent&)>;

    Membership();
    std::shared_ptr<const ClusterView> view() const { return view_.load(); }

    // Called before the first update; events are delivered on the thread
    // that made the change, after the new view is published.
    void set_listener(Listener listener) { listener_ = std::move(listener); }

    // The records as etcd holds them now (a full snapshot).
    void set_records(std::map<std::string, NodeInfo> nodes, std::map<std::string, AliveInfo> alive);
    // One record changed (nullopt: removed).
    void set_node(const std::string& host_id, std::optional<NodeInfo> node);
    void set_alive(const std::string& host_id, std::optional<AliveInfo> alive);
    // The failure detector's verdict for a peer.
    void set_reachable(const std::string& host_id, bool reachable);

  private:
    // Publishes `next` and reports what changed from the current view.
    void publish(std::shared_ptr<ClusterView> next);

    std::mutex mu_;  // serialises updates
    std::atomic<std::shared_ptr<const ClusterView>> view_;
    Listener listener_;
};

}  // namespace tessel::cluster
