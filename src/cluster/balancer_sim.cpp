#include "cluster/balancer_sim.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <unordered_map>

namespace tessel::cluster::balancer {
namespace {

std::string host_name(int i) {
    std::string digits = std::to_string(i);
    return "n" + std::string(digits.size() < 4 ? 4 - digits.size() : 0, '0') + digits;
}

struct IdHash {
    size_t operator()(const TabletId& id) const {
        uint64_t h = id.index * 0x9e3779b97f4a7c15ULL;
        for (uint8_t b : id.table.bytes)
            h = (h ^ b) * 0x100000001b3ULL;
        return static_cast<size_t>(h);
    }
};

}  // namespace

Input make_cluster(const SimSpec& spec) {
    Input in;
    std::mt19937_64 rng(spec.seed);
    const int dcs = std::max(1, spec.dcs);
    const int racks = std::max(1, spec.racks_per_dc);
    // members[dc][rack]: node indexes.
    std::vector<std::vector<std::vector<int>>> members(dcs, std::vector<std::vector<int>>(racks));
    for (int i = 0; i < spec.nodes; ++i) {
        Node n;
        n.host = host_name(i);
        const int dc = i % dcs, rack = (i / dcs) % racks;
        n.dc = "dc" + std::to_string(dc + 1);
        n.rack = "r" + std::to_string(rack + 1);
        members[dc][rack].push_back(i);
        in.nodes.push_back(std::move(n));
    }
    if (spec.simple) {
        in.replications.push_back(Replication::simple(spec.rf));
    } else {
        std::vector<std::pair<std::string, int>> per_dc;
        for (int dc = 0; dc < dcs; ++dc)
            per_dc.emplace_back("dc" + std::to_string(dc + 1), spec.rf);
        in.replications.push_back(Replication::network_topology(std::move(per_dc)));
    }

    std::lognormal_distribution<double> size(std::log(spec.median_bytes), spec.size_sigma);
    std::vector<int> rank(spec.tablets);
    for (int i = 0; i < spec.tablets; ++i)
        rank[i] = i + 1;
    std::shuffle(rank.begin(), rank.end(), rng);
    double harmonic = 0;
    for (int k = 1; k <= spec.tablets; ++k)
        harmonic += 1 / std::pow(k, spec.zipf_s);

    Uuid table;
    table.bytes[15] = 1;
    for (int i = 0; i < spec.tablets; ++i) {
        Tablet t;
        t.id = {table, static_cast<uint64_t>(i)};
        t.size_bytes = static_cast<uint64_t>(size(rng));
        const double h = spec.total_heat / (harmonic * std::pow(rank[i], spec.zipf_s));
        // Heat score h: 60% reads, 20% writes, 20% KiB written.
        t.heat.reads_per_sec = 0.6 * h;
        t.heat.writes_per_sec = 0.2 * h;
        t.heat.bytes_per_sec = 0.2 * h * 1024;
        // Placement: per data centre, distinct racks in random order (as
        // many as there are), a random node of each.
        const int domains = spec.simple ? 1 : dcs;
        for (int d = 0; d < domains; ++d) {
            std::vector<std::pair<int, int>> slots;  // (dc, rack) of each replica
            const std::vector<int> dc_list = spec.simple ? [&] {
                std::vector<int> v(dcs);
                for (int k = 0; k < dcs; ++k) v[k] = k;
                return v;
            }()
                                                         : std::vector<int>{d};
            std::vector<std::pair<int, int>> all_racks;
            for (int dc : dc_list)
                for (int r = 0; r < racks; ++r)
                    if (!members[dc][r].empty()) all_racks.emplace_back(dc, r);
            std::shuffle(all_racks.begin(), all_racks.end(), rng);
            std::vector<int> chosen;
            for (int k = 0; k < spec.rf && !all_racks.empty(); ++k) {
                const auto [dc, r] = all_racks[k % all_racks.size()];
                const auto& pool = members[dc][r];
                for (int attempt = 0; attempt < 64; ++attempt) {
                    int n = pool[std::uniform_int_distribution<size_t>(0, pool.size() - 1)(rng)];
                    if (std::find(chosen.begin(), chosen.end(), n) != chosen.end()) continue;
                    chosen.push_back(n);
                    break;
                }
            }
            for (int n : chosen)
                t.replicas.push_back(in.nodes[n].host);
        }
        in.tablets.push_back(std::move(t));
    }
    return in;
}

void apply_plan(Input* input, const Plan& plan) {
    std::unordered_map<TabletId, size_t, IdHash> index;
    std::map<std::array<uint8_t, 16>, uint64_t> next;
    index.reserve(input->tablets.size() * 2);
    for (size_t i = 0; i < input->tablets.size(); ++i) {
        const TabletId& id = input->tablets[i].id;
        index[id] = i;
        uint64_t& n = next[id.table.bytes];
        n = std::max(n, id.index + 1);
    }
    input->previous_moves.clear();
    for (const Action& a : plan.actions) {
        auto it = index.find(a.tablet);
        if (it == index.end()) continue;
        Tablet& t = input->tablets[it->second];
        auto& reps = t.replicas;
        auto from = std::find(reps.begin(), reps.end(), a.from);
        switch (a.kind) {
            case ActionKind::kMove:
                if (!a.from.empty() && from != reps.end()) {
                    *from = a.to;
                } else {
                    reps.push_back(a.to);
                }
                input->previous_moves.push_back({a.tablet, a.from, a.to});
                break;
            case ActionKind::kDrop:
                if (from != reps.end()) reps.erase(from);
                break;
            case ActionKind::kSplit: {
                t.size_bytes /= 2;
                t.heat.reads_per_sec /= 2;
                t.heat.writes_per_sec /= 2;
                t.heat.bytes_per_sec /= 2;
                Tablet right = t;
                right.id.index = next[t.id.table.bytes]++;
                input->tablets.push_back(std::move(right));
                break;
            }
        }
    }
    for (Tablet& t : input->tablets)
        t.migration.reset();
}

SimResult simulate(Input input, const Config& config, int max_rounds, double target) {
    SimResult out;
    double total_ms = 0;
    std::unordered_map<TabletId, uint64_t, IdHash> sizes;
    for (int round = 0; round < max_rounds; ++round) {
        const auto start = std::chrono::steady_clock::now();
        auto plan = plan_round(input, config);
        const double ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        if (!plan.is_ok()) {
            out.status = plan.status();
            break;
        }
        out.rounds.push_back({ms, plan->stats});
        total_ms += ms;
        out.max_plan_ms = std::max(out.max_plan_ms, ms);
        out.bytes = plan->stats.bytes_after;
        out.heat = plan->stats.heat_after;
        if (out.rounds_to_target < 0 && out.bytes.max_over_mean <= target &&
            out.heat.max_over_mean <= target)
            out.rounds_to_target = round + (plan->actions.empty() ? 0 : 1);
        if (plan->actions.empty()) {
            out.converged = true;
            break;
        }
        out.moves += plan->stats.moves;
        out.splits += plan->stats.splits;
        out.drops += plan->stats.drops;
        sizes.clear();
        for (const Tablet& t : input.tablets)
            sizes[t.id] = t.size_bytes;
        for (const Action& a : plan->actions)
            if (a.kind == ActionKind::kMove) out.bytes_moved += sizes[a.tablet];
        apply_plan(&input, *plan);
    }
    if (!out.rounds.empty()) out.mean_plan_ms = total_ms / out.rounds.size();
    out.final = std::move(input);
    return out;
}

}  // namespace tessel::cluster::balancer
