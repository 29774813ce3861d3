// Goals 2 and 3: even bytes, then even heat, per node relative to capacity.
//
// Every balancing action lowers F = sum over nodes of (x_bytes - 1)^2 +
// (x_heat - 1)^2, where x is the node's load per target over the cluster's
// mean load per target (fixed for a round, and unchanged by moves). Since
// each action lowers F and a round's input is the previous round's output, a
// sequence of rounds over a stable input cannot cycle: it ends with an empty
// plan.
//
// The loop works on the node furthest outside the dead band. A node above
// it sends one replica to one of the least loaded nodes below the mean; a
// node below it takes one from the most loaded above the mean. Among the
// candidates the best improvement of F per byte moved (plus a fixed cost
// per move) wins. Swaps compete with single moves: a hot small tablet one
// way and a cold large one the other evens heat without unevening bytes (or
// the reverse), where a single move would trade one for the other.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "cluster/balancer_state.h"

namespace tessel::cluster::balancer::detail {
namespace {

constexpr double kEpsilon = 1e-12;
// Tablets weighed per node and attempt: the largest that fit the move.
constexpr int kScan = 48;
// Swaps: the hottest (or largest) few on one side, and a few on the other
// side near the value that evens the other dimension.
constexpr int kSwapScan = 12;
constexpr int kSwapNear = 4;

uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

double value(const TabletRec& t, int dim) {
    return dim == kBytesDim ? t.size : t.heat;
}

// One node's side of a move, normalized by the cluster mean.
struct Side {
    std::array<double, 2> target{};  // target * mean: x = load / target
    std::array<double, 2> x{};
};

Side side(const State& s, int32_t n) {
    Side out;
    for (int e = 0; e < 2; ++e) {
        out.target[e] = s.nodes[n].target[e] * s.mean[e];
        out.x[e] = out.target[e] > 0 ? s.nodes[n].load[e] / out.target[e] : 0;
    }
    return out;
}

// The best action found so far: one move (t2 < 0) or a swap.
struct Candidate {
    double score = 0;
    uint64_t tie = 0;
    int32_t t = -1, t2 = -1, from = -1, to = -1;
};

class Mover {
  public:
    Mover(State& s, Plan& plan)
        : s_(s),
          plan_(plan),
          band_(s.config->dead_band),
          lists_(s.nodes.size()),
          built_(s.nodes.size(), {0, 0}),
          rack_bound_(s.groups.size(), 0) {
        // A domain with no more racks than some replication factor used in
        // it is rack-bound: each rack holds a replica of most tablets, which
        // can then only move within their rack.
        for (const ReplicationRec& rep : s.replications) {
            if (rep.simple) {
                if (rep.simple_rf >= s.groups[0].normal_racks) rack_bound_[0] = 1;
                continue;
            }
            for (const auto& [dc, rf] : rep.per_dc) {
                if (dc < 0) continue;
                const int g = s.dc_group(dc);
                if (rf >= s.groups[g].normal_racks) rack_bound_[g] = 1;
            }
        }
    }

    // Works on domain g until every node that can still act is within the
    // band: each step takes the node furthest outside it, in either
    // dimension (bytes on a tie), so a node's migration slots go to its own
    // worst problem first.
    void balance(int g) {
        const Group& grp = s_.groups[g];
        for (int d = 0; d < 2; ++d) {
            exhausted_src_[d].assign(s_.nodes.size(), 0);
            exhausted_dst_[d].assign(s_.nodes.size(), 0);
        }
        while (s_.moves_left()) {
            double worst = band_;
            int dim = -1;
            int32_t node = -1;
            bool push = false;
            for (int d = 0; d < 2; ++d) {
                if (!s_.active[d] || grp.target[d] <= 0 || grp.load[d] <= 0) continue;
                const double mean = grp.load[d] / grp.target[d];
                for (auto it = grp.out[d].rbegin(); it != grp.out[d].rend(); ++it) {
                    if (exhausted_src_[d][it->second]) continue;
                    if (it->first / mean - 1 > worst) {
                        worst = it->first / mean - 1;
                        dim = d;
                        node = it->second;
                        push = true;
                    }
                    break;
                }
                for (const auto& [key, n] : grp.in[d]) {
                    if (exhausted_dst_[d][n]) continue;
                    if (1 - key / mean > worst) {
                        worst = 1 - key / mean;
                        dim = d;
                        node = n;
                        push = false;
                    }
                    break;
                }
            }
            if (dim < 0) return;
            slack_ = std::max(2 * band_, worst);
            if (!act(g, dim, node, push)) (push ? exhausted_src_ : exhausted_dst_)[dim][node] = 1;
        }
    }

