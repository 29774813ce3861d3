#include "storage/counter_shards.h"

#include <algorithm>
#include <cstring>

#include "storage/row_codec.h"

namespace tessel::storage {
namespace {

constexpr size_t kHostSize = 16;

std::string_view host_of(std::string_view shards, size_t i) {
    return shards.substr(i * kCounterShardSize, kHostSize);
}

CounterShard shard_at(std::string_view shards, size_t i) {
    const std::string_view s = shards.substr(i * kCounterShardSize, kCounterShardSize);
    return CounterShard{decode_counter(s.substr(kHostSize, 8)),
                        decode_counter(s.substr(kHostSize + 8, 8))};
}

void append(std::string* out, std::string_view host, const CounterShard& s) {
    out->append(host.data(), host.size());
    out->append(encode_counter(s.clock));
    out->append(encode_counter(s.value));
}

bool newer(const CounterShard& a, const CounterShard& b) {
    return a.clock != b.clock ? a.clock > b.clock : a.value > b.value;
}

}  // namespace

std::string encode_counter_shard(std::string_view host_id, const CounterShard& shard) {
    std::string host(kHostSize, '\0');
    std::memcpy(host.data(), host_id.data(), std::min(host_id.size(), kHostSize));
    std::string out;
    append(&out, host, shard);
    return out;
}

bool valid_counter_shards(std::string_view v) {
    if (v.empty() || v.size() % kCounterShardSize != 0) return false;
    const size_t n = v.size() / kCounterShardSize;
    for (size_t i = 1; i < n; ++i) {
        if (!(host_of(v, i - 1) < host_of(v, i))) return false;
    }
    return true;
}

std::string merge_counter_shards(std::string_view a, std::string_view b) {
    const size_t na = a.size() / kCounterShardSize, nb = b.size() / kCounterShardSize;
    std::string out;
    out.reserve(a.size() + b.size());
    size_t i = 0, j = 0;
    while (i < na || j < nb) {
        if (j == nb || (i < na && host_of(a, i) < host_of(b, j))) {
            append(&out, host_of(a, i), shard_at(a, i));
            ++i;
        } else if (i == na || host_of(b, j) < host_of(a, i)) {
            append(&out, host_of(b, j), shard_at(b, j));
            ++j;
        } else {
            const CounterShard x = shard_at(a, i), y = shard_at(b, j);
            append(&out, host_of(a, i), newer(x, y) ? x : y);
            ++i;
            ++j;
        }
    }
    return out;
}

std::string add_counter_delta(std::string_view shards, int64_t delta) {
    const std::string zero(kHostSize, '\0');
    CounterShard s = find_counter_shard(shards, zero).value_or(CounterShard{});
    s.value = static_cast<int64_t>(static_cast<uint64_t>(s.value) + static_cast<uint64_t>(delta));
    // The zero host sorts first: replace or prepend it.
    std::string out;
    append(&out, zero, s);
    const bool had = !shards.empty() && host_of(shards, 0) == zero;
    out.append(shards.substr(had ? kCounterShardSize : 0));
    return out;
}

std::optional<CounterShard> find_counter_shard(std::string_view shards, std::string_view host_id) {
    const size_t n = shards.size() / kCounterShardSize;
    for (size_t i = 0; i < n; ++i) {
        if (host_of(shards, i) == host_id) return shard_at(shards, i);
    }
    return std::nullopt;
}

int64_t counter_shards_total(std::string_view shards) {
    uint64_t sum = 0;
    const size_t n = shards.size() / kCounterShardSize;
    for (size_t i = 0; i < n; ++i)
        sum += static_cast<uint64_t>(shard_at(shards, i).value);
    return static_cast<int64_t>(sum);
}

}  // namespace tessel::storage
