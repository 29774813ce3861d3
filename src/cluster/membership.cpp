#include "cluster/membership.h"

namespace tessel::cluster {

Membership::Membership() {
    view_.store(std::make_shared<const ClusterView>());
}

void Membership::set_records(std::map<std::string, NodeInfo> nodes,
                             std::map<std::string, AliveInfo> alive) {
    std::lock_guard lock(mu_);
    auto next = std::make_shared<ClusterView>(*view_.load());
    next->nodes = std::move(nodes);
    next->alive = std::move(alive);
    publish(std::move(next));
}

void Membership::set_node(const std::string& host_id, std::optional<NodeInfo> node) {
    std::lock_guard lock(mu_);
    auto next = std::make_shared<ClusterView>(*view_.load());
    if (node) {
        next->nodes[host_id] = std::move(*node);
    } else {
        next->nodes.erase(host_id);
    }
    publish(std::move(next));
}

void Membership::set_alive(const std::string& host_id, std::optional<AliveInfo> alive) {
    std::lock_guard lock(mu_);
    auto next = std::make_shared<ClusterView>(*view_.load());
    if (alive) {
        next->alive[host_id] = std::move(*alive);
    } else {
        next->alive.erase(host_id);
    }
    publish(std::move(next));
}

void Membership::set_reachable(const std::string& host_id, bool reachable) {
    std::lock_guard lock(mu_);
    auto current = view_.load();
    if ((current->unreachable.count(host_id) == 0) == reachable) return;
    auto next = std::make_shared<ClusterView>(*current);
    if (reachable) {
        next->unreachable.erase(host_id);
    } else {
        next->unreachable.insert(host_id);
    }
    publish(std::move(next));
}

void Membership::publish(std::shared_ptr<ClusterView> next) {
    auto before = view_.load();
    next->ring = Ring([&] {
        std::vector<NodeInfo> nodes;
        for (const auto& [_, n] : next->nodes)
            nodes.push_back(n);
        return nodes;
    }());
    view_.store(next);
    if (!listener_) return;
    std::vector<ClusterEvent> events;
    // As in Cassandra, a node is new to clients once it has joined (NORMAL,
    // or LEAVING), not while it is JOINING.
    auto joined = [](const ClusterView& v, const std::string& id) {
        const NodeInfo* n = v.node(id);
        return n && n->state != NodeState::kJoining;
    };
    for (const auto& [id, n] : next->nodes) {
        if (joined(*next, id) && !joined(*before, id))
            events.push_back({ClusterEvent::Kind::kNewNode, n});
    }
    for (const auto& [id, n] : before->nodes) {
        if (!next->node(id) && joined(*before, id))
            events.push_back({ClusterEvent::Kind::kRemovedNode, n});
    }
    for (const auto& [id, n] : next->nodes) {
        const bool was = before->node(id) && before->is_up(id);
        const bool is = next->is_up(id);
        if (was != is)
            events.push_back({is ? ClusterEvent::Kind::kUp : ClusterEvent::Kind::kDown, n});
    }
    for (const auto& e : events)
        listener_(e);
}

}  // namespace tessel::cluster
