#include "partition/tablet_map.h"

#include <algorithm>
#include <limits>

#include "common/record_codec.h"
#include "partition/token.h"

namespace tessel {
namespace {

// 1: start, shard, created; 2: and the replicas' host ids; 3: and the
// transition (a presence byte, then stage, from, to, started). A map with no
// transition is written as version 2, so nodes not yet upgraded read it.
constexpr uint8_t kFormatVersion = 3;
constexpr uint8_t kWithoutTransitions = 2;
constexpr size_t kHostIdSize = 16;
constexpr uint8_t kLastStage = static_cast<uint8_t>(TransitionStage::kCleanupTarget);

using Wide = __int128;
constexpr Wide kRingSize = Wide{1} << 64;
constexpr Wide kMinToken = std::numeric_limits<int64_t>::min();

// The first token a boundary admits ("" admits the smallest token).
Wide boundary_token(const std::string& boundary) {
    if (boundary.empty()) return kMinToken;
    return decode_token_prefix(boundary).value();
}

using record::put_u32;
using record::put_u64;
using record::Reader;

Status corrupt(const char* what) {
    return Status::server(std::string("Corrupted tablet map: ") + what);
}

// Why a tablet's replicas or transition cannot be, or null.
const char* bad_replicas(const Tablet& t) {
    if (t.replicas.size() > 255) return "too many replicas for a tablet";
    for (const auto& r : t.replicas) {
        if (r.size() != kHostIdSize) return "a replica is not a host id";
    }
    if (!t.transition) return nullptr;
    const auto& m = *t.transition;
    if (static_cast<uint8_t>(m.stage) > kLastStage) return "unknown transition stage";
    if (m.from.size() != kHostIdSize || m.to.size() != kHostIdSize) {
        return "a transition endpoint is not a host id";
    }
    const auto has = [&](const std::string& h) {
        return std::find(t.replicas.begin(), t.replicas.end(), h) != t.replicas.end();
    };
    if (!has(m.from)) return "a transition moves a replica the tablet does not have";
    if (has(m.to)) return "a transition moves a replica to a node that already has it";
    return nullptr;
}

Status in_transition(const char* what, size_t i, const Tablet& t) {
    return Status::invalid("tablet " + std::to_string(i) + " cannot " + what +
                           " while a replica moves (stage " +
                           std::string(stage_name(t.transition->stage)) + ")");
}

}  // namespace

std::string_view stage_name(TransitionStage stage) {
    switch (stage) {
        case TransitionStage::kWriteBothReadOld:
            return "write_both_read_old";
        case TransitionStage::kStreaming:
            return "streaming";
        case TransitionStage::kWriteBothReadNew:
            return "write_both_read_new";
        case TransitionStage::kCleanup:
            return "cleanup";
        case TransitionStage::kCleanupTarget:
            return "cleanup_target";
    }
    return "unknown";
}

std::vector<std::string> Tablet::read_replicas() const {
    std::vector<std::string> out = replicas;
    if (!transition) return out;
    const auto stage = transition->stage;
    if (stage == TransitionStage::kWriteBothReadNew || stage == TransitionStage::kCleanup) {
        std::replace(out.begin(), out.end(), transition->from, transition->to);
    }
    return out;
}

std::vector<std::string> Tablet::pending_replicas() const {
    if (!transition) return {};
    const auto stage = transition->stage;
    if (stage == TransitionStage::kWriteBothReadOld || stage == TransitionStage::kStreaming) {
        return {transition->to};
    }
    return {};
}

std::vector<std::string> Tablet::write_replicas() const {
    std::vector<std::string> out = read_replicas();
    for (auto& p : pending_replicas())
        out.push_back(std::move(p));
    if (transition && transition->stage == TransitionStage::kWriteBothReadNew) {
        out.push_back(transition->from);
    }
    return out;
}

TabletMap TabletMap::initial_hash(int count, int shards, int64_t now_ms) {
    count = std::max(count, 1);
    shards = std::max(shards, 1);
    TabletMap m;
    m.hashed_ = true;
    for (int i = 0; i < count; ++i) {
        Tablet t;
        if (i > 0) {
            const Wide tok = kMinToken + kRingSize * i / count;
            t.start = encode_token_prefix(static_cast<int64_t>(tok));
        }
        t.shard = i % shards;
        t.created_ms = now_ms;
        m.tablets_.push_back(std::move(t));
    }
    return m;
}

TabletMap TabletMap::initial_ordered(int64_t now_ms) {
    TabletMap m;
    m.hashed_ = false;
    m.tablets_.push_back(Tablet{"", 0, now_ms, {}, std::nullopt});
    return m;
}

Result<TabletMap> TabletMap::of(bool hashed, std::vector<Tablet> tablets) {
    if (tablets.empty() || !tablets[0].start.empty()) {
        return Status::invalid("a tablet map starts with the smallest key");
    }
    for (const auto& t : tablets) {
        if (const char* why = bad_replicas(t)) return Status::invalid(why);
    }
    for (size_t i = 1; i < tablets.size(); ++i) {
        if (tablets[i].start <= tablets[i - 1].start) {
            return Status::invalid("tablet boundaries out of order");
        }
        if (hashed && tablets[i].start.size() != kTokenPrefixSize) {
            return Status::invalid("hash tablet boundary is not a token");
        }
    }
    TabletMap m;
    m.hashed_ = hashed;
    m.tablets_ = std::move(tablets);
    return m;
}

size_t TabletMap::find(std::string_view key) const {
    // The last tablet whose start is <= key (tablets_[0].start is "").
    auto it = std::upper_bound(tablets_.begin(), tablets_.end(), key,
                               [](std::string_view k, const Tablet& t) { return k < t.start; });
    return it == tablets_.begin() ? 0 : static_cast<size_t>(it - tablets_.begin() - 1);
}

std::optional<std::string> TabletMap::end(size_t i) const {
    if (i + 1 >= tablets_.size()) return std::nullopt;
    return tablets_[i + 1].start;
}

std::optional<std::string> TabletMap::token_midpoint(size_t i) const {
    if (!hashed_ || i >= tablets_.size()) return std::nullopt;
    const Wide lo = boundary_token(tablets_[i].start);
    const auto e = end(i);
    const Wide hi = e ? boundary_token(*e) : kMinToken + kRingSize;
    const Wide mid = lo + (hi - lo) / 2;
    if (mid <= lo) return std::nullopt;
    return encode_token_prefix(static_cast<int64_t>(mid));
}

Status TabletMap::split(size_t i, const std::string& key, int shards, int64_t now_ms) {
    if (i >= tablets_.size()) return Status::invalid("no such tablet");
    if (tablets_[i].transition) return in_transition("split", i, tablets_[i]);
    const auto e = end(i);
    if (key <= tablets_[i].start || (e && key >= *e)) {
        return Status::invalid("split key outside the tablet's range");
    }
    shards = std::max(shards, 1);
    std::vector<size_t> load(static_cast<size_t>(shards), 0);
    for (const auto& t : tablets_) {
        if (t.shard >= 0 && t.shard < shards) ++load[static_cast<size_t>(t.shard)];
    }
    const auto least = std::min_element(load.begin(), load.end()) - load.begin();
    tablets_[i].created_ms = now_ms;
    Tablet right{key, static_cast<int32_t>(least), now_ms, tablets_[i].replicas, std::nullopt};
    tablets_.insert(tablets_.begin() + static_cast<std::ptrdiff_t>(i) + 1, std::move(right));
    return Status::ok();
}

Status TabletMap::merge(size_t i, int64_t now_ms) {
    if (i + 1 >= tablets_.size()) return Status::invalid("no neighbour to merge with");
    for (size_t j : {i, i + 1}) {
        if (tablets_[j].transition) return in_transition("merge", j, tablets_[j]);
    }
    if (tablets_[i].replicas != tablets_[i + 1].replicas) {
        return Status::invalid("neighbours on different replicas cannot merge");
    }
    tablets_.erase(tablets_.begin() + static_cast<std::ptrdiff_t>(i) + 1);
    tablets_[i].created_ms = now_ms;
    return Status::ok();
}

std::string TabletMap::encode() const {
    std::string out;
    const bool moving = std::any_of(tablets_.begin(), tablets_.end(),
                                    [](const Tablet& t) { return t.transition.has_value(); });
    const uint8_t version = moving ? kFormatVersion : kWithoutTransitions;
    out.push_back(static_cast<char>(version));
    out.push_back(hashed_ ? 1 : 0);
    put_u32(&out, static_cast<uint32_t>(tablets_.size()));
    for (const auto& t : tablets_) {
        put_u32(&out, static_cast<uint32_t>(t.start.size()));
        out.append(t.start);
        put_u32(&out, static_cast<uint32_t>(t.shard));
        put_u64(&out, static_cast<uint64_t>(t.created_ms));
        out.push_back(static_cast<char>(t.replicas.size()));
        for (const auto& r : t.replicas)
            out.append(r);
        if (version < 3) continue;
        out.push_back(t.transition ? 1 : 0);
        if (t.transition) {
            out.push_back(static_cast<char>(t.transition->stage));
            out.append(t.transition->from);
            out.append(t.transition->to);
            put_u64(&out, static_cast<uint64_t>(t.transition->started_ms));
        }
    }
    return out;
}

Result<TabletMap> TabletMap::decode(std::string_view bytes) {
    Reader r(bytes);
    uint8_t version = 0, hashed = 0;
    uint32_t count = 0;
    if (!r.u8(&version)) return corrupt("empty record");
    if (version < 1 || version > kFormatVersion) {
        return corrupt(("unknown format version " + std::to_string(version)).c_str());
    }
    if (!r.u8(&hashed) || hashed > 1 || !r.u32(&count)) return corrupt("truncated header");
    if (count == 0 || count > bytes.size()) return corrupt("bad tablet count");
    TabletMap m;
    m.hashed_ = hashed == 1;
    for (uint32_t i = 0; i < count; ++i) {
        Tablet t;
        uint32_t len = 0, shard = 0;
        uint64_t created = 0;
        if (!r.u32(&len) || !r.bytes(len, &t.start) || !r.u32(&shard) || !r.u64(&created)) {
            return corrupt("truncated tablet");
        }
        t.shard = static_cast<int32_t>(shard);
        t.created_ms = static_cast<int64_t>(created);
        uint8_t replicas = 0;
        if (version >= 2 && !r.u8(&replicas)) return corrupt("truncated tablet");
        for (uint8_t j = 0; j < replicas; ++j) {
            std::string host;
            if (!r.bytes(kHostIdSize, &host)) return corrupt("truncated replica");
            t.replicas.push_back(std::move(host));
        }
        uint8_t moving = 0;
        if (version >= 3 && !r.u8(&moving)) return corrupt("truncated tablet");
        if (moving > 1) return corrupt("bad transition flag");
        if (moving) {
            TabletTransition m;
            uint8_t stage = 0;
            uint64_t started = 0;
            if (!r.u8(&stage) || !r.bytes(kHostIdSize, &m.from) || !r.bytes(kHostIdSize, &m.to) ||
                !r.u64(&started)) {
                return corrupt("truncated transition");
            }
            m.stage = static_cast<TransitionStage>(stage);
            m.started_ms = static_cast<int64_t>(started);
            t.transition = std::move(m);
        }
        if (const char* why = bad_replicas(t)) return corrupt(why);
        if (i == 0 ? !t.start.empty() : t.start <= m.tablets_.back().start) {
            return corrupt("tablet boundaries out of order");
        }
        if (m.hashed_ && i > 0 && t.start.size() != kTokenPrefixSize) {
            return corrupt("hash tablet boundary is not a token");
        }
        m.tablets_.push_back(std::move(t));
    }
    if (!r.done()) return corrupt("trailing bytes");
    return m;
}

}  // namespace tessel
