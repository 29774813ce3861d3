// The balancer's working state (internal to src/cluster/balancer*.cpp).
//
// plan_round() indexes its input once: nodes become dense indices (sorted by
// host id, so plans do not depend on input order; unknown replica hosts get
// records of their own, as removed nodes), tablets are sorted by id. Per node
// it keeps projected bytes and heat, targets, free migration slots and the
// tablets it holds; per group of nodes (the cluster, each data centre, each
// rack) ordered sets of the nodes that can still receive or send, keyed by
// load per target, so the least and most loaded are found in O(log n) and
// kept current as actions are planned.
#pragma once

#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "cluster/balancer.h"

namespace tessel::cluster::balancer::detail {

constexpr int kBytesDim = 0;
constexpr int kHeatDim = 1;

struct NodeRec {
    std::string host;
    int32_t input_index = -1;  // -1: a replica host missing from Input::nodes
    int32_t dc = -1;           // index into State::dc_names; -1 when unknown
    int32_t rack = -1;         // index into State::racks; -1 when unknown
    NodeState state = NodeState::kRemoved;
    bool pinned = false;  // leaving, but its decommission was refused: left as is
    double capacity = 0;
    std::array<double, 2> load{};  // projected by the actions planned so far
    std::array<double, 2> before{};
    std::array<double, 2> target{};  // fair share, from the intended replica counts
    std::array<double, 2> key{};     // load / target, the key in the group sets
    uint32_t replicas = 0;
    uint32_t replicas_before = 0;
    int in_slots = 0;
    int out_slots = 0;
    // Tablets with a replica here; entries go stale when a replica leaves
    // (check TabletRec::replicas).
    std::vector<int32_t> tablets;
};

struct TabletRec {
    const Tablet* in = nullptr;
    uint32_t repl = 0;  // Tablet::replication
    double size = 0;
    double heat = 0;
    std::vector<int32_t> replicas;  // node indices
    bool simple = false;            // SimpleStrategy: balanced across the cluster
    bool frozen = false;            // a migration is in progress
    bool touched = false;           // has an action in this plan
    bool hot = false;               // to be split; moves only to part from another hot one
    bool needs_fix = false;         // placement is wrong: balancing leaves it alone
};

// Per replication: each data centre's replication factor by dc index.
struct ReplicationRec {
    bool simple = true;
    int simple_rf = 0;
    std::vector<std::pair<int32_t, int>> per_dc;  // dc index (-1: no such dc), rf
};

struct Group {
    // Nodes that may receive (in) or send (out), by key for each dimension.
    std::array<std::set<std::pair<double, int32_t>>, 2> in, out;
    std::array<double, 2> load{};    // sum over holders
    std::array<double, 2> target{};  // sum over holders
    int normal_nodes = 0;            // normal, not pinned: may take a replica
    int holders = 0;                 // normal, down or pinned
    int normal_racks = 0;            // racks with a normal node
};

struct State {
    const Config* config = nullptr;
    std::vector<NodeRec> nodes;
    std::vector<TabletRec> tablets;
    std::vector<ReplicationRec> replications;
    std::vector<std::string> dc_names;
    std::vector<std::pair<int32_t, std::string>> racks;  // (dc, rack name)
    std::vector<Group> groups;                           // 0: the cluster, 1 + dc, 1 + dcs + rack
    std::array<double, 2> mean{1, 1};  // cluster load per target, fixed for the round
    std::array<bool, 2> active{};      // false when nothing has bytes (heat)
    double move_cost = 1;              // bytes a move costs beyond its tablet's
    bool any_simple = false;
    size_t moves = 0;
    // Per node: replicas of hot tablets it holds. A hot tablet sharing its
    // node with another (the halves of an earlier split) may move away.
    std::vector<int> hot_on;
    // (tablet << 32 | node): the previous round moved the tablet off the node.
    std::unordered_set<uint64_t> forbidden;

    int dc_group(int32_t dc) const { return 1 + dc; }
    int rack_group(int32_t rack) const { return 1 + static_cast<int>(dc_names.size()) + rack; }

    // May hold data / may act now.
    bool holder(int32_t n) const;
    bool movable_node(int32_t n) const;  // normal and not pinned

    bool holds(int32_t n, int32_t t) const;
    // The replication factor of tablet t in the domain of node n (its data
    // centre, or the cluster for SimpleStrategy); 0 when n's dc wants none.
    int rf_at(int32_t t, int32_t n) const;
    // The group a replica of t on n is balanced in.
    int domain_group(int32_t t, int32_t n) const;
    bool moves_left() const { return moves < config->max_moves; }

    // Actions, applied to the projected state.
    void add_replica(int32_t t, int32_t n);
    void remove_replica(int32_t t, int32_t n);
    void take_in_slot(int32_t n);
    void take_out_slot(int32_t n);

    // Sets every node's fair share from the intended replica counts, then
    // fills the group sets and sums. Called once, after the decommission
    // check has pinned the nodes it refuses.
    void set_targets();

  private:
    void set_load(int32_t n, int dim, double value);
    template <typename F>
    void for_groups(int32_t n, F f) {
        if (nodes[n].dc < 0) return;
        f(groups[0]);
        f(groups[dc_group(nodes[n].dc)]);
        f(groups[rack_group(nodes[n].rack)]);
    }
};

// Indexes the input (nodes, tablets, loads, slots) or says why it is
// invalid. The caller then runs check_decommissions() and set_targets().
Result<State> build_state(const Input& input, const Config& config);

// The domains balanced: each data centre's NetworkTopologyStrategy
// replicas, then the cluster's SimpleStrategy replicas (group indexes).
std::vector<int> balanced_groups(const State& s);

// Pins every leaving node whose replicas the remaining nodes cannot hold.
void check_decommissions(State& s, Plan& plan);

// A tablet to split, most urgent first.
struct HotTablet {
    double over = 0;  // its heat (size) over the split threshold
    int32_t t = -1;
    Reason reason = Reason::kSplitHot;
};

// The phases of plan_round, in order; each appends its actions to the plan.
void plan_placement(State& s, Plan& plan);
// Marks the hot tablets (TabletRec::hot, State::hot_on) and lists them.
std::vector<HotTablet> find_hot(State& s);
void plan_moves(State& s, Plan& plan);
// Splits the hot tablets no move touched (up to Config::max_splits),
// inserting the actions at `at` (before the balancing moves).
void plan_splits(State& s, Plan& plan, const std::vector<HotTablet>& hot, size_t at);

// Records an action in the plan and applies it to the projected state; the
// tablet is touched (no other action this round). A move with `from` -1 adds
// a replica; `source` is the up replica that streams (its out slot is taken).
void record_move(State& s, Plan& plan, int32_t t, int32_t from, int32_t to, int32_t source,
                 Reason reason);
void record_drop(State& s, Plan& plan, int32_t t, int32_t n, Reason reason);

void add_problem(Plan& plan, const Config& config, Problem problem);
std::string tablet_name(const TabletId& id);

}  // namespace tessel::cluster::balancer::detail
