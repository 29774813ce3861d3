// Murmur3Partitioner: the token of a partition key, bit-identical to
// Cassandra's org.apache.cassandra.dht.Murmur3Partitioner.
//
// Token-aware drivers compute the same function on the client to pick the
// replica that owns a key, so any deviation (even in a corner such as tail
// bytes >= 0x80) silently sends requests to non-owners.
#pragma once

#include <cstdint>
#include <string_view>

namespace tessel {

// The two 64-bit halves of MurmurHash3 x64_128 as Cassandra computes it
// (org.apache.cassandra.utils.MurmurHash.hash3_x64_128): blocks read
// little-endian, tail bytes sign-extended from int8 before they are shifted in.
struct Murmur3Hash128 {
    uint64_t h1 = 0;
    uint64_t h2 = 0;
};
Murmur3Hash128 murmur3_cassandra_x64_128(std::string_view bytes, uint64_t seed = 0);

// The token of a partition key given its serialized bytes (see
// serialize_partition_key in partition/token.h): the first half of the hash,
// as a signed int64, with INT64_MIN mapped to INT64_MAX (Cassandra's
// normalize(), since INT64_MIN is reserved as the ring's minimum token).
// An empty key maps to INT64_MIN without hashing, as in Cassandra.
int64_t murmur3_token(std::string_view partition_key_bytes);

}  // namespace tessel
