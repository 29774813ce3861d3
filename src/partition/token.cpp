#include "partition/token.h"

namespace tessel {

std::string serialize_partition_key(const std::vector<std::string_view>& components) {
    if (components.size() == 1) return std::string(components[0]);
    std::string out;
    size_t total = 0;
    for (auto c : components)
        total += c.size() + 3;
    out.reserve(total);
    for (auto c : components) {
        // Clamp keeps the output self-consistent if the precondition is broken.
        const size_t n =
            c.size() < kMaxPartitionKeyComponentSize ? c.size() : kMaxPartitionKeyComponentSize;
        out.push_back(static_cast<char>((n >> 8) & 0xFF));
        out.push_back(static_cast<char>(n & 0xFF));
        out.append(c.data(), n);
        out.push_back('\0');
    }
    return out;
}

Status check_partition_key_components(const std::vector<std::string_view>& components) {
    for (auto c : components) {
        if (c.size() > kMaxPartitionKeyComponentSize) {
            return Status::invalid("Key length of " + std::to_string(c.size()) +
                                   " is longer than maximum of " +
                                   std::to_string(kMaxPartitionKeyComponentSize));
        }
    }
    return Status::ok();
}

Result<std::vector<std::string_view>> split_partition_key(std::string_view key,
                                                          size_t component_count) {
    if (component_count == 0) return Status::server("partition key with no components");
    if (component_count == 1) return std::vector<std::string_view>{key};
    std::vector<std::string_view> parts;
    size_t pos = 0;
    for (size_t i = 0; i < component_count; ++i) {
        if (key.size() - pos < 2) return Status::server("truncated composite partition key");
        const size_t n =
            (static_cast<unsigned char>(key[pos]) << 8) | static_cast<unsigned char>(key[pos + 1]);
        pos += 2;
        if (key.size() - pos < n + 1) return Status::server("truncated composite partition key");
        parts.push_back(key.substr(pos, n));
        pos += n;
        if (key[pos] != '\0') {
            return Status::server("bad end-of-component byte in composite partition key");
        }
        ++pos;
    }
    if (pos != key.size()) return Status::server("trailing bytes after composite partition key");
    return parts;
}

void append_token_prefix(int64_t token, std::string* out) {
    const uint64_t u = static_cast<uint64_t>(token) ^ 0x8000000000000000ULL;
    for (int shift = 56; shift >= 0; shift -= 8) {
        out->push_back(static_cast<char>((u >> shift) & 0xFF));
    }
}

std::string encode_token_prefix(int64_t token) {
    std::string out;
    out.reserve(kTokenPrefixSize);
    append_token_prefix(token, &out);
    return out;
}

Result<int64_t> decode_token_prefix(std::string_view bytes) {
    if (bytes.size() < kTokenPrefixSize) {
        return Status::server("token prefix needs 8 bytes, got " + std::to_string(bytes.size()));
    }
    uint64_t u = 0;
    for (size_t i = 0; i < kTokenPrefixSize; ++i)
        u = (u << 8) | static_cast<unsigned char>(bytes[i]);
    return static_cast<int64_t>(u ^ 0x8000000000000000ULL);
}

}  // namespace tessel
