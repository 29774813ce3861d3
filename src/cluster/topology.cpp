#include "cluster/topology.h"

#include <algorithm>
#include <limits>
#include <set>

#include "partition/token.h"
#include "schema/keyspace_options.h"

namespace tessel::cluster {
namespace {

using Wide = __int128;
constexpr Wide kRingSize = Wide{1} << 64;
constexpr int64_t kMinToken = std::numeric_limits<int64_t>::min();

// The size of the ring range (previous, token].
Wide range_size(int64_t previous, int64_t token) {
    Wide d = Wide{token} - Wide{previous};
    return d <= 0 ? d + kRingSize : d;
}

int64_t wrap(Wide t) {
    while (t > std::numeric_limits<int64_t>::max())
        t -= kRingSize;
    while (t < kMinToken)
        t += kRingSize;
    return static_cast<int64_t>(t);
}

}  // namespace

std::string_view node_state_name(NodeState s) {
    switch (s) {
        case NodeState::kJoining:
            return "JOINING";
        case NodeState::kNormal:
            return "NORMAL";
        case NodeState::kLeaving:
            return "LEAVING";
    }
    return "NORMAL";
}

Result<Replication> Replication::from_options(const std::map<std::string, std::string>& options) {
    Replication r;
    auto cls = options.find("class");
    if (cls == options.end()) return Status::config("Missing replication strategy class");
    const std::string& name = cls->second;
    if (name.find("LocalStrategy") != std::string::npos) {
        r.local = true;
        return r;
    }
    if (name.find("NetworkTopologyStrategy") != std::string::npos) {
        r.network_topology = true;
        for (const auto& [k, v] : options) {
            if (k == "class" || k == "replication_factor") continue;
            // Read as the catalog validated it ("+3", "03" and "3/0" are 3).
            TESSEL_ASSIGN_OR_RETURN(int rf, parse_replication_factor(v));
            r.per_dc[k] = rf;
        }
        return r;
    }
    auto rf = options.find("replication_factor");
    if (rf != options.end()) {
        TESSEL_ASSIGN_OR_RETURN(r.replication_factor, parse_replication_factor(rf->second));
    }
    return r;
}

int Replication::in_dc(const std::string& dc) const {
    if (!network_topology) return replication_factor;
    auto it = per_dc.find(dc);
    return it == per_dc.end() ? 0 : it->second;
}

int Replication::total() const {
    if (local) return 1;
    if (!network_topology) return replication_factor;
    int n = 0;
    for (const auto& [_, rf] : per_dc)
        n += rf;
    return n;
}

Ring::Ring(const std::vector<NodeInfo>& nodes) {
    for (const auto& n : nodes) {
        location_[n.host_id] = {n.dc, n.rack};
        if (n.state == NodeState::kJoining) continue;
        for (int64_t t : n.tokens)
            tokens_.emplace_back(t, n.host_id);
    }
    std::sort(tokens_.begin(), tokens_.end());
}

size_t Ring::range_of(int64_t token) const {
    auto it = std::lower_bound(tokens_.begin(), tokens_.end(), token,
                               [](const auto& e, int64_t t) { return e.first < t; });
    return it == tokens_.end() ? 0 : static_cast<size_t>(it - tokens_.begin());
}

std::vector<std::string> Ring::replicas(size_t index, const Replication& replication) const {
    std::vector<std::string> out;
    if (tokens_.empty()) return out;
    const size_t n = tokens_.size();
    auto contains = [&out](const std::string& h) {
        return std::find(out.begin(), out.end(), h) != out.end();
    };
    if (replication.local) {
        out.push_back(tokens_[index % n].second);
        return out;
    }
    if (!replication.network_topology) {
        for (size_t i = 0; i < n && static_cast<int>(out.size()) < replication.replication_factor;
             ++i) {
            const std::string& h = tokens_[(index + i) % n].second;
            if (!contains(h)) out.push_back(h);
        }
        return out;
    }
    // Per DC: racks in the DC, racks used so far, hosts skipped because their
    // rack was used (taken, in ring order, once every rack has a replica).
    std::map<std::string, std::set<std::string>> racks;
    for (const auto& [host, loc] : location_) {
        bool owns = false;
        for (const auto& [_, h] : tokens_)
            owns = owns || h == host;
        if (owns) racks[loc.first].insert(loc.second);
    }
    std::map<std::string, int> placed;
    std::map<std::string, std::set<std::string>> seen_racks;
    std::map<std::string, std::vector<std::string>> skipped;
    auto wanted = [&](const std::string& dc) { return replication.in_dc(dc); };
    for (size_t i = 0; i < n; ++i) {
        const std::string& h = tokens_[(index + i) % n].second;
        if (contains(h)) continue;
        const auto& [dc, rack] = location_.at(h);
        if (placed[dc] >= wanted(dc)) continue;
        if (std::find(skipped[dc].begin(), skipped[dc].end(), h) != skipped[dc].end()) continue;
        auto& seen = seen_racks[dc];
        if (seen.size() >= racks[dc].size()) {
            out.push_back(h);
            ++placed[dc];
        } else if (seen.count(rack)) {
            skipped[dc].push_back(h);
        } else {
            out.push_back(h);
            ++placed[dc];
            seen.insert(rack);
            if (seen.size() == racks[dc].size()) {
                for (const auto& s : skipped[dc]) {
                    if (placed[dc] >= wanted(dc)) break;
                    out.push_back(s);
                    ++placed[dc];
                }
                skipped[dc].clear();
            }
        }
    }
    return out;
}

std::vector<int64_t> Ring::allocate_tokens(const std::vector<NodeInfo>& existing, int count) {
    std::vector<int64_t> out;
    count = std::max(count, 1);
    std::vector<std::pair<int64_t, std::string>> ring;
    for (const auto& n : existing) {
        for (int64_t t : n.tokens)
            ring.emplace_back(t, n.host_id);
    }
    std::sort(ring.begin(), ring.end());
    if (ring.empty()) {
        // Evenly spaced, the first one in the middle of its share.
        for (int i = 0; i < count; ++i) {
            out.push_back(wrap(Wide{kMinToken} + kRingSize * (2 * i + 1) / (2 * count)));
        }
        return out;
    }
    std::map<std::string, size_t> nodes;
    for (const auto& [_, h] : ring)
        nodes.emplace(h, 0);
    const Wide share = kRingSize / static_cast<Wide>(nodes.size() + 1);
    const Wide slice = std::max<Wide>(share / count, 1);
    const std::string kNew = "\x01new";  // a placeholder owner; never a 16-byte host id
    for (int k = 0; k < count; ++k) {
        // Ownership per host of the current ring (range (prev, t] belongs to t's owner).
        std::map<std::string, Wide> owned;
        for (size_t i = 0; i < ring.size(); ++i) {
            const int64_t prev = ring[(i + ring.size() - 1) % ring.size()].first;
            owned[ring[i].second] += ring.size() == 1 ? kRingSize : range_size(prev, ring[i].first);
        }
        std::string richest;
        for (const auto& [h, w] : owned) {
            if (h == kNew) continue;
            if (richest.empty() || w > owned[richest]) richest = h;
        }
        // Its largest range: the new token carves `slice` off its start.
        size_t best = ring.size();
        Wide best_size = 0;
        for (size_t i = 0; i < ring.size(); ++i) {
            if (ring[i].second != richest) continue;
            const int64_t prev = ring[(i + ring.size() - 1) % ring.size()].first;
            const Wide size = ring.size() == 1 ? kRingSize : range_size(prev, ring[i].first);
            if (size > best_size) {
                best_size = size;
                best = i;
            }
        }
        if (best == ring.size() || best_size < 2) break;
        const int64_t prev = ring[(best + ring.size() - 1) % ring.size()].first;
        // Never the whole range: its owner keeps at least a quarter of it.
        const int64_t token = wrap(Wide{prev} + std::min(slice, best_size * 3 / 4));
        if (std::any_of(ring.begin(), ring.end(),
                        [&](const auto& e) { return e.first == token; })) {
            break;
        }
        out.push_back(token);
        ring.emplace_back(token, kNew);
        std::sort(ring.begin(), ring.end());
    }
    std::sort(out.begin(), out.end());
    return out;
}

TabletMap initial_cluster_map(bool hashed, const Ring& ring, const Replication& replication,
                              int64_t now_ms) {
    std::vector<Tablet> tablets;
    if (!hashed) {
        Tablet t;
        t.created_ms = now_ms;
        t.replicas = ring.replicas(ring.range_of(0), replication);
        tablets.push_back(std::move(t));
        return TabletMap::of(false, std::move(tablets)).value();
    }
    // Tablet i covers tokens (t[i-1], t[i]]: it starts at t[i-1] + 1. The
    // first covers every token up to t[0] and the last everything above
    // t[n-1]; both belong to the range that wraps around (ending at t[0]).
    const auto& tokens = ring.tokens();
    Tablet first;
    first.created_ms = now_ms;
    first.replicas = ring.replicas(0, replication);
    tablets.push_back(first);
    for (size_t i = 0; i < tokens.size(); ++i) {
        if (tokens[i].first == std::numeric_limits<int64_t>::max()) continue;
        if (i + 1 < tokens.size() && tokens[i + 1].first == tokens[i].first) continue;
        Tablet t;
        t.start = encode_token_prefix(tokens[i].first + 1);
        t.created_ms = now_ms;
        t.replicas = ring.replicas(i + 1 < tokens.size() ? i + 1 : 0, replication);
        tablets.push_back(std::move(t));
    }
    return TabletMap::of(true, std::move(tablets)).value();
}

}  // namespace tessel::cluster