  private:
    // Adds to others_ up to `candidates` nodes of group g: the most loaded
    // in `dim` above the group's mean (sources), or the least loaded below it
    // (destinations). Only across the mean: draining a node below it (or
    // filling one above it) would just move the gap. The mean is the
    // group's own, as a rack may be the only place a tablet can go.
    void take(int g, int dim, bool sources, int32_t skip) {
        const Group& grp = s_.groups[g];
        if (grp.target[dim] <= 0) return;
        const double mean = grp.load[dim] / grp.target[dim];
        int k = s_.config->candidates;
        auto add = [&](double key, int32_t n) {
            if ((key > mean) != sources) return false;
            if (n != skip && std::find(others_.begin(), others_.end(), n) == others_.end()) {
                others_.push_back(n);
                --k;
            }
            return k > 0;
        };
        if (sources) {
            for (auto it = grp.out[dim].rbegin(); it != grp.out[dim].rend(); ++it)
                if (!add(it->first, it->second)) break;
        } else {
            for (auto it = grp.in[dim].begin(); it != grp.in[dim].end(); ++it)
                if (!add(it->first, it->second)) break;
        }
    }

    // Whether t's replica on node n may move in domain g. A hot tablet only
    // moves away from another hot one on its node: the halves of a split
    // spread; one alone is split instead.
    bool movable(int32_t t, int32_t n, int g) const {
        const TabletRec& tr = s_.tablets[t];
        return !tr.frozen && !tr.touched && !tr.needs_fix && tr.simple == (g == 0) &&
               (!tr.hot || s_.hot_on[n] >= 2);
    }

    // Node n's tablets by ascending value in `dim`, built on first use. A
    // tablet that moves is touched, so entries that go stale are skipped
    // with the unmovable ones. An entry is the value as a float's bits (in
    // order for values >= 0) above the tablet index: one integer to sort.
    using Entry = uint64_t;
    static Entry entry(double v, uint32_t t = 0) {
        const float f = static_cast<float>(std::max(v, 0.0));
        uint32_t bits;
        std::memcpy(&bits, &f, sizeof bits);
        return static_cast<uint64_t>(bits) << 32 | t;
    }
    static int32_t tablet_of(Entry e) { return static_cast<int32_t>(e & 0xffffffffu); }

    const std::vector<Entry>& sorted(int32_t n, int dim) {
        auto& list = lists_[n][dim];
        if (built_[n][dim]) return list;
        built_[n][dim] = 1;
        for (int32_t t : s_.nodes[n].tablets) {
            const TabletRec& tr = s_.tablets[t];
            // Stale entries are of touched tablets (see NodeRec::tablets).
            if (!tr.frozen && !tr.touched && !tr.needs_fix)
                list.push_back(entry(value(tr, dim), static_cast<uint32_t>(t)));
        }
        std::sort(list.begin(), list.end());
        return list;
    }

    // Calls f(t) for up to `count` movable tablets of node n in domain g with
    // a value in `dim` below `limit` (to float precision), largest first.
    template <typename F>
    void scan(int32_t n, int dim, int g, double limit, int count, F f) {
        if (limit <= 0) return;
        const auto& list = sorted(n, dim);
        auto it = std::isinf(limit) ? list.end()
                                    : std::lower_bound(list.begin(), list.end(), entry(limit));
        while (it != list.begin() && count > 0) {
            --it;
            if ((*it >> 32) == 0) break;  // zero: cannot improve `dim`
            const int32_t t = tablet_of(*it);
            if (!movable(t, n, g)) continue;
            --count;
            f(t);
        }
    }

