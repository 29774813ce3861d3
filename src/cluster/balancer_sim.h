// Simulated clusters for the balancer's tests and benchmark: a generator of
// skewed clusters, and rounds of planning with every migration completing at
// once, with no process and no storage.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cluster/balancer.h"

namespace tessel::cluster::balancer {

struct SimSpec {
    int nodes = 100;  // spread round-robin over the data centres, then racks
    int dcs = 1;
    int racks_per_dc = 3;
    int tablets = 10000;
    int rf = 3;           // per data centre (NetworkTopologyStrategy)
    bool simple = false;  // SimpleStrategy with `rf` replicas instead
    // Tablet sizes are lognormal: median * exp(sigma * N(0, 1)).
    double median_bytes = 1 << 30;
    double size_sigma = 1.0;
    // Heat is Zipf-distributed over tablets in random order: the tablet of
    // rank k gets total_heat / (H * k^zipf_s), H normalizing the sum.
    double zipf_s = 1.0;
    double total_heat = 1e6;
    uint64_t seed = 1;
};

// host ids "n0000", "n0001", ...; every tablet in one table, indexes 0..n-1;
// replicas placed at random on distinct nodes and, where the data centre has
// enough racks, distinct racks.
Input make_cluster(const SimSpec& spec);

// Applies a plan as if every action completed at once: moves replace (or
// add) a replica, drops remove one, a split leaves the left half under the
// tablet's id and appends the right half under the table's next free index,
// each half with half the size and heat on the same replicas. The plan's
// moves become Input::previous_moves; nothing is left in progress.
void apply_plan(Input* input, const Plan& plan);

struct SimRound {
    double plan_ms = 0;  // wall time of plan_round
    PlanStats stats;
};

struct SimResult {
    Status status;                 // the first plan_round error, if any
    std::vector<SimRound> rounds;  // the last one is the empty plan when converged
    bool converged = false;
    // The first round after which bytes and heat were both within
    // `target` max/mean (-1: never), counted from 1.
    int rounds_to_target = -1;
    size_t moves = 0;
    size_t splits = 0;
    size_t drops = 0;
    Spread bytes;  // of the final placement
    Spread heat;
    uint64_t bytes_moved = 0;  // by the moves, in total
    double max_plan_ms = 0;
    double mean_plan_ms = 0;
    Input final;  // the placement after the last round
};

// Plans and applies rounds until a plan is empty or `max_rounds` were run.
SimResult simulate(Input input, const Config& config, int max_rounds, double target = 1.10);

}  // namespace tessel::cluster::balancer
