// Goal 1: every tablet has its replication factor in replicas on distinct up
// nodes, spread over racks, none on a leaving or removed node.
#include <algorithm>
#include <tuple>

#include "cluster/balancer_state.h"

namespace tessel::cluster::balancer::detail {
namespace {

bool lost(const State& s, int32_t n) {
    return s.nodes[n].dc < 0 || s.nodes[n].state == NodeState::kRemoved;
}

bool leaving(const State& s, int32_t n) {
    return s.nodes[n].state == NodeState::kLeaving && !s.nodes[n].pinned;
}

// Up and holding the tablet's data: may stream it.
bool up(const State& s, int32_t n) {
    const NodeRec& r = s.nodes[n];
    return r.dc >= 0 && (r.state == NodeState::kNormal || r.state == NodeState::kLeaving);
}

// A replica that counts towards the tablet's replication factor.
bool good(const State& s, int32_t t, int32_t n) {
    return s.holder(n) && s.rf_at(t, n) > 0;
}

bool in_domain(const State& s, int32_t t, int32_t n, int g) {
    return s.nodes[n].dc >= 0 && s.domain_group(t, n) == g;
}

// One place a tablet must have replicas: a data centre, or the cluster.
struct Domain {
    int group = 0;
    int rf = 0;
};

std::vector<Domain> domains_of(const State& s, int32_t t) {
    const ReplicationRec& rep = s.replications[s.tablets[t].repl];
    std::vector<Domain> out;
    if (rep.simple) {
        if (rep.simple_rf > 0) out.push_back({0, rep.simple_rf});
        return out;
    }
    for (const auto& [dc, rf] : rep.per_dc)
        if (dc >= 0 && rf > 0) out.push_back({s.dc_group(dc), rf});
    return out;
}

std::vector<int32_t> good_in(const State& s, int32_t t, int g) {
    std::vector<int32_t> out;
    for (int32_t n : s.tablets[t].replicas)
        if (good(s, t, n) && in_domain(s, t, n, g)) out.push_back(n);
    return out;
}

bool has_rack(const State& s, const std::vector<int32_t>& replicas, int32_t rack) {
    for (int32_t n : replicas)
        if (s.nodes[n].rack == rack) return true;
    return false;
}

// Whether group g has a rack with a normal node that none of `kept` uses.
bool free_rack_exists(const State& s, int g, const std::vector<int32_t>& kept) {
    int used_normal = 0;
    for (size_t i = 0; i < kept.size(); ++i) {
        const int32_t rack = s.nodes[kept[i]].rack;
        bool first = true;
        for (size_t j = 0; j < i; ++j)
            first = first && s.nodes[kept[j]].rack != rack;
        if (first) used_normal += s.groups[s.rack_group(rack)].normal_racks;
    }
    return used_normal < s.groups[g].normal_racks;
}

// The least loaded node of group g with a free in slot that may take a
// replica of t; on a rack none of `kept` uses while group g has one (-1
// while all such nodes are busy: waiting beats a placement to undo later).
int32_t pick_destination(const State& s, int32_t t, int g, const std::vector<int32_t>& kept) {
    const bool spread = free_rack_exists(s, g, kept);
    for (const auto& [key, n] : s.groups[g].in[kBytesDim])
        if (!s.holds(n, t) && (!spread || !has_rack(s, kept, s.nodes[n].rack))) return n;
    return -1;
}

// The up replica of t that streams a new one to `to`. A replica that is up
// streams its own replacement (-1 while its out slots are busy): it may hold
// writes the others missed. A lost one is rebuilt from one of the others
// with a free out slot, nearest first (same data centre).
int32_t pick_source(const State& s, int32_t t, int32_t from, int32_t to) {
    if (from >= 0 && up(s, from)) return s.nodes[from].out_slots > 0 ? from : -1;
    int32_t best = -1;
    auto rank = [&](int32_t n) {
        return std::make_tuple(s.nodes[n].dc == s.nodes[to].dc, s.nodes[n].out_slots, -n);
    };
    for (int32_t n : s.tablets[t].replicas) {
        if (!up(s, n) || s.nodes[n].out_slots <= 0) continue;
        if (best < 0 || rank(n) > rank(best)) best = n;
    }
    return best;
}

enum FixClass { kRebuild = 0, kReplaceLeaving = 1, kDrop = 2, kRack = 3, kNone = 4 };

// What tablet t needs first, and how urgently (lower first).
struct Diagnosis {
    FixClass cls = kNone;
    double urgency = 0;
    Domain domain;
    int32_t from = -1;  // the replica replaced or dropped
};

// The common case, without allocating: every replica counts, each domain
// has exactly its replication factor, and no two replicas share a rack (or
// no unused rack with a normal node is left in the domain).
bool healthy(const State& s, int32_t t) {
    const TabletRec& tr = s.tablets[t];
    const ReplicationRec& rep = s.replications[tr.repl];
    const auto& replicas = tr.replicas;
    for (int32_t n : replicas)
        if (!s.holder(n)) return false;
    if (rep.simple) {
        if (static_cast<int>(replicas.size()) != rep.simple_rf) return false;
    } else {
        size_t wanted = 0;
        for (const auto& [dc, rf] : rep.per_dc) {
            if (dc < 0 || rf <= 0) continue;
            wanted += rf;
            int have = 0;
            for (int32_t n : replicas)
                have += s.nodes[n].dc == dc;
            if (have != rf) return false;
        }
        if (replicas.size() != wanted) return false;  // some in a dc that wants none
    }
    for (size_t i = 0; i < replicas.size(); ++i) {
        for (size_t j = i + 1; j < replicas.size(); ++j) {
            if (s.nodes[replicas[i]].rack != s.nodes[replicas[j]].rack) continue;
            // Two on one rack: fine only when the domain has no other rack
            // with a normal node to offer.
            const int g = s.domain_group(t, replicas[i]);
            if (free_rack_exists(s, g, good_in(s, t, g))) return false;
        }
    }
    return true;
}

Diagnosis diagnose(const State& s, int32_t t) {
    Diagnosis d;
    if (healthy(s, t)) return d;
    const auto& replicas = s.tablets[t].replicas;
    const std::vector<Domain> domains = domains_of(s, t);
    // Missing replicas: the domain with the largest share missing first.
    double worst = 2;
    for (const Domain& dom : domains) {
        const auto kept = good_in(s, t, dom.group);
        const int have = static_cast<int>(kept.size());
        if (have >= dom.rf) continue;
        const double share = static_cast<double>(have) / dom.rf;
        if (share >= worst) continue;
        worst = share;
        d.domain = dom;
        d.from = -1;
        d.cls = kRebuild;
        for (int32_t n : replicas)
            if (lost(s, n) && (s.nodes[n].dc < 0 || in_domain(s, t, n, dom.group))) d.from = n;
        if (d.from < 0) {
            for (int32_t n : replicas) {
                if (leaving(s, n) && in_domain(s, t, n, dom.group)) {
                    d.from = n;
                    d.cls = kReplaceLeaving;
                }
            }
        }
        if (d.from < 0) {
            // A replica another domain has too many of moves over.
            for (int32_t n : replicas) {
                if (!s.movable_node(n)) continue;
                const int rf = s.rf_at(t, n);
                if (rf == 0 || static_cast<int>(good_in(s, t, s.domain_group(t, n)).size()) > rf)
                    d.from = n;
            }
        }
    }
    if (d.cls != kNone) {
        d.urgency = worst;
        return d;
    }
    // Replicas to drop: removed, leaving, in a data centre that wants none,
    // or more than the replication factor. A replica where none is wanted
    // is the last copy when the replication cannot be met (a data centre
    // without nodes, a typo, RF 0 everywhere): it stays.
    bool all_placeable = !domains.empty();
    for (const auto& [dc, rf] : s.replications[s.tablets[t].repl].per_dc)
        all_placeable = all_placeable && (dc >= 0 || rf <= 0);
    for (int32_t n : replicas) {
        if (lost(s, n) || leaving(s, n) || (all_placeable && s.holder(n) && s.rf_at(t, n) == 0)) {
            d.cls = kDrop;
            d.from = n;
            return d;
        }
    }
    for (const Domain& dom : domains) {
        const auto kept = good_in(s, t, dom.group);
        if (static_cast<int>(kept.size()) <= dom.rf) continue;
        // Drop the replica that costs least: on a rack shared with another
        // replica, then on a down node, then the most loaded.
        auto cost = [&](int32_t n) {
            int same_rack = 0;
            for (int32_t m : kept)
                same_rack += s.nodes[m].rack == s.nodes[n].rack;
            return std::make_tuple(same_rack > 1, s.nodes[n].state == NodeState::kDown,
                                   s.nodes[n].key[kBytesDim], -n);
        };
        d.cls = kDrop;
        d.from = *std::max_element(kept.begin(), kept.end(),
                                   [&](int32_t a, int32_t b) { return cost(a) < cost(b); });
        return d;
    }
    // Two replicas on one rack while a rack with a normal node is unused.
    for (const Domain& dom : domains) {
        const auto kept = good_in(s, t, dom.group);
        std::vector<int32_t> racks;
        for (int32_t n : kept)
            racks.push_back(s.nodes[n].rack);
        std::sort(racks.begin(), racks.end());
        racks.erase(std::unique(racks.begin(), racks.end()), racks.end());
        if (racks.size() >= kept.size()) continue;
        if (!free_rack_exists(s, dom.group, kept)) continue;
        d.cls = kRack;
        d.domain = dom;
        return d;
    }
    return d;
}

void fix(State& s, Plan& plan, int32_t t, const Diagnosis& d) {
    const Config& config = *s.config;
    TabletRec& tr = s.tablets[t];
    if (d.cls == kDrop) {
        Reason reason = leaving(s, d.from) ? Reason::kDecommission : Reason::kExcessReplica;
        record_drop(s, plan, t, d.from, reason);
        return;
    }
    if (!s.moves_left()) return;
    std::vector<int32_t> kept = good_in(s, t, d.domain.group);
    if (d.cls == kRack) {
        // Move the most loaded replica of a shared rack that can send.
        int32_t from = -1;
        for (int32_t n : kept) {
            int same = 0;
            for (int32_t m : kept)
                same += s.nodes[m].rack == s.nodes[n].rack;
            if (same < 2 || !s.movable_node(n) || s.nodes[n].out_slots <= 0) continue;
            if (from < 0 || s.nodes[n].key[kBytesDim] > s.nodes[from].key[kBytesDim]) from = n;
        }
        if (from < 0) return;
        std::vector<int32_t> others;
        for (int32_t n : kept)
            if (n != from) others.push_back(n);
        int32_t to = pick_destination(s, t, d.domain.group, others);
        if (to < 0) return;
        record_move(s, plan, t, from, to, from, Reason::kRackSpread);
        return;
    }
    const int32_t to = pick_destination(s, t, d.domain.group, kept);
    if (to < 0) {
        int free_nodes = s.groups[d.domain.group].normal_nodes;
        for (int32_t n : tr.replicas)
            if (s.movable_node(n) && in_domain(s, t, n, d.domain.group)) free_nodes--;
        if (free_nodes <= 0) {
            const std::string where = d.domain.group == 0
                                          ? std::string("the cluster")
                                          : "data centre " + s.dc_names[d.domain.group - 1];
            add_problem(plan, config,
                        {ProblemKind::kCannotPlace, "", tr.in->id,
                         "tablet " + tablet_name(tr.in->id) + " needs " +
                             std::to_string(d.domain.rf) + " replicas in " + where + " but has " +
                             std::to_string(kept.size()) + " and no other node can take one"});
        }
        return;  // otherwise every candidate is busy: a later round
    }
    const int32_t source = pick_source(s, t, d.from, to);
    if (source < 0 && d.from >= 0 && up(s, d.from)) return;  // its slots are busy
    if (source < 0) {
        bool any_up = false, any_good = false;
        for (int32_t n : tr.replicas) {
            any_up = any_up || up(s, n);
            any_good = any_good || s.holder(n);
        }
        if (any_up) return;  // busy: a later round
        add_problem(plan, config,
                    {any_good ? ProblemKind::kNoLiveReplica : ProblemKind::kLost, "", tr.in->id,
                     "tablet " + tablet_name(tr.in->id) +
                         (any_good ? " has no replica up to rebuild from; waiting for a down node"
                                   : " has no surviving replica: every replica is on a removed "
                                     "node")});
        return;
    }
    Reason reason = d.cls == kReplaceLeaving         ? Reason::kDecommission
                    : d.from >= 0 && lost(s, d.from) ? Reason::kReplaceRemoved
                                                     : Reason::kMissingReplica;
    record_move(s, plan, t, d.from, to, source, reason);
}

}  // namespace

void check_decommissions(State& s, Plan& plan) {
    std::vector<int> keepers(1 + s.dc_names.size(), 0);
    for (const NodeRec& r : s.nodes) {
        if (r.dc < 0 || (r.state != NodeState::kNormal && r.state != NodeState::kDown)) continue;
        keepers[0]++;
        keepers[s.dc_group(r.dc)]++;
    }
    for (int32_t n = 0; n < static_cast<int32_t>(s.nodes.size()); ++n) {
        NodeRec& r = s.nodes[n];
        if (r.state != NodeState::kLeaving || r.dc < 0) continue;
        for (int32_t t : r.tablets) {
            if (!s.holds(n, t)) continue;
            const int rf = s.rf_at(t, n);
            const int g = s.domain_group(t, n);
            if (rf <= 0 || keepers[g] >= rf) continue;
            r.pinned = true;
            const std::string where =
                g == 0 ? std::string("the cluster") : "data centre " + s.dc_names[r.dc];
            add_problem(
                plan, *s.config,
                {ProblemKind::kDecommissionRefused, r.host, std::nullopt,
                 "decommission of " + r.host + " refused: " + where + " would keep " +
                     std::to_string(keepers[g]) + " nodes for replication factor " +
                     std::to_string(rf) + " (tablet " + tablet_name(s.tablets[t].in->id) + ")"});
            break;
        }
    }
}

void plan_placement(State& s, Plan& plan) {
    // A data centre named by a replication but without nodes.
    for (size_t i = 0; i < s.replications.size(); ++i) {
        for (const auto& [dc, rf] : s.replications[i].per_dc) {
            if (dc >= 0 || rf <= 0) continue;
            add_problem(plan, *s.config,
                        {ProblemKind::kCannotPlace, "", std::nullopt,
                         "replication " + std::to_string(i) +
                             " names a data centre that has no nodes; its replicas there "
                             "cannot be placed"});
        }
    }
    std::vector<std::tuple<int, double, int32_t>> work;
    std::vector<Diagnosis> diagnoses(s.tablets.size());
    for (int32_t t = 0; t < static_cast<int32_t>(s.tablets.size()); ++t) {
        if (s.tablets[t].frozen) continue;
        diagnoses[t] = diagnose(s, t);
        if (diagnoses[t].cls == kNone) continue;
        s.tablets[t].needs_fix = true;
        work.emplace_back(diagnoses[t].cls, diagnoses[t].urgency, t);
    }
    std::sort(work.begin(), work.end());
    for (const auto& [cls, urgency, t] : work)
        fix(s, plan, t, diagnoses[t]);
}

}  // namespace tessel::cluster::balancer::detail