    // Calls f(t) for the movable tablets of node n nearest `target` in
    // `dim`: up to kSwapNear on each side.
    template <typename F>
    void near(int32_t n, int dim, int g, double target, F f) {
        const auto& list = sorted(n, dim);
        const auto mid = std::lower_bound(list.begin(), list.end(), entry(target));
        int count = kSwapNear;
        for (auto it = mid; it != list.end() && count > 0; ++it) {
            if (!movable(tablet_of(*it), n, g)) continue;
            --count;
            f(tablet_of(*it));
        }
        count = kSwapNear;
        for (auto it = mid; it != list.begin() && count > 0;) {
            --it;
            if (!movable(tablet_of(*it), n, g)) continue;
            --count;
            f(tablet_of(*it));
        }
    }

    // The largest value in `dim` a move from a to b can carry and still
    // improve `dim`: beyond it the move overshoots.
    double max_value(int dim, const Side& sa, const Side& sb) const {
        const double ta = sa.target[dim], tb = sb.target[dim];
        if (ta <= 0 || tb <= 0) return 0;
        return 2 * ((sa.x[dim] - 1) / ta - (sb.x[dim] - 1) / tb) / (1 / (ta * ta) + 1 / (tb * tb));
    }

    // Whether tablet t may move from a to b: b holds none of it, the racks it
    // spans do not shrink, and the previous round did not take it off b.
    bool placeable(int32_t t, int32_t a, int32_t b) const {
        const TabletRec& tr = s_.tablets[t];
        if (s_.holds(b, t)) return false;
        const int32_t ra = s_.nodes[a].rack, rb = s_.nodes[b].rack;
        if (ra != rb) {
            bool a_shared = false, b_used = false;
            for (int32_t n : tr.replicas) {
                if (n == a) continue;
                a_shared = a_shared || s_.nodes[n].rack == ra;
                b_used = b_used || s_.nodes[n].rack == rb;
            }
            if (!a_shared && b_used) return false;
        }
        return s_.forbidden.empty() ||
               !s_.forbidden.count(static_cast<uint64_t>(t) << 32 | static_cast<uint32_t>(b));
    }

    // The drop in F when node a sends net[e] of each dimension to node b,
    // or a negative value when the action is not allowed: `dim` must
    // improve, and the other dimension may get worse but not further off
    // than the problem being fixed (nor than twice the dead band: moves stop
    // at the band's edge, where the band itself would lock them); a node
    // already further off is left to F.
    double gain(int dim, const std::array<double, 2>& net, const Side& sa, const Side& sb) const {
        double delta = 0;
        for (int e = 0; e < 2; ++e) {
            if (!s_.active[e]) continue;
            if (sa.target[e] <= 0 || sb.target[e] <= 0) return -1;
            const double ua = net[e] / sa.target[e], ub = net[e] / sb.target[e];
            const double xa = sa.x[e], xb = sb.x[e];
            const double d = 2 * ua * (xa - 1) - ua * ua - 2 * ub * (xb - 1) - ub * ub;
            if (e == dim) {
                if (d <= kEpsilon) return -1;
            } else {
                const double na = xa - ua, nb = xb + ub;
                if (std::abs(xa - 1) <= slack_ && std::abs(na - 1) > slack_) return -1;
                if (std::abs(xb - 1) <= slack_ && std::abs(nb - 1) > slack_) return -1;
            }
            delta += d;
        }
        return delta > kEpsilon ? delta : -1;
    }

    void offer(Candidate* best, double delta, double bytes, int32_t t, int32_t t2, int32_t a,
               int32_t b) {
        if (delta <= 0) return;
        const int moves = t2 < 0 ? 1 : 2;
        const double score = delta / (bytes + moves * s_.move_cost);
        if (best->t >= 0 && score < best->score) return;
        const uint64_t tie = mix(s_.config->seed ^ mix(static_cast<uint64_t>(t) << 20 ^
                                                       static_cast<uint64_t>(t2 + 1) << 40 ^
                                                       static_cast<uint64_t>(a) << 8 ^ b));
        if (best->t >= 0 && score == best->score && tie <= best->tie) return;
        *best = {score, tie, t, t2, a, b};
    }

