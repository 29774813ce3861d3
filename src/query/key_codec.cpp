#include "query/key_codec.h"

#include "partition/murmur3.h"
#include "partition/token.h"
#include "types/value.h"

namespace tessel::query {

int64_t partition_token(const std::vector<std::string>& components) {
    std::vector<std::string_view> views(components.begin(), components.end());
    return murmur3_token(serialize_partition_key(views));
}

Result<std::string> encode_partition_key(const KeyLayout& layout,
                                         const std::vector<std::string>& components) {
    if (components.size() != layout.partition_types.size()) {
        return Status::server("partition key has " + std::to_string(components.size()) +
                              " components, expected " +
                              std::to_string(layout.partition_types.size()));
    }
    std::vector<std::string_view> views(components.begin(), components.end());
    for (auto v : views) {
        if (v.empty()) return Status::invalid("Key may not be empty");
    }
    TESSEL_RETURN_IF_ERROR(check_partition_key_components(views));
    std::string out;
    if (layout.hashed) append_token_prefix(murmur3_token(serialize_partition_key(views)), &out);
    for (size_t i = 0; i < components.size(); ++i) {
        encode_key(*layout.partition_types[i], components[i], false, &out);
    }
    return out;
}

Result<std::vector<std::string>> decode_partition_key(const KeyLayout& layout,
                                                      std::string_view key) {
    if (layout.hashed) {
        if (key.size() < kTokenPrefixSize) return Status::server("truncated partition key");
        key.remove_prefix(kTokenPrefixSize);
    }
    std::vector<std::string> out;
    out.reserve(layout.partition_types.size());
    for (const auto& t : layout.partition_types) {
        TESSEL_ASSIGN_OR_RETURN(auto v, decode_key(*t, &key, false));
        out.push_back(std::move(v));
    }
    return out;
}

Result<int64_t> token_of_physical_key(const KeyLayout& layout, std::string_view key) {
    if (layout.hashed) return decode_token_prefix(key);
    TESSEL_ASSIGN_OR_RETURN(auto parts, decode_partition_key(layout, key));
    return partition_token(parts);
}

void append_clustering(const KeyLayout& layout, size_t index, std::string_view value,
                       std::string* out) {
    encode_key(*layout.clustering_types[index], value, layout.clustering_descending[index], out);
}

std::string encode_clustering(const KeyLayout& layout, const std::vector<std::string>& values) {
    std::string out;
    for (size_t i = 0; i < values.size() && i < layout.clustering_types.size(); ++i) {
        append_clustering(layout, i, values[i], &out);
    }
    return out;
}

Result<std::vector<std::string>> decode_clustering(const KeyLayout& layout,
                                                   std::string_view clustering) {
    std::vector<std::string> out;
    out.reserve(layout.clustering_types.size());
    for (size_t i = 0; i < layout.clustering_types.size(); ++i) {
        if (clustering.empty()) break;  // a prefix (static row or partial key)
        TESSEL_ASSIGN_OR_RETURN(auto v, decode_key(*layout.clustering_types[i], &clustering,
                                                   layout.clustering_descending[i]));
        out.push_back(std::move(v));
    }
    return out;
}

}  // namespace tessel::query
