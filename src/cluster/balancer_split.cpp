// Hot (or large) tablets are split before they are moved: a tablet that
// alone passes Config::hot_fraction of a node's fair share can only move the
// whole problem to another node; its halves can go to two.
#include <algorithm>
#include <tuple>

#include "cluster/balancer_state.h"

namespace tessel::cluster::balancer::detail {
namespace {

bool in_group(const State& s, int32_t n, int g) {
    const NodeRec& r = s.nodes[n];
    return r.dc >= 0 && (g == 0 || g == s.dc_group(r.dc) || g == s.rack_group(r.rack));
}

// Whether some holder of group g lies outside the dead band in `dim`.
bool out_of_band(const State& s, int g, int dim) {
    const Group& grp = s.groups[g];
    if (!s.active[dim] || grp.target[dim] <= 0 || grp.load[dim] <= 0) return false;
    const double mean = grp.load[dim] / grp.target[dim];
    const double band = s.config->dead_band;
    for (int32_t n = 0; n < static_cast<int32_t>(s.nodes.size()); ++n) {
        if (!s.holder(n) || !in_group(s, n, g) || s.nodes[n].target[dim] <= 0) continue;
        const double x = s.nodes[n].key[dim] / mean;
        if (x > 1 + band || x < 1 - band) return true;
    }
    return false;
}

}  // namespace

// Splits happen only where something moves this round (a domain outside the
// dead band) and where moving can help (more normal nodes than replicas).
void plan_splits(State& s, Plan& plan) {
    const Config& config = *s.config;
    const size_t ngroups = s.groups.size();
    // Per domain: does anything move there this round, and a node's fair
    // share of bytes and heat.
    std::vector<char> unbalanced(ngroups, 0);
    std::vector<std::array<double, 2>> fair(ngroups, {0, 0});
    for (int g : balanced_groups(s)) {
        const Group& grp = s.groups[g];
        unbalanced[g] = out_of_band(s, g, kBytesDim) || out_of_band(s, g, kHeatDim);
        for (int d = 0; d < 2; ++d)
            fair[g][d] = grp.holders > 0 ? grp.target[d] / grp.holders : 0;
    }
    std::vector<std::tuple<double, int32_t, Reason>> hot;
    for (int32_t t = 0; t < static_cast<int32_t>(s.tablets.size()); ++t) {
        TabletRec& tr = s.tablets[t];
        if (tr.frozen || tr.touched || tr.needs_fix || !tr.in->splittable) continue;
        const ReplicationRec& rep = s.replications[tr.repl];
        double worst = 0;
        Reason reason = Reason::kSplitHot;
        auto check = [&](int g, int rf) {
            if (rf <= 0 || !unbalanced[g] || s.groups[g].normal_nodes <= rf) return;
            for (int d = 0; d < 2; ++d) {
                const double v = d == kBytesDim ? tr.size : tr.heat;
                if (!s.active[d] || fair[g][d] <= 0) continue;
                const double over = v / (config.hot_fraction * fair[g][d]);
                if (over > 1 && over > worst) {
                    worst = over;
                    reason = d == kBytesDim ? Reason::kSplitLarge : Reason::kSplitHot;
                }
            }
        };
        if (rep.simple) {
            check(0, rep.simple_rf);
        } else {
            for (const auto& [dc, rf] : rep.per_dc)
                if (dc >= 0) check(s.dc_group(dc), rf);
        }
        if (worst <= 0) continue;
        tr.hot = true;
        hot.emplace_back(-worst, t, reason);
    }
    std::sort(hot.begin(), hot.end());
    for (size_t i = 0; i < hot.size() && i < config.max_splits; ++i) {
        const auto& [unused, t, reason] = hot[i];
        Action a;
        a.kind = ActionKind::kSplit;
        a.reason = reason;
        a.tablet = s.tablets[t].in->id;
        plan.actions.push_back(std::move(a));
        s.tablets[t].touched = true;
    }
}

}  // namespace tessel::cluster::balancer::detail
