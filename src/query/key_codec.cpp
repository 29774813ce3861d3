#include "query/key_codec.h"

#include "partition/murmur3.h"
#include "partition/token.h"
#include "types/value.h"

namespace tessel::query {

int64_t partition_token(const std::vector<std::string>& components) {
    std::vector<std::string_view> views(components.begin(), components.end());
    return murmur3_token(serialize_partition_key(views));
}

namespace {

std::string hidden_bytes(const KeyLayout& layout, const HiddenKey& h) {
    std::string out;
    if (layout.shards > 0) {
        const auto s = static_cast<uint32_t>(h.shard);
        for (int i = 3; i >= 0; --i)
            out.push_back(static_cast<char>((s >> (8 * i)) & 0xff));
    }
    if (layout.bucket_width_ms > 0) {
        const uint64_t b = static_cast<uint64_t>(h.bucket) ^ (uint64_t{1} << 63);
        for (int i = 7; i >= 0; --i)
            out.push_back(static_cast<char>((b >> (8 * i)) & 0xff));
    }
    return out;
}

// The hidden bytes as composite-key components (int shard, bigint bucket),
// sign bits restored, for the token.
std::vector<std::string> hidden_components(const KeyLayout& layout, const HiddenKey& h) {
    std::vector<std::string> out;
    if (layout.shards > 0) {
        std::string s;
        const auto v = static_cast<uint32_t>(h.shard);
        for (int i = 3; i >= 0; --i)
            s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
        out.push_back(std::move(s));
    }
    if (layout.bucket_width_ms > 0) {
        std::string s;
        const auto v = static_cast<uint64_t>(h.bucket);
        for (int i = 7; i >= 0; --i)
            s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace

Result<std::string> encode_partition_key(const KeyLayout& layout,
                                         const std::vector<std::string>& components) {
    return encode_physical_key(layout, components, HiddenKey{});
}

Result<std::string> encode_physical_key(const KeyLayout& layout,
                                        const std::vector<std::string>& components,
                                        const HiddenKey& hidden) {
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
    if (!layout.has_hidden()) {
        if (layout.hashed) {
            append_token_prefix(murmur3_token(serialize_partition_key(views)), &out);
        }
    } else if (layout.hashed) {
        const auto extra = hidden_components(layout, hidden);
        for (const auto& e : extra)
            views.emplace_back(e);
        append_token_prefix(murmur3_token(serialize_partition_key(views)), &out);
    }
    for (size_t i = 0; i < components.size(); ++i) {
        encode_key(*layout.partition_types[i], components[i], false, &out);
    }
    out += hidden_bytes(layout, hidden);
    return out;
}

Result<HiddenKey> decode_hidden_key(const KeyLayout& layout, std::string_view key) {
    HiddenKey h;
    if (!layout.has_hidden()) return h;
    if (layout.hashed) {
        if (key.size() < kTokenPrefixSize) return Status::server("truncated partition key");
        key.remove_prefix(kTokenPrefixSize);
    }
    for (const auto& t : layout.partition_types) {
        TESSEL_ASSIGN_OR_RETURN(auto v, decode_key(*t, &key, false));
        (void)v;
    }
    const size_t need = (layout.shards > 0 ? 4 : 0) + (layout.bucket_width_ms > 0 ? 8 : 0);
    if (key.size() != need) return Status::server("corrupt hidden partition key components");
    auto byte = [&](size_t i) { return static_cast<uint8_t>(key[i]); };
    size_t pos = 0;
    if (layout.shards > 0) {
        uint32_t s = 0;
        for (int i = 0; i < 4; ++i)
            s = (s << 8) | byte(pos++);
        h.shard = static_cast<int32_t>(s);
    }
    if (layout.bucket_width_ms > 0) {
        uint64_t b = 0;
        for (int i = 0; i < 8; ++i)
            b = (b << 8) | byte(pos++);
        h.bucket = static_cast<int64_t>(b ^ (uint64_t{1} << 63));
    }
    return h;
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
