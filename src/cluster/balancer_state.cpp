#include "cluster/balancer_state.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string_view>

namespace tessel::cluster::balancer::detail {
namespace {

bool finite_non_negative(double v) {
    return std::isfinite(v) && v >= 0;
}

Status check_config(const Config& c) {
    if (c.max_migrations_in < 0 || c.max_migrations_out < 0)
        return Status::invalid("balancer: migration limits must not be negative");
    if (!finite_non_negative(c.dead_band) || c.dead_band >= 1)
        return Status::invalid("balancer: dead_band must lie in [0, 1)");
    if (!std::isfinite(c.hot_fraction) || c.hot_fraction <= 0)
        return Status::invalid("balancer: hot_fraction must be positive");
    if (c.candidates < 1) return Status::invalid("balancer: candidates must be at least 1");
    const HeatWeights& w = c.heat_weights;
    if (!finite_non_negative(w.read) || !finite_non_negative(w.write) ||
        !finite_non_negative(w.kib_written))
        return Status::invalid("balancer: heat weights must be finite and not negative");
    return Status::ok();
}

// Host id -> node index: open addressing over the nodes' own host strings
// (a replica list names hosts hundreds of thousands of times per round).
class HostIndex {
  public:
    explicit HostIndex(size_t expected) {
        size_t cap = 16;
        while (cap < expected * 2)
            cap <<= 1;
        slots_.assign(cap, {0, -1});
    }
    // The node of `host`, or -1; *slot receives where to insert it.
    int32_t find(const std::vector<NodeRec>& nodes, std::string_view host, size_t* slot) const {
        const uint64_t h = std::hash<std::string_view>{}(host);
        size_t i = h & (slots_.size() - 1);
        while (slots_[i].second >= 0) {
            if (slots_[i].first == h && nodes[slots_[i].second].host == host)
                return slots_[i].second;
            i = (i + 1) & (slots_.size() - 1);
        }
        *slot = i;
        return -1;
    }
    // Precondition: find() returned -1 with this slot and nothing was
    // inserted since; the table grows before it is half full.
    void insert(const std::vector<NodeRec>& nodes, size_t slot, int32_t node) {
        slots_[slot] = {std::hash<std::string_view>{}(nodes[node].host), node};
        if (++size_ * 2 <= slots_.size()) return;
        std::vector<std::pair<uint64_t, int32_t>> old(slots_.size() * 2, {0, -1});
        old.swap(slots_);
        for (const auto& e : old) {
            if (e.second < 0) continue;
            size_t i = e.first & (slots_.size() - 1);
            while (slots_[i].second >= 0)
                i = (i + 1) & (slots_.size() - 1);
            slots_[i] = e;
        }
    }

