// Key codec: how a row's primary key becomes the storage key and back.
//
// Physical partition key:
//   hash tables     [token: 8 bytes, sign-flipped big-endian][component...]
//   ordered tables  [component...]
// where each component is encode_key(type, value) (memcomparable, self-
// delimiting), so byte order is token order for hash tables and key order for
// ordered tables. The token is Cassandra's Murmur3 token of the serialized
// partition key (the bytes drivers hash for routing).
//
// Clustering: encode_key of each clustering column, in declaration order,
// DESC columns inverted. A prefix encodes the first N columns only; because
// the encoding is self-delimiting, a prefix of the encoded bytes is exactly
// the encoding of a prefix of the columns.
//
// Hidden components (write_sharding, time_bucket) follow the logical ones:
//   [token][component...][shard: 4 bytes BE]?[bucket: 8 bytes BE, sign flipped]?
// The token of such a physical partition is the Murmur3 token of the
// composite key (logical components, then the shard as an int, then the
// bucket as a bigint), so the shards and buckets of one logical partition
// spread over the token ring. The key with shard 0 and bucket 0 is the
// logical partition's *representative*: the read path names a logical
// partition by it (partition targets, paging states) and the sharded source
// (sharded_source.h) expands it to the physical partitions it stands for.
// CQL's token(pk) stays partition_token() of the logical components, which
// is what drivers compute for routing; the physical tokens only place the
// shards and buckets.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "types/cql_type.h"

namespace tessel::query {

struct KeyLayout {
    bool hashed = true;  // false: 'ordered' distribution
    std::vector<TypePtr> partition_types;
    std::vector<TypePtr> clustering_types;
    std::vector<bool> clustering_descending;  // same size as clustering_types
    int32_t shards = 0;                       // > 0: a hidden shard component
    int64_t bucket_width_ms = 0;              // > 0: a hidden time-bucket component
    int bucket_clustering = -1;               // clustering index of the bucketed column

    bool has_hidden() const { return shards > 0 || bucket_width_ms > 0; }
};

// The hidden components of one physical partition (0 when absent).
struct HiddenKey {
    int32_t shard = 0;
    int64_t bucket = 0;
};

// The Murmur3 token of a partition key given its components' wire bytes.
// Precondition: components.size() == layout.partition_types.size().
int64_t partition_token(const std::vector<std::string>& components);

// Physical partition key (for a layout with hidden components: the
// representative, shard 0 and bucket 0). Invalid when a component is empty ("Key may not be
// empty") or too long.
Result<std::string> encode_partition_key(const KeyLayout& layout,
                                         const std::vector<std::string>& components);

// The physical key of one shard/bucket of a logical partition (the hidden
// components are ignored when the layout has none).
Result<std::string> encode_physical_key(const KeyLayout& layout,
                                        const std::vector<std::string>& components,
                                        const HiddenKey& hidden);

// The hidden components of a physical key. Server_error on corrupt input.
Result<HiddenKey> decode_hidden_key(const KeyLayout& layout, std::string_view key);

// Inverse of encode_partition_key: the logical components' wire bytes (the
// hidden components are skipped). Server_error on
// corrupt input.
Result<std::vector<std::string>> decode_partition_key(const KeyLayout& layout,
                                                      std::string_view key);

// Token of a physical key of a hash table (its first 8 bytes); for ordered
// tables the token is recomputed from the decoded components.
Result<int64_t> token_of_physical_key(const KeyLayout& layout, std::string_view key);

// Clustering prefix of values.size() <= clustering_types.size() columns.
std::string encode_clustering(const KeyLayout& layout, const std::vector<std::string>& values);
// Appends one component (column `index`) to an encoded prefix.
void append_clustering(const KeyLayout& layout, size_t index, std::string_view value,
                       std::string* out);

// Decodes a full clustering key into every clustering column's wire bytes.
Result<std::vector<std::string>> decode_clustering(const KeyLayout& layout,
                                                   std::string_view clustering);

}  // namespace tessel::query
