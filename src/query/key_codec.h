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
// Later layouts (a hidden write-sharding or time-bucket component) append to
// the partition components; KeyLayout is where such a component would be
// described, so callers that only go through this codec need not change.
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
};

// The Murmur3 token of a partition key given its components' wire bytes.
// Precondition: components.size() == layout.partition_types.size().
int64_t partition_token(const std::vector<std::string>& components);

// Physical partition key. Invalid when a component is empty ("Key may not be
// empty") or too long.
Result<std::string> encode_partition_key(const KeyLayout& layout,
                                         const std::vector<std::string>& components);

// Inverse of encode_partition_key: the components' wire bytes. Server_error on
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
