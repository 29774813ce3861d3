#include "storage/clustering_range.h"

#include <algorithm>

#include "storage/reconcile.h"

namespace tessel::storage {

std::optional<std::string> prefix_successor(std::string_view prefix) {
    std::string s(prefix);
    while (!s.empty() && static_cast<uint8_t>(s.back()) == 0xff)
        s.pop_back();
    if (s.empty()) return std::nullopt;
    s.back() = static_cast<char>(static_cast<uint8_t>(s.back()) + 1);
    return s;
}

bool ClusteringInterval::contains(std::string_view c) const {
    if (empty) return false;
    if (c < std::string_view(lo)) return false;
    return !hi || c < std::string_view(*hi);
}

ClusteringInterval to_interval(const ClusteringBound& start, const ClusteringBound& end) {
    ClusteringInterval iv;
    if (!start.prefix.empty()) {
        if (start.inclusive) {
            iv.lo = start.prefix;
        } else if (auto s = prefix_successor(start.prefix)) {
            iv.lo = std::move(*s);
        } else {
            iv.empty = true;  // nothing sorts after every key starting with 0xFF...
        }
    }
    if (!end.prefix.empty()) {
        if (end.inclusive) {
            iv.hi = prefix_successor(end.prefix);  // nullopt: unbounded
        } else {
            iv.hi = end.prefix;
        }
    }
    if (iv.hi && iv.lo >= *iv.hi) iv.empty = true;
    return iv;
}

RangeTombstoneIndex::RangeTombstoneIndex(const std::vector<RangeTombstone>& tombstones) {
    struct Span {
        ClusteringInterval iv;
        DeletionTime deletion;
    };
    std::vector<Span> spans;
    std::vector<std::string> points;
    for (const auto& rt : tombstones) {
        Span s{to_interval(rt.start, rt.end), rt.deletion};
        if (s.iv.empty || rt.deletion.is_live()) continue;
        points.push_back(s.iv.lo);
        if (s.iv.hi) points.push_back(*s.iv.hi);
        spans.push_back(std::move(s));
    }
    if (spans.empty()) return;
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    std::sort(spans.begin(), spans.end(),
              [](const Span& a, const Span& b) { return a.iv.lo < b.iv.lo; });

    // Sweep segments left to right keeping the spans that are open.
    std::vector<const Span*> open;
    size_t next = 0;
    for (const auto& p : points) {
        while (next < spans.size() && spans[next].iv.lo <= p)
            open.push_back(&spans[next++]);
        std::erase_if(open, [&](const Span* s) { return s->iv.hi && *s->iv.hi <= p; });
        DeletionTime d;
        for (const Span* s : open)
            d = max_deletion(d, s->deletion);
        starts_.push_back(p);
        deletions_.push_back(d);
    }
}

DeletionTime RangeTombstoneIndex::covering(std::string_view clustering) const {
    auto it = std::upper_bound(starts_.begin(), starts_.end(), clustering,
                               [](std::string_view c, const std::string& s) { return c < s; });
    if (it == starts_.begin()) return {};
    return deletions_[static_cast<size_t>(it - starts_.begin()) - 1];
}

}  // namespace tessel::storage
