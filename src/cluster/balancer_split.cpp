// Hot (or large) tablets are split before they are moved: a tablet that
// alone passes Config::hot_fraction of a node's fair share can only move the
// whole problem to another node; its halves can go to two.
#include <algorithm>
#include <iterator>

#include "cluster/balancer_state.h"

namespace tessel::cluster::balancer::detail {
namespace {

// Splits for a stuck node stop at parts of this share of a node.
constexpr double kMinSplitShare = 0.1;

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

// A tablet is hot where something moves this round (a domain outside the
// dead band) and moving can help (more normal nodes than replicas).
std::vector<HotTablet> find_hot(State& s) {
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
    std::vector<HotTablet> hot;
    s.hot_on.assign(s.nodes.size(), 0);
    for (int32_t t = 0; t < static_cast<int32_t>(s.tablets.size()); ++t) {
        TabletRec& tr = s.tablets[t];
        if (tr.frozen || tr.touched || tr.needs_fix || !tr.in->splittable) continue;
        const ReplicationRec& rep = s.replications[tr.repl];
        HotTablet h;
        h.t = t;
        auto check = [&](int g, int rf) {
            if (rf <= 0 || !unbalanced[g] || s.groups[g].normal_nodes <= rf) return;
            for (int d = 0; d < 2; ++d) {
                const double v = d == kBytesDim ? tr.size : tr.heat;
                if (!s.active[d] || fair[g][d] <= 0) continue;
                const double over = v / (config.hot_fraction * fair[g][d]);
                if (over > 1 && over > h.over) {
                    h.over = over;
                    h.reason = d == kBytesDim ? Reason::kSplitLarge : Reason::kSplitHot;
                }
            }
        };
        if (rep.simple) {
            check(0, rep.simple_rf);
        } else {
            for (const auto& [dc, rf] : rep.per_dc)
                if (dc >= 0) check(s.dc_group(dc), rf);
        }
        if (h.over <= 0) continue;
        tr.hot = true;
        for (int32_t n : tr.replicas)
            s.hot_on[n]++;
        hot.push_back(h);
    }
    std::sort(hot.begin(), hot.end(), [](const HotTablet& a, const HotTablet& b) {
        return a.over > b.over || (a.over == b.over && a.t < b.t);
    });
    return hot;
}

namespace {

// Nodes still above the band once the round's moves are planned, whose
// excess only a tablet larger than the excess could carry: splitting their
// largest such tablet lets a part of it move next round, where shedding the
// excess in tablets a hundred times smaller would take as many migrations.
std::vector<HotTablet> find_stuck(State& s) {
    std::vector<HotTablet> out;
    const double band = s.config->dead_band;
    for (int32_t n = 0; n < static_cast<int32_t>(s.nodes.size()); ++n) {
        if (!s.movable_node(n)) continue;
        const NodeRec& r = s.nodes[n];
        const Group& grp = s.groups[s.dc_group(r.dc)];
        for (int d = 0; d < 2; ++d) {
            if (!s.active[d] || grp.target[d] <= 0 || grp.load[d] <= 0) continue;
            const double mean = grp.load[d] / grp.target[d];
            const double excess = (r.key[d] / mean - 1) * r.target[d] * mean;  // in bytes or heat
            if (r.key[d] / mean - 1 <= band) continue;
            // A floor keeps the splitting finite: parts of a tenth of a
            // node's fair share are fine enough.
            const double floor = std::max(excess, kMinSplitShare * r.target[d] * mean);
            int32_t best = -1;
            for (int32_t t : r.tablets) {
                const TabletRec& tr = s.tablets[t];
                if (tr.frozen || tr.touched || tr.needs_fix || !tr.in->splittable) continue;
                const double v = d == kBytesDim ? tr.size : tr.heat;
                if (v <= floor || !s.holds(n, t)) continue;
                // Only where a part can go somewhere else.
                if (s.groups[s.domain_group(t, n)].normal_nodes <= s.rf_at(t, n)) continue;
                const double bv =
                    best < 0 ? 0 : (d == kBytesDim ? s.tablets[best].size : s.tablets[best].heat);
                if (v > bv) best = t;
            }
            if (best < 0) continue;
            const TabletRec& tr = s.tablets[best];
            out.push_back({(d == kBytesDim ? tr.size : tr.heat) / floor, best,
                           d == kBytesDim ? Reason::kSplitLarge : Reason::kSplitHot});
        }
    }
    std::sort(out.begin(), out.end(), [](const HotTablet& a, const HotTablet& b) {
        return a.over > b.over || (a.over == b.over && a.t < b.t);
    });
    return out;
}

}  // namespace

void plan_splits(State& s, Plan& plan, const std::vector<HotTablet>& hot, size_t at) {
    std::vector<Action> splits;
    auto split = [&](const HotTablet& h) {
        TabletRec& tr = s.tablets[h.t];
        if (tr.touched) return;  // hot: moved away from its other half instead
        Action a;
        a.kind = ActionKind::kSplit;
        a.reason = h.reason;
        a.tablet = tr.in->id;
        splits.push_back(std::move(a));
        tr.touched = true;
    };
    for (size_t i = 0; i < hot.size() && splits.size() < s.config->max_splits; ++i)
        split(hot[i]);
    const auto stuck = find_stuck(s);
    for (size_t i = 0; i < stuck.size() && splits.size() < s.config->max_splits; ++i)
        split(stuck[i]);
    plan.actions.insert(plan.actions.begin() + at, std::make_move_iterator(splits.begin()),
                        std::make_move_iterator(splits.end()));
}

}  // namespace tessel::cluster::balancer::detail
