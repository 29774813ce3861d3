// fuzz_compression: compressed frame bodies from a hostile client.
#include <string>
#include <string_view>

#include "protocol/compression.h"
#include "targets.h"

namespace tessel::fuzz {

void fuzz_compression(const uint8_t* data, size_t size) {
    using protocol::Compression;
    if (size < 1) return;
    const Compression c = (data[0] & 0x01) != 0 ? Compression::kSnappy : Compression::kLz4;
    // Limits from tiny to the default, so both sides of every size check are reached.
    static constexpr size_t kLimits[] = {0,    1,     16,      255,
                                         4096, 65536, 1 << 20, protocol::kDefaultMaxFrameSize};
    const size_t max_size = kLimits[(data[0] >> 1) % (sizeof(kLimits) / sizeof(kLimits[0]))];
    const std::string_view body(reinterpret_cast<const char*>(data) + 1, size - 1);

    auto plain = protocol::decompress_body(c, body, max_size);
    if (plain.is_ok() && plain->size() > max_size) {
        fuzz_fail("compression", "decompressed body exceeds max_size");
    }

    auto packed = protocol::compress_body(c, body);
    if (!packed.is_ok()) fuzz_fail("compression", "compress_body failed on a small body");
    auto back = protocol::decompress_body(c, *packed);
    if (!back.is_ok()) fuzz_fail("compression", "decompress_body rejects what compress_body wrote");
    if (*back != body) fuzz_fail("compression", "round trip changed the body");
}

}  // namespace tessel::fuzz
