// ClusterNode's part in nodes joining and leaving: JOINING -> NORMAL once the
// node serves, decommission (LEAVING until the balancer has moved every
// replica away, then gone) and removenode of a dead node (its replicas are
// rebuilt by the balancer from the survivors). docs/architecture.md, "Nodes
// joining and leaving", tells the whole story.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "cluster/node_record.h"
#include "embedded/cluster_node.h"
#include "schema/catalog.h"

namespace tessel::embedded {
namespace {

using Clock = std::chrono::steady_clock;

// How often a decommission or a removenode looks at the tablet maps.
constexpr auto kPollInterval = std::chrono::milliseconds(500);

// A host id as the user gives it: 32 hex digits, or a UUID with dashes.
Result<std::string> parse_host_id(const std::string& text) {
    std::string hex;
    for (char c : text) {
        if (c != '-') hex += c;
    }
    auto host = cluster::host_id_from_hex(hex);
    if (!host.is_ok()) return Status::invalid("Invalid host ID: '" + text + "'");
    return host;
}

}  // namespace

Task<Status> ClusterNode::run_lifecycle(std::function<Status()> work) {
    Completion<Status> done;
    asio::post(lifecycle_pool_, [done, work = std::move(work)]() mutable { done.set(work()); });
    co_return co_await done.wait();
}

void ClusterNode::become_normal() {
    if (control_->state() != cluster::NodeState::kJoining) return;
    Status st = control_->set_state(cluster::NodeState::kNormal);
    if (!st.is_ok()) spdlog::error("cannot mark this node NORMAL: {}", st.message());
}

Result<size_t> ClusterNode::replicas_held_by(const std::string& host) const {
    TESSEL_ASSIGN_OR_RETURN(auto maps, control_->etcd().get_prefix(control_->tablets_prefix()));
    size_t held = 0;
    for (const auto& kv : maps.kvs) {
        TESSEL_ASSIGN_OR_RETURN(auto map, TabletMap::decode(kv.value));
        for (const auto& t : map.tablets()) {
            const bool replica =
                std::find(t.replicas.begin(), t.replicas.end(), host) != t.replicas.end();
            const bool moving =
                t.transition && (t.transition->from == host || t.transition->to == host);
            if (replica || moving) ++held;
        }
    }
    return held;
}

Status ClusterNode::check_remaining_nodes_hold_rf() const {
    const std::string& self = control_->self().host_id;
    auto view = membership_.view();
    std::map<std::string, int> others_per_dc;
    int others = 0;
    for (const auto& [id, n] : view->nodes) {
        if (id == self || n.state == cluster::NodeState::kLeaving) continue;
        ++others_per_dc[n.dc];
        ++others;
    }
    if (!catalog_) return Status::ok();
    auto schema = catalog_->snapshot();
    for (const auto& keyspace : schema->keyspaces) {
        const std::string& name = keyspace.first;
        const auto& ks = keyspace.second;
        if (ks->tables.empty()) continue;
        auto r = cluster::Replication::from_options(
            std::map<std::string, std::string>(ks->replication.begin(), ks->replication.end()));
        if (!r.is_ok() || r->local) continue;
        auto refuse = [&](int rf, int n) {
            return Status::invalid(
                "Not enough live nodes to maintain replication factor in "
                "keyspace " +
                name + " (RF = " + std::to_string(rf) + ", N = " + std::to_string(n) +
                "). Decommission refused: add a node or lower the "
                "replication factor first");
        };
        if (!r->network_topology) {
            if (r->replication_factor > others) return refuse(r->replication_factor, others);
            continue;
        }
        for (const auto& [dc, rf] : r->per_dc) {
            const int n = others_per_dc.count(dc) ? others_per_dc.at(dc) : 0;
            if (rf > n) return refuse(rf, n);
        }
    }
    return Status::ok();
}

Status ClusterNode::decommission(Clock::time_point deadline) {
    const std::string& self = control_->self().host_id;
    if (control_->state() != cluster::NodeState::kLeaving) {
        TESSEL_RETURN_IF_ERROR(check_remaining_nodes_hold_rf());
        TESSEL_RETURN_IF_ERROR(control_->set_state(cluster::NodeState::kLeaving));
    }
    spdlog::info("decommission: waiting for the balancer to move this node's tablet replicas");
    size_t held = 0;
    for (;;) {
        if (stopping_) return Status::server("the node is stopping");
        auto r = replicas_held_by(self);
        if (r.is_ok()) {
            held = *r;
            if (held == 0) break;
        }
        if (Clock::now() >= deadline) {
            return Status::server(
                "Decommission is still running: this node holds " + std::to_string(held) +
                " tablet replicas; it stays LEAVING and the balancer goes on moving them (run "
                "decommission again to wait for the end)");
        }
        std::this_thread::sleep_for(kPollInterval);
    }
    TESSEL_RETURN_IF_ERROR(control_->leave());
    decommissioned_ = true;
    spdlog::info("decommission: done; this node is no longer a member of the cluster");
    if (event_listener_) {
        ClusterEvent e;
        e.kind = ClusterEvent::Kind::kDecommissioned;
        e.rpc_address = control_->self().rpc_address;
        e.native_port = control_->self().native_port;
        event_listener_(e);
    }
    return Status::ok();
}

Status ClusterNode::removenode(const std::string& host_id_text, Clock::time_point deadline) {
    TESSEL_ASSIGN_OR_RETURN(auto host, parse_host_id(host_id_text));
    // Seen down here (status DN: the failure detector) while its lease has
    // not expired yet: wait for etcd to agree, the lease TTL at most.
    auto view = membership_.view();
    if (view->node(host) && !view->is_up(host) && view->alive.count(host)) {
        const auto until =
            Clock::now() + std::chrono::seconds(options_.cluster.lease_ttl_seconds + 2);
        while (Clock::now() < until && membership_.view()->alive.count(host) && !stopping_)
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    TESSEL_RETURN_IF_ERROR(control_->remove_node(host));
    // The balancer rebuilds each replica the node held from the survivors.
    size_t held = 0;
    for (;;) {
        if (stopping_) return Status::server("the node is stopping");
        auto r = replicas_held_by(host);
        if (r.is_ok()) {
            held = *r;
            if (held == 0) return Status::ok();
        }
        if (Clock::now() >= deadline) {
            return Status::server(
                "The node is removed; " + std::to_string(held) +
                " of its tablet replicas are still being rebuilt on the others (the balancer "
                "goes on)");
        }
        std::this_thread::sleep_for(kPollInterval);
    }
}

}  // namespace tessel::embedded
