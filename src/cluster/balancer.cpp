#include "cluster/balancer.h"

#include <algorithm>

#include "cluster/balancer_state.h"

namespace tessel::cluster::balancer {

using detail::kBytesDim;
using detail::kHeatDim;

Replication Replication::simple(int rf) {
    Replication r;
    r.strategy = Strategy::kSimple;
    r.simple_rf = rf;
    return r;
}

Replication Replication::network_topology(std::vector<std::pair<std::string, int>> per_dc) {
    Replication r;
    r.strategy = Strategy::kNetworkTopology;
    r.per_dc = std::move(per_dc);
    return r;
}

double heat_score(const TabletHeat& heat, const HeatWeights& weights) {
    return weights.read * heat.reads_per_sec + weights.write * heat.writes_per_sec +
           weights.kib_written * heat.bytes_per_sec / 1024.0;
}

std::string_view reason_name(Reason reason) {
    switch (reason) {
        case Reason::kReplaceRemoved:
            return "replace a replica on a removed node";
        case Reason::kMissingReplica:
            return "add a missing replica";
        case Reason::kDecommission:
            return "decommission";
        case Reason::kRackSpread:
            return "spread over racks";
        case Reason::kExcessReplica:
            return "excess replica";
        case Reason::kBytes:
            return "bytes";
        case Reason::kHeat:
            return "heat";
        case Reason::kSplitHot:
            return "hot tablet";
        case Reason::kSplitLarge:
            return "large tablet";
    }
    return "?";
}

std::string describe(const Action& a) {
    const std::string tablet = detail::tablet_name(a.tablet);
    const std::string why = " (" + std::string(reason_name(a.reason)) + ")";
    switch (a.kind) {
        case ActionKind::kSplit:
            return "split " + tablet + why;
        case ActionKind::kDrop:
            return "drop " + tablet + " on " + a.from + why;
        case ActionKind::kMove:
            break;
    }
    std::string out = "move " + tablet + " " + (a.from.empty() ? "(new)" : a.from) + " -> " + a.to;
    if (a.rebuild) out += ", rebuild from the surviving replicas starting with " + a.stream_from;
    return out + why;
}

namespace {

// The worst data centre's highest and lowest node, load per target over the
// data centre's mean.
Spread spread(const detail::State& s, int dim, bool before) {
    const size_t ndc = s.dc_names.size();
    std::vector<double> load(ndc, 0), target(ndc, 0);
    for (int32_t n = 0; n < static_cast<int32_t>(s.nodes.size()); ++n) {
        if (!s.holder(n)) continue;
        const auto& r = s.nodes[n];
        load[r.dc] += before ? r.before[dim] : r.load[dim];
        target[r.dc] += r.target[dim];
    }
    Spread out;
    bool any = false;
    for (int32_t n = 0; n < static_cast<int32_t>(s.nodes.size()); ++n) {
        if (!s.holder(n)) continue;
        const auto& r = s.nodes[n];
        if (r.target[dim] <= 0 || load[r.dc] <= 0) continue;
        const double x =
            (before ? r.before[dim] : r.load[dim]) / r.target[dim] / (load[r.dc] / target[r.dc]);
        out.max_over_mean = any ? std::max(out.max_over_mean, x) : x;
        out.min_over_mean = any ? std::min(out.min_over_mean, x) : x;
        any = true;
    }
    return out;
}

}  // namespace

Result<Plan> plan_round(const Input& input, const Config& config) {
    TESSEL_ASSIGN_OR_RETURN(detail::State s, detail::build_state(input, config));
    Plan plan;
    detail::check_decommissions(s, plan);
    s.set_targets();
    detail::plan_placement(s, plan);
    const size_t balancing = plan.actions.size();
    const auto hot = detail::find_hot(s);
    detail::plan_moves(s, plan);
    detail::plan_splits(s, plan, hot, balancing);

    plan.nodes.resize(input.nodes.size());
    for (const auto& r : s.nodes) {
        if (r.input_index < 0) continue;
        NodeLoad& l = plan.nodes[r.input_index];
        l.host = r.host;
        l.capacity = r.capacity;
        l.bytes_before = static_cast<uint64_t>(r.before[kBytesDim] + 0.5);
        l.bytes_after = static_cast<uint64_t>(r.load[kBytesDim] + 0.5);
        l.heat_before = r.before[kHeatDim];
        l.heat_after = r.load[kHeatDim];
        l.replicas_before = r.replicas_before;
        l.replicas_after = r.replicas;
    }
    PlanStats& st = plan.stats;
    st.bytes_before = spread(s, kBytesDim, true);
    st.bytes_after = spread(s, kBytesDim, false);
    st.heat_before = spread(s, kHeatDim, true);
    st.heat_after = spread(s, kHeatDim, false);
    for (const Action& a : plan.actions) {
        switch (a.kind) {
            case ActionKind::kMove:
                st.moves++;
                st.rebuilds += a.rebuild;
                break;
            case ActionKind::kDrop:
                st.drops++;
                break;
            case ActionKind::kSplit:
                st.splits++;
                break;
        }
    }
    return plan;
}

}  // namespace tessel::cluster::balancer
