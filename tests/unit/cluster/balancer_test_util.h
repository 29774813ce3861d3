// Helpers shared by the balancer tests: building inputs by hand, and running
// rounds with every plan checked against the planner's invariants.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "cluster/balancer.h"
#include "cluster/balancer_sim.h"

namespace tessel::cluster::balancer::testing {

inline constexpr uint64_t kGiB = 1ull << 30;

inline Node node(std::string host, std::string dc = "dc1", std::string rack = "r1",
                 NodeState state = NodeState::kNormal, double capacity = 1.0) {
    return Node{std::move(host), std::move(dc), std::move(rack), state, capacity};
}

inline Tablet tablet(uint64_t index, std::vector<std::string> replicas, uint64_t size = kGiB,
                     double reads_per_sec = 0, uint32_t replication = 0) {
    Tablet t;
    t.id.index = index;
    t.replication = replication;
    t.size_bytes = size;
    t.heat.reads_per_sec = reads_per_sec;
    t.replicas = std::move(replicas);
    return t;
}

inline Plan plan_of(const Input& in, const Config& config = {}) {
    auto r = plan_round(in, config);
    EXPECT_TRUE(r.is_ok()) << r.status().to_string();
    return r.is_ok() ? std::move(r).value() : Plan{};
}

inline std::vector<std::string> lines(const Plan& plan) {
    std::vector<std::string> out;
    for (const Action& a : plan.actions)
        out.push_back(describe(a));
    return out;
}

inline size_t replicas_on(const Input& in, const std::string& host) {
    size_t n = 0;
    for (const Tablet& t : in.tablets)
        for (const std::string& r : t.replicas)
            n += r == host;
    return n;
}

inline const NodeLoad& load_of(const Plan& plan, const std::string& host) {
    for (const NodeLoad& l : plan.nodes)
        if (l.host == host) return l;
    ADD_FAILURE() << "no load for " << host;
    static NodeLoad none;
    return none;
}

// The invariants of every plan: at most one action per tablet, none on a
// tablet with a migration in progress, moves onto nodes that do not hold
// the tablet, and per-node migrations (in progress ones included) within the
// limits.
inline void check_plan(const Input& in, const Plan& plan, const Config& config) {
    std::map<uint64_t, const Tablet*> by_index;
    for (const Tablet& t : in.tablets)
        by_index[t.id.index] = &t;
    std::map<std::string, int> in_count, out_count;
    for (const Tablet& t : in.tablets) {
        if (!t.migration) continue;
        if (!t.migration->to.empty()) in_count[t.migration->to]++;
        if (!t.migration->from.empty()) out_count[t.migration->from]++;
    }
    std::set<uint64_t> seen;
    for (const Action& a : plan.actions) {
        EXPECT_TRUE(seen.insert(a.tablet.index).second) << "two actions on " << describe(a);
        const Tablet* t = by_index.at(a.tablet.index);
        EXPECT_FALSE(t->migration.has_value()) << "touched a migrating tablet: " << describe(a);
        if (a.kind != ActionKind::kMove) continue;
        for (const std::string& r : t->replicas)
            EXPECT_NE(r, a.to) << describe(a);
        in_count[a.to]++;
        out_count[a.stream_from]++;
    }
    for (const auto& [host, n] : in_count)
        EXPECT_LE(n, config.max_migrations_in) << host << " receives too many";
    for (const auto& [host, n] : out_count)
        EXPECT_LE(n, config.max_migrations_out) << host << " sends too many";
}

struct Rounds {
    Input input;     // after the last applied plan
    Plan last;       // the last plan (empty when converged)
    int rounds = 0;  // plans applied
    size_t moves = 0;
    bool converged = false;
};

// Plans, checks and applies rounds until a plan is empty or max_rounds.
inline Rounds run_rounds(Input in, const Config& config, int max_rounds) {
    Rounds out;
    for (; out.rounds < max_rounds; ++out.rounds) {
        out.last = plan_of(in, config);
        check_plan(in, out.last, config);
        if (out.last.actions.empty()) {
            out.converged = true;
            break;
        }
        out.moves += out.last.stats.moves;
        apply_plan(&in, out.last);
    }
    if (!out.converged) out.last = plan_of(in, config);
    out.input = std::move(in);
    return out;
}

}  // namespace tessel::cluster::balancer::testing