  private:
    std::vector<std::pair<uint64_t, int32_t>> slots_;
    size_t size_ = 0;
};

}  // namespace

std::string tablet_name(const TabletId& id) {
    return id.table.to_string() + ":" + std::to_string(id.index);
}

bool State::holder(int32_t n) const {
    const NodeRec& r = nodes[n];
    return r.dc >= 0 && (r.state == NodeState::kNormal || r.state == NodeState::kDown || r.pinned);
}

bool State::movable_node(int32_t n) const {
    return nodes[n].state == NodeState::kNormal;
}

bool State::holds(int32_t n, int32_t t) const {
    const auto& r = tablets[t].replicas;
    return std::find(r.begin(), r.end(), n) != r.end();
}

int State::rf_at(int32_t t, int32_t n) const {
    const ReplicationRec& rep = replications[tablets[t].repl];
    if (rep.simple) return rep.simple_rf;
    for (const auto& [dc, rf] : rep.per_dc)
        if (dc >= 0 && dc == nodes[n].dc) return rf;
    return 0;
}

int State::domain_group(int32_t t, int32_t n) const {
    if (tablets[t].simple) return 0;
    return dc_group(nodes[n].dc);
}

void State::set_load(int32_t n, int dim, double value) {
    NodeRec& r = nodes[n];
    const double old_key = r.key[dim];
    const double key = r.target[dim] > 0 ? value / r.target[dim] : 0;
    const bool is_holder = holder(n);
    const bool in_sets = movable_node(n);
    const double delta = value - r.load[dim];
    for_groups(n, [&](Group& g) {
        if (is_holder) g.load[dim] += delta;
        if (!in_sets) return;
        if (r.in_slots > 0) {
            g.in[dim].erase({old_key, n});
            g.in[dim].insert({key, n});
        }
        if (r.out_slots > 0) {
            g.out[dim].erase({old_key, n});
            g.out[dim].insert({key, n});
        }
    });
    r.load[dim] = value;
    r.key[dim] = key;
}

void State::add_replica(int32_t t, int32_t n) {
    TabletRec& tr = tablets[t];
    tr.replicas.push_back(n);
    nodes[n].tablets.push_back(t);
    nodes[n].replicas++;
    set_load(n, kBytesDim, nodes[n].load[kBytesDim] + tr.size);
    set_load(n, kHeatDim, nodes[n].load[kHeatDim] + tr.heat);
}

void State::remove_replica(int32_t t, int32_t n) {
    TabletRec& tr = tablets[t];
    auto it = std::find(tr.replicas.begin(), tr.replicas.end(), n);
    if (it == tr.replicas.end()) return;
    tr.replicas.erase(it);
    nodes[n].replicas--;
    set_load(n, kBytesDim, std::max(0.0, nodes[n].load[kBytesDim] - tr.size));
    set_load(n, kHeatDim, std::max(0.0, nodes[n].load[kHeatDim] - tr.heat));
}

void State::take_in_slot(int32_t n) {
    NodeRec& r = nodes[n];
    if (--r.in_slots > 0 || !movable_node(n)) return;
    for_groups(n, [&](Group& g) {
        for (int d = 0; d < 2; ++d)
            g.in[d].erase({r.key[d], n});
    });
}

void State::take_out_slot(int32_t n) {
    NodeRec& r = nodes[n];
    if (--r.out_slots > 0 || !movable_node(n)) return;
    for_groups(n, [&](Group& g) {
        for (int d = 0; d < 2; ++d)
            g.out[d].erase({r.key[d], n});
    });
}

void State::set_targets() {
    const size_t ndc = dc_names.size();
    // Intended load per pool: each data centre, and the cluster for
    // SimpleStrategy; each pool is shared by its holders by capacity.
    std::vector<std::array<double, 2>> pool(ndc + 1, {0, 0});
    std::vector<double> capacity(ndc + 1, 0);
    for (const TabletRec& t : tablets) {
        const ReplicationRec& rep = replications[t.repl];
        if (rep.simple) {
            pool[ndc][kBytesDim] += t.size * rep.simple_rf;
            pool[ndc][kHeatDim] += t.heat * rep.simple_rf;
            continue;
        }
        for (const auto& [dc, rf] : rep.per_dc) {
            if (dc < 0) continue;
            pool[dc][kBytesDim] += t.size * rf;
            pool[dc][kHeatDim] += t.heat * rf;
        }
    }
    for (int32_t n = 0; n < static_cast<int32_t>(nodes.size()); ++n) {
        if (!holder(n)) continue;
        capacity[nodes[n].dc] += nodes[n].capacity;
        capacity[ndc] += nodes[n].capacity;
    }
    groups.assign(1 + ndc + racks.size(), Group{});
    std::array<double, 2> load{}, target{};
    std::vector<char> rack_has_normal(racks.size(), 0);
    for (int32_t n = 0; n < static_cast<int32_t>(nodes.size()); ++n) {
        NodeRec& r = nodes[n];
        if (!holder(n)) continue;
        for (int d = 0; d < 2; ++d) {
            r.target[d] = pool[r.dc][d] * r.capacity / capacity[r.dc] +
                          pool[ndc][d] * r.capacity / capacity[ndc];
            r.key[d] = r.target[d] > 0 ? r.load[d] / r.target[d] : 0;
            load[d] += r.load[d];
            target[d] += r.target[d];
        }
        for_groups(n, [&](Group& g) {
            g.holders++;
            for (int d = 0; d < 2; ++d) {
                g.load[d] += r.load[d];
                g.target[d] += r.target[d];
            }
            if (!movable_node(n)) return;
            g.normal_nodes++;
            for (int d = 0; d < 2; ++d) {
                if (r.in_slots > 0) g.in[d].insert({r.key[d], n});
                if (r.out_slots > 0) g.out[d].insert({r.key[d], n});
            }
        });
        if (movable_node(n)) rack_has_normal[r.rack] = 1;
    }
    for (size_t k = 0; k < racks.size(); ++k) {
        if (!rack_has_normal[k]) continue;
        groups[0].normal_racks++;
        groups[dc_group(racks[k].first)].normal_racks++;
        groups[rack_group(static_cast<int32_t>(k))].normal_racks++;
    }
    for (int d = 0; d < 2; ++d) {
        active[d] = target[d] > 0;
        mean[d] = active[d] && load[d] > 0 ? load[d] / target[d] : 1;
    }
    double total_size = 0;
    for (const TabletRec& t : tablets)
        total_size += t.size;
    move_cost = tablets.empty() || total_size <= 0 ? 1 : total_size / tablets.size();
}

std::vector<int> balanced_groups(const State& s) {
    std::vector<int> out;
    for (size_t dc = 0; dc < s.dc_names.size(); ++dc)
        out.push_back(s.dc_group(static_cast<int32_t>(dc)));
    if (s.any_simple) out.push_back(0);
    return out;
}

void record_move(State& s, Plan& plan, int32_t t, int32_t from, int32_t to, int32_t source,
                 Reason reason) {
    TabletRec& tr = s.tablets[t];
    Action a;
    a.kind = ActionKind::kMove;
    a.reason = reason;
    a.tablet = tr.in->id;
    if (from >= 0) a.from = s.nodes[from].host;
    a.to = s.nodes[to].host;
    a.rebuild = source != from;
    a.stream_from = s.nodes[source].host;
    plan.actions.push_back(std::move(a));
    if (from >= 0) s.remove_replica(t, from);
    s.add_replica(t, to);
    if (tr.hot && !s.hot_on.empty()) {
        if (from >= 0) s.hot_on[from]--;
        s.hot_on[to]++;
    }
    s.take_in_slot(to);
    s.take_out_slot(source);
    tr.touched = true;
    s.moves++;
}

void record_drop(State& s, Plan& plan, int32_t t, int32_t n, Reason reason) {
    TabletRec& tr = s.tablets[t];
    Action a;
    a.kind = ActionKind::kDrop;
    a.reason = reason;
    a.tablet = tr.in->id;
    a.from = s.nodes[n].host;
    plan.actions.push_back(std::move(a));
    s.remove_replica(t, n);
    tr.touched = true;
}

void add_problem(Plan& plan, const Config& config, Problem problem) {
    plan.problems_total++;
    if (plan.problems.size() < config.max_problems) plan.problems.push_back(std::move(problem));
}

Result<State> build_state(const Input& input, const Config& config) {
    TESSEL_RETURN_IF_ERROR(check_config(config));
    State s;
    s.config = &config;

    // Nodes, by host id.
    std::vector<int32_t> order(input.nodes.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = static_cast<int32_t>(i);
    std::sort(order.begin(), order.end(),
              [&](int32_t a, int32_t b) { return input.nodes[a].host < input.nodes[b].host; });
    std::map<std::string, int32_t> dcs;
    std::map<std::pair<std::string, std::string>, int32_t> racks;
    for (const Node& n : input.nodes) {
        if (n.host.empty()) return Status::invalid("balancer: a node has an empty host id");
        if (n.state != NodeState::kRemoved && (!std::isfinite(n.capacity) || n.capacity <= 0))
            return Status::invalid("balancer: node " + n.host + " has capacity " +
                                   std::to_string(n.capacity) + "; it must be positive");
        dcs.emplace(n.dc, 0);
        racks.emplace(std::make_pair(n.dc, n.rack), 0);
    }
    for (auto& [name, index] : dcs) {
        index = static_cast<int32_t>(s.dc_names.size());
        s.dc_names.push_back(name);
    }
    for (auto& [key, index] : racks) {
        index = static_cast<int32_t>(s.racks.size());
        s.racks.emplace_back(dcs[key.first], key.second);
    }
    HostIndex by_host(input.nodes.size() + 16);
    for (int32_t i : order) {
        const Node& n = input.nodes[i];
        NodeRec r;
        r.host = n.host;
        r.input_index = i;
        r.dc = dcs[n.dc];
        r.rack = racks[{n.dc, n.rack}];
        r.state = n.state;
        r.capacity = n.state == NodeState::kRemoved ? 0 : n.capacity;
        r.in_slots = config.max_migrations_in;
        r.out_slots = config.max_migrations_out;
        size_t slot = 0;
        if (by_host.find(s.nodes, n.host, &slot) >= 0)
            return Status::invalid("balancer: host id " + n.host + " is listed twice");
        s.nodes.push_back(std::move(r));
        by_host.insert(s.nodes, slot, static_cast<int32_t>(s.nodes.size() - 1));
    }
    auto node_of = [&](const std::string& host) -> int32_t {
        size_t slot = 0;
        const int32_t found = by_host.find(s.nodes, host, &slot);
        if (found >= 0) return found;
        NodeRec r;  // not in Input::nodes: treated as removed
        r.host = host;
        s.nodes.push_back(std::move(r));
        by_host.insert(s.nodes, slot, static_cast<int32_t>(s.nodes.size() - 1));
        return static_cast<int32_t>(s.nodes.size() - 1);
    };

    for (const Replication& rep : input.replications) {
        ReplicationRec r;
        r.simple = rep.strategy == Replication::Strategy::kSimple;
        r.simple_rf = rep.simple_rf;
        if (r.simple && rep.simple_rf < 0)
            return Status::invalid("balancer: a replication factor is negative");
        if (!r.simple) {
            for (const auto& [dc, rf] : rep.per_dc) {
                if (rf < 0)
                    return Status::invalid("balancer: replication factor of " + dc +
                                           " is negative");
                auto it = dcs.find(dc);
                int32_t index = it == dcs.end() ? -1 : it->second;
                for (const auto& [other, unused] : r.per_dc)
                    if (other == index && index >= 0)
                        return Status::invalid("balancer: data centre " + dc +
                                               " appears twice in a replication");
                r.per_dc.emplace_back(index, rf);
            }
        }
        s.any_simple = s.any_simple || r.simple;
        s.replications.push_back(std::move(r));
    }

    // Tablets, by id.
    std::vector<int32_t> torder(input.tablets.size());
    for (size_t i = 0; i < torder.size(); ++i)
        torder[i] = static_cast<int32_t>(i);
    auto by_id = [&](int32_t a, int32_t b) { return input.tablets[a].id < input.tablets[b].id; };
    if (!std::is_sorted(torder.begin(), torder.end(), by_id))
        std::sort(torder.begin(), torder.end(), by_id);
    s.tablets.resize(input.tablets.size());
    for (size_t k = 0; k < torder.size(); ++k) {
        const Tablet& t = input.tablets[torder[k]];
        if (k > 0 && t.id == s.tablets[k - 1].in->id)
            return Status::invalid("balancer: tablet " + tablet_name(t.id) + " is listed twice");
        if (t.replication >= s.replications.size())
            return Status::invalid("balancer: tablet " + tablet_name(t.id) + " names replication " +
                                   std::to_string(t.replication) + " of " +
                                   std::to_string(s.replications.size()));
        const TabletHeat& h = t.heat;
        if (!finite_non_negative(h.reads_per_sec) || !finite_non_negative(h.writes_per_sec) ||
            !finite_non_negative(h.bytes_per_sec))
            return Status::invalid("balancer: tablet " + tablet_name(t.id) +
                                   " has a negative or non-finite heat");
        TabletRec& r = s.tablets[k];
        r.in = &t;
        r.size = static_cast<double>(t.size_bytes);
        r.heat = heat_score(t.heat, config.heat_weights);
        r.repl = t.replication;
        r.simple = s.replications[t.replication].simple;
        for (const std::string& host : t.replicas) {
            if (host.empty())
                return Status::invalid("balancer: tablet " + tablet_name(t.id) +
                                       " has an empty replica host id");
            int32_t n = node_of(host);
            if (std::find(r.replicas.begin(), r.replicas.end(), n) != r.replicas.end())
                return Status::invalid("balancer: tablet " + tablet_name(t.id) + " lists replica " +
                                       host + " twice");
            r.replicas.push_back(n);
        }
        if (t.migration) {
            // The migration will complete: the tablet already counts on `to`
            // and off `from`, and both nodes' slots are taken.
            r.frozen = true;
            const Migration& m = *t.migration;
            if (!m.from.empty()) {
                int32_t n = node_of(m.from);
                auto it = std::find(r.replicas.begin(), r.replicas.end(), n);
                if (it != r.replicas.end()) r.replicas.erase(it);
                s.nodes[n].out_slots--;
            }
            if (!m.to.empty()) {
                int32_t n = node_of(m.to);
                if (std::find(r.replicas.begin(), r.replicas.end(), n) == r.replicas.end())
                    r.replicas.push_back(n);
                s.nodes[n].in_slots--;
            }
        }
    }
    for (int32_t t = 0; t < static_cast<int32_t>(s.tablets.size()); ++t) {
        for (int32_t n : s.tablets[t].replicas) {
            NodeRec& r = s.nodes[n];
            r.tablets.push_back(t);
            r.replicas++;
            r.load[kBytesDim] += s.tablets[t].size;
            r.load[kHeatDim] += s.tablets[t].heat;
        }
    }
    for (NodeRec& r : s.nodes) {
        r.before = r.load;
        r.replicas_before = r.replicas;
        r.in_slots = std::max(r.in_slots, 0);
        r.out_slots = std::max(r.out_slots, 0);
    }

    for (const PreviousMove& m : input.previous_moves) {
        auto it =
            std::lower_bound(s.tablets.begin(), s.tablets.end(), m.tablet,
                             [](const TabletRec& r, const TabletId& id) { return r.in->id < id; });
        if (it == s.tablets.end() || !(it->in->id == m.tablet) || m.from.empty()) continue;
        size_t slot = 0;
        const int32_t host = by_host.find(s.nodes, m.from, &slot);
        if (host < 0) continue;
        s.forbidden.insert(static_cast<uint64_t>(it - s.tablets.begin()) << 32 |
                           static_cast<uint32_t>(host));
    }
    return s;
}

}  // namespace tessel::cluster::balancer::detail
