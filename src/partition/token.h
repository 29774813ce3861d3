// Tokens and the partition-key bytes they are computed from.
//
// The bytes fed to the partitioner must be exactly what Cassandra (and the
// drivers' routing-key code) build, or token-aware routing and token() break.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace tessel {

// Largest serialized component (the CompositeType length field is 16 bits;
// Cassandra rejects longer partition keys).
inline constexpr size_t kMaxPartitionKeyComponentSize = 0xFFFF;

// The bytes of a partition key, given each component's native-protocol value
// in partition-key declaration order:
// - one component: its bytes, unchanged (no length prefix);
// - several (Cassandra CompositeType): per component a 2-byte big-endian
//   length, the bytes, then an end-of-component 0x00.
// Precondition: components is non-empty and each component is at most
// kMaxPartitionKeyComponentSize bytes (callers validate user keys first; see
// check_partition_key_components).
std::string serialize_partition_key(const std::vector<std::string_view>& components);

// Invalid when a component is too long to be part of a partition key, with
// Cassandra's wording ("Key length of N is longer than maximum of 65535").
Status check_partition_key_components(const std::vector<std::string_view>& components);

// Inverse of serialize_partition_key for a key of `component_count` components.
// The returned views point into `key`. Malformed input gives a Server_error
// (it can only come from corrupt stored data), never a crash.
Result<std::vector<std::string_view>> split_partition_key(std::string_view key,
                                                          size_t component_count);

// Storage key prefix for a token: 8 bytes big-endian with the sign bit flipped,
// so that comparing prefixes bytewise (memcmp, RocksDB's default comparator)
// orders them like the signed tokens.
inline constexpr size_t kTokenPrefixSize = 8;
std::string encode_token_prefix(int64_t token);
void append_token_prefix(int64_t token, std::string* out);
// Reads the token from the first 8 bytes of `bytes` (extra bytes are ignored).
// Server_error if fewer than 8 bytes are given.
Result<int64_t> decode_token_prefix(std::string_view bytes);

}  // namespace tessel
