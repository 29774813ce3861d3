#include "partition/sharding.h"

#include <xxhash.h>

#include <random>
#include <string>

namespace tessel {

int32_t calculated_shard(const std::vector<std::string_view>& values, int32_t shards) {
    // Length prefixes keep ("ab", "c") and ("a", "bc") apart.
    std::string buf;
    for (auto v : values) {
        const uint32_t n = static_cast<uint32_t>(v.size());
        for (int i = 3; i >= 0; --i)
            buf.push_back(static_cast<char>((n >> (8 * i)) & 0xff));
        buf.append(v);
    }
    const uint64_t h = XXH64(buf.data(), buf.size(), 0);
    return static_cast<int32_t>(h % static_cast<uint64_t>(shards));
}

int32_t random_shard(int32_t shards) {
    thread_local std::mt19937_64 rng{std::random_device{}()};
    return static_cast<int32_t>(rng() % static_cast<uint64_t>(shards));
}

}  // namespace tessel