    void consider_move(int dim, int32_t t, int32_t a, const Side& sa, int32_t b, const Side& sb,
                       Candidate* best) {
        if (!placeable(t, a, b)) return;
        const TabletRec& tr = s_.tablets[t];
        offer(best, gain(dim, {tr.size, tr.heat}, sa, sb), tr.size, t, -1, a, b);
    }

    // Swaps with t1 going from a to b: t2 comes back from b, chosen near the
    // value of the other dimension that evens it between the two.
    void consider_swaps(int dim, int g, int32_t t1, int32_t a, const Side& sa, int32_t b,
                        const Side& sb, Candidate* best) {
        if (!placeable(t1, a, b)) return;
        const int other = 1 - dim;
        const TabletRec& r1 = s_.tablets[t1];
        // What a should send b in the other dimension to even them.
        const double even =
            ((sa.x[other] - 1) * sa.target[other] - (sb.x[other] - 1) * sb.target[other]) / 2;
        near(b, other, g, value(r1, other) - even, [&](int32_t t2) {
            if (t2 == t1 || !placeable(t2, b, a)) return;
            const TabletRec& r2 = s_.tablets[t2];
            const double delta = gain(dim, {r1.size - r2.size, r1.heat - r2.heat}, sa, sb);
            offer(best, delta, r1.size + r2.size, t1, t2, a, b);
        });
    }

    // The groups the other end of an action is drawn from, widest first:
    // the domain (and for the cluster domain, n's data centre), then n's
    // rack when the domain is rack-bound.
    void gather(int g, int dim, int32_t n, bool sources, int level) {
        others_.clear();
        if (level == 0) {
            take(g, dim, sources, n);
            if (g == 0) take(s_.dc_group(s_.nodes[n].dc), dim, sources, n);
        } else if (rack_bound_[g]) {
            take(s_.rack_group(s_.nodes[n].rack), dim, sources, n);
        }
    }

    // One action for `node`, above the band (push: it sends) or below it
    // (it receives), with the domain's candidates, else its rack's: the best
    // single move or swap. False when nothing helps.
    bool act(int g, int dim, int32_t node, bool push) {
        const Side sn = side(s_, node);
        const bool swaps = s_.active[1 - dim] && s_.moves + 2 <= s_.config->max_moves;
        for (int level = 0; level < 2; ++level) {
            gather(g, dim, node, !push, level);
            Candidate best;
            for (int32_t o : others_) {
                const int32_t a = push ? node : o, b = push ? o : node;
                const Side so = side(s_, o);
                const Side& sa = push ? sn : so;
                const Side& sb = push ? so : sn;
                scan(a, dim, g, max_value(dim, sa, sb), kScan,
                     [&](int32_t t) { consider_move(dim, t, a, sa, b, sb, &best); });
                // A swap sends and receives on both nodes.
                if (!swaps || s_.nodes[a].in_slots <= 0 || s_.nodes[b].out_slots <= 0) continue;
                scan(a, dim, g, std::numeric_limits<double>::infinity(), kSwapScan,
                     [&](int32_t t) { consider_swaps(dim, g, t, a, sa, b, sb, &best); });
            }
            if (apply(best, dim)) return true;
        }
        return false;
    }

    bool apply(const Candidate& c, int dim) {
        if (c.t < 0) return false;
        const Reason reason = dim == kBytesDim ? Reason::kBytes : Reason::kHeat;
        record_move(s_, plan_, c.t, c.from, c.to, c.from, reason);
        if (c.t2 >= 0) record_move(s_, plan_, c.t2, c.to, c.from, c.to, reason);
        return true;
    }

    State& s_;
    Plan& plan_;
    const double band_;
    double slack_ = 0;  // how far off an action may put the other dimension
    std::array<std::vector<char>, 2> exhausted_src_, exhausted_dst_;
    std::vector<int32_t> others_;
    std::vector<std::array<std::vector<Entry>, 2>> lists_;
    std::vector<std::array<char, 2>> built_;
    std::vector<char> rack_bound_;  // per group
};

}  // namespace

void plan_moves(State& s, Plan& plan) {
    Mover mover(s, plan);
    for (int g : balanced_groups(s))
        mover.balance(g);
}

}  // namespace tessel::cluster::balancer::detail
