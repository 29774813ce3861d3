#include "partition/tablet_policy.h"

#include <algorithm>

namespace tessel {
namespace {

const char* split_reason(const TabletObservation& o, const TabletThresholds& t) {
    if (o.size_bytes > t.split_size_bytes) return "size";
    if (o.writes_per_sec > t.split_writes_per_sec) return "writes";
    if (o.bytes_per_sec > t.split_bytes_per_sec) return "bytes";
    return nullptr;
}

std::optional<std::string> split_key(const TabletMap& map, size_t i, const TabletObservation& o) {
    if (map.hashed()) return map.token_midpoint(i);
    if (!o.median_key) return std::nullopt;
    const auto end = map.end(i);
    if (*o.median_key <= map.at(i).start || (end && *o.median_key >= *end)) return std::nullopt;
    return o.median_key;
}

}  // namespace

TabletThresholds TabletThresholds::sane() const {
    TabletThresholds t = *this;
    t.split_writes_per_sec = std::max(0.0, t.split_writes_per_sec);
    t.split_bytes_per_sec = std::max(0.0, t.split_bytes_per_sec);
    t.merge_size_bytes = std::min(t.merge_size_bytes, t.split_size_bytes / 4);
    t.merge_writes_per_sec = std::clamp(t.merge_writes_per_sec, 0.0, t.split_writes_per_sec / 4);
    t.merge_bytes_per_sec = std::clamp(t.merge_bytes_per_sec, 0.0, t.split_bytes_per_sec / 4);
    t.min_age_ms = std::max<int64_t>(0, t.min_age_ms);
    t.max_tablets = std::max<size_t>(1, t.max_tablets);
    return t;
}

std::vector<TabletChange> plan_tablet_changes(const TabletMap& map,
                                              const std::vector<TabletObservation>& observations,
                                              const TabletThresholds& thresholds,
                                              size_t min_tablets, int64_t now_ms) {
    const TabletThresholds t = thresholds.sane();
    std::vector<TabletChange> out;
    const size_t n = std::min(map.size(), observations.size());
    std::vector<bool> splitting(n, false);
    size_t count = map.size();
    for (size_t i = 0; i < n && count < t.max_tablets; ++i) {
        if (map.at(i).transition) continue;  // a replica is moving: split later
        const char* why = split_reason(observations[i], t);
        if (!why) continue;
        auto key = split_key(map, i, observations[i]);
        if (!key) continue;
        splitting[i] = true;
        ++count;
        out.push_back({TabletChange::Kind::kSplit, i, std::move(*key), why});
    }
    for (size_t i = 0; i + 1 < n; ++i) {
        if (count <= min_tablets) break;
        if (splitting[i] || splitting[i + 1]) continue;
        if (map.at(i).transition || map.at(i + 1).transition) continue;
        const auto& a = observations[i];
        const auto& b = observations[i + 1];
        const bool old = now_ms - map.at(i).created_ms >= t.min_age_ms &&
                         now_ms - map.at(i + 1).created_ms >= t.min_age_ms;
        const bool idle = a.size_bytes + b.size_bytes < t.merge_size_bytes &&
                          a.writes_per_sec + b.writes_per_sec < t.merge_writes_per_sec &&
                          a.bytes_per_sec + b.bytes_per_sec < t.merge_bytes_per_sec;
        if (!old || !idle) continue;
        out.push_back({TabletChange::Kind::kMerge, i, {}, "idle"});
        --count;
        ++i;  // tablet i + 1 is taken
    }
    std::sort(out.begin(), out.end(),
              [](const TabletChange& x, const TabletChange& y) { return x.index < y.index; });
    return out;
}

Status apply_tablet_changes(TabletMap* map, const std::vector<TabletChange>& changes, int shards,
                            int64_t now_ms) {
    for (auto it = changes.rbegin(); it != changes.rend(); ++it) {
        if (it->kind == TabletChange::Kind::kSplit) {
            TESSEL_RETURN_IF_ERROR(map->split(it->index, it->split_key, shards, now_ms));
        } else {
            TESSEL_RETURN_IF_ERROR(map->merge(it->index, now_ms));
        }
    }
    return Status::ok();
}

}  // namespace tessel
