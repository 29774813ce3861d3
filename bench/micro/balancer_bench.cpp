// The tablet balancer's planning time at 1,000 nodes x 100,000 tablets (RF 3,
// lognormal sizes, Zipf heat), and the simulation of rounds until the plan is
// empty: rounds, moves and max/mean bytes and heat reached.
//
//   build/bin/micro_balancer                      all of it (about a minute)
//   build/bin/micro_balancer --benchmark_filter=Plan   planning time only
//
// Layouts: "1dc" is one data centre of 10 racks with RF 3; "3dc" is three
// data centres of 333-334 nodes and 3 racks each, RF 3 in each (900,000
// replicas). Zipf exponents 1.0 (the hottest tablet carries 28 nodes' fair
// share of heat at first) and 0.8.
#include <benchmark/benchmark.h>

#include <map>
#include <string>

#include "cluster/balancer.h"
#include "cluster/balancer_sim.h"

namespace {

using namespace tessel::cluster::balancer;

SimSpec spec_of(int layout, double zipf) {
    SimSpec spec;
    spec.nodes = 1000;
    spec.dcs = layout == 0 ? 1 : 3;
    spec.racks_per_dc = layout == 0 ? 10 : 3;
    spec.tablets = 100000;
    spec.zipf_s = zipf;
    spec.seed = 1;
    return spec;
}

const char* layout_name(int layout) {
    return layout == 0 ? "1dc/10racks" : "3dc/3racks";
}

// Inputs are built once per layout and reused across benchmarks.
const Input& cluster(int layout, double zipf) {
    static std::map<std::pair<int, double>, Input> cache;
    auto it = cache.find({layout, zipf});
    if (it == cache.end())
        it = cache.emplace(std::make_pair(layout, zipf), make_cluster(spec_of(layout, zipf))).first;
    return it->second;
}

const SimResult& simulation(int layout, double zipf) {
    static std::map<std::pair<int, double>, SimResult> cache;
    auto it = cache.find({layout, zipf});
    if (it == cache.end())
        it = cache.emplace(std::make_pair(layout, zipf), simulate(cluster(layout, zipf), {}, 300))
                 .first;
    return it->second;
}

double zipf_of(int64_t arg) {
    return static_cast<double>(arg) / 10.0;
}

// The first round over the random placement: the heaviest one.
void BM_PlanFirstRound(benchmark::State& state) {
    const int layout = static_cast<int>(state.range(0));
    const Input& in = cluster(layout, zipf_of(state.range(1)));
    PlanStats stats;
    for (auto _ : state) {
        auto plan = plan_round(in);
        if (!plan.is_ok()) {
            state.SkipWithError(plan.status().message().c_str());
            return;
        }
        stats = plan->stats;
        benchmark::DoNotOptimize(plan->actions.data());
    }
    state.SetLabel(layout_name(layout));
    state.counters["moves"] = static_cast<double>(stats.moves);
    state.counters["splits"] = static_cast<double>(stats.splits);
    state.counters["replicas"] =
        static_cast<double>(in.tablets.size() * in.tablets[0].replicas.size());
}
BENCHMARK(BM_PlanFirstRound)
    ->Args({0, 10})
    ->Args({1, 10})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(3.0);

// A round over a balanced cluster: checks everything, plans nothing.
void BM_PlanBalancedRound(benchmark::State& state) {
    const int layout = static_cast<int>(state.range(0));
    const Input& in = simulation(layout, zipf_of(state.range(1))).final;
    size_t actions = 0;
    for (auto _ : state) {
        auto plan = plan_round(in);
        actions = plan.is_ok() ? plan->actions.size() : 0;
    }
    state.SetLabel(layout_name(layout));
    state.counters["actions"] = static_cast<double>(actions);
    state.counters["tablets"] = static_cast<double>(in.tablets.size());
}
BENCHMARK(BM_PlanBalancedRound)
    ->Args({0, 10})
    ->Args({1, 10})
    ->Unit(benchmark::kMillisecond)
    ->MinTime(3.0);

// Rounds until the plan is empty, every migration completing at once.
void BM_SimulateUntilBalanced(benchmark::State& state) {
    const int layout = static_cast<int>(state.range(0));
    const double zipf = zipf_of(state.range(1));
    const SimResult* r = nullptr;
    for (auto _ : state)
        r = &simulation(layout, zipf);
    if (!r->status.is_ok()) {
        state.SkipWithError(r->status.message().c_str());
        return;
    }
    const PlanStats& first = r->rounds.front().stats;
    state.SetLabel(std::string(layout_name(layout)) + (r->converged ? "" : " NOT CONVERGED"));
    state.counters["rounds"] = static_cast<double>(r->rounds.size() - (r->converged ? 1 : 0));
    state.counters["rounds_to_1.10"] = r->rounds_to_target;
    state.counters["moves"] = static_cast<double>(r->moves);
    state.counters["splits"] = static_cast<double>(r->splits);
    state.counters["moved_GiB"] = static_cast<double>(r->bytes_moved) / (1ull << 30);
    state.counters["bytes_before"] = first.bytes_before.max_over_mean;
    state.counters["heat_before"] = first.heat_before.max_over_mean;
    state.counters["bytes_after"] = r->bytes.max_over_mean;
    state.counters["heat_after"] = r->heat.max_over_mean;
    state.counters["plan_ms_mean"] = r->mean_plan_ms;
    state.counters["plan_ms_max"] = r->max_plan_ms;
}
BENCHMARK(BM_SimulateUntilBalanced)
    ->Args({0, 10})
    ->Args({1, 10})
    ->Args({0, 8})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();
