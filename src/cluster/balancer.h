// The tablet balancer's planner: where every tablet's replicas should live.
//
// One elected node runs the balancer; this is its brain, a pure function of
// plain data (the nodes, the tablets with their replicas, sizes and heat, and
// the previous round's moves), so it can be tested and simulated at a
// thousand nodes without a process. plan_round() returns what may start now:
// moves, drops and splits in priority order, each with its reason. The
// caller starts the actions, and plans again as migrations complete
// (typically every few seconds, and whenever one finishes); a migration it
// reports as in progress is counted against the per-node limits and its
// tablet is left alone.
//
// Goals, in priority order:
//  1. Placement. Every tablet has its replication factor in replicas on
//     distinct nodes that are up (normal or joining), on distinct racks when
//     the data centre has enough racks (NetworkTopologyStrategy counts per
//     data centre; SimpleStrategy counts across the cluster, racks named by
//     data centre and rack). Replicas on removed nodes are rebuilt from the
//     surviving replicas, replicas on leaving nodes are streamed off them,
//     excess replicas are dropped. A node that is only down keeps its
//     replicas: the caller decides when a node is gone for good (kRemoved),
//     e.g. after the hint window has passed.
//  2. Even bytes per node, relative to its capacity weight.
//  3. Even heat per node (heat_score() of each replica's tablet), likewise.
//  4. Few moves: nothing moves while every node of a data centre is within the
//     dead band of the mean; among useful moves (and swaps of two tablets)
//     the one with the best improvement per byte moved wins; no move puts a
//     replica back on a node the previous round moved it off. Every
//     balancing move strictly lowers the sum over nodes of squared
//     deviations from the mean (bytes and heat), so repeated rounds over an
//     unchanged input converge to an empty plan.
// A tablet so hot (or so large) that it alone passes Config::hot_fraction of a
// node's fair share is split before it is moved: the caller splits it into
// two halves on the same replicas, and in the next rounds a half that shares
// its node with another hot tablet (its sibling) may move away while the
// one left is split again, so a very hot tablet spreads over twice as many
// nodes every round or two. A node still outside the band whose excess only
// a tablet larger than the excess could carry gets that tablet split too.
//
// Thread-safety: plan_round() touches nothing but its arguments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/status.h"
#include "schema/uuid.h"

namespace tessel::cluster::balancer {

enum class NodeState {
    kNormal,   // up (normal or joining): holds replicas and receives new ones
    kDown,     // down for now: keeps its replicas (they count towards the
               // replication factor), receives none, nothing moves on or off it
    kLeaving,  // decommissioning: up, streams every replica away, ends with none
    kRemoved,  // gone for good: its replicas are rebuilt from the surviving ones
};

struct Node {
    std::string host;  // host id, unique and non-empty
    std::string dc;
    std::string rack;
    NodeState state = NodeState::kNormal;
    // Relative weight (> 0): the node's share of bytes and heat is
    // capacity / the data centre's total capacity.
    double capacity = 1.0;
};

// A keyspace's replication, shared by its tablets (Tablet::replication).
struct Replication {
    enum class Strategy { kSimple, kNetworkTopology };
    Strategy strategy = Strategy::kSimple;
    int simple_rf = 0;                                // kSimple
    std::vector<std::pair<std::string, int>> per_dc;  // kNetworkTopology: dc, rf

