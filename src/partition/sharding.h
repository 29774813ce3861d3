// Write sharding: which hidden shard a write of a logical partition goes to.
//
// A write-sharded table stores each logical partition as N physical
// partitions, the partition key plus a hidden shard number in [0, N). The
// 'random' suffix spreads writes evenly (reads fan out to every shard); the
// 'calculated' suffix is a stable hash of chosen column values, so a read
// that knows those values can go to one shard.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace tessel {

// The shard of a row whose calculated-suffix columns hold `values` (their
// wire bytes, in the option's column order). Stable across restarts and
// machines (XXH64 with seed 0 over length-prefixed values), in [0, shards).
// Requires shards >= 1.
int32_t calculated_shard(const std::vector<std::string_view>& values, int32_t shards);

// A shard drawn uniformly from [0, shards) (thread-safe). Requires shards >= 1.
int32_t random_shard(int32_t shards);

}  // namespace tessel
