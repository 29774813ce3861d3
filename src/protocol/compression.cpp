#include "protocol/compression.h"

#include <lz4.h>
#include <snappy-c.h>

#include <limits>

namespace tessel::protocol {
namespace {

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
        const char x = (a[i] >= 'A' && a[i] <= 'Z') ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
        if (x != b[i]) return false;
    }
    return true;
}

Result<std::string> lz4_compress(std::string_view body) {
    if (body.size() > static_cast<size_t>(LZ4_MAX_INPUT_SIZE)) {
        return Status::server("Frame body too large for lz4 (" + std::to_string(body.size()) +
                              " bytes)");
    }
    const int src_size = static_cast<int>(body.size());
    const int bound = LZ4_compressBound(src_size);
    std::string out(4 + static_cast<size_t>(bound), '\0');
    const auto n = static_cast<uint32_t>(body.size());
    out[0] = static_cast<char>(n >> 24);
    out[1] = static_cast<char>((n >> 16) & 0xFF);
    out[2] = static_cast<char>((n >> 8) & 0xFF);
    out[3] = static_cast<char>(n & 0xFF);
    const int written = LZ4_compress_default(body.data(), out.data() + 4, src_size, bound);
    if (written <= 0) return Status::server("lz4 compression failed");
    out.resize(4 + static_cast<size_t>(written));
    return out;
}

Result<std::string> lz4_decompress(std::string_view body, size_t max_size) {
    if (body.size() < 4) return Status::protocol("lz4 frame body shorter than its length prefix");
    const auto* p = reinterpret_cast<const unsigned char*>(body.data());
    const uint32_t n =
        (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
    if (n > max_size || n > static_cast<uint32_t>(std::numeric_limits<int>::max())) {
        return Status::protocol("lz4 frame claims " + std::to_string(n) +
                                " uncompressed bytes, over the maximum of " +
                                std::to_string(max_size));
    }
    const std::string_view block = body.substr(4);
    if (block.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
        return Status::protocol("lz4 frame body too large");
    }
    // LZ4 expands at most ~255x; a claim beyond that is a lie, caught before allocating.
    if (n / 255 > block.size() + 16) {
        return Status::protocol("Corrupt lz4 frame body: claimed size " + std::to_string(n) +
                                " is impossible for " + std::to_string(block.size()) +
                                " compressed bytes");
    }
    std::string out(n, '\0');
    const int got = LZ4_decompress_safe(block.data(), out.data(), static_cast<int>(block.size()),
                                        static_cast<int>(n));
    if (got < 0 || static_cast<uint32_t>(got) != n) {
        return Status::protocol("Corrupt lz4 frame body");
    }
    return out;
}

Result<std::string> snappy_compress_body(std::string_view body) {
    size_t len = snappy_max_compressed_length(body.size());
    std::string out(len, '\0');
    if (snappy_compress(body.data(), body.size(), out.data(), &len) != SNAPPY_OK) {
        return Status::server("snappy compression failed");
    }
    out.resize(len);
    return out;
}

Result<std::string> snappy_decompress_body(std::string_view body, size_t max_size) {
    size_t len = 0;
    if (snappy_uncompressed_length(body.data(), body.size(), &len) != SNAPPY_OK) {
        return Status::protocol("Corrupt snappy frame body");
    }
    if (len > max_size) {
        return Status::protocol("snappy frame claims " + std::to_string(len) +
                                " uncompressed bytes, over the maximum of " +
                                std::to_string(max_size));
    }
    // Validating first keeps a lying length header from costing an allocation.
    if (snappy_validate_compressed_buffer(body.data(), body.size()) != SNAPPY_OK) {
        return Status::protocol("Corrupt snappy frame body");
    }
    std::string out(len, '\0');
    if (snappy_uncompress(body.data(), body.size(), out.data(), &len) != SNAPPY_OK) {
        return Status::protocol("Corrupt snappy frame body");
    }
    out.resize(len);
    return out;
}

}  // namespace

std::optional<Compression> compression_from_name(std::string_view name) {
    if (iequals(name, "lz4")) return Compression::kLz4;
    if (iequals(name, "snappy")) return Compression::kSnappy;
    return std::nullopt;
}

std::string_view compression_name(Compression c) {
    switch (c) {
        case Compression::kLz4:
            return "lz4";
        case Compression::kSnappy:
            return "snappy";
        case Compression::kNone:
            return "";
    }
    return "";
}

Result<std::string> compress_body(Compression c, std::string_view body) {
    switch (c) {
        case Compression::kLz4:
            return lz4_compress(body);
        case Compression::kSnappy:
            return snappy_compress_body(body);
        case Compression::kNone:
            break;
    }
    return std::string(body);
}

Result<std::string> decompress_body(Compression c, std::string_view body, size_t max_size) {
    switch (c) {
        case Compression::kLz4:
            return lz4_decompress(body, max_size);
        case Compression::kSnappy:
            return snappy_decompress_body(body, max_size);
        case Compression::kNone:
            break;
    }
    if (body.size() > max_size) return Status::protocol("Frame body over the maximum size");
    return std::string(body);
}

}  // namespace tessel::protocol