    static Replication simple(int rf);
    static Replication network_topology(std::vector<std::pair<std::string, int>> per_dc);
};

// Names a tablet: its table and any number unique within the table and
// stable while the tablet exists (its index in the map, or its first token).
struct TabletId {
    Uuid table;
    uint64_t index = 0;
    friend bool operator==(const TabletId&, const TabletId&) = default;
    friend bool operator<(const TabletId& a, const TabletId& b) {
        return a.table.bytes != b.table.bytes ? a.table.bytes < b.table.bytes : a.index < b.index;
    }
};

// A tablet's load, smoothed by the caller (e.g. diagnostics::TabletLoad rates
// over a minute, or an exponential average of them).
struct TabletHeat {
    double reads_per_sec = 0;
    double writes_per_sec = 0;
    double bytes_per_sec = 0;  // bytes written per second
};

// How the three rates combine into one heat score. A read and a write cost a
// replica about the same on the request path (docs/performance.md measures
// 34-41k instructions for either), and every KiB written costs about one
// write more over its life (WAL, flush, compaction rewrites).
struct HeatWeights {
    double read = 1.0;
    double write = 1.0;
    double kib_written = 1.0;
};

// read * reads/s + write * writes/s + kib_written * bytes/s / 1024. Every
// replica of a tablet is charged its tablet's score: writes reach all of
// them, and each must be able to serve the reads when the others are down.
double heat_score(const TabletHeat& heat, const HeatWeights& weights);

// A migration the caller has under way (counted against both nodes' limits).
struct Migration {
    std::string from;  // the replica being replaced ("" when adding one)
    std::string to;    // the new replica
};

struct Tablet {
    TabletId id;
    uint32_t replication = 0;  // index into Input::replications
    uint64_t size_bytes = 0;
    TabletHeat heat;
    std::vector<std::string> replicas;  // host ids, distinct; unknown ones count as removed
    // In progress: the tablet is not touched, and counts as already on `to`
    // and off `from` (so the planner does not move more off `from` meanwhile).
    std::optional<Migration> migration;
    bool splittable = true;  // false for a single partition or token
};

// A move of the previous round (Action::tablet, from, to of its kMove).
struct PreviousMove {
    TabletId tablet;
    std::string from;
    std::string to;
};

struct Input {
    std::vector<Node> nodes;
    std::vector<Replication> replications;
    std::vector<Tablet> tablets;
    std::vector<PreviousMove> previous_moves;
};

struct Config {
    // Concurrent migrations per node, counting those in progress. A node
    // streaming a replica away uses an out slot, the one receiving it an in
    // slot; a rebuild charges its out slot to the surviving replica chosen to
    // stream (Action::stream_from).
    int max_migrations_in = 2;
    int max_migrations_out = 2;
    // Nothing moves for bytes (heat) in a data centre whose nodes all lie
    // within [1 - dead_band, 1 + dead_band] of its mean bytes (heat) per unit
    // of capacity.
    double dead_band = 0.05;
    // Moves (streaming actions) per round; drops and splits are not counted.
    size_t max_moves = std::numeric_limits<size_t>::max();
    size_t max_splits = 64;
    // A splittable tablet whose heat (size) exceeds this fraction of a node's
    // fair share of heat (bytes) in its data centre is split, not moved
    // (unless it moves away from its sibling, see above).
    double hot_fraction = 0.5;
    HeatWeights heat_weights;
    // Breaks ties between equally good moves; the plan is a function of the
    // input and the seed (and independent of the order of the tablets).
    uint64_t seed = 0;
    // Destinations weighed per source, per data centre and per rack (the
    // least loaded ones with a free in slot).
    int candidates = 8;
    size_t max_problems = 100;  // Plan::problems keeps the first ones
};

enum class ActionKind {
    kMove,   // stream a replica (or rebuild one) onto `to`, then drop `from`
    kDrop,   // forget the replica on `from`; nothing streams
    kSplit,  // split the tablet into two halves on the same replicas
};

enum class Reason {
    kReplaceRemoved,  // `from` is gone for good: rebuild from the surviving replicas
    kMissingReplica,  // fewer replicas than the replication factor in a domain
    kDecommission,    // `from` is leaving
    kRackSpread,      // two replicas share a rack while another rack is free
    kExcessReplica,   // more replicas than the replication factor (or a removed one)
    kBytes,           // evens bytes per node
    kHeat,            // evens heat per node
    kSplitHot,        // the tablet alone passes hot_fraction of a node's heat, or
                      // is hotter than what its node must shed
    kSplitLarge,      // the same for bytes
};

std::string_view reason_name(Reason reason);

struct Action {
    ActionKind kind = ActionKind::kMove;
    Reason reason = Reason::kBytes;
    TabletId tablet;
    // kMove: the replica replaced, dropped once `to` has the data: a removed
    // node, a leaving one, one of too many, or "" when a missing replica is
    // added. kDrop: the replica dropped.
    std::string from;
    std::string to;  // kMove only
    // kMove: the up replica that streams the data to `to` (its out slot is
    // charged): `from` itself when it is up (leaving, or normal), since it
    // may hold writes the others missed. rebuild: `from` is removed or "":
    // the new replica is built from the surviving replicas.
    std::string stream_from;
    bool rebuild = false;
};

// One line for logs: "move t:3 n1 -> n4 (bytes)".
std::string describe(const Action& action);

struct NodeLoad {
    std::string host;
    double capacity = 0;
    uint64_t bytes_before = 0;
    uint64_t bytes_after = 0;  // projected: every action of the plan applied
    double heat_before = 0;
    double heat_after = 0;
    uint32_t replicas_before = 0;
    uint32_t replicas_after = 0;
};

// Load per unit of capacity over the nodes that hold data (normal and
// down), relative to their data centre's mean: the worst data centre's
// highest and lowest node. 1 and 1 is perfectly even; 0 when there is no load.
struct Spread {
    double max_over_mean = 0;
    double min_over_mean = 0;
};

struct PlanStats {
    Spread bytes_before, bytes_after;
    Spread heat_before, heat_after;
    size_t moves = 0;     // kMove actions, rebuilds included
    size_t rebuilds = 0;  // of which rebuilds
    size_t drops = 0;
    size_t splits = 0;
};

enum class ProblemKind {
    kDecommissionRefused,  // the others cannot hold the leaving node's replicas
    kCannotPlace,          // no node can take a missing replica of the tablet
    kNoLiveReplica,        // nothing up to rebuild from: waits for a down node
    kLost,                 // every replica is on removed nodes
};

struct Problem {
    ProblemKind kind = ProblemKind::kCannotPlace;
    std::string host;                // kDecommissionRefused: the leaving node
    std::optional<TabletId> tablet;  // the others: the tablet
    std::string message;
};

struct Plan {
    // Placement fixes first (most endangered tablets first), then splits,
    // then balancing moves. At most one action per tablet.
    std::vector<Action> actions;
    std::vector<NodeLoad> nodes;  // one per Input::nodes, same order
    PlanStats stats;
    std::vector<Problem> problems;
    size_t problems_total = 0;  // problems.size() is capped at Config::max_problems
};

// The actions to start now. Invalid input (duplicate or empty host ids or
// tablet ids, a replication index out of range, a negative replication
// factor, a capacity that is not positive, a replica listed twice, a
// negative or non-finite heat) is an Invalid status; every other situation,
// including an impossible one, is a plan with problems.
Result<Plan> plan_round(const Input& input, const Config& config = {});

}  // namespace tessel::cluster::balancer
