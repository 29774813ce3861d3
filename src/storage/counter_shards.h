// Counter shards: how a counter cell is stored on a cluster (Cassandra's
// counter context). A node that leads an increment adds it to its own shard
// (host id, clock, running total) and replicates the shard; replicas merge
// shards by keeping, per host, the one with the higher clock. Merging is
// idempotent and commutative, so hints, read repair and anti-entropy repair
// may deliver a shard any number of times without counting it twice; the
// counter's value is the sum of its shards.
//
// A single node keeps counter deltas (Cell::Kind::kCounterDelta), which
// add up; a delta merged with shards joins the zero-host shard.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessel::storage {

// One shard: 16-byte host id, then clock and value (big-endian int64).
constexpr size_t kCounterShardSize = 32;

struct CounterShard {
    int64_t clock = 0;
    int64_t value = 0;
};

// A cell value holding one shard.
std::string encode_counter_shard(std::string_view host_id, const CounterShard& shard);
// Whether `v` is a well-formed list of shards sorted by host id.
bool valid_counter_shards(std::string_view v);
// The union of two shard lists, the higher clock winning per host (then the
// higher value).
std::string merge_counter_shards(std::string_view a, std::string_view b);
// Adds a delta to the zero-host shard of `shards`.
std::string add_counter_delta(std::string_view shards, int64_t delta);
// The shard `host_id` holds in `shards`, if any.
std::optional<CounterShard> find_counter_shard(std::string_view shards, std::string_view host_id);
// The counter's value: the sum of its shards (wrapping, as Cassandra's long).
int64_t counter_shards_total(std::string_view shards);

}  // namespace tessel::storage
